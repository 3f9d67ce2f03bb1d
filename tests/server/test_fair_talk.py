"""Nothing passes between partners during a deal (issue 38 item 2, L-9: hints and signals are a
dishonour), through the real server: at a rated table and at any event table, from the first card
dealt to the deal's result, no talk of any kind (free text, phrases, emotes, the host's switch, the
spectators' room) reaches anyone at or watching the table; talk between deals still does, and so
do the referee's announcements. A change of avatar or name reaches the others from the next game
on; a guest takes no account's name (look-alikes included) and talk marks guests; a mute of an id
that is no player's is one sentence, the socket kept (issue 38 item 7)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from .conftest import Account, Player, Socket, make_client, simple_choice

DEAL_SENTENCE = (
    "at a rated or event table nothing may be said while a deal is played: wait for its end (League §10)"
)
SWITCH_SENTENCE = (
    "at a rated or event table the chat is not switched while a deal is played: wait for its end (League §10)"
)
TEXT_SENTENCE = "free text is off at rated and event tables: use the quick phrases"


def refusal(reply: dict[str, Any]) -> tuple[str, str, str]:
    return reply["type"], reply.get("code", ""), reply.get("message", "")


def chat(sock: Socket, **said: Any) -> dict[str, Any]:
    """Say something; answers the message as the sender's own socket gets it, or the error."""
    sock.send(type="chat", **said)
    return sock.until(lambda m: m["type"] in ("chat", "error"))


def heard(sock: Socket) -> list[dict[str, Any]]:
    """Every chat message this socket received so far, after a ping's answer (so that anything
    sent to it before the ping has come)."""
    sock.send(type="ping")
    sock.until(lambda m: m["type"] == "pong")
    return [m["message"] for m in sock.frames if m["type"] == "chat"]


def in_deal(sock: Socket) -> dict[str, Any]:
    """The view once a deal is being played (its cards dealt, no result yet)."""

    def dealt(v: dict[str, Any] | None) -> bool:
        return v is not None and v["phase"] not in ("deal", "over") and v["result"] is None

    if not dealt(sock.view):
        sock.until(lambda m: dealt(m.get("view")))
    assert sock.view is not None
    return sock.view


def play_deal(socks: dict[int, Socket]) -> dict[str, Any]:
    """The people of ``socks`` (by seat; bots play the others) play the deal in progress to its
    result; answers the first socket's view then."""
    ref = next(iter(socks.values()))
    while True:
        view = ref.view
        if view is not None and view["result"] is not None:
            return view
        if view is not None and view["to_act"] in socks and view["game_over"] is None:
            seat = view["to_act"]  # nobody else can move: the view is the table's now
            sock = socks[seat]
            mine = sock.my_turn(seat)
            sock.play(seat, simple_choice(mine))
            while ref.n < sock.n:
                ref.receive()
            continue
        ref.receive()


def seat_of(client: TestClient, table: str, player: int) -> int:
    seats = client.get(f"/api/tables/{table}").json()["seats"]
    return int(next(s["seat"] for s in seats if s["player"] == player))


@contextmanager
def sockets(client: TestClient, table: str, *tokens: str | None) -> Iterator[list[Socket]]:
    """Open the table once for each token (None: an anonymous spectator), each one joined."""
    with ExitStack() as stack:
        socks = [
            Socket(stack.enter_context(client.websocket_connect(f"/ws/tables/{table}")), t) for t in tokens
        ]
        for sock in socks:
            sock.joined()
        yield socks


def event_table(client: TestClient, organizer: Account, ani: Account, gohar: Account, **body: Any) -> str:
    """An unrated online event (a pair of Ani and Gohar against a bot pair), its round started:
    the id of its table."""
    event = organizer.post(
        "/api/events", {"name": "Club night", "rounds": 1, "options": {"target": 151}, **body}
    )["id"]
    ani.post(f"/api/events/{event}/entries", {"usernames": [ani.username, gohar.username]})
    entry = int(client.get(f"/api/events/{event}").json()["entries"][0]["id"])
    gohar.post(f"/api/events/{event}/entries/{entry}/confirm")
    organizer.post(f"/api/events/{event}/entries", {"bot": "basic"})
    organizer.post(f"/api/events/{event}/rounds", {"start": True})
    data = client.get(f"/api/events/{event}").json()
    table = data["rounds"][0]["tables"][0]["table"]
    assert table is not None
    return str(table)


# --- the talk ---------------------------------------------------------------------------------------


