"""Issue 41 item 6: the bots' pace is the table's (its host chooses slow, normal or fast), on the
server's clock; in a casual game a player who steps away hands the seat to a bot ("play for
me") and takes it back; a rated table keeps its turn timer and refuses it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .conftest import Account, Clock, Player, Socket, make_client, simple_choice, start_with_bots


def bots_table(host: Player, pace: str) -> str:
    """A 3-5-8 table of bots only, started, its host watching."""
    table = host.table("3-5-8", pace=pace)
    host.post(f"/api/tables/{table}/leave")
    host.post(f"/api/tables/{table}/fill-bots", {"level": "random"})
    host.post(f"/api/tables/{table}/start")
    return table


def test_a_fast_bot_plays_sooner_than_a_slow_one_on_the_server_clock(db: Path) -> None:
    """Server pace 0.8 s: a fast table's bot moves after 0.2 s, a slow table's after 1.6 s, and
    not a moment before; a pace that is none of the three is refused."""
    clock = Clock()
    with make_client(db, clock=clock, bot_delay=0.8) as client:
        host = Player(client, "Ani")
        refused = host.post("/api/tables", {"game": "3-5-8", "pace": "turbo"}, status=400)
        assert refused["reason"] == "pace_name"
        fast, slow = bots_table(host, "fast"), bots_table(host, "slow")
        summary = client.get(f"/api/tables/{fast}").json()
        assert summary["settings"]["pace"] == "fast" and summary["settings"]["bot_delay"] == 0.2
        hub = client.app.state.hub
        with (
            client.websocket_connect(f"/ws/tables/{fast}") as wf,
            client.websocket_connect(f"/ws/tables/{slow}") as ws,
        ):
            f, s = Socket(wf, host.token), Socket(ws, host.token)
            f.until(lambda m: m.get("view") is not None and m["view"]["to_act"] is not None)
            s.until(lambda m: m.get("view") is not None and m["view"]["to_act"] is not None)
            start = clock.now
            assert clock.pending() == [start + 0.2, start + 1.6]
            before = [len(hub.tables[t].events) for t in (fast, slow)]
            clock.move(0.2)
            moved = f.until(lambda m: m["type"] == "event" and m["event"].get("by") == "bot")
            assert moved["n"] == before[0] + 1
            assert len(hub.tables[slow].events) == before[1] and clock.pending()[-1] == start + 1.6
            clock.move(1.39)
            assert len(hub.tables[slow].events) == before[1]
            clock.move(0.01)
            s.until(lambda m: m["type"] == "event" and m["event"].get("by") == "bot")


def follow_to(sock: Socket, clock: Clock, done: Any) -> dict[str, Any]:
    """Frames until ``done(frame)``, the clock moved past each timer the table waits on."""
    while True:
        message = sock.receive()
        if done(message):
            return message
        if clock.pending():
            clock.advance()


def test_play_for_me_hands_a_casual_seat_to_a_bot_and_takes_it_back(db: Path) -> None:
    """Ani, connected, hands her seat to a random bot: it plays her turns (``by: bot``) while she
    stays; she takes it back and her turn waits for her, no timer set."""
    clock = Clock()
    with make_client(db, clock=clock, bot_delay=0.5) as client:
        ani = Player(client, "Ani")
        table = start_with_bots(ani, "3-5-8", "random")
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            sock = Socket(ws, ani.token)
            handed = ani.post(f"/api/tables/{table}/play-for-me", {"on": True, "level": "random"})
            seat = handed["seats"][0]
            assert seat["handed"] == "random" and seat["substitute"] and seat["connected"]
            follow_to(sock, clock, lambda m: m["type"] == "event" and m["event"].get("seat") == 0)
            assert sock.frames[-1]["event"]["by"] == "bot"
            back = ani.post(f"/api/tables/{table}/play-for-me", {"on": False})
            assert back["seats"][0]["handed"] is None and not back["seats"][0]["substitute"]
            view = clock.my_turn(sock, 0, client.app.state.hub.tables[table])
            assert view["to_act"] == 0 and clock.pending() == []  # her turn waits for her
            reply = sock.play(0, simple_choice(view))
            assert reply["type"] == "event" and reply["event"]["by"] == "player"
            wrong = ani.post(f"/api/tables/{table}/play-for-me", {"on": "yes"}, status=400)
            assert wrong["reason"] == "play_for_me_flag"


def test_a_rated_table_keeps_its_timer_and_refuses_play_for_me(db: Path) -> None:
    """And at a day's deals' table everybody plays their own cards (issue 45): refused too."""
    with make_client(db, daily_bots="random") as client:
        boris = Account(client, "boris")
        table = boris.table("bazar-blot", rated=True)
        boris.post(f"/api/tables/{table}/fill-bots", {"level": "basic"})
        boris.post(f"/api/tables/{table}/start")
        refused = boris.post(f"/api/tables/{table}/play-for-me", {"on": True}, status=403)
        assert refused["reason"] == "play_for_me_rated"
        summary = client.get(f"/api/tables/{table}").json()
        assert summary["settings"]["timer"] == 60 and summary["seats"][0]["handed"] is None
        watcher = Player(client, "Gor")
        outsider = watcher.post(f"/api/tables/{table}/play-for-me", {"on": True}, status=403)
        assert outsider["reason"] == "no_seat"
        daily = watcher.post("/api/daily/bazar-blot/start")["table"]
        own = watcher.post(f"/api/tables/{daily}/play-for-me", {"on": True}, status=403)
        assert own["reason"] == "play_for_me_not_here"


def test_a_handed_seat_refuses_its_players_own_action_until_taken_back(db: Path) -> None:
    """Issue 41 item 6: while a bot plays Ani's seat for her, an action she sends on her turn is
    refused with one sentence (``seat_handed``) and changes nothing; the bot plays that turn."""
    clock = Clock()
    with make_client(db, clock=clock, bot_delay=0.5) as client:
        ani = Player(client, "Ani")
        table = start_with_bots(ani, "3-5-8", "random")
        live = client.app.state.hub.tables[table]
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            sock = Socket(ws, ani.token)
            view = clock.my_turn(sock, 0, live)
            ani.post(f"/api/tables/{table}/play-for-me", {"on": True, "level": "random"})
            before = live.n
            refused = sock.play(0, simple_choice(view))
            assert refused["type"] == "error" and refused["reason"] == "seat_handed"
            assert "take your seat back" in refused["message"] and live.n == before
            assert live.game.to_act == 0 and clock.pending()  # still her turn, the bot's to play
            clock.advance()
            played = sock.until(lambda m: m["type"] == "event" and m["event"].get("seat") == 0)
            assert played["event"]["by"] == "bot"
