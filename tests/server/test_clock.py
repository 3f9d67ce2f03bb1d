"""Issue 39 item 5: every game timer is set on the server's clock (blot.server.clock). A test moves
the clock past a pause, a bot's pace or a timer instead of waiting real seconds, and checks with the
clock a moment before it that nothing fired (never "nothing happened" after a sleep)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from blot.server.clock import Clock, ManualClock, scheduler

from .conftest import Clock as MovedClock
from .conftest import Player, Socket, make_client, simple_choice, start_with_bots


def test_a_manual_clock_fires_its_timers_only_when_moved_past_them_in_their_order() -> None:
    async def run() -> list[str]:
        clock = ManualClock(100.0)
        fired: list[str] = []
        clock.call_later(2.0, fired.append, "second")
        clock.call_at(101.0, fired.append, "first")
        clock.call_later(3.0, fired.append, "cancelled").cancel()
        clock.call_later(0.0, fired.append, "at once")
        await asyncio.sleep(0)
        assert fired == ["at once"]
        clock.move(0.999)
        await asyncio.sleep(0)
        assert fired == ["at once"] and clock.pending() == [101.0, 102.0]
        clock.move(5.0)
        await asyncio.sleep(0)
        assert fired == ["at once", "first", "second"] and clock.pending() == []
        sleeper = asyncio.ensure_future(clock.sleep(10.0))
        await asyncio.sleep(0)
        assert clock.advance() and clock() == 115.999
        await asyncio.wait_for(sleeper, 1.0)
        assert not clock.advance()
        return fired

    asyncio.run(run())


def test_the_system_clock_keeps_real_seconds_on_the_loops_timers() -> None:
    """Production: a timer of the default clock waits the real seconds, as before the change."""

    async def run() -> float:
        clock = scheduler(time.time)
        assert isinstance(clock, Clock) and abs(clock() - time.time()) < 1
        woken = asyncio.get_running_loop().create_future()
        started = time.monotonic()
        clock.call_at(clock() + 0.05, woken.set_result, None)
        await woken
        await clock.sleep(0.05)
        return time.monotonic() - started

    assert 0.09 <= asyncio.run(run()) < 2


def ended_or_mine(view: dict[str, Any]) -> bool:
    return view["result"] is not None or (view["to_act"] == 0 and view["legal"] is not None)


def follow(sock: Socket, clock: ManualClock, done: Any, within: float) -> dict[str, Any]:
    """Frames until ``done(frame)``, seat 0 playing simple moves; whenever the table waits on a
    timer at most ``within`` seconds away (a bot's pace), the clock is moved to it, never past a
    longer one. The server sets a table's next timer before it sends the frame of its change."""
    while True:
        message = sock.receive()
        if done(message):
            return message
        view = message.get("view")
        if view is None:
            continue
        if view["to_act"] == 0 and view["legal"] is not None and view["result"] is None:
            sock.act(**simple_choice(view))
            continue
        pending = clock.pending()
        if pending and pending[0] - clock.now <= within:
            clock.advance()


@pytest.mark.parametrize("game", ["bazar-blot", "3-5-8"])
def test_the_finished_deal_stays_for_the_trick_and_deal_pauses_of_the_server_clock(
    db: Path, game: str
) -> None:
    """Both games: after the last card the view keeps the finished deal with its result; the next
    deal is dealt once the table's trick pause (2 s) and the server's deal pause (4 s) have passed
    on the server's clock, not a moment before."""
    clock = MovedClock()
    with make_client(db, clock=clock, deal_pause=4.0) as client:
        player = Player(client, "Ani")
        table = start_with_bots(player, game, trick_pause=2.0)
        hub = client.app.state.hub
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            sock = Socket(ws, player.token)
            ended = follow(
                sock,
                clock,
                lambda m: (
                    m.get("view") is not None
                    and m["view"]["result"] is not None
                    and not m["view"]["result"].get("void")
                ),
                within=2.0,  # a bot leading after a trick; never the deal pause (6 s)
            )
            view = ended["view"]
            assert len(view["tricks"]) == (8 if game == "bazar-blot" else 16)
            next_deal = clock.now + 2.0 + 4.0
            assert clock.pending() == [next_deal]
            deals = len(hub.tables[table].game.deals)
            clock.move(5.9)
            assert clock.pending() == [next_deal]  # not yet: the finished deal still shows
            assert len(hub.tables[table].game.deals) == deals
            clock.move(0.1)
            dealt = sock.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "deal")
            assert dealt["view"]["deal_number"] == view["deal_number"] + 1 and dealt["view"]["result"] is None


def test_a_bot_moves_at_its_pace_on_the_server_clock(db: Path) -> None:
    """A bot waits ``bot_delay`` (0.8 s, the server's default) on the server's clock before it
    moves: with the clock a moment short of it the bot has not moved; moved past it, it does."""
    clock = MovedClock()
    with make_client(db, clock=clock, bot_delay=0.8) as client:
        player = Player(client, "Ani")
        table = start_with_bots(player, "3-5-8")
        hub = client.app.state.hub
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            sock = Socket(ws, player.token)
            mine = follow(sock, clock, lambda m: sock.view is not None and ended_or_mine(sock.view), 1.0)
            view = mine["view"]
            while True:
                sock.play(0, simple_choice(view))
                assert sock.view is not None
                view = sock.view
                if view["to_act"] != 0:
                    break
            seat = view["to_act"]
            assert hub.tables[table].game.to_act == seat
            pace = clock.now + 0.8
            assert clock.pending() == [pace]
            clock.move(0.7)
            assert clock.pending() == [pace] and hub.tables[table].game.to_act == seat
            clock.move(0.1)
            moved = sock.until(lambda m: m["type"] == "event" and m["event"].get("seat") == seat)
            assert moved["event"]["by"] == "bot"
