"""A server per test (TestClient: the app in a thread, its own SQLite file) and small clients."""

from __future__ import annotations

import functools
import json
import os
import shutil
import tempfile
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from blot.server.app import create_app
from blot.server.clock import ManualClock
from blot.server.config import ServerConfig

from .frames import check_shape

ACTIONS = {"call", "declare", "card", "give", "discard"}
FAST = {"bot_delay": 0.0, "trick_pause": 0.0, "deal_pause": 0.0, "password_profile": "CHEAPEST"}
PASSWORD = "correct horse battery"


@functools.cache
def _migrated() -> bytes:
    """An SQLite database migrated to the newest revision, made once per test process."""
    from blot.store import Store

    folder = Path(tempfile.mkdtemp(prefix="blot-migrated-"))
    try:
        store = Store.open(f"sqlite:///{folder / 'blot.sqlite3'}")
        store.close()  # the write-ahead log is checkpointed into the file and removed
        return (folder / "blot.sqlite3").read_bytes()
    finally:
        shutil.rmtree(folder)


def fresh_database(path: Path) -> None:
    """A new SQLite file at ``path`` whose schema is already the newest: a copy of one migrated
    once per test process, since running every Alembic migration cost each server a test starts
    0.7 s on a busy 2-core machine, against 0.06 s for a current schema (a server then migrates
    nothing). Migrating from nothing keeps its own test
    (test_store.py::test_migrations_create_exactly_the_schema) and runs in every test process."""
    if path.parent.is_dir() and not path.exists():
        path.write_bytes(_migrated())


def make_client(db: Path | str, **settings: Any) -> TestClient:
    """A server on the SQLite file ``db`` (a new file starts with the schema migrated), or on
    the database URL ``db`` (PostgreSQL)."""
    if not isinstance(db, str):
        fresh_database(db)
    url = db if isinstance(db, str) else f"sqlite:///{db}"
    config = ServerConfig(
        db_url=url, seed=settings.pop("seed", 7), **{"hosts": ("testserver",), **FAST, **settings}
    )
    return TestClient(create_app(config))


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "blot.sqlite3"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with make_client(db) as c:
        yield c


class Player:
    def __init__(self, client: TestClient, name: str) -> None:
        response = client.post("/api/players", json={"name": name})
        assert response.status_code == 200, response.text
        self.client = client
        self.id = response.json()["id"]
        self.token = response.json()["token"]
        self.headers = {"Authorization": f"Bearer {self.token}"}

    def post(self, path: str, body: Any = None, status: int = 200) -> Any:
        response = self.client.post(path, json=body if body is not None else {}, headers=self.headers)
        assert response.status_code == status, response.text
        return response.json()

    def table(self, game: str = "bazar-blot", **body: Any) -> str:
        return str(self.post("/api/tables", {"game": game, **body})["id"])


class Account(Player):
    """A player with an account (signed up; with ``token`` a guest's, that guest signs up)."""

    def __init__(
        self, client: TestClient, username: str, password: str = PASSWORD, token: str | None = None
    ) -> None:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = client.post(
            "/api/accounts", json={"username": username, "password": password}, headers=headers
        )
        assert response.status_code == 200, response.text
        self.client = client
        self.id = response.json()["id"]
        self.token = response.json()["token"]
        self.username = username
        self.password = password
        self.headers = {"Authorization": f"Bearer {self.token}"}


class Clock(ManualClock):
    """The server's clock that tests move (``ServerConfig.clock``): it reads what the test set,
    and the game's timers (turn timer, pauses, bot pace, grace) fire only when it is moved past
    them (:mod:`blot.server.clock`)."""

    def my_turn(self, sock: Socket, seat: int, table: Any) -> dict[str, Any]:
        """The view once ``seat`` must act (or the game is over), the clock moved past each timer
        the table waits on meanwhile (another seat's turn timer, a pause, a bot's pace). It moves
        only when a timer is set and the last frame read is still the table's (``table``: the
        hub's) latest: then that timer is what the table waits on, never the seat's own."""

        def ready(view: dict[str, Any] | None) -> bool:
            return view is not None and (
                view["game_over"] is not None or (view["to_act"] == seat and view["legal"] is not None)
            )

        while not ready(sock.view):
            if self.pending() and sock.n == table.n:
                self.advance()
            sock.receive()
        assert sock.view is not None
        return sock.view


@pytest.fixture
def player(client: TestClient) -> Player:
    return Player(client, "Ani")


