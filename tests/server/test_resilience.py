"""Reconnection, restarts, dropped players and the turn timer."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from blot.server.errors import Refused
from blot.store import Store

from .conftest import Clock, Player, Socket, make_client, simple_choice, start_with_bots


def test_reconnect_gets_the_missed_events_or_a_fresh_snapshot(client: Any, player: Player) -> None:
    table = start_with_bots(player, "bazar-blot")
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        sock = Socket(ws, player.token)
        sock.play(0, simple_choice(sock.my_turn(0)))
        seen = sock.n
    friend = Player(client, "Watcher")
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        sock = Socket(ws, player.token)
        sock.my_turn(0)
        for _ in range(3):
            sock.play(0, simple_choice(sock.my_turn(0)))
        now = sock.n
    assert now > seen
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        sock = Socket(ws, player.token, since=seen)
        snap = sock.receive()
        assert snap["type"] == "snapshot" and not snap["reset"] and snap["n"] >= now
        assert [e["n"] for e in snap["events"]] == list(range(seen + 1, snap["n"] + 1))
        assert snap["you"] == {"player": player.id, "seat": 0}
    for since in (None, 10**6, -1):
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            snap = Socket(ws, friend.token, since=since).receive()
            assert snap["reset"] and snap["events"] == [] and snap["view"]["hand"] is None


def test_a_restart_resumes_every_table_from_its_log(db: Path) -> None:
    with make_client(db) as client:
        player = Player(client, "Ani")
        table = start_with_bots(player, "3-5-8")
        waiting = player.table("bazar-blot")
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            sock = Socket(ws, player.token)
            for _ in range(6):
                sock.play(0, simple_choice(sock.my_turn(0)))
            before = sock.my_turn(0)
            n = sock.n
    with make_client(db) as client:  # a new server on the same database
        hub = client.app.state.hub
        deadline = time.monotonic() + 10
        while table not in hub.tables:  # resumed in the background after the start, not on demand
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert waiting not in hub.tables  # nothing to drive: loaded when somebody opens it
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            sock = Socket(ws, player.token, since=n)
            snap = sock.receive()
            assert snap["n"] == n and snap["view"] == before and not snap["reset"]
            while True:
                view = sock.my_turn(0)
                if view["game_over"] is not None:
                    break
                sock.play(0, simple_choice(view))
        assert client.get(f"/api/tables/{table}/record").status_code == 200
        assert client.get(f"/api/tables/{waiting}").json()["status"] == "waiting"


def test_a_dropped_player_keeps_the_seat_then_a_bot_plays_until_they_return(db: Path) -> None:
    """The grace period is a timer on the server's clock (issue 39 item 5): the seat is kept
    while the clock is moved to just before its end, and a bot plays once it is moved past it."""
    clock = Clock()
    with make_client(db, clock=clock, grace=60.0) as client:
        player = Player(client, "Ani")
        table = start_with_bots(player, "bazar-blot")
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            sock = Socket(ws, player.token)
            assert sock.my_turn(0)["to_act"] == 0
        watcher = Player(client, "Watcher")
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            spectator = Socket(ws, watcher.token)
            first = spectator.receive()
            assert first["table"]["seats"][0]["away"] is True  # the grace timer is set
            end = clock.now + 60.0
            assert clock.pending() == [end]
            clock.move(59.0)
            assert clock.pending() == [end]  # not yet over: nothing fired
            clock.move(1.0)
            assert clock.pending() == []
            played = spectator.until(lambda m: m["type"] == "event" and m["event"].get("seat") == 0)
            assert played["event"]["by"] == "bot" and played["table"]["seats"][0]["substitute"] is True
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            sock = Socket(ws, player.token)
            back = sock.until(lambda m: m["type"] == "presence")
            seat = back["table"]["seats"][0]
            assert seat["connected"] and not seat["away"] and not seat["substitute"]


def test_the_turn_timer_plays_the_documented_automatic_move_when_the_server_clock_passes_it(
    db: Path,
) -> None:
    """The turn timer is set on the server's clock (issue 39 item 5): its deadline is the clock's
    time plus the timer, it has not fired with the clock a moment before it, and the automatic
    move comes once the clock is moved past it (no real second waited)."""
    clock = Clock()
    with make_client(db, clock=clock) as client:
        player = Player(client, "Ani")
        table = start_with_bots(player, "bazar-blot", timer=60)
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            sock = Socket(ws, player.token)
            view = sock.my_turn(0)
            end = clock.now + 60
            assert sock.frames[0]["table"]["deadline"] == int(end * 1000)
            assert clock.pending() == [end]
            clock.move(59.9)
            assert clock.pending() == [end]  # a moment before the deadline nothing fired
            assert client.app.state.hub.tables[table].game.to_act == 0
            clock.move(0.2)
            moved = sock.until(lambda m: m["type"] == "event" and m["event"].get("seat") == 0)
            assert moved["event"]["by"] == "timer" and moved["event"]["action"] == "pass"
            assert view["legal"]["calls"][0] == "pass"


def test_a_player_who_never_connects_after_the_start_is_away_and_a_bot_plays_for_them(
    db: Path,
) -> None:
    clock = Clock()
    with make_client(db, clock=clock, grace=60.0) as client:
        player = Player(client, "Ani")
        table = start_with_bots(player, "bazar-blot")  # seated over HTTP, never opened the table
        watcher = Player(client, "Watcher")
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            spectator = Socket(ws, watcher.token)
            first = spectator.receive()
            assert first["table"]["seats"][0]["away"] is True
            clock.move(60.0)  # the grace period, on the server's clock
            played = spectator.until(lambda m: m["type"] == "event" and m["event"].get("seat") == 0)
            assert played["event"]["by"] == "bot" and played["table"]["seats"][0]["substitute"] is True


def test_a_socket_that_opens_as_its_table_leaves_memory_is_connected_to_it_again(
    client: Any, player: Player, monkeypatch: Any
) -> None:
    """A finished table leaves memory when its last socket closes; a socket opening just then
    found the table in memory and then a stopped actor (seen in CI: a referee's second look at a
    finished duplicate table). It is connected to the table loaded again, not answered with an
    HTTP error after its accept."""
    table = start_with_bots(player, "bazar-blot")
    registry = client.app.state.hub.registry
    load = registry.load
    loads = 0

    async def load_then_leave(table_id: str) -> Any:
        nonlocal loads
        loads += 1
        found = await load(table_id)
        if loads == 1:  # the table leaves memory between this load and the connect
            registry._unload(found)
            await asyncio.sleep(0.05)
        return found

    monkeypatch.setattr(registry, "load", load_then_leave)
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        sock = Socket(ws, player.token)
        snap = sock.receive()
        assert snap["type"] == "snapshot" and snap["you"] == {"player": player.id, "seat": 0}
        assert sock.joined()["type"] == "chat_history"
    assert loads == 2


def test_a_socket_whose_join_was_queued_as_its_table_left_memory_is_not_closed_with_it(
    client: Any, player: Player, monkeypatch: Any
) -> None:
    """The same race one step later (seen in CI: the referee's second look at a finished duplicate
    table was closed with code 1000 before its snapshot): the join was already queued in the
    table's actor when the table left memory, and the table's stop then closed every socket it
    had, the new one included. Now a table that leaves memory refuses at once what is queued
    after, and the socket joins the table loaded again."""
    from blot.server.seats import Seating

    table = start_with_bots(player, "bazar-blot")
    registry = client.app.state.hub.registry
    connect = Seating.connect
    joins = 0

    async def leave_then_connect(self: Seating, *args: Any) -> None:
        nonlocal joins
        joins += 1
        if joins == 1:  # the table leaves memory after this join was queued, before it runs
            registry._unload(registry.live[table])
        await connect(self, *args)

    monkeypatch.setattr(Seating, "connect", leave_then_connect)
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        sock = Socket(ws, player.token)
        snap = sock.receive()
        assert snap["type"] == "snapshot" and snap["you"] == {"player": player.id, "seat": 0}
        assert sock.joined()["type"] == "chat_history"
    assert joins == 2


def test_a_follower_reads_the_lines_written_before_it_subscribed(
    client: Any, player: Player, monkeypatch: Any
) -> None:
    """A process that follows a table reads its log, then subscribes to the owner's lines: a
    line written between the two was missed until the owner's next one — and there was none when
    the missed line made it the follower's own player's turn (seen in CI: the cluster's event
    game stood still). Now the follower reads the log once more after subscribing."""
    table = player.table("bazar-blot")
    player.post(f"/api/tables/{table}/fill-bots", {"level": "basic"})
    registry = client.app.state.hub.registry

    async def leave_memory() -> None:
        registry._unload(registry.live[table])
        await asyncio.sleep(0.05)

    client.portal.call(leave_memory)
    full = client.portal.call(registry.services.read_log, table)
    reads = 0

    def read_before_the_last_line(c: Any, table_id: str, since: int = 0) -> list[Any]:
        nonlocal reads
        reads += 1
        lines = log_of(c, table_id, since)
        return lines[:-1] if reads == 1 else lines

    log_of = Store.log_of
    monkeypatch.setattr(Store, "log_of", staticmethod(read_before_the_last_line))
    follower = client.portal.call(registry._load, table, "bazar-blot", False)
    assert not follower.driving
    deadline = time.monotonic() + 5
    while follower.n != full[-1].seq:
        assert time.monotonic() < deadline, f"the follower stayed at line {follower.n} of {full[-1].seq}"
        time.sleep(0.02)


def test_a_refusal_after_a_sockets_accept_is_an_error_message_and_a_close(
    client: Any, player: Player, monkeypatch: Any
) -> None:
    """Issue 40 item 4: a refusal raised once the socket was accepted (here: the table refuses the
    connection as it joins) went to the HTTP error handler, which answered an accepted websocket
    with an HTTP response (uvicorn: "Unexpected ASGI message 'websocket.http.response.start'").
    It is the socket's error message and its close; the talk refused alone is only a message."""
    table = start_with_bots(player, "bazar-blot")
    seating = type(client.app.state.hub.registry.live[table].seating)

    async def refused(*_: Any) -> None:
        raise Refused("not_found", "no_such_table")

    monkeypatch.setattr(seating, "connect", refused)
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "token": player.token})
        assert ws.receive_json()["reason"] == "no_such_table"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404
    monkeypatch.undo()
    monkeypatch.setattr(client.app.state.chat, "history", refused)
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        sock = Socket(ws, player.token)
        assert sock.until(lambda m: m["type"] == "error")["reason"] == "no_such_table"
        sock.send(type="ping")
        assert sock.until(lambda m: m["type"] == "pong")
