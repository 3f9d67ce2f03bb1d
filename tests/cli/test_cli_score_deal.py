"""``blot score-deal``: one real-table deal scored by the engine's rules (B-50 … B-55, B-72)."""

from __future__ import annotations

import json

import pytest

from .test_cli_bazar import assert_one_error_line, blot


@pytest.mark.parametrize(
    ("args", "made", "points"),
    [
        (
            [
                "--contract",
                "10H",
                "--team",
                "0",
                "--contra",
                "--card-points",
                "98,64",
                "--declarations",
                "2,0",
                "--belote",
                "1",
            ],
            True,
            [38, 2],
        ),
        (["--contract", "10H", "--team", "0", "--card-points", "98,"], False, [0, 26]),
        (
            ["--contract", "12D", "--team", "1", "--redouble", "--card-points", ",162", "--kapoot", "1"],
            True,
            [0, 73],
        ),
        (["--contract", "25S", "--team", "0", "--kapoot", "1"], False, [0, 50]),
        (["--penalty", "misplay", "--team", "1", "--declarations", "0,5"], None, [21, 0]),
        (["--penalty", "misdeal", "--team", "0"], None, [0, 5]),
        (["--void"], None, [0, 0]),
    ],
)
def test_score_deal_json(args: list[str], made: bool | None, points: list[int]) -> None:
    proc = blot("score-deal", *args, "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert (out["made"], out["points"]) == (made, points)


@pytest.mark.parametrize(
    ("args", "text"),
    [
        (
            ["--contract", "10NT", "--team", "0", "--card-points", "98,64", "--belote", "0"],
            "--belote: there is no belote",
        ),
        (["--contract", "7H", "--team", "0", "--card-points", "98,64"], "--contract: 7 is not a level"),
        (["--contract", "10H", "--team", "0", "--card-points", "100,100"], "must add up to 162"),
        (
            ["--contract", "10H", "--team", "0", "--card-points", "lots"],
            "--card-points: two whole numbers are needed, team 0 then team 1, e.g. 98,64 (or 98, or ,64), "
            "not 'lots'",
        ),
        (["--contract", "HH", "--team", "0", "--card-points", "98,64"], "is not a bid"),
        (["--contract", "²H", "--team", "0", "--card-points", "98,64"], "is not a bid"),
        (
            ["--contract", "10H", "--team", "0", "--card-points", "²,64"],
            "--card-points: two whole numbers are needed",
        ),
        (
            ["--contract", "10H", "--team", "0", "--card-points", "9" * 5000 + ",1"],
            "two whole numbers are needed",
        ),
        (["--card-points", "98,64"], "give --contract"),
    ],
)
def test_score_deal_refuses_inconsistent_input(args: list[str], text: str) -> None:
    """Flags that cannot be scored are a bad command line (exit 2, issue 39 item 6), each refusal
    naming its flag (tests/cli/test_bad_options.py has every flag)."""
    assert_one_error_line(blot("score-deal", *args), 2, text)


def test_score_deal_text() -> None:
    proc = blot("score-deal", "--contract", "10H", "--team", "0", "--card-points", "108,54")
    assert proc.returncode == 0 and proc.stdout.strip() == "made, points: team 0 21, team 1 5"
