"""Bot programs at the tables of ``blot serve`` (``--bot NAME=COMMAND``, docs/bot-protocol.md):
offered as levels, never named by a client, and swapped for a built-in bot when they fail."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import Player, Socket, make_client, simple_choice

ROOT = Path(__file__).resolve().parents[2]
RULE = f"python3 {ROOT / 'examples' / 'bots' / 'rule_bot.py'}"
CRASH = f"{sys.executable} {ROOT / 'tests' / 'protocol' / 'testbot.py'} crash 2"


@pytest.fixture(autouse=True)
def bot_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "bots.log"
    monkeypatch.setenv("BLOT_BOT_LOG", str(path))
    return path


@pytest.fixture
def client(db: Path) -> Iterator[Any]:
    with make_client(db, bots={"rulepy": RULE, "crasher": CRASH}) as c:
        yield c


def test_programs_are_offered_as_bot_levels(client: Any) -> None:
    for game in client.get("/api/games").json()["games"]:
        assert game["bots"][-2:] == ["rulepy", "crasher"], game


def test_a_client_cannot_name_a_command(client: Any, player: Player) -> None:
    table = player.table("3-5-8")
    answer = player.post(f"/api/tables/{table}/bot", {"seat": 1, "level": "cmd:touch /tmp/x"}, status=400)
    assert answer == {
        "error": "malformed",
        "message": "bot programs are set up with blot serve --bot, not named here",
        "reason": "bot_programs_by_serve",
        "params": {},
    }


def _play(client: Any, player: Player, table: str, done: Any) -> Socket:
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        sock = Socket(ws, player.token)
        while not done(sock):
            view = sock.my_turn(0)
            if view["game_over"] is not None:
                break
            assert sock.play(0, simple_choice(view))["type"] == "event"
        return sock


def test_a_program_plays_a_whole_deal_at_a_table(client: Any, player: Player) -> None:
    table = player.table("3-5-8")
    player.post(f"/api/tables/{table}/fill-bots", {"level": "rulepy"})
    player.post(f"/api/tables/{table}/start")
    sock = _play(client, player, table, lambda s: s.view is not None and s.view["deal_number"] > 1)
    moves = [m["event"] for m in sock.frames if m["type"] == "event" and m["event"]["kind"] == "card"]
    assert {e["seat"] for e in moves if e["by"] == "bot"} == {1, 2}
    assert all(m["event"]["kind"] != "bot" or "reason" not in m["event"] for m in sock.frames if "event" in m)


def test_a_failed_program_is_replaced_by_a_built_in_bot_and_the_table_says_so(
    client: Any, player: Player
) -> None:
    table = player.table("3-5-8")
    player.post(f"/api/tables/{table}/bot", {"seat": 1, "level": "crasher"})
    player.post(f"/api/tables/{table}/bot", {"seat": 2, "level": "basic"})
    player.post(f"/api/tables/{table}/start")

    def swapped(sock: Socket) -> bool:
        return any(m["type"] == "event" and m["event"].get("reason") for m in sock.frames)

    sock = _play(client, player, table, swapped)
    event = next(m["event"] for m in sock.frames if m["type"] == "event" and m["event"].get("reason"))
    assert event["kind"] == "bot" and event["seat"] == 1 and event["level"] == "basic"
    assert event["reason"] == f"bot 'test crash' ({CRASH}) exited (status 3)"
    seats = client.get(f"/api/tables/{table}").json()["seats"]
    assert seats[1]["bot"] == "basic"
    sock = _play(client, player, table, lambda s: s.view is not None and s.view["deal_number"] > 1)
    assert sock.view is not None and sock.view["deal_number"] > 1  # the game went on


def blot_serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "blot", "serve", "--port", "1", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("option", "status", "sentence"),
    [
        ("nobody=no-such-program-blot-test", 1, "bot program 'no-such-program-blot-test' cannot start"),
        ("basic=python3 x.py", 2, "basic is the name of a built-in bot"),  # a bad option value: 2
        ("justaname", 2, "write NAME=COMMAND"),
        (f"chess={sys.executable} {ROOT / 'tests' / 'protocol' / 'testbot.py'} chess", 1, "plays none of"),
    ],
)
def test_serve_refuses_a_bot_program_that_cannot_play(
    option: str, status: int, sentence: str, tmp_path: Path
) -> None:
    """A value that is not NAME=COMMAND, or names a built-in bot, is a bad option value (exit 2, as
    the README says); a program that cannot start or plays neither game fails at start-up (1)."""
    proc = blot_serve("--data-dir", str(tmp_path), "--bot", option)
    assert proc.returncode == status and proc.stdout == ""
    assert proc.stderr.startswith("error: ") and sentence in proc.stderr, proc.stderr
    assert len(proc.stderr.splitlines()) == 1


def test_the_bot_log_is_in_the_servers_data_directory(tmp_path: Path) -> None:
    """Issue 22: the bot log lives in ``--data-dir`` (it went to the user's data directory),
    each line with the program and its seat (``-``: not in a game)."""
    command = f"{sys.executable} {ROOT / 'tests' / 'protocol' / 'testbot.py'} chess"
    elsewhere = tmp_path / "elsewhere"
    env = {k: v for k, v in os.environ.items() if k != "BLOT_BOT_LOG"}
    options = ["--port", "1", "--data-dir", str(tmp_path / "data"), "--bot", f"chess={command}"]
    proc = subprocess.run(
        [sys.executable, "-m", "blot", "serve", *options],
        capture_output=True,
        text=True,
        timeout=60,
        env={**env, "BLOT_DATA_DIR": str(elsewhere)},
    )
    assert proc.returncode == 1 and "plays none of" in proc.stderr, proc.stderr
    assert not (elsewhere / "bots.log").exists()
    lines = (tmp_path / "data" / "bots.log").read_text().splitlines()
    assert lines[0].endswith(f" start: {command}")
    assert lines[1].endswith(f" [{command}] seat -: this bot plays chess only"), lines
