"""Playing through the websocket without a browser: whole games, refused messages, and the
anti-regression test of what one seat's frames may show."""

from __future__ import annotations

import json
from typing import Any

import pytest

from blot.records import replay_record
from blot.store import Store

from .conftest import Player, Socket, simple_choice, start_with_bots
from .frames import cards_in, check_no_leak, known_cards


def play_game(client: Any, player: Player, table: str, deals: int | None = None) -> Socket:
    """Seat 0 plays with ``simple_choice`` until the game (or ``deals`` deals) is over."""
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        sock = Socket(ws, player.token)
        while True:
            view = sock.my_turn(0)
            if view["game_over"] is not None:
                return sock
            if deals is not None and view["deal_number"] > deals:
                return sock
            answer = sock.play(0, simple_choice(view))
            assert answer["type"] == "event", answer


@pytest.mark.parametrize("game", ["bazar-blot", "3-5-8"])
def test_a_whole_game_against_bots_and_its_record(client: Any, player: Player, game: str) -> None:
    table = start_with_bots(player, game)
    sock = play_game(client, player, table)
    over = sock.view["game_over"]  # type: ignore[index]
    record = client.get(f"/api/tables/{table}/record").json()
    assert record["game"] == game and record["players"][0] == "Ani"
    replayed = replay_record(record).to_json()
    assert replayed["finished"] and replayed["winner"] == over["winner"]
    assert replayed["totals"] == over["totals"]
    download = client.get(f"/api/tables/{table}/record?download=1")
    assert "attachment" in download.headers["content-disposition"]
    finished = client.get("/api/replays").json()["games"]
    assert [g["id"] for g in finished] == [table]
    assert finished[0]["summary"]["winner"] == over["winner"]
    replay = client.get(f"/api/tables/{table}/replay").json()
    entries = Store.open(str(client.app.state.hub.config.db_url)).log(table)
    acts = sum(e.kind == "act" for e in entries)
    deals = sum(e.kind == "deal" for e in entries)
    assert sum(len(d["frames"]) for d in replay["deals"]) == acts + deals
    first = replay["deals"][0]["frames"][0]
    assert sum(len(h) for h in first["hands"]) == (32 if game == "bazar-blot" else 48)


def test_refused_messages_change_nothing(client: Any, player: Player) -> None:
    table = player.table("bazar-blot")
    Player(client, "Boris").post(f"/api/tables/{table}/sit", {"seat": 1})  # never acts
    player.post(f"/api/tables/{table}/fill-bots", {"level": "basic"})
    player.post(f"/api/tables/{table}/start")
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        sock = Socket(ws, player.token)
        view = sock.my_turn(0)
        n = sock.n

        def refused(raw: str, code: str) -> dict[str, Any]:
            ws.send_text(raw)
            message = sock.until(lambda m: m["type"] != "presence")
            assert message["type"] == "error" and message["code"] == code, message
            return message

        refused("not json", "malformed")
        refused("[1, 2]", "malformed")
        refused(json.dumps({"type": "dance"}), "malformed")
        refused(json.dumps({"type": "action"}), "malformed")
        refused(json.dumps({"type": "action", "action": 12}), "malformed")
        refused(json.dumps({"type": "action", "action": "x" * 5000}), "malformed")
        message = refused(json.dumps({"type": "action", "action": "ZZ", "id": 5}), "illegal")
        assert message["id"] == 5
        refused(json.dumps({"type": "action", "action": "contra"}), "illegal")  # no bid to contra yet
        card = view["hand"][0]
        refused(json.dumps({"type": "action", "action": card}), "illegal")  # a card in the bidding
        refused(json.dumps({"type": "action", "declare": "best"}), "illegal")
        ws.send_bytes(b"\x00\x01")
        assert sock.until(lambda m: m["type"] != "presence")["code"] == "malformed"
        sock.send(type="ping")
        assert sock.until(lambda m: m["type"] != "presence") == {"type": "pong", "n": n}  # nothing happened
        assert sock.view == view
        sock.play(0, {"action": "pass"})
        refused(json.dumps({"type": "action", "action": "pass"}), "not_your_turn")


def test_spectators_cannot_act_and_see_no_hand(client: Any, player: Player) -> None:
    table = start_with_bots(player, "3-5-8")
    watcher = Player(client, "Watcher")
    with (
        client.websocket_connect(f"/ws/tables/{table}") as ws,
        client.websocket_connect(f"/ws/tables/{table}") as ws2,
    ):
        sock = Socket(ws, player.token)
        spectator = Socket(ws2, watcher.token)
        first = spectator.receive()
        assert first["type"] == "snapshot" and first["you"] == {"player": watcher.id, "seat": None}
        spectator.send(type="action", action="pass")
        spectator.until(lambda m: m["type"] == "error" and m["code"] == "not_seated")
        for _ in range(12):
            view = sock.my_turn(0)
            sock.play(0, simple_choice(view))
        spectator.send(type="ping")
        spectator.until(lambda m: m["type"] == "pong")
        entries = Store.open(str(client.app.state.hub.config.db_url)).log(table)
        views = [m["view"] for m in spectator.frames if m.get("view")]
        assert views and all(v["hand"] is None and v["legal"] is None and v["discard"] is None for v in views)
        for message in spectator.frames:
            if message.get("n") is None:
                continue
            # a spectator knows what every seat knows in common: played cards and the talon
            common = set.intersection(*(known_cards("3-5-8", entries, message["n"], s) for s in range(3)))
            assert cards_in(message) <= common