class Socket:
    """A websocket client that checks the shape of every message and keeps them all."""

    def __init__(self, ws: Any, token: str | None, since: int | None = None) -> None:
        self.ws = ws
        self.frames: list[dict[str, Any]] = []
        self.view: dict[str, Any] | None = None
        self.chat: dict[str, Any] | None = None
        self.n = 0
        ws.send_text(json.dumps({"type": "hello", "token": token, "since": since}))

    def receive(self) -> dict[str, Any]:
        """The next message; the talk of the table sent on connecting (``chat_history``) is kept
        in :attr:`chat` and passed over."""
        message = self._next()
        if message["type"] == "chat_history":
            self.chat = message
            return self.receive()
        return message

    def _next(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.receive_text())
        check_shape(message)
        self.frames.append(message)
        if "view" in message:
            self.view = message["view"]
        if message["type"] in ("event", "snapshot"):
            self.n = message["n"]
        return message

    def joined(self) -> dict[str, Any]:
        """Wait for what a connection gets on opening a table: the snapshot, then the talk so far
        (``chat_history``, answered)."""
        while self.chat is None:
            message = self._next()
            if message["type"] == "chat_history":
                self.chat = message
        return self.chat

    def until(self, done: Callable[[dict[str, Any]], bool], limit: int = 5000) -> dict[str, Any]:
        for _ in range(limit):
            message = self.receive()
            if done(message):
                return message
        raise AssertionError("the expected message never came")

    def my_turn(self, seat: int) -> dict[str, Any]:
        """The view once this seat must act (or the game is over)."""

        def ready(v: dict[str, Any] | None) -> bool:
            return v is not None and (
                v["game_over"] is not None or (v["to_act"] == seat and v["legal"] is not None)
            )

        if not ready(self.view):
            self.until(lambda m: ready(m.get("view")))
        assert self.view is not None
        return self.view

    def play(self, seat: int, action: dict[str, Any]) -> dict[str, Any]:
        """Send an action and wait for its event (or the error it earned)."""
        self.act(**action)
        return self.until(
            lambda m: (
                m["type"] == "error"
                or (m["type"] == "event" and m["event"].get("seat") == seat and m["event"]["kind"] in ACTIONS)
            )
        )

    def send(self, **message: Any) -> None:
        self.ws.send_text(json.dumps(message))

    def act(self, **message: Any) -> None:
        self.send(type="action", **message)


def simple_choice(view: dict[str, Any], bid: bool = True) -> dict[str, Any]:
    """A legal action: open the bidding once (so that deals are played), else pass, declare the
    best, call the first strain, or play the first legal card."""
    legal = view["legal"]
    if legal["kind"] == "declare":
        return {"declare": "best"}
    if legal["kind"] == "call":
        calls = legal["calls"]
        if view["game"] == "3-5-8":
            return {"action": next((c for c in calls if c != "pass"), calls[0])}
        bids = [c for c in calls if c[0].isdigit()]
        if bid and bids and not any(c["seat"] == view["seat"] for c in view["calls"]):
            return {"action": bids[0]}
        return {"action": "pass" if "pass" in calls else calls[0]}
    return {"action": legal["cards"][0]}


def start_with_bots(player: Player, game: str = "bazar-blot", level: str = "basic", **body: Any) -> str:
    table = player.table(game, **body)
    player.post(f"/api/tables/{table}/fill-bots", {"level": level})
    player.post(f"/api/tables/{table}/start")
    return table


def play_out(
    client: TestClient,
    table: str,
    seated: dict[int, Player],
    choose: Callable[[dict[str, Any]], dict[str, Any]] = simple_choice,
) -> dict[str, Any]:
    """Every person in ``seated`` plays their seat (``choose``: their decisions) until the game is
    over; answers the last view, with ``game_over``."""
    from contextlib import ExitStack

    with ExitStack() as stack:
        socks = {
            seat: Socket(stack.enter_context(client.websocket_connect(f"/ws/tables/{table}")), p.token)
            for seat, p in seated.items()
        }
        ref = next(iter(socks.values()))
        need = 0

        def ready() -> bool:
            v = ref.view
            return ref.n >= need and v is not None and (v["game_over"] is not None or v["to_act"] in socks)

        while True:
            if not ready():
                ref.until(lambda m: ready())
            assert ref.view is not None
            if ref.view["game_over"] is not None:
                return ref.view
            seat = ref.view["to_act"]
            sock = socks[seat]
            if sock.n < ref.n:
                sock.until(lambda m, sock=sock: sock.n >= ref.n)
            view = sock.view
            assert view is not None
            if not (view["game_over"] is None and view["to_act"] == seat and view["legal"] is not None):
                # the seat's stand-in moved before its player was back (the other sockets saw the
                # turn before this one connected): let them catch up with what this one knows
                need = max(sock.n, ref.n + 1)
                continue
            reply = sock.play(seat, choose(view))
            assert reply["type"] == "event", reply
            need = reply["n"]


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Path | str]:
    """A test's server database: a SQLite file, and a fresh PostgreSQL database when a server is set
    (``BLOT_TEST_POSTGRES_URL``; with ``BLOT_REQUIRE_POSTGRES``, as in ``.ci/run``, its absence fails)."""
    if request.param == "sqlite":
        yield tmp_path / "blot.sqlite3"
        return
    if not os.environ.get("BLOT_TEST_POSTGRES_URL"):
        if os.environ.get("BLOT_REQUIRE_POSTGRES"):
            raise RuntimeError("BLOT_TEST_POSTGRES_URL is not set")
        pytest.skip("no PostgreSQL server (set BLOT_TEST_POSTGRES_URL; .ci/run starts one)")
    from .postgres import fresh_database

    with fresh_database() as url:
        yield url
