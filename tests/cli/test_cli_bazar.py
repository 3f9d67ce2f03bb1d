"""The ``blot`` command for Bazar Blot: replay, simulate and play, exit codes and error lines."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from random import Random
from typing import Any

import pytest
from rich.console import Console

from blot.bazar import Game
from blot.bots import make_bot
from blot.cli import bazar as play_module
from blot.cli import terminal
from blot.play import play as play_game
from blot.records import replay_record
from blot.records.bazar import record_of


def blot(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "blot", *args], input=stdin, capture_output=True, text=True, timeout=120
    )


def assert_one_error_line(proc: subprocess.CompletedProcess[str], code: int, text: str) -> None:
    assert proc.returncode == code, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("error: ")
    assert text in lines[0]


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    rng = Random(5)
    game = Game(dealer=0, rng=Random(rng.getrandbits(32)))
    play_game(game, [make_bot("bazar-blot", "basic", Random(rng.getrandbits(32))) for _ in range(4)])
    path = tmp_path_factory.mktemp("records") / "game.json"
    path.write_text(json.dumps(record_of(game, ["Ani", "Bagrat", "Gohar", "Davit"])))
    return path


def test_replay_json_prints_the_format_object(record_file: Path) -> None:
    proc = blot("replay", str(record_file), "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == replay_record(json.loads(record_file.read_text())).to_json()


def test_replay_prints_a_readable_summary(record_file: Path) -> None:
    proc = blot("replay", str(record_file))
    assert proc.returncode == 0, proc.stderr
    assert "Game over" in proc.stdout
    assert "Ani & Gohar" in proc.stdout or "Bagrat & Davit" in proc.stdout


def test_replay_of_a_broken_record_exits_1_with_one_line(record_file: Path, tmp_path: Path) -> None:
    record = json.loads(record_file.read_text())
    record["deals"][0]["calls"][0] = "7H"
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(record))
    assert_one_error_line(blot("replay", str(broken)), 1, "deal 1, calls 1 (7H, seat 1): '7H' is not a call")


@pytest.mark.parametrize(
    ("content", "text"),
    [
        (None, "no such file"),
        ("{not json", "is not JSON"),
        ('{"game": "chess", "deals": []}', "unknown game 'chess'"),
        ('{"game": "bazar-blot"}', "the record has no key 'deals'"),
        ("[1, 2]", "a record must be an object"),
    ],
)
def test_replay_refuses_what_is_not_a_record(tmp_path: Path, content: str | None, text: str) -> None:
    path = tmp_path / "x.json"
    if content is not None:
        path.write_text(content)
    assert_one_error_line(blot("replay", str(path)), 1, text)


@pytest.mark.parametrize(
    ("args", "code", "text"),
    [
        (["replay"], 2, "Missing argument"),
        (["replay", "x.json", "--jsn"], 2, "No such option: --jsn"),
        (["simulate", "--game", "poker"], 2, "unknown game 'poker'"),
        (["simulate", "--bots", "genius"], 2, "unknown bot 'genius' for bazar-blot"),
        (["simulate", "--bots", "basic:depth=3"], 2, "bot basic has no setting 'depth'"),
        (["simulate", "--games", "0"], 2, "'--games': Input should be greater than or equal to 1"),
        (["simulate", "--games", "many"], 2, "--games"),
        (["play", "bridge"], 2, "unknown game 'bridge'"),
        (["play", "bazar-blot", "--seat", "7"], 2, "--seat is a seat from 0 to 3 in Bazar Blot, not 7"),
        (["frobnicate"], 2, "No such command"),
    ],
)
def test_bad_commands_and_options_give_one_line(args: list[str], code: int, text: str) -> None:
    assert_one_error_line(blot(*args), code, text)


def test_simulate_json_and_records(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    proc = blot(
        "simulate", "--games", "6", "--seed", "3", "--bots", "random,basic", "--records", str(out), "--json"
    )
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    for key in ("games", "deals", "seconds", "deals_per_second", "games_per_second", "deals_per_game"):
        assert key in summary
    assert summary["games"] == 6
    for key in ("contracts_made_percent", "kapoots", "contras", "void_deals"):
        assert key in summary
    lines = out.read_text().splitlines()
    assert len(lines) == 6
    deals = 0
    for line in lines:
        result = replay_record(json.loads(line)).to_json()
        assert result["finished"]
        deals += len(result["deals"])
    assert deals == summary["deals"]
    again = blot("simulate", "--games", "6", "--seed", "3", "--bots", "random,basic", "--json")
    assert {k: v for k, v in json.loads(again.stdout).items() if "second" not in k} == {
        k: v for k, v in summary.items() if "second" not in k
    }


def test_simulate_prints_a_table() -> None:
    proc = blot("simulate", "--games", "3", "--bots", "basic")
    assert proc.returncode == 0, proc.stderr
    for words in (
        "deals per second",
        "games per second",
        "contracts made",
        "kapoots",
        "contras",
        "void deals",
    ):
        assert words in proc.stdout


# --- blot play ---------------------------------------------------------------------------------


class Script:
    """Answers the prompts of ``blot play`` like a person: first something wrong, then legal moves."""

    def __init__(self) -> None:
        self.table: Any = None
        self.prompts: list[str] = []
        self.wrong_answers = ["9X", "AS AS"]

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if self.wrong_answers:
            return self.wrong_answers.pop()
        deal = self.table.game.deal
        if "declaration" in prompt:
            return "best"
        legal = deal.legal_actions()
        if "call" in prompt:
            return (
                "pass" if len(deal.calls) > 2 else str(legal[-2] if str(legal[-1]) == "contra" else legal[1])
            )
        return str(legal[-1])


def test_play_a_whole_game_against_basic_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    script = Script()
    original = play_module.BazarTable.run

    def run(table: Any) -> None:
        script.table = table
        original(table)

    monkeypatch.setattr(play_module.BazarTable, "run", run)
    console = Console(record=True, width=120, color_system=None)
    terminal.play("bazar-blot", 7, "basic", 0, ask=script, console=console)
    text = console.export_text()
    game = script.table.game
    assert game.is_over
    assert "Score sheet" in text and "card points" in text and "declarations" in text and "belote" in text
    assert f"{game.match_score}" in text and (
        "You and your partner win" in text or "The opponents win" in text
    )
    assert "Your hand: " in text and "Trick 1:" in text
    assert "'AS AS' is neither a call nor a card" in text  # refused, explained, asked again


def test_play_quits_cleanly_on_quit_and_end_of_input() -> None:
    proc = blot("play", "bazar-blot", "--seed", "1", stdin="quit\n")
    assert proc.returncode == 0 and "Goodbye" in proc.stdout and "Traceback" not in proc.stderr
    proc = blot("play", "bazar-blot", "--seed", "1", stdin="")
    assert proc.returncode == 1 and "the input ended" in proc.stdout and "Traceback" not in proc.stderr


def test_play_ends_cleanly_on_ctrl_c() -> None:
    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    console = Console(record=True, width=100, color_system=None)
    with pytest.raises(SystemExit) as e:
        terminal.play("bazar-blot", 1, "basic", 0, ask=interrupt, console=console)
    assert e.value.code == 130
    assert "Goodbye" in console.export_text()
