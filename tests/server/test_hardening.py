"""Issue 11, server items 1-7: no request crashes anything, no client can exhaust the server.
Each test is named after the item it pins."""

from __future__ import annotations

import itertools
import json
import logging
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.exc import OperationalError

from blot.server import turns
from blot.server.jsonin import MAX_DEPTH

from .conftest import Clock, Player, Socket, make_client, simple_choice, start_with_bots


def wait_until(done: Callable[[], bool], seconds: float = 30.0) -> None:
    """Poll until ``done()`` (the server runs in another thread); fail after ``seconds``."""
    end = time.monotonic() + seconds
    while not done():
        if time.monotonic() > end:
            raise AssertionError("the server never got there")
        time.sleep(0.02)


# --- item 1: request bodies are capped on every route ----------------------------------------------


@pytest.mark.parametrize(
    "path", ["/api/players", "/api/tables", "/api/tables/x/sit", "/api/scoresheets", "/api/me"]
)
def test_item1_a_body_over_the_cap_is_refused_413_before_it_is_read(client: Any, path: str) -> None:
    method = client.put if path == "/api/me" else client.post
    big = b'{"name": "' + b"x" * 20_000 + b'"}'
    response = method(path, content=big, headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert response.json() == {
        "error": "too_large",
        "message": "a request body has at most 16384 bytes",
        "reason": "body_too_large",
        "params": {"n": "16384"},
    }


def test_item1_a_streamed_body_without_length_is_counted(client: Any) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"name": "'
        for _ in range(100):
            yield b"x" * 1000  # 100 KB with no Content-Length (chunked)
        yield b'"}'

    response = client.post("/api/players", content=chunks())
    assert response.status_code == 413 and response.json()["error"] == "too_large"
    small = client.post("/api/players", content=iter([b'{"name": ', b'"Ani"}']))
    assert small.status_code == 200 and small.json()["name"] == "Ani"


@pytest.mark.parametrize("length", [b"99999999", b"\xb2", b"9" * 5000, b"-1", b"abc"])
def test_item1_a_lying_or_bad_content_length_is_refused(client: Any, length: bytes) -> None:
    """``\xb2`` is '²' (Latin-1): a digit to ``str.isdigit`` that ``int`` refuses."""
    response = client.post("/api/players", content=b"{}", headers={"content-length": length})
    assert response.status_code == 413 and response.json()["error"] == "too_large"


# --- item 2: wrong types never reach a 500; a crash answers JSON and logs one line ----------------


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"game": []}, "unknown game []: use bazar-blot or 3-5-8"),
        ({"game": {"a": 1}}, "unknown game {'a': 1}: use bazar-blot or 3-5-8"),
        ({"game": "bazar-blot", "ruleset": []}, None),
        ({"game": "bazar-blot", "options": []}, None),
        ({"game": "bazar-blot", "options": {"target": []}}, None),
        ({"game": "bazar-blot", "timer": "5"}, "the turn timer is a number of seconds from 0 (none) to 600"),
        ({"game": "3-5-8", "public": "yes"}, "public is true or false"),
    ],
)
def test_item2_wrong_types_in_a_table_are_a_400(
    client: Any, player: Player, body: dict[str, Any], message: str | None
) -> None:
    answer = player.post("/api/tables", body, status=400)
    assert answer["error"] == "malformed"
    if message is not None:
        assert answer["message"] == message


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/players", {"name": ["Ani"]}),
        ("/api/players", []),
        ("/api/players", "Ani"),
        ("/api/players", None),
        ("/api/tables/x/bot", {"seat": "1", "level": 5}),
    ],
)
def test_item2_bodies_of_the_wrong_shape_are_a_400(client: Any, player: Player, path: str, body: Any) -> None:
    response = client.post(path, content=json.dumps(body), headers=player.headers)
    assert response.status_code in (400, 404), response.text
    assert set(response.json()) >= {"error", "message"}


def test_item2_an_unexpected_error_answers_json_500_and_logs_one_line(
    db: Path, caplog: pytest.LogCaptureFixture
) -> None:
    client = make_client(db)

    @client.app.get("/api/boom")
    async def boom() -> None:
        raise RuntimeError("a bug\nover two lines")

    with client, caplog.at_level(logging.INFO, logger="blot.server"):
        response = client.get("/api/boom")
    assert response.status_code == 500
    body = response.json()
    assert body["error"] == "internal" and "Traceback" not in response.text and "a bug" not in response.text
    error_id = body["message"].split("error ")[1].split(")")[0]
    lines = [r for r in caplog.records if r.name == "blot.server" and r.levelno >= logging.WARNING]
    assert len(lines) == 1 and error_id in lines[0].getMessage() and lines[0].exc_info is None
    assert "RuntimeError: a bug over two lines" in lines[0].getMessage()