def test_l9_an_unrated_event_tables_partners_say_nothing_during_a_deal_and_talk_between_deals(
    tmp_path: Path,
) -> None:
    """The attack: at an unrated League event table, free text ("I hold KS 8H QH …") and phrases
    reached the partner mid-deal. Now both are refused (one sentence, nothing stored or sent), and
    a phrase after the deal's result reaches the partner."""
    with make_client(tmp_path / "db.sqlite3", deal_pause=30.0) as client:
        organizer, ani, gohar = Account(client, "organizer"), Account(client, "ani"), Account(client, "gohar")
        table = event_table(client, organizer, ani, gohar)
        assert client.get(f"/api/tables/{table}").json()["settings"]["rated"] is False
        seats = {seat_of(client, table, ani.id): 0, seat_of(client, table, gohar.id): 1}
        with sockets(client, table, ani.token, gohar.token) as (a, g):
            assert a.chat is not None and a.chat["free_text"] is False
            in_deal(a)
            error = chat(a, text="I hold KS 8H QH")
            assert refusal(error) == ("error", "forbidden", TEXT_SENTENCE)
            for said in ({"phrase": "hurry"}, {"emote": "🤔"}):
                error = chat(a, **said)
                assert (error["type"], error["code"], error["message"]) == (
                    "error",
                    "forbidden",
                    DEAL_SENTENCE,
                )
            assert heard(g) == []
            by_seat = {seat: (a, g)[i] for seat, i in seats.items()}
            play_deal(by_seat)
            assert chat(a, phrase="wp")["type"] == "chat"  # between deals
            assert [(m["kind"], m["body"]) for m in heard(g)] == [("phrase", "wp")]


def test_l9_a_second_account_among_the_spectators_says_nothing_during_a_deal(tmp_path: Path) -> None:
    """The attack: Ani's second account, a spectator of her event table, said phrases and emotes
    that her partner heard on a spectator socket. Now the spectators' room is silent during a deal
    too, and talks again between deals."""
    with make_client(tmp_path / "db.sqlite3", deal_pause=30.0) as client:
        organizer, ani, gohar = Account(client, "organizer"), Account(client, "ani"), Account(client, "gohar")
        alt = Account(client, "ani_two")
        table = event_table(client, organizer, ani, gohar)
        seats = {seat_of(client, table, ani.id): 0, seat_of(client, table, gohar.id): 1}
        with sockets(client, table, ani.token, gohar.token, alt.token, None) as (a, g, second, watching):
            assert second.chat is not None and second.chat["room"] == "spectators"
            in_deal(second)
            for said in ({"phrase": "hello"}, {"emote": "😮"}, {"phrase": "gg"}):
                error = chat(second, **said)
                assert (error["type"], error["code"], error["message"]) == (
                    "error",
                    "forbidden",
                    DEAL_SENTENCE,
                )
            assert heard(watching) == [] and heard(g) == []
            play_deal({seat: (a, g)[i] for seat, i in seats.items()})
            in_pause = second.until(lambda m: m.get("view") is not None and m["view"]["result"] is not None)
            assert in_pause["view"]["result"] is not None
            assert chat(second, phrase="wp")["type"] == "chat"  # between deals, in its own room
            assert [(m["kind"], m["room"]) for m in heard(watching)] == [("phrase", "spectators")]
            assert heard(g) == []  # the rooms never hear each other


def test_l9_at_a_rated_table_the_hosts_switch_waits_for_the_deals_end(tmp_path: Path) -> None:
    """The attack: the host of a rated table turned its chat off and on mid-deal, and the partner
    got each switch. Now a switch during a deal is refused and nobody hears of it; between deals
    it works."""
    with make_client(tmp_path / "db.sqlite3", deal_pause=30.0) as client:
        ani, gohar = Account(client, "ani"), Account(client, "gohar")
        table = ani.table("bazar-blot", rated=True)
        gohar.post(f"/api/tables/{table}/sit", {"seat": 2})
        ani.post(f"/api/tables/{table}/fill-bots", {"level": "basic"})
        ani.post(f"/api/tables/{table}/start")
        with sockets(client, table, ani.token, gohar.token, None) as (a, g, watching):
            in_deal(a)
            for on in (False, True, False):
                a.send(type="chat_switch", on=on)
                error = a.until(lambda m: m["type"] in ("chat", "error"))
                assert (error["type"], error["code"], error["message"]) == (
                    "error",
                    "forbidden",
                    SWITCH_SENTENCE,
                )
            assert heard(g) == [] and heard(watching) == []
            play_deal({0: a, 2: g})
            a.send(type="chat_switch", on=False)
            off = g.until(lambda m: m["type"] == "chat")["message"]
            assert (off["kind"], off["player"]) == ("off", ani.id)
        with sockets(client, table, gohar.token) as (again,):
            assert again.chat is not None and again.chat["on"] is False


