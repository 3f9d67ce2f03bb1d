"""Issue 23, items 7 and 8: the examples of the README and of the guides (docs/players.md,
operators.md, developers.md) run as they say. Every command line they show
(the lines of its ``sh`` blocks, the ``$`` lines of its ``text`` blocks) is either run here, in
a folder of its own with the files it names, or listed in :data:`NOT_RUN` with the reason; a
new example must be one or the other. Where the README shows what a command prints, the output
must be that (terminal rules of any width, the prompt where the README's example stops); a
JSON comment (``# {"to_act": 1, …}``) gives the keys of the object printed. The ``python``
blocks run too.

The README had drifted: ``blot play bazar-blot --seed 7`` dealt another hand than it showed, the
help line of both games was missing, and its ``score-deal`` example was a failed contract."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from protocol.test_protocol import need_node

ROOT = Path(__file__).resolve().parents[1]
#: The README and the guides by audience, read as one text.
GUIDES = ("README.md", "docs/players.md", "docs/operators.md", "docs/developers.md")
README = "\n".join((ROOT / name).read_text(encoding="utf-8") for name in GUIDES)

#: The README's commands not run here, and why.
NOT_RUN = {
    "python3 -m venv .venv": "it makes the virtual environment CI makes itself",
    ". .venv/bin/activate": "it enters that environment",
    "python -m pip install -e '.[dev]'": "it installs blot",
    "python -m pip install .": "it installs blot, for a player",
    'python -m pytest -m "not slow" -n 2': "it runs these tests' fast tier",
    "python -m pytest -n 2": "it runs these tests",
    "blot serve": "a server runs until it is stopped (tests/server start it)",
    "blot serve --host 0.0.0.0 --port 8080": "a server runs until it is stopped",
    "blot serve --db postgresql+psycopg://blot:secret@localhost/blot": "a server, and PostgreSQL",
    "blot simulate --game bazar-blot --games 1000 --seed 1 --bots basic,random --records games.jsonl": (
        "a thousand games take about a minute"
    ),
    "blot simulate --game 3-5-8 --games 1000 --seed 1 --bots basic,random,random": "a minute too",
    "python benchmarks/solver.py": "a benchmark of minutes",
    "pip install -e '.[cluster]'": "it installs blot (tests/server/test_cluster.py runs the cluster)",
    "blot serve --db postgresql+psycopg://blot:secret@db/blot --broker redis://redis:6379/0 --port 8001": (
        "a server of a cluster (tests/server/test_cluster.py starts them)"
    ),
    "blot serve --db postgresql+psycopg://blot:secret@db/blot --broker redis://redis:6379/0 --port 8002": (
        "a server of a cluster"
    ),
    'kill -TERM "$PID_OF_8001"': "a rolling restart (tests/server/test_rolling_restart.py runs one)",
    "until curl -fs localhost:8001/health; do sleep 1; done": "a rolling restart waits for a server",
    'kill -TERM "$PID_OF_8002"': "a rolling restart",
    "blot puzzles mine games.jsonl": (
        "analysing three whole games takes a minute (tests/cli/test_cli_puzzles.py runs it)"
    ),
    "blot admin organizer EVENT_ID Ani": "EVENT_ID stands for an event's id (test_events.py runs it)",
}

#: What a command reads on its standard input (``blot play``: leave at the first question).
STDIN = {"play": "quit\n"}


def _examples() -> list[tuple[str, list[str], str | None]]:
    """(command line, the output the README shows after it, its JSON comment) for every command
    of the README, in order."""
    out: list[tuple[str, list[str], str | None]] = []
    for language, body in re.findall(r"```(\w*)\n(.*?)```", README, re.S):
        lines = body.splitlines()
        if language == "sh":
            for line in lines:
                command, _, comment = line.partition("   #")
                if command.strip():
                    shown = comment.strip() if comment.strip().startswith("{") else None
                    out.append((command.strip(), [], shown))
        elif language == "text" and lines and lines[0].startswith("$ "):
            out.append((lines[0][2:], lines[1:], None))
    return out


EXAMPLES = _examples()
RUN = [e for e in EXAMPLES if e[0] not in NOT_RUN]


def test_every_readme_command_is_run_or_says_why_not() -> None:
    commands = [command for command, _, _ in EXAMPLES]
    assert len(RUN) >= 15
    assert set(NOT_RUN) <= set(commands), set(NOT_RUN) - set(commands)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The files the examples name: ``examples/`` (the bot programs), ``game.json`` (the first
    four deals of a Bazar Blot game), ``games.jsonl`` (three games of ``blot simulate``),
    ``event.json`` (an exported event of one round) and a data directory whose database has an
    account ``Ani``."""
    from blot.accounts import username_key
    from blot.store import Store, default_url
    from blot.store import accounts as store

    work = tmp_path_factory.mktemp("readme")
    (work / "examples").symlink_to(ROOT / "examples")
    _blot(work, "simulate", "--games", "3", "--seed", "5", "--bots", "basic", "--records", "games.jsonl")
    game = json.loads((work / "games.jsonl").read_text().splitlines()[0])
    (work / "game.json").write_text(json.dumps({**game, "deals": game["deals"][:4]}))
    event = {
        "name": "Cup",
        "format": "swiss",
        "entries": [{"id": 1, "name": "Ani & Gohar"}, {"id": 2, "name": "Bagrat & Davit"}],
        "rounds": [{"number": 1, "tables": [{"entries": [1, 2], "result": [2, 0]}], "byes": []}],
    }
    (work / "event.json").write_text(json.dumps(event))
    db = Store.open(default_url(work / "data"))
    now = datetime.now(UTC)
    ani = db.write(lambda c: store.create(c, "Ani", username_key("Ani"), "not a hash", now))

    def talk(c: Any) -> None:  # the table and the message blot admin chat and chat-remove name
        from sqlalchemy import insert

        from blot.store.schema import chat_messages

        row = {"id": "kReQaQAC3HpX", "game": "3-5-8", "settings": {}, "public": True, "status": "waiting"}
        Store.insert_table(c, {**row, "host": ani, "seats": [], "last_seq": 0})
        said = {
            "table_id": "kReQaQAC3HpX",
            "player_id": ani,
            "room": "players",
            "kind": "phrase",
            "body": "gg",
        }
        c.execute(insert(chat_messages).values(id=12, seat=0, at=now, **said))

    db.write(talk)
    db.close()
    # the register's decisions 1 and 2 (2 a dishonour): ``blot admin forgive 2`` has its dishonour
    # whichever worker runs it and in whatever order (the README's own decisions come after)
    for extra in ([], ["--kind", "signals", "--account", "Ani", "--penance", "bar", "--until", "2027-01-01"]):
        made = _blot(work, "admin", "decision", "2026-01-01", "Cup", "Signals.", *extra)
        assert made.returncode == 0, made.stderr
    return work