def test_item2_framework_errors_have_the_usual_shape(client: Any) -> None:
    assert client.get("/api/nothing").json() == {
        "error": "not_found",
        "message": "no such page or API route",
        "reason": "no_such_route",
        "params": {},
    }
    assert client.delete("/api/players").json()["error"] == "malformed"
    assert client.get("/api/tables/x/record?download=maybe").json()["error"] == "malformed"


# --- item 3: websocket messages nested deep get a malformed error frame ----------------------------


def _deep(levels: int) -> str:
    return "[" * levels + "]" * levels


@pytest.mark.parametrize("levels", [MAX_DEPTH + 1, 1800])
def test_item3_a_deep_hello_gets_an_error_frame(client: Any, player: Player, levels: int) -> None:
    table = player.table()
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_text('{"type": "hello", "token": null, "since": ' + _deep(levels) + "}")
        error = json.loads(ws.receive_text())
    assert (error["type"], error["code"]) == ("error", "malformed")
    assert error["reason"] in ("json_depth", "json_needed") and error["params"]["what"] == "a message"
    assert error["message"] in (
        f"a message is nested at most {MAX_DEPTH} levels deep",
        "a message must be JSON",
    )


def test_item3_a_deep_action_gets_an_error_frame_and_the_socket_lives(client: Any, player: Player) -> None:
    table = start_with_bots(player)
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        sock = Socket(ws, player.token)
        view = sock.my_turn(0)
        ws.send_text('{"type": "action", "id": 3, "action": ' + _deep(1900) + "}")
        error = sock.until(lambda m: m["type"] == "error")
        assert error["code"] == "malformed" and "id" not in error  # no id can be read from it
        assert error["message"] == f"a message is nested at most {MAX_DEPTH} levels deep"
        answer = sock.play(0, simple_choice(view))
        assert answer["type"] == "event"


def test_item3_deep_http_bodies_are_a_400(client: Any) -> None:
    response = client.post("/api/players", content=_deep(5000))
    assert response.status_code == 400
    assert response.json()["message"] == f"the request body is nested at most {MAX_DEPTH} levels deep"
    sheet = client.post("/api/scoresheets", content=_deep(5000))
    assert sheet.status_code == 422 and sheet.json()["field"] == "body"


# --- item 4: bot levels from clients are bounded; bots think apart, with a per-move cap ------------


@pytest.mark.parametrize(
    ("level", "message"),
    [
        (
            "pimc:samples=1000000,seconds=100000",
            "bot pimc: samples is a whole number from 1 to 1000, not '1000000'",
        ),
        ("pimc:seconds=inf", "bot pimc: seconds is above 0, at most 60, not 'inf'"),
        ("pimc:seconds=nan", "bot pimc: seconds is above 0, at most 60, not 'nan'"),
        ("pimc:samples=500", "bot pimc: samples is at most 100 at a web table, not 500"),
        ("pimc:seconds=10", "bot pimc: seconds is at most 3 at a web table, not 10"),
        ("pimc:bidding=pimc,bid_samples=50", "bot pimc: bid_samples is at most 16 at a web table, not 50"),
        ("heuristic:boldness=1e308", "bot heuristic: boldness is a number from -10 to 10, not '1e308'"),
        ("genius", "unknown bot 'genius' for bazar-blot: choose from basic, expert, heuristic, pimc, random"),
        ("x" * 300, "a bot is written NAME[:key=value,...] in at most 200 characters"),
    ],
)
def test_item4_web_tables_accept_bounded_bot_levels_only(player: Player, level: str, message: str) -> None:
    table = player.table()
    for path, body in (("fill-bots", {"level": level}), ("bot", {"seat": 1, "level": level})):
        answer = player.post(f"/api/tables/{table}/{path}", body, status=400)
        assert (answer["error"], answer["message"]) == ("malformed", message)
        assert answer["reason"].startswith(("bot_", "unknown_bot")), answer  # said in the reader's language
    seats = player.client.get(f"/api/tables/{table}").json()["seats"]
    assert [s["bot"] for s in seats] == [None, None, None, None]  # nothing changed
    player.post(f"/api/tables/{table}/fill-bots", {"level": "pimc:samples=20,seconds=0.5"})