# --- avatars and names ------------------------------------------------------------------------------


def test_l9_an_avatar_or_a_name_changed_mid_game_reaches_nobody_until_the_next_game(
    client: TestClient,
) -> None:
    """The attack: an avatar changed mid-deal was read by the partner from ``/api/avatars``. Now
    a player who sits at a table whose game is being played changes neither avatar nor name
    (one sentence, nothing changed, on every route); once the game is over the change is made."""
    ani, boris = Account(client, "ani"), Player(client, "Boris")
    table = ani.table("bazar-blot")
    boris.post(f"/api/tables/{table}/sit", {"seat": 2})
    ani.post(f"/api/tables/{table}/fill-bots", {"level": "basic"})
    answer = client.put("/api/me/avatar", json={"avatar": "🐻"}, headers=ani.headers)
    assert answer.status_code == 200, answer.text  # before the game: no signal, made at once
    ani.post(f"/api/tables/{table}/start")
    answer = client.put("/api/me/avatar", json={"avatar": "🦊"}, headers=ani.headers)
    assert answer.status_code == 409, answer.text
    assert answer.json()["message"] == f"you play at table {table}: change your avatar once its game is over"
    answer = client.put("/api/me", json={"name": "Boris the Fox"}, headers=boris.headers)
    assert answer.status_code == 409, answer.text
    assert answer.json()["message"] == f"you play at table {table}: change your name once its game is over"
    assert client.get(f"/api/avatars?ids={ani.id},{boris.id}").json()["avatars"] == {str(ani.id): "🐻"}
    assert client.get("/api/me", headers=boris.headers).json()["name"] == "Boris"
    seats = client.get(f"/api/tables/{table}").json()["seats"]
    assert [s["name"] for s in seats if s["player"] is not None] == ["ani", "Boris"]
    with sockets(client, table, None) as (watching,):
        seat_names = [s["name"] for s in watching.frames[0]["table"]["seats"] if s["player"] is not None]
        assert seat_names == ["ani", "Boris"]
    for person in (ani, boris):
        person.post(f"/api/tables/{table}/end", {"agree": True})
    assert client.get(f"/api/tables/{table}").json()["status"] == "finished"
    answer = client.put("/api/me/avatar", json={"avatar": "🦊"}, headers=ani.headers)
    assert answer.status_code == 200, answer.text
    assert client.get(f"/api/avatars?ids={ani.id}").json()["avatars"] == {str(ani.id): "🦊"}
    answer = client.put("/api/me", json={"name": "Boris the Fox"}, headers=boris.headers)
    assert answer.status_code == 200, answer.text


# --- guests -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["ani_k", "ANI_K", "Ani_K", "\u0410ni_K", "\u1d00ni_k", "an1_k", "ANl_K"])
def test_a_guest_takes_no_name_an_account_holds_in_any_case_or_look_alike(
    database: str | Path, name: str
) -> None:
    """An account's name in any case, in Cyrillic or small-capital letters, or with 1 for i: the
    skeleton an account's username has (blot.accounts.skeleton). Refused with one sentence, as a
    new guest and as a guest's new name; nothing is made or renamed."""
    with make_client(database) as client:
        Account(client, "ani_k")
        answer = client.post("/api/players", json={"name": name})
        assert answer.status_code == 409, answer.text
        assert (
            answer.json()["message"]
            == f"the name {name} is too like the account ani_k: a guest takes another name"
        )
        guest = Player(client, "Anush")
        answer = client.put("/api/me", json={"name": name}, headers=guest.headers)
        assert answer.status_code == 409, answer.text
        assert client.get("/api/me", headers=guest.headers).json()["name"] == "Anush"
        assert Player(client, "Ani K").id  # a name of its own is taken as before


