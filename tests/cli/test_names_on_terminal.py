"""Issue 22: names from a record or the database never reach the terminal as control characters
(an escape code in a name cleared the screen and set the window's title), nor as rich markup (a
name ``[/]`` stopped ``blot replay`` with a traceback). Each command that prints such names is run
as a person would run it, with names that hold both, and its output is searched for any control
character; the names show with their escapes instead (``\\x1b``)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from random import Random

import pytest

from blot.bots import make_bot
from blot.games import spec
from blot.play import play
from blot.scoresheet import sheets
from blot.store import Store
from blot.store import accounts as store_accounts

#: Sets the window's title, clears the screen, and reverses the rest of the line.
TITLE, CLEAR, REVERSE = "\x1b]0;owned\x07", "\x1b[2J", "\u202e"
NAMES = [f"{TITLE}Ani", "[/]Bagrat", f"Go{CLEAR}har", f"Da{REVERSE}vit"]
SHOWN = ["\\x1b]0;owned\\x07Ani", "[/]Bagrat", "Go\\x1b[2Jhar", "Da\\u202evit"]
#: What a terminal would obey: C0 but the line end, DEL, C1, bidirectional controls.
CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def blot(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "blot", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "250"},
    )


def assert_clean(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    found = CONTROL.findall(proc.stdout + proc.stderr)
    assert not found, found
    return proc.stdout


def record_file(tmp_path: Path, game: str) -> Path:
    game_spec = spec(game)
    state = game_spec.new_game(rng=Random(3))
    play(state, [make_bot(game_spec, "random", Random(s)) for s in range(game_spec.seats)])
    path = tmp_path / f"{game}.json"
    path.write_text(json.dumps(game_spec.record_of(state, NAMES[: game_spec.seats])))
    return path


@pytest.mark.parametrize("game", ["bazar-blot", "3-5-8"])
def test_blot_replay_prints_names_without_control_characters(tmp_path: Path, game: str) -> None:
    out = assert_clean(blot("replay", str(record_file(tmp_path, game))))
    seats = spec(game).seats
    assert "Game over" in out
    if game == "bazar-blot":  # the teams in the last line
        assert f"{SHOWN[0]} & {SHOWN[2]}" in out or f"{SHOWN[1]} & {SHOWN[3]}" in out
    else:  # the columns of the score table
        assert all(name in out for name in SHOWN[:seats])


def test_blot_analyse_prints_names_without_control_characters(tmp_path: Path) -> None:
    out = assert_clean(blot("analyse", str(record_file(tmp_path, "3-5-8")), "--deal", "1"))
    assert "lost to double-dummy play" in out
    assert all(name in out for name in SHOWN[:3])


def test_blot_scoresheet_prints_team_and_editor_names_without_control_characters(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'blot.sqlite3'}"
    db = Store.open(url)
    try:
        body = {"teams": [f"{TITLE}Ani & Gohar", "[/]Bagrat"]}
        stored = db.write(lambda c: sheets.create(c, body, sheets.Editor("Referee")))
    finally:
        db.close()
    by = f"Ref{CLEAR}eree"
    first = assert_clean(
        blot("scoresheet", "--db", url, "--sheet", stored.id, "--by", by, stdin="10H 0 98,\nquit\n")
    )
    listed = assert_clean(blot("scoresheet", "--db", url, stdin="1\nhistory\nshow\nquit\n"))
    for out in (first, listed):
        assert "\\x1b]0;owned\\x07Ani & Gohar" in out and "[/]Bagrat" in out
    assert "by Ref\\x1b[2Jeree" in listed  # the history names who made each change


def test_blot_admin_lists_usernames_without_control_characters(tmp_path: Path) -> None:
    """A database written by hand (or before today's rules) may hold any username."""
    url = f"sqlite:///{tmp_path / 'blot.sqlite3'}"
    db = Store.open(url)
    try:
        at = datetime(2025, 1, 1, tzinfo=UTC)
        db.write(lambda c: store_accounts.create(c, f"{TITLE}Ani", "ani", "x", at))
    finally:
        db.close()
    out = assert_clean(blot("admin", "list", "--db", url))
    assert "\\x1b]0;owned\\x07Ani" in out
    out = assert_clean(blot("admin", "disable", "ani", "--db", url))
    assert out.startswith("\\x1b]0;owned\\x07Ani is disabled")