def test_item4_database_work_does_not_wait_for_thinking_bots(client: Any, player: Player) -> None:
    """Every bot thread busy: players, tables and listings still answer (reads have their own pool)."""
    release = threading.Event()
    busy = [turns.BOT_THREADS.submit(release.wait, 30) for _ in range(turns.BOT_THREADS._max_workers)]
    try:
        started = time.monotonic()
        friend = Player(client, "Boris")
        table = friend.table("3-5-8")
        assert client.get("/api/tables").status_code == 200
        assert client.get(f"/api/tables/{table}").json()["id"] == table
        assert time.monotonic() - started < 20  # generous: the point is that it answers at all
    finally:
        release.set()
        for job in busy:
            job.result()


def test_item4_a_bot_that_thinks_too_long_gets_the_automatic_move(
    db: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from blot.bots.tfe_pimc import PimcBot

    release = threading.Event()

    def stuck(self: Any, view: Any) -> Any:
        release.wait(20)
        raise AssertionError("never asked again")

    monkeypatch.setattr(PimcBot, "choose", stuck)
    with make_client(db, bot_move_seconds=0.3) as client, caplog.at_level(logging.WARNING):
        player = Player(client, "Ani")
        table = player.table("3-5-8")
        player.post(f"/api/tables/{table}/bot", {"seat": 1, "level": "pimc"})
        player.post(f"/api/tables/{table}/bot", {"seat": 2, "level": "random"})
        player.post(f"/api/tables/{table}/start")
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            sock = Socket(ws, player.token)
            while True:
                view = sock.my_turn(0)
                moved = [m for m in sock.frames if m["type"] == "event" and m["event"].get("seat") == 1]
                if moved:
                    break
                sock.play(0, simple_choice(view))
        release.set()
    assert moved[0]["event"]["by"] == "bot"
    assert any("had no move after 0 s; moving automatically" in r.getMessage() for r in caplog.records)


# --- item 5: table lifetimes --------------------------------------------------------------------------


def test_item5_finished_tables_nobody_watches_leave_memory(client: Any, player: Player) -> None:
    hub = client.app.state.hub
    tables = [player.table("3-5-8") for _ in range(3)]
    for table in tables:  # bots only, nobody connected
        player.post(f"/api/tables/{table}/leave")
        player.post(f"/api/tables/{table}/fill-bots", {"level": "random"})
        player.post(f"/api/tables/{table}/start")
    wait_until(lambda: all(t not in hub.tables for t in tables), 60)
    for table in tables:
        assert client.get(f"/api/tables/{table}/record").status_code == 200
        assert client.get(f"/api/tables/{table}").json()["status"] == "finished"
    assert all(t not in hub.tables for t in tables)  # reading one does not keep it in memory


def test_item5_waiting_tables_nobody_is_at_expire(db: Path) -> None:
    """The sweep reads the server's clock: the test moves it past ``waiting_expiry`` and runs the
    sweep itself, so a table that must stay stays in the very sweep that closes one that must go
    (no sleep that a slow machine would make vacuous)."""
    clock = Clock()
    with make_client(db, clock=clock, waiting_expiry=60.0, sweep_seconds=3600.0) as client:
        hub = client.app.state.hub

        def sweep() -> None:
            client.portal.call(hub.registry.sweep)  # type: ignore[attr-defined]

        player = Player(client, "Ani")
        lonely = player.table()
        watched = player.table("3-5-8")
        with client.websocket_connect(f"/ws/tables/{watched}") as ws:
            Socket(ws, player.token).receive()
            clock.move(59.0)  # the lonely table is quiet since it was made
            sweep()
            assert lonely in hub.tables  # not yet expired
            clock.move(1.0)
            sweep()
            assert lonely not in hub.tables
            assert watched in hub.tables  # somebody is there
        assert client.get(f"/api/tables/{lonely}").status_code == 404
        assert hub.store.log(lonely) == []
        wait_until(lambda: not hub.tables[watched].connections)  # its last socket has gone
        clock.move(60.0)
        sweep()
        assert watched not in hub.tables
        started = start_with_bots(player, "bazar-blot")
        waiting = player.table("3-5-8")
        sweep()
        clock.move(3600.0)
        sweep()
        assert waiting not in hub.tables  # the same sweep closed a waiting table …
        assert started in hub.tables  # … but a game being played never expires


def test_item5_one_player_hosts_a_limited_number_of_open_tables(db: Path) -> None:
    with make_client(db, host_limit=3) as client:
        player = Player(client, "Ani")
        made = [player.table() for _ in range(3)]
        answer = player.post("/api/tables", {"game": "bazar-blot"}, status=409)
        assert answer == {
            "error": "conflict",
            "message": "you already host 3 open tables: play or leave one, or let a waiting one expire",
            "reason": "host_limit",
            "params": {"n": "3", "tables": "tables"},
        }
        other = Player(client, "Boris")
        other.table()  # the cap is per host
        assert len(client.app.state.hub.tables) == 4 and len(made) == 3


def test_item5_a_rematch_counts_against_the_host_limit(db: Path) -> None:
    with make_client(db, host_limit=1) as client:
        hub = client.app.state.hub
        player = Player(client, "Ani")
        game = player.table("3-5-8")
        player.post(f"/api/tables/{game}/leave")
        player.post(f"/api/tables/{game}/fill-bots", {"level": "random"})
        player.post(f"/api/tables/{game}/start")
        wait_until(lambda: client.get(f"/api/tables/{game}").json()["status"] == "finished", 60)
        player.table()  # one open table: the limit
        answer = player.post(f"/api/tables/{game}/rematch", status=409)
        assert answer["message"].startswith("you already host 1 open table: play or leave one")
        assert len([t for t in hub.tables.values() if t.host == player.id and t.status != "finished"]) == 1


# --- item 6: storage failures --------------------------------------------------------------------------


class FullDisk:
    """Makes every write of a store's engine fail as SQLite does on a full disk (reads work)."""

    def __init__(self, engine: Any, clock: Callable[[], float] = time.monotonic) -> None:
        self.on = False
        self.attempts = 0
        self.clock = clock
        #: The clock's time of each refused write.
        self.times: list[float] = []
        event.listen(engine, "before_cursor_execute", self._before)

    def _before(self, conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if self.on and statement.lstrip().split()[0].upper() in ("INSERT", "UPDATE", "DELETE"):
            self.attempts += 1
            self.times.append(self.clock())
            import sqlite3

            raise OperationalError(statement, None, sqlite3.OperationalError("database or disk is full"))


def test_item6_a_full_disk_answers_json_503_and_announces_nothing_unstored(
    db: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with make_client(db, bot_delay=0.02) as client, caplog.at_level(logging.INFO, logger="blot.server"):
        hub = client.app.state.hub
        disk = FullDisk(hub.store.engine)
        player = Player(client, "Ani")
        table = start_with_bots(player, "bazar-blot")
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            sock = Socket(ws, player.token)
            view = sock.my_turn(0)
            before = sock.n
            disk.on = True
            response = client.post("/api/players", json={"name": "Boris"})
            assert response.status_code == 503
            assert response.json() == {
                "error": "server",
                "message": "the server could not reach its storage; please try again",
                "reason": "storage_down",
                "params": {},
            }
            assert player.post("/api/tables", {"game": "3-5-8"}, status=503)["error"] == "server"
            seen = len(sock.frames)
            sock.act(**simple_choice(view))
            error = sock.until(lambda m: m["type"] == "error")
            assert error["code"] == "server"
            since = [m for m in sock.frames[seen:] if m["type"] not in ("presence", "chat_history")]
            assert [m["type"] for m in since] == ["snapshot", "error"]  # the state as stored, then why
            assert not any(m["type"] == "event" for m in sock.frames[seen:])
            assert since[0]["n"] == before and since[0]["view"] == view  # nothing was announced
            disk.on = False
            answer = sock.play(0, simple_choice(sock.my_turn(0)))
            assert answer["type"] == "event" and answer["n"] == before + 1
    lines = [
        r.getMessage() for r in caplog.records if r.name == "blot.server" and r.levelno >= logging.WARNING
    ]
    failing = [m for m in lines if m.startswith("storage failing")]
    assert len(failing) == 1 and "database or disk is full" in failing[0]
    assert any(m.startswith("storage works again after") for m in lines)
    assert disk.attempts >= 3


def test_item6_bots_back_off_while_the_disk_is_full(db: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The table tries again 1 s, then 2 s after a refused write, not at bot speed: seconds of the
    server's clock (issue 39 item 5), so a moment before each retry nothing was tried, and the
    test moves the clock instead of waiting 3 s."""
    clock = Clock()
    with (
        make_client(db, clock=clock, bot_delay=0.0) as client,
        caplog.at_level(logging.INFO, logger="blot.server"),
    ):
        hub = client.app.state.hub
        disk = FullDisk(hub.store.engine, clock)
        player = Player(client, "Ani")
        table = player.table("3-5-8")
        player.post(f"/api/tables/{table}/leave")
        player.post(f"/api/tables/{table}/fill-bots", {"level": "random"})
        disk.on = True
        player.post(f"/api/tables/{table}/start", status=503)
        disk.on = False
        player.post(f"/api/tables/{table}/start")
        disk.on = True
        first = len(disk.times)
        wait_until(lambda: len(disk.times) > first and bool(clock.pending()))  # refused, then waits
        for wait in (1.0, 2.0):
            tried = len(disk.times)
            assert clock.pending() == [clock.now + wait]
            clock.move(wait - 0.1)
            assert len(disk.times) == tried  # bots at full speed would have tried again at once
            clock.move(0.1)
            wait_until(lambda: len(disk.times) > tried and bool(clock.pending()))  # noqa: B023
        times = disk.times[first : first + 3]
        disk.on = False
        n = len(hub.store.log(table))
        clock.advance()
        wait_until(lambda: len(hub.store.log(table)) > n + 5)  # the table goes on once writes work
    # the table waited 1 s, then 2 s between its tries, not a bot delay
    gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
    assert gaps == [1.0, 2.0], gaps
    lines = [r for r in caplog.records if r.name == "blot.server" and r.levelno >= logging.WARNING]
    assert all(r.exc_info is None for r in lines)
    assert sum(r.getMessage().startswith("storage failing") for r in lines) <= 2


def test_item6_sqlite_runs_wal_with_synchronous_full(client: Any) -> None:
    """The README's promise (nothing announced is lost, even on a power loss) rests on these."""
    with client.app.state.hub.store.engine.connect() as c:
        assert c.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert c.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL


# --- item 7: cross-origin requests and the Content-Security-Policy ---------------------------------


def test_item7_state_changes_from_another_site_are_refused(db: Path) -> None:
    with make_client(db, origins=("https://blot.example",)) as client:
        evil = {"Origin": "https://evil.example"}
        response = client.post("/api/players", json={"name": "Ani"}, headers=evil)
        assert response.status_code == 403
        assert response.json() == {
            "error": "forbidden",
            "message": "requests from other sites are refused",
            "reason": "other_site",
            "params": {},
        }
        for origin in ("null", "http://testserver.evil.example", "file://"):
            assert (
                client.post("/api/players", json={"name": "A"}, headers={"Origin": origin}).status_code == 403
            )
        for origin in ("http://testserver", "https://blot.example", "https://blot.example/"):
            ok = client.post("/api/players", json={"name": "Ani"}, headers={"Origin": origin})
            assert ok.status_code == 200, origin
        assert client.post("/api/players", json={"name": "Ani"}).status_code == 200  # not a browser
        assert client.get("/api/tables", headers=evil).status_code == 200  # reading is not changing


def test_item7_websockets_from_another_site_are_refused(client: Any, player: Player) -> None:
    from starlette.websockets import WebSocketDisconnect

    table = player.table()
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(f"/ws/tables/{table}", headers={"Origin": "https://evil.example"}),
    ):
        pass
    assert refused.value.code == 4403
    with client.websocket_connect(f"/ws/tables/{table}", headers={"Origin": "http://testserver"}) as ws:
        assert Socket(ws, player.token).receive()["type"] == "snapshot"


@pytest.mark.parametrize("path", ["/", "/table/abc", "/replays", "/scoresheet", "/static/app.js"])
def test_item7_pages_carry_a_strict_content_security_policy(client: Any, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    csp = response.headers["content-security-policy"]
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
    assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert directives["frame-ancestors"] == "'none'" and directives["object-src"] == "'none'"
    assert response.headers["x-content-type-options"] == "nosniff"
    if path != "/static/app.js":
        html = response.text
        assert "<script>" not in html and " style=" not in html and "<style" not in html
        assert "on" + 'click="' not in html


# --- item 12 (its server half): blot serve warms the solver in the background ----------------------


def test_item12_serve_warms_the_solver_in_the_background(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from blot.server import hub

    warmed = threading.Event()
    monkeypatch.setattr(hub, "warm_solver", warmed.set)
    with make_client(db, warm_solver=True) as client:
        assert warmed.wait(10)
        assert client.get("/api/games").status_code == 200  # the server answers meanwhile
    warmed.clear()
    with make_client(db):  # tests and library users do not warm it
        time.sleep(0.1)
    assert not warmed.is_set()