def test_l9_talk_marks_a_guest_whose_name_looks_like_an_account(database: str | Path) -> None:
    """Every message says whether its author is a guest, live and in the room's history: a
    guest who took a name before the account did is still told apart."""
    with make_client(database) as client:
        guest = Player(client, "Vera")
        vera = Account(client, "vera")  # the account came after the guest: the guest keeps the name
        table = vera.table("3-5-8")
        guest.post(f"/api/tables/{table}/sit", {"seat": 1})
        with sockets(client, table, vera.token, guest.token) as (v, g):
            mine = chat(v, phrase="hello")["message"]
            g.send(type="chat", phrase="hello")
            theirs = g.until(lambda m: m["type"] == "chat" and m["message"]["player"] == guest.id)["message"]
            assert (mine["name"], mine["guest"]) == ("vera", False)
            assert (theirs["name"], theirs["guest"]) == ("Vera", True)
            v.until(lambda m: m["type"] == "chat" and m["message"]["player"] == guest.id)
        with sockets(client, table, vera.token) as (again,):
            assert again.chat is not None
            assert [(m["name"], m["guest"]) for m in again.chat["messages"]] == [
                ("vera", False),
                ("Vera", True),
            ]


# --- mutes ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "code", "sentence"),
    [
        (2**62, "not_found", "no such player"),
        (2**64, "not_found", "no such player"),
        (-1, "not_found", "no such player"),
        (0, "not_found", "no such player"),
        (987_654, "not_found", "no such player"),
        ("x", "malformed", "mute needs player (a number) and muted (true or false)"),
        (1.5, "malformed", "mute needs player (a number) and muted (true or false)"),
        (None, "malformed", "mute needs player (a number) and muted (true or false)"),
    ],
)
def test_a_mute_of_an_id_that_is_no_player_is_one_sentence_and_the_socket_stays(
    database: str | Path, target: Any, code: str, sentence: str
) -> None:
    """The attack: ``{"type": "mute", "player": 2**62}`` was an internal error that closed the
    sender's socket. Now it is one sentence; the socket stays open and nobody is muted."""
    with make_client(database) as client:
        ani = Account(client, "ani")
        table = ani.table("3-5-8")
        with sockets(client, table, ani.token) as (a,):
            a.send(type="mute", player=target, muted=True)
            error = a.until(lambda m: m["type"] in ("error", "muted"))
            assert refusal(error) == ("error", code, sentence)
            assert chat(a, phrase="hello")["type"] == "chat"  # the socket is still open
        with sockets(client, table, ani.token) as (again,):
            assert again.chat is not None and again.chat["muted"] == []


def test_l7_l9_the_referees_announcements_go_on_while_the_table_is_silent(tmp_path: Path) -> None:
    """An online event table with a referee: mid-deal he announces a break and pauses the table
    (his announcements are not talk and go on); nobody talks meanwhile, the referee among the
    spectators neither, and a pause is no way around the silence; after the deal's result the
    players talk again."""
    with make_client(tmp_path / "db.sqlite3", deal_pause=30.0) as client:
        organizer, referee = Account(client, "organizer"), Account(client, "arbiter")
        ani, gohar = Account(client, "ani"), Account(client, "gohar")
        event = organizer.post("/api/events", {"name": "Online day", "rounds": 1, "referees": True})["id"]
        organizer.post(f"/api/events/{event}/entries", {"usernames": ["ani", "gohar"]})
        organizer.post(f"/api/events/{event}/entries", {"bot": "basic"})
        data = organizer.post(f"/api/events/{event}/rounds", {"start": True})
        path = f"/api/events/{event}/tables/{data['rounds'][0]['tables'][0]['id']}"
        data = organizer.post(f"{path}/referee", {"username": "arbiter"})
        table = data["rounds"][0]["tables"][0]["table"]
        seats = {seat_of(client, table, ani.id): 0, seat_of(client, table, gohar.id): 1}
        with sockets(client, table, ani.token, gohar.token, referee.token) as (a, g, r):
            in_deal(a)
            referee.post(f"{path}/notes", {"kind": "break", "text": "five minutes"})
            notes = client.get(f"/api/events/{event}").json()["notes"]
            assert [n["kind"] for n in notes][-1:] == ["break"]
            assert referee.post(f"{path}/pause", {"paused": True})["paused"] is True
            assert refusal(chat(a, phrase="sorry")) == ("error", "forbidden", DEAL_SENTENCE)
            assert refusal(chat(r, phrase="hello")) == ("error", "forbidden", DEAL_SENTENCE)
            referee.post(f"{path}/pause", {"paused": False})
            assert heard(g) == []
            play_deal({seat: (a, g)[i] for seat, i in seats.items()})
            assert chat(a, phrase="thanks")["type"] == "chat"
            assert [m["body"] for m in heard(g)] == ["thanks"]
