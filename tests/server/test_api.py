"""The HTTP API without a browser: players, tables, seats, bots, start, listings, records."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from blot.server.rematches import REMATCH_WAIT

from .conftest import Account, Clock, Player, Socket, make_client, simple_choice


def test_players_have_a_name_and_a_secret_token(client: Any) -> None:
    made = client.post("/api/players", json={"name": "  Ani   Petrosyan "}).json()
    assert made["name"] == "Ani Petrosyan" and len(made["token"]) >= 24
    headers = {"Authorization": f"Bearer {made['token']}"}
    assert client.get("/api/me", headers=headers).json() == {
        "id": made["id"],
        "name": "Ani Petrosyan",
        "username": None,  # a guest
        "bars": [],
    }
    assert client.put("/api/me", json={"name": "Ani"}, headers=headers).json()["name"] == "Ani"
    assert client.get("/api/me", headers={"Authorization": "Bearer nope"}).status_code == 403
    assert client.post("/api/players", json={"name": ""}).status_code == 400
    assert client.post("/api/players", json={"name": "x" * 41}).status_code == 400
    assert client.post("/api/players", content=b"not json").status_code == 400


CONTROL = "a name has no control, format or invisible characters"
SHOWS = "a name needs a letter, a digit or a sign that shows"
BOT = "a person's name cannot start with bot: that is how the tables name bots"
GUEST_NAMES = [
    ("  Ani   Petrosyan ", 200, "Ani Petrosyan"),
    ("Ａｎｉ", 200, "Ani"),  # full-width letters (NFKC)
    ("Ани & Gohar 🃏", 200, "Ани & Gohar 🃏"),  # a display name: spaces, alphabets, signs
    ("Botagoz", 200, "Botagoz"),
    ("", 400, "a name is needed"),
    (" \u3000 ", 400, "a name is needed"),
    ("x" * 41, 400, "a name has at most 40 characters"),
    ("\x1b]0;owned\x07Ani\x1b[2J", 400, CONTROL),  # sets the title, clears the screen
    ("Ani\tGohar", 400, CONTROL),
    ("Ani\u202egnaM", 400, CONTROL),  # right-to-left override
    ("Ani\u200b", 400, CONTROL),  # zero width space
    ("\u3164", 400, CONTROL),  # Hangul filler: a letter that draws nothing
    ("Ani\u2800", 400, CONTROL),  # the blank Braille pattern
    ("\u0301\u0308", 400, SHOWS),  # accents with no letter
    ("bot (pimc)", 400, BOT),
    ("Bot 2", 400, BOT),
    ("bоt (heuristic)", 400, BOT),  # a Cyrillic о
    ("Бот 1", 400, BOT),
    ("Բոտ", 400, BOT),
    ("BOT2", 400, BOT),
]


@pytest.mark.parametrize(("name", "status", "shown"), GUEST_NAMES)
def test_guest_names_follow_the_character_rules_of_usernames(
    client: Any, name: str, status: int, shown: str
) -> None:
    """Issue 22: no control characters (escape codes in a name cleared the screen), nothing
    invisible, nothing that reads as a bot; the same when a guest renames itself."""
    made = client.post("/api/players", json={"name": name})
    renamed = client.put("/api/me", json={"name": name}, headers=Player(client, "Ani").headers)
    for answer in (made, renamed):
        assert answer.status_code == status, answer.text
        if status == 200:
            assert answer.json()["name"] == shown
        else:
            body = answer.json()
            assert (body["error"], body["message"], body["field"]) == ("malformed", shown, "name")
            assert body["reason"].startswith("name_")  # said in the reader's language too


def test_games_list_rulesets_options_and_bots(client: Any) -> None:
    games = {g["game"]: g for g in client.get("/api/games").json()["games"]}
    assert games["bazar-blot"]["seats"] == 4 and games["3-5-8"]["seats"] == 3
    assert games["bazar-blot"]["options"]["target"] == 301
    assert {"random", "basic"} <= set(games["bazar-blot"]["bots"])


def test_creating_a_table_checks_its_settings(client: Any, player: Player) -> None:
    assert client.post("/api/tables", json={"game": "bazar-blot"}).status_code == 403
    player.post("/api/tables", {"game": "chess"}, status=400)
    player.post("/api/tables", {"game": "bazar-blot", "ruleset": "street"}, status=400)
    player.post("/api/tables", {"game": "bazar-blot", "options": {"target": 0}}, status=400)
    player.post("/api/tables", {"game": "bazar-blot", "timer": -1}, status=400)
    player.post("/api/tables", {"game": "3-5-8", "options": {"kanach": True}}, status=400)
    for pause in (-1, 6, "1", True):
        player.post("/api/tables", {"game": "3-5-8", "trick_pause": pause}, status=400)
    table = player.post(
        "/api/tables", {"game": "bazar-blot", "ruleset": "classic", "options": {"target": 151}}
    )
    assert table["settings"] == {
        "ruleset": "classic",
        "options": {"kanach": False, "three_passes_end_bidding": True, "nt_four_nines": 10, "target": 151},
        "timer": 0,
        "rated": False,
        "trick_pause": 0.0,  # the server's (tests: no pause)
    }
    assert player.post("/api/tables", {"game": "3-5-8", "trick_pause": 1.5})["settings"]["trick_pause"] == 1.5
    assert table["status"] == "waiting" and table["host"] == player.id
    assert table["seats"][0]["player"] == player.id  # the host sits in seat 0


def test_seats_bots_and_start(client: Any, player: Player) -> None:
    table = player.table("3-5-8")
    friend = Player(client, "Boris")
    stranger = Player(client, "Carl")
    friend.post(f"/api/tables/{table}/sit", {"seat": 0}, status=409)  # taken
    friend.post(f"/api/tables/{table}/sit", {"seat": 3}, status=400)  # no such seat
    friend.post(f"/api/tables/{table}/sit", {"seat": "1"}, status=400)
    assert friend.post(f"/api/tables/{table}/sit", {"seat": 2})["seats"][2]["name"] == "Boris"
    player.post(f"/api/tables/{table}/start", status=409)  # seat 1 is empty
    player.post(f"/api/tables/{table}/bot", {"seat": 1, "level": "genius"}, status=400)
    player.post(f"/api/tables/{table}/bot", {"seat": 2, "level": "basic"}, status=409)  # a player sits there
    stranger.post(f"/api/tables/{table}/fill-bots", {"level": "basic"}, status=403)  # not seated, not host
    assert (
        player.post(f"/api/tables/{table}/bot", {"seat": 1, "level": "random"})["seats"][1]["bot"] == "random"
    )
    assert player.post(f"/api/tables/{table}/bot", {"seat": 1, "level": None})["seats"][1]["bot"] is None
    friend.post(f"/api/tables/{table}/fill-bots", {"level": "basic"})
    started = friend.post(f"/api/tables/{table}/start")
    assert started["status"] == "playing"
    friend.post(f"/api/tables/{table}/leave", status=409)  # a seat is kept during the game
    player.post(f"/api/tables/{table}/start", status=409)
    assert client.get("/api/tables/nosuchtable").status_code == 404


def test_lobby_lists_public_tables_someone_seated_has_open(client: Any, player: Player) -> None:
    public = player.table("bazar-blot")
    private = player.table("bazar-blot", public=False)

    def listed() -> set[str]:
        return {t["id"] for t in client.get("/api/tables").json()["tables"]}

    assert not listed() & {public, private}  # nobody is at either table yet
    watcher = Player(client, "Watcher")
    with client.websocket_connect(f"/ws/tables/{public}") as ws:
        Socket(ws, watcher.token).receive()
        assert public not in listed()  # a spectator is not someone seated at the table
    with (
        client.websocket_connect(f"/ws/tables/{public}") as a,
        client.websocket_connect(f"/ws/tables/{private}") as b,
    ):
        Socket(a, player.token).receive()
        Socket(b, player.token).receive()
        assert listed() == {public}  # private tables are never listed
    assert public not in listed()  # everybody left: the table leaves the lobby
    assert client.get(f"/api/tables/{private}").json()["public"] is False  # the link is the invitation


def test_tables_show_who_is_a_guest(db: Path) -> None:
    """Issue 22: a guest could take any name; the seats say who has no account (the table, its
    ``sit`` events, the lobby), and a seat written before the flag existed reads as not a guest."""
    with make_client(db) as client:
        ani = Account(client, "Ani")
        table = ani.table("bazar-blot")
        boris = Player(client, "Boris")
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            sock = Socket(ws, ani.token)
            sock.receive()
            boris.post(f"/api/tables/{table}/sit", {"seat": 1})
            sat = sock.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "sit")
            assert sat["event"] == {"kind": "sit", "seat": 1, "name": "Boris", "guest": True, "n": sat["n"]}
            ani.post(f"/api/tables/{table}/bot", {"seat": 2, "level": "random"})
            seats = client.get(f"/api/tables/{table}").json()["seats"]
            assert [(s["name"], s["guest"]) for s in seats] == [
                ("Ani", False), ("Boris", True), ("bot (random)", False), (None, False),
            ]  # fmt: skip
            (listed,) = client.get("/api/tables").json()["tables"]
            assert [s["guest"] for s in listed["seats"]] == [False, True, False, False]
    engine = create_engine(f"sqlite:///{db}")
    with engine.begin() as c:  # the log as a server before issue 22 wrote it
        c.execute(text("UPDATE table_log SET payload = json_remove(payload, '$.guest') WHERE kind = 'sit'"))
    engine.dispose()
    with make_client(db) as client:
        seats = client.get(f"/api/tables/{table}").json()["seats"]
        assert [(s["name"], s["guest"]) for s in seats[:2]] == [("Ani", False), ("Boris", False)]


def test_a_rematch_has_the_same_seats_and_settings_and_waits_for_its_people(db: Path) -> None:
    clock = Clock()  # Boris never connects: the turn timer (1 s of the server's clock) moves for him
    with make_client(db, clock=clock) as client:
        check_a_rematch(client, clock, Player(client, "Ani"))


def finished_with_a_friend(client: Any, player: Player) -> tuple[str, Player]:
    """A casual table of ``player`` (seat 0) and Boris (seat 2, who never connects) with two random
    bots, started (a turn timer of 1 s plays for Boris)."""
    table = player.table("bazar-blot", options={"target": 1}, timer=1, trick_pause=0.1)
    friend = Player(client, "Boris")
    friend.post(f"/api/tables/{table}/sit", {"seat": 2})
    player.post(f"/api/tables/{table}/fill-bots", {"level": "random"})
    player.post(f"/api/tables/{table}/rematch", status=409)  # not over (not even started)
    player.post(f"/api/tables/{table}/start")
    return table, friend


def live(client: Any, table: str) -> Any:
    """The hub's table in memory (what :meth:`Clock.my_turn` compares the socket's frames with)."""
    return client.app.state.hub.tables[table]


def play_to_the_end(clock: Clock, sock: Socket, table: Any) -> None:
    while True:  # target 1: the first deal that is not void ends the game
        view = clock.my_turn(sock, 0, table)
        if view["game_over"] is not None:
            return
        sock.play(0, simple_choice(view))


@contextmanager
def ended_with_a_friend(client: Any, clock: Clock, player: Player) -> Iterator[tuple[str, Player, Socket]]:
    """A game of ``player`` and Boris (and bots) played to its end, ``player``'s socket still open
    at the table: the table, Boris and that socket."""
    table, friend = finished_with_a_friend(client, player)
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        sock = Socket(ws, player.token)
        play_to_the_end(clock, sock, live(client, table))
        yield table, friend, sock


def check_a_rematch(client: Any, clock: Clock, player: Player) -> None:
    """Issue 41 item 8: a rematch waited for nobody (dealt at the first click, the friends who had
    not clicked yet shown as "away"); now every person of the game decides, in a time on the
    server's clock, and the rematch is dealt once all of them have asked."""
    with ended_with_a_friend(client, clock, player) as (table, friend, sock):
        Player(client, "Stranger").post(f"/api/tables/{table}/rematch", status=403)
        asked = friend.post(f"/api/tables/{table}/rematch")
        # Boris asked: the answer is this table, Ani deciding until a minute from now
        assert asked["id"] == table and asked["rematch"] is None and asked["rematch_asks"] == [2]
        assert asked["rematch_until"] == int((clock() + REMATCH_WAIT) * 1000)
        heard = sock.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "rematch_ask")
        assert heard["event"]["seat"] == 2 and heard["table"]["rematch_until"] == asked["rematch_until"]
        assert friend.post(f"/api/tables/{table}/rematch")["rematch"] is None  # asking again: the same
        clock.move(REMATCH_WAIT / 2)
        again = player.post(f"/api/tables/{table}/rematch")  # Ani too: dealt
        assert again["status"] == "playing" and again["host"] == player.id
        assert again["settings"] == client.get(f"/api/tables/{table}").json()["settings"]
        assert [s["name"] for s in again["seats"]] == ["Ani", "bot (random)", "Boris", "bot (random)"]
        assert [s["bot"] for s in again["seats"]] == [None, "random", None, "random"]
        assert [s["guest"] for s in again["seats"]] == [True, False, True, False]
        told = sock.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "rematch")
        assert told["event"]["table"] == again["id"] == told["table"]["rematch"]
        assert told["table"]["rematch_until"] is None
    assert player.post(f"/api/tables/{table}/rematch")["id"] == again["id"]  # one rematch per game
    record = client.get(f"/api/tables/{table}/record").json()
    assert record["players"] == ["Ani", "bot (random)", "Boris", "bot (random)"]


