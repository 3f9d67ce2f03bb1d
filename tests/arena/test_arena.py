"""``blot arena`` and ``blot solve``: duplicate deals, intervals, JSON, errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from random import Random

import pytest

from blot.arena import duplicate_deal, run, wilson
from blot.bazar import Game
from blot.bots import make_bot
from blot.play import play as play_game
from blot.records.bazar import record_of


def blot(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "blot", *args], capture_output=True, text=True, timeout=300)


def test_a_bot_against_itself_on_duplicate_deals_has_margin_zero() -> None:
    """The heuristic player is deterministic, so both tables of a duplicate deal mirror each other."""
    for number in range(30):
        assert duplicate_deal("bazar-blot", "heuristic", "heuristic", 5, number).margin == 0
    for number in range(10):
        assert duplicate_deal("3-5-8", "heuristic", "heuristic", 5, number).margin == 0


def test_runs_are_reproducible_and_count_every_table() -> None:
    first = list(run("bazar-blot", "heuristic", "basic", 40, 3))[-1]
    second = list(run("bazar-blot", "heuristic", "basic", 40, 3))[-1]
    assert first.margins == second.margins
    assert first.deals == 40 and first.tables == 80
    played = first.contracts["a"]["all"][0] + first.contracts["b"]["all"][0] + first.void
    assert played == 80
    lo, hi = first.ci95
    assert lo <= first.mean_margin <= hi


def test_arena_json_has_the_documented_keys() -> None:
    proc = blot("arena", "--a", "heuristic", "--b", "random", "--deals", "20", "--seed", "1", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    for key in ("a", "b", "deals", "mean_margin", "ci95", "contracts"):
        assert key in out
    assert out["deals"] == 20 and out["a"] == "heuristic"
    lo, hi = out["ci95"]
    assert 0 < lo <= out["mean_margin"] <= hi  # heuristic crushes random


def test_arena_358_and_bot_settings() -> None:
    proc = blot("arena", "--game", "3-5-8", "--a", "pimc:samples=2", "--b", "basic", "--deals", "2", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["a"] == "pimc:samples=2" and out["deals"] == 2 and out["tables"] == 6


def test_arena_games_reports_a_win_rate() -> None:
    proc = blot("arena", "--a", "heuristic", "--b", "random", "--games", "4", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["games"] == 4 and out["wins"] == 4 and out["win_rate"] == 1.0
    lo, hi = out["ci95"]
    assert 0 < lo < 1 and hi == 1.0


@pytest.mark.parametrize(("deals", "heading"), [("3", "3 duplicate deals,"), ("1", "1 duplicate deal,")])
def test_arena_prints_a_table(deals: str, heading: str) -> None:
    proc = blot("arena", "--a", "basic", "--b", "random", "--deals", deals)
    assert proc.returncode == 0, proc.stderr
    assert "mean margin" in proc.stdout and "95% interval" in proc.stdout
    assert heading in " ".join(proc.stdout.split())


@pytest.mark.parametrize(
    ("args", "text"),
    [
        (("--a", "nobody"), "unknown bot 'nobody'"),
        (("--a", "pimc:samples=2,foo=1"), "no setting 'foo'"),
        (("--a", "pimc:samples=x"), "samples is a whole number from 1 to 1000, not 'x'"),
        (("--deals", "0"), "greater than or equal to 1"),
        (("--game", "poker"), "unknown game"),
    ],
)
def test_arena_errors_are_one_line(args: tuple[str, ...], text: str) -> None:
    proc = blot("arena", *args)
    assert proc.returncode == 2  # a bad command line (README: exit codes)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and text in lines[0], proc.stderr


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert lo < 0.5 < hi and abs((lo + hi) / 2 - 0.5) < 1e-9
    assert wilson(0, 0) == (0.0, 1.0)


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    game = Game(dealer=0, rng=Random(6))
    play_game(game, [make_bot("bazar-blot", "heuristic", Random(s)) for s in range(4)])
    path = tmp_path_factory.mktemp("solve") / "game.json"
    path.write_text(json.dumps(record_of(game)))
    return path


def test_solve_json_values_every_legal_card(record_file: Path) -> None:
    from blot.cli.solve import position
    from blot.solver import solve

    record = json.loads(record_file.read_text())
    number = next(i for i, d in enumerate(record["deals"], 1) if d["play"])
    proc = blot("solve", str(record_file), "--deal", str(number), "--after", "5", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    deal = position(record, number, 5)
    assert out["to_act"] == deal.to_act and out["team"] == deal.to_act % 2  # type: ignore[operator]
    assert (
        set(out["values"]) == {str(c) for c in deal.legal_actions() if hasattr(c, "rank")}
        or deal.must_declare
    )
    assert out == solve(deal).to_json()
    assert len(deal.plays) == 5
    text = blot("solve", str(record_file), "--deal", str(number))
    assert text.returncode == 0 and "value" in text.stdout


@pytest.mark.parametrize(
    ("args", "text"),
    [(("--deal", "99"), "--deal must be"), (("--after", "32"), "--after must be")],
)
def test_solve_errors_are_one_line(record_file: Path, args: tuple[str, ...], text: str) -> None:
    proc = blot("solve", str(record_file), *args)
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and text in lines[0], proc.stderr


def test_worker_processes_give_the_same_result() -> None:
    one = list(run("3-5-8", "heuristic", "basic", 6, 9))[-1]
    two = list(run("3-5-8", "heuristic", "basic", 6, 9, jobs=2))[-1]
    assert one.margins == two.margins and one.tables == two.tables == 18


def test_bot_lists_keep_each_specs_settings_together() -> None:
    from blot.bots import split_bot_specs

    assert split_bot_specs("pimc:samples=5,seconds=0.5,basic") == ["pimc:samples=5,seconds=0.5", "basic"]
    assert split_bot_specs("random, basic") == ["random", "basic"]
    assert split_bot_specs("heuristic:boldness=1,pimc:samples=2") == [
        "heuristic:boldness=1",
        "pimc:samples=2",
    ]


def test_simulate_takes_bot_specs_with_several_settings() -> None:
    proc = blot("simulate", "--games", "1", "--bots", "pimc:samples=2,bid_samples=1,heuristic", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["bots"] == ["pimc:samples=2,bid_samples=1", "heuristic"]
