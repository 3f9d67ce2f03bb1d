"""Issue 28 in the terminal: ``blot puzzles mine FILE…`` keeps the puzzles of the finished games of
records (none of a game that is not over), ``blot puzzles export`` writes each as a JSON line that
``blot solve --deal N --after K`` confirms, and ``blot analyse`` gives each player's accuracy and
the bidding against par."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from random import Random
from typing import Any

from blot.analysis import analyse
from blot.bots import make_bot
from blot.games import spec
from blot.play import play, when_over
from blot.puzzles import mine

BAZAR = "bazar-blot"
KEYS = {"game", "record", "deal", "after", "seat", "solution", "values", "threshold", "rating"}


def blot(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "blot", *args], capture_output=True, text=True, timeout=600, input=stdin
    )


def games() -> tuple[Any, Any]:
    """A Bazar Blot game to 51 played to its end, and one stopped after its first deal."""
    game_spec = spec(BAZAR)
    over = game_spec.new_game(game_spec.rules(None, {"target": 51}), rng=Random(6))
    play(over, [make_bot(game_spec, "basic", Random(60 + s)) for s in range(4)], until=lambda g: g.is_over)
    cut = game_spec.new_game(rng=Random(8))
    play(cut, [make_bot(game_spec, "basic", Random(s)) for s in range(4)], until=when_over(cut.deal))
    return over, cut


def test_mine_export_and_solve_agree(tmp_path: Path) -> None:
    over, cut = games()
    names = ["Ani", "Bagrat", "Gohar", "Davit"]
    records = [spec(BAZAR).record_of(over, names), spec(BAZAR).record_of(cut, names)]
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    db = f"sqlite:///{tmp_path / 'blot.sqlite3'}"
    expected = mine(over, analyse(over))
    assert expected
    out = blot("puzzles", "mine", str(path), "--db", db)
    assert out.returncode == 0, out.stderr
    n = len(expected)
    assert out.stdout == f"{path}: 1 finished games, {n} puzzles ({n} new); 1 not over, not mined\n"
    again = blot("puzzles", "mine", str(path), "--db", db)
    assert again.stdout == f"{path}: 1 finished games, {n} puzzles (0 new); 1 not over, not mined\n"
    exported = blot("puzzles", "export", "--db", db)
    assert exported.returncode == 0, exported.stderr
    lines = [json.loads(line) for line in exported.stdout.splitlines()]
    assert [(x["deal"], x["after"]) for x in lines] == [(p.deal, p.after) for p in expected]
    for line, p in zip(lines, expected, strict=True):
        assert set(line) >= KEYS
        assert line["record"]["players"] == ["Player 1", "Player 2", "Player 3", "Player 4"]
        assert line["record"]["deals"] == records[0]["deals"]
        assert line["solution"] == [c.text for c in p.solution] and line["threshold"] == 10
    for line in lines[:2]:  # tests/analysis/test_learn.py solves every one in the process
        record = tmp_path / "one.json"
        record.write_text(json.dumps(line["record"]))
        where = ("--deal", str(line["deal"]), "--after", str(line["after"]))
        solved = blot("solve", str(record), *where, "--json")
        assert solved.returncode == 0, solved.stderr
        values = json.loads(solved.stdout)["values"]
        # blot solve counts the card points still to take; the puzzle the deal's whole
        offset = {line["values"][c] - v for c, v in values.items()}
        assert len(offset) == 1 and set(values) == set(line["values"])
        best = max(values.values())
        assert sorted(c for c, v in values.items() if v == best) == sorted(line["solution"])
    assert blot("puzzles", "export", "--db", db, "--game", "3-5-8").stdout == ""
    bad = blot("puzzles", "export", "--db", db, "--game", "chess")
    assert bad.returncode == 2 and bad.stderr == "error: unknown game 'chess': use bazar-blot or 3-5-8\n"
    missing = blot("puzzles", "mine", str(tmp_path / "nothing.json"), "--db", db)
    assert missing.returncode == 1 and missing.stderr == f"error: {tmp_path / 'nothing.json'}: no such file\n"


def test_analyse_gives_accuracy_and_the_bidding_against_par(tmp_path: Path) -> None:
    over, cut = games()
    path = tmp_path / "over.json"
    path.write_text(json.dumps(spec(BAZAR).record_of(over, ["Ani", "Bagrat", "Gohar", "Davit"])))
    data = json.loads(blot("analyse", str(path), "--json").stdout)
    found = analyse(over).accuracy
    assert found is not None and data["accuracy"] == [a.to_json() for a in found]
    assert all(d["bidding"]["par"]["calls"] for d in data["deals"])
    text = blot("analyse", str(path)).stdout
    assert f"Ani {found[0].accuracy:.1f}" in text and "par: " in text
    cut_path = tmp_path / "cut.json"
    cut_path.write_text(json.dumps(spec(BAZAR).record_of(cut)))
    assert json.loads(blot("analyse", str(cut_path), "--json").stdout)["accuracy"] is None
    assert "Accuracy" not in blot("analyse", str(cut_path)).stdout