def test_a_rematch_nobody_else_decided_on_in_time_fills_their_seats_with_bots(db: Path) -> None:
    """Issue 41 item 8: the wait runs out on the server's clock; Ani, who asked, is still at the
    table: Boris's seat goes to a bot of the table's level and the rematch is dealt."""
    clock = Clock()
    with make_client(db, clock=clock) as client:
        ani = Player(client, "Ani")
        with ended_with_a_friend(client, clock, ani) as (table, boris, sock):
            assert ani.post(f"/api/tables/{table}/rematch")["rematch_asks"] == [0]
            clock.move(REMATCH_WAIT - 1)
            assert client.get(f"/api/tables/{table}").json()["rematch"] is None  # Boris still deciding
            clock.move(1)
            told = sock.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "rematch")
            new = client.get(f"/api/tables/{told['event']['table']}").json()
            assert [s["name"] for s in new["seats"]] == [
                "Ani",
                "bot (random)",
                "bot (random)",
                "bot (random)",
            ]
            assert new["status"] == "playing" and new["seats"][2]["player"] is None
            assert boris.post(f"/api/tables/{table}/rematch")["id"] == new["id"]  # late: the link


def test_a_rematch_asked_by_one_who_left_lapses_when_the_others_do_not_decide(db: Path) -> None:
    """Issue 41 item 8: nobody who asked is at the table when the wait runs out: no rematch, the
    asks lapse (and a later ask starts a new wait)."""
    clock = Clock()
    with make_client(db, clock=clock) as client:
        ani = Player(client, "Ani")
        with ended_with_a_friend(client, clock, ani) as (table, boris, sock):
            assert boris.post(f"/api/tables/{table}/rematch")["rematch_asks"] == [2]  # Boris is not here
            clock.move(REMATCH_WAIT)
            lapsed = sock.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "rematch_lapsed")
            assert lapsed["table"]["rematch_asks"] == [] and lapsed["table"]["rematch_until"] is None
            assert lapsed["table"]["rematch"] is None
            again = ani.post(f"/api/tables/{table}/rematch")
            assert again["rematch_asks"] == [0] and again["rematch_until"] == int(
                (clock() + REMATCH_WAIT) * 1000
            )


def test_record_is_404_until_the_game_is_over(client: Any, player: Player) -> None:
    table = player.table("3-5-8")
    assert client.get(f"/api/tables/{table}/record").status_code == 404
    assert client.get(f"/api/tables/{table}/replay").status_code == 404
    assert client.get("/api/tables/nosuch/record").status_code == 404


def test_pages_are_served(client: Any) -> None:
    for path in ("/", "/table/abc", "/replays", "/replay/abc"):
        response = client.get(path)
        assert response.status_code == 200 and "<main" in response.text
    assert client.get("/static/app.js").status_code == 200
    assert client.get("/static/i18n.js").status_code == 200


def test_the_page_travels_compressed(client: Any) -> None:
    for path in ("/static/table.js", "/static/i18n.js", "/static/style.css"):
        response = client.get(path, headers={"Accept-Encoding": "gzip"})
        assert response.status_code == 200 and response.headers["content-encoding"] == "gzip", path