@pytest.mark.parametrize("game", ["bazar-blot", "3-5-8"])
def test_seat_frames_never_show_another_hand(client: Any, player: Player, game: str) -> None:
    """Anti-regression (lichess style): every frame seat 0 receives during two deals has the
    pinned shape and shows no card of another seat before it is played (exchange and talon
    knowledge of 3-5-8 aside, as the rules give it)."""
    table = start_with_bots(player, game, level="random")
    sock = play_game(client, player, table, deals=2)
    entries = Store.open(str(client.app.state.hub.config.db_url)).log(table)
    checked = check_no_leak(game, entries, sock.frames, seat=0)
    assert checked > 100
    kinds = {m["event"]["kind"] for m in sock.frames if m["type"] == "event"}
    assert {"deal", "call", "card"} <= kinds


@pytest.mark.parametrize("game", ["bazar-blot", "3-5-8"])
def test_item16_a_leak_planted_in_a_later_deal_is_caught(client: Any, player: Player, game: str) -> None:
    """Issue 11, item 16: what a seat knows is reset at every deal. A frame of the second deal
    that names a card another seat still holds is a leak, even when seat 0 saw that card in the
    first deal (played, or in its own hand); the check must fail on it."""
    import copy

    from blot.games import spec

    table = start_with_bots(player, game, level="random")
    sock = play_game(client, player, table, deals=2)
    entries = Store.open(str(client.app.state.hub.config.db_url)).log(table)
    assert check_no_leak(game, entries, sock.frames, seat=0) > 0  # the real frames are clean
    deals = [e for e in entries if e.kind == "deal"]
    assert len(deals) >= 2
    second = deals[1].seq
    first_deal_cards = set(deals[0].payload["hands"][0].split()) | {
        str(e.payload["action"]) for e in entries if e.kind == "act" and e.seq < second
    }
    frame = next(m for m in sock.frames if m["type"] == "event" and m["n"] == second)
    # a card seat 1 holds in the second deal, unplayed at its start, known to seat 0 from the first
    others = [c for c in deals[1].payload["hands"][1].split() if c in first_deal_cards]
    assert others, "seat 0 saw some of seat 1's new cards in the first deal"
    planted = copy.deepcopy(frame)
    planted["view"]["hand"] = [*planted["view"]["hand"], others[0]]
    with pytest.raises(AssertionError, match=f"shows \\['{others[0]}'\\]"):
        check_no_leak(game, entries, [planted], seat=0)
    # the same card in a snapshot's catch-up event of the second deal is caught too
    snapshot = {"type": "snapshot", "n": second, "events": [{**frame["event"], "action": others[0]}]}
    snapshot["events"][0]["kind"] = "card"
    with pytest.raises(AssertionError, match="shows"):
        check_no_leak(game, entries, [snapshot], seat=0)
    assert spec(game).seats == len(deals[1].payload["hands"])


@pytest.mark.parametrize("game", ["bazar-blot", "3-5-8"])
def test_issue24_an_events_view_is_the_view_a_snapshot_builds_whole(
    client: Any, player: Player, game: str
) -> None:
    """The broadcast builds the public part of an event's view once and adds each seat's own
    fields (issue 24 item 9): at each of seat 0's turns, the view of the last event seat 0 and a
    spectator got is exactly the view a new connection's snapshot builds whole for them."""
    table = start_with_bots(player, game)
    watcher = Player(client, "Watcher")
    with (
        client.websocket_connect(f"/ws/tables/{table}") as ws,
        client.websocket_connect(f"/ws/tables/{table}") as ws2,
    ):
        sock, spectator = Socket(ws, player.token), Socket(ws2, watcher.token)
        compared = 0
        for _ in range(10):
            sock.play(0, simple_choice(sock.my_turn(0)))
            sock.my_turn(0)
            spectator.send(type="ping")
            spectator.until(lambda m: m["type"] == "pong")
            for who, token in ((sock, player.token), (spectator, watcher.token)):
                last = [m for m in who.frames if m["type"] == "event"][-1]
                assert last["n"] == sock.n == spectator.n
                with client.websocket_connect(f"/ws/tables/{table}") as ws3:
                    snapshot = Socket(ws3, token).receive()
                assert snapshot["type"] == "snapshot" and snapshot["n"] == last["n"]
                assert last["view"] == snapshot["view"] and last["table"] == snapshot["table"]
                compared += 1
        assert compared == 20
