"""Issue 23, item 8: what a newcomer hit at the command line, each pinned: ``blot`` and ``blot
admin`` alone print their help; ``blot analyse`` and ``blot solve`` read the JSON lines of ``blot
simulate --records`` (``--record N``); long runs show a progress bar on a terminal only; an empty
place in a list of bots is refused; ``blot admin`` never creates the database it was pointed at."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from blot.analysis import analyse
from blot.cli.solve import position
from blot.games import names
from blot.records import replay_record
from blot.solver import solve

from .test_hardening import blot, one_error_line, run

BAZAR, TFE = names()


# --- help ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "commands"), [((), ["replay", "arena", "admin"]), (("admin",), ["list", "enable"])]
)
def test_a_command_group_alone_prints_its_help(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], commands: list[str]
) -> None:
    code, out, err = run(capsys, *args)
    assert code == 0 and err == ""
    assert out.startswith(f"Usage: {' '.join(('blot', *args))} [OPTIONS] COMMAND [ARGS]...")
    assert all(f"  {name} " in out for name in commands), out


# --- analyse and solve read JSON lines -------------------------------------------------------------


@pytest.fixture(scope="module")
def lines(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    """What ``blot simulate --records`` writes: two Bazar Blot games, one record per line."""
    path = tmp_path_factory.mktemp("records") / "games.jsonl"
    proc = blot("simulate", "--games", "2", "--seed", "3", "--records", str(path), "--json")
    assert proc.returncode == 0, proc.stderr
    return path, [json.loads(line) for line in path.read_text().splitlines()]


def test_analyse_reads_a_file_of_records_record_by_record(
    capsys: pytest.CaptureFixture[str], lines: tuple[Path, list[dict[str, Any]]]
) -> None:
    path, records = lines
    alone = [analyse(replay_record(r).game, 1).to_json() for r in records]
    code, out, err = run(capsys, "analyse", str(path), "--deal", "1", "--json")
    assert code == 0 and "error" not in err
    assert [json.loads(line) for line in out.splitlines()] == alone
    code, out, _ = run(capsys, "analyse", str(path), "--record", "2", "--deal", "1", "--json")
    assert code == 0 and json.loads(out) == alone[1]
    code, out, _ = run(capsys, "analyse", str(path), "--deal", "1")
    assert code == 0 and "Record 1 of 2" in out and "Record 2 of 2" in out
    code, out, err = run(capsys, "analyse", str(path), "--record", "3")
    assert code == 1 and one_error_line(err) == "error: --record 3: the file holds 2 records"
    code, out, err = run(capsys, "analyse", str(path), "--deal", "99")
    assert code == 1 and one_error_line(err).startswith("error: record 1: --deal must be from 1 to ")


def test_solve_reads_the_record_a_file_of_records_names(
    capsys: pytest.CaptureFixture[str], lines: tuple[Path, list[dict[str, Any]]]
) -> None:
    path, records = lines
    code, out, err = run(capsys, "solve", str(path))
    assert code == 1 and one_error_line(err) == "error: the file holds 2 records: say which with --record N"
    played = replay_record(records[1]).game.deals
    deal = next(n for n, d in enumerate(played, 1) if d.contract is not None)  # type: ignore[attr-defined]
    code, out, err = run(
        capsys, "solve", str(path), "--record", "2", "--deal", str(deal), "--after", "3", "--json"
    )
    assert code == 0, err
    assert json.loads(out) == solve(position(records[1], deal, 3)).to_json()
    code, out, err = run(capsys, "solve", str(path), "--record", "5")
    assert code == 1 and one_error_line(err) == "error: --record 5: the file holds 2 records"


# --- progress bars: on a terminal only -----------------------------------------------------------------


def _on_a_terminal(*args: str) -> tuple[int, str]:
    """``blot ARGS`` with standard output and error on a pseudo-terminal: (status, what it showed)."""
    main, child = pty.openpty()
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "blot", *args], stdin=subprocess.DEVNULL, stdout=child, stderr=child, env=env
    )
    os.close(child)
    shown = bytearray()
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the terminal closed: the command has ended
            break
        if not chunk:
            break
        shown += chunk
    os.close(main)
    return proc.wait(timeout=120), shown.decode(errors="replace")


PROGRESS = [
    (["simulate", "--game", TFE, "--games", "30", "--bots", "random"], f"{TFE} games"),
    (["arena", "--game", TFE, "--a", "random", "--b", "random", "--deals", "40"], "random vs random"),
]


@pytest.mark.parametrize(("args", "label"), PROGRESS, ids=["simulate", "arena"])
def test_a_long_run_shows_a_progress_bar_on_a_terminal_and_nothing_when_piped(
    args: list[str], label: str
) -> None:
    code, shown = _on_a_terminal(*args)
    assert code == 0, shown
    assert label in shown and "━" in shown, shown
    proc = blot(*args)
    assert proc.returncode == 0 and proc.stderr == ""
    assert label not in proc.stdout and "━" not in proc.stdout


def test_analyse_shows_its_progress_on_a_terminal(lines: tuple[Path, list[dict[str, Any]]]) -> None:
    path, _ = lines
    code, shown = _on_a_terminal("analyse", str(path), "--deal", "1", "--json")
    assert code == 0, shown
    assert "deals analysed" in shown, shown
    proc = blot("analyse", str(path), "--deal", "1", "--json")
    assert proc.returncode == 0 and "deals analysed" not in proc.stdout + proc.stderr


# --- a list of bots with an empty place -------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "option", "bots"),
    [
        (["simulate"], "--bots", "basic,"),
        (["simulate", "--game", TFE], "--bots", ",basic"),
        (["simulate"], "--bots", "pimc:samples=5,"),
        (["play", BAZAR], "--bots", "basic,,random"),
        (["arena", "--deals", "1"], "--a", "basic,"),
    ],
)
def test_a_list_of_bots_with_an_empty_place_is_refused(
    capsys: pytest.CaptureFixture[str], args: list[str], option: str, bots: str
) -> None:
    code, out, err = run(capsys, *args, option, bots)
    assert code == 2 and out == ""
    assert one_error_line(err) == f"error: {option}: {bots!r} has a comma with nothing on one side of it"


# --- blot admin opens only a database that exists ----------------------------------------------------


@pytest.mark.parametrize(
    "command", [["list"], ["reset-password", "Ani"], ["disable", "Ani"], ["enable", "Ani"]]
)
def test_admin_refuses_a_database_that_does_not_exist(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: list[str]
) -> None:
    typo, empty = tmp_path / "TYPO", tmp_path / "empty"
    empty.mkdir()
    cases = [
        (["--data-dir", str(typo)], f"the data directory {typo} does not exist (blot serve creates it)"),
        (
            ["--data-dir", str(empty)],
            f"there is no database {empty / 'blot.sqlite3'} (blot serve creates it)",
        ),
        (["--db", f"sqlite:///{empty / 'x.sqlite3'}"], f"there is no database {empty / 'x.sqlite3'}"),
    ]
    for where, sentence in cases:
        code, out, err = run(capsys, "admin", *command, *where)
        assert code == 1 and out == ""
        assert one_error_line(err).startswith(f"error: {sentence}"), err
    assert not typo.exists() and list(empty.iterdir()) == []


@pytest.mark.parametrize("command", [["admin", "list"], ["puzzles", "export"]])
def test_a_data_directory_whose_name_the_system_refuses_is_one_error_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: list[str]
) -> None:
    """Found by tests/fuzz/test_cli.py: a name too long for the file system made a traceback."""
    long = tmp_path / ("x" * 300)
    code, out, err = run(capsys, *command, "--data-dir", str(long))
    assert code == 1 and out == ""
    assert one_error_line(err) == f"error: the data directory {long} does not exist (blot serve creates it)"


def test_admin_opens_the_database_blot_serve_made(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from blot.store import Store, default_url

    Store.open(default_url(tmp_path)).close()  # what blot serve --data-dir does first
    assert run(capsys, "admin", "list", "--data-dir", str(tmp_path)) == (0, "no accounts yet\n", "")