def _blot(work: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "blot", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=work,
        env={
            **os.environ,
            "BLOT_DATA_DIR": str(work / "data"),
            "BLOT_BOT_LOG": str(work / "bots.log"),
            "COLUMNS": "100",
        },
    )


def _plain(text: str) -> str:
    """Output as the README shows it: a terminal rule of any width is one ``─`` a side."""
    return "\n".join(re.sub("─+", "─", line).rstrip() for line in text.splitlines())


@pytest.mark.parametrize(("command", "shown", "comment"), RUN, ids=[c for c, _, _ in RUN])
def test_a_readme_command_runs_and_prints_what_the_readme_shows(
    folder: Path, command: str, shown: list[str], comment: str | None
) -> None:
    if "cmd:node" in command:
        need_node()
    words = shlex.split(command)
    assert words[0] == "blot", command
    proc = _blot(folder, *words[1:], stdin=STDIN.get(words[1], ""))
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    if shown:  # up to the prompt where the README's example stops
        assert _plain(proc.stdout).startswith(_plain("\n".join(shown))), proc.stdout
    if comment is not None:
        keys = set(json.loads(comment.replace(", ...", "")))
        assert set(json.loads(proc.stdout)) == keys


@pytest.mark.parametrize("code", re.findall(r"```python\n(.*?)```", README, re.S))
def test_a_readme_python_example_runs(code: str) -> None:
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr


def test_the_readme_table_of_bots_names_every_level() -> None:
    """The README's table of computer players has a row for each level the games offer (the
    play options once listed only ``basic|random``)."""
    from blot.games import SPECS

    table = README[README.index("| bot | Bazar Blot | 3-5-8 |") :].split("\n\n", 1)[0]
    rows = re.findall(r"^\| `([a-z]+)` \|", table, re.M)
    assert rows == list(dict.fromkeys(level for game in SPECS.values() for level in game.bots))
