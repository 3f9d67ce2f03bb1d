"""Talk at the table (issue 26 item 3, the server's half): phrases, emotes and free text over the
table's websocket; two rooms (players, spectators); a rated table's players say nothing during a
deal (League §10) and no free text; the host's switch; mutes; limits; stored with the table but not
in its log; ``blot admin`` removes a message and silences an account."""

from __future__ import annotations

import json
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from blot.cli.admin import remove_message, set_silenced, table_chat
from blot.server.chat import BURST, EMOTES, PHRASES, TEXT_LIMIT
from blot.store import Store

from .conftest import Account, Player, Socket, make_client, simple_choice, start_with_bots


def chat(sock: Socket, **said: Any) -> dict[str, Any]:
    """Say something; answers the message as the sender's own socket gets it, or the error."""
    sock.send(type="chat", **said)
    return sock.until(lambda m: m["type"] in ("chat", "error"))


def said(sock: Socket) -> list[tuple[str, str]]:
    """(kind, body) of every chat message this socket received so far."""
    return [(m["message"]["kind"], m["message"]["body"]) for m in sock.frames if m["type"] == "chat"]


def test_phrases_emotes_and_text_reach_the_players_and_not_the_spectators(client: Any) -> None:
    ani, boris, watcher = Player(client, "Ani"), Player(client, "Boris"), Player(client, "Vera")
    table = ani.table("bazar-blot")
    boris.post(f"/api/tables/{table}/sit", {"seat": 1})
    with ExitStack() as stack:
        a = Socket(stack.enter_context(client.websocket_connect(f"/ws/tables/{table}")), ani.token)
        b = Socket(stack.enter_context(client.websocket_connect(f"/ws/tables/{table}")), boris.token)
        w = Socket(stack.enter_context(client.websocket_connect(f"/ws/tables/{table}")), watcher.token)
        for sock in (a, b, w):
            sock.joined()
        assert a.chat is not None and a.chat["room"] == "players" and a.chat["free_text"] is True
        assert a.chat["phrases"] == list(PHRASES) and a.chat["emotes"] == list(EMOTES)
        assert w.chat is not None and w.chat["room"] == "spectators"
        mine = chat(a, phrase="gg")["message"]
        assert (mine["seat"], mine["name"], mine["room"], mine["player"]) == (0, "Ani", "players", ani.id)
        chat(a, emote="👍")
        text = chat(a, text="  <b>hello</b>\x07 there\n ")["message"]
        assert text["body"] == "<b>hello</b> there"  # stored as text; the page never reads it as HTML
        b.until(lambda m: m["type"] == "chat" and m["message"]["kind"] == "text")
        assert said(b) == [("phrase", "gg"), ("emote", "👍"), ("text", "<b>hello</b> there")]
        spectator = chat(w, phrase="wp")["message"]
        assert spectator["room"] == "spectators" and spectator["seat"] is None
        a.send(type="ping")
        a.until(lambda m: m["type"] == "pong")
        assert ("phrase", "wp") not in said(a)  # the rooms never hear each other
    # on opening the table again, each room's talk so far
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        again = Socket(ws, boris.token)
        again.joined()
        assert again.chat is not None
        assert [(m["kind"], m["body"]) for m in again.chat["messages"]] == said(b)


@pytest.mark.parametrize(
    ("message", "code", "sentence"),
    [
        ({"phrase": "cheat"}, "malformed", "phrases are " + ", ".join(PHRASES)),
        ({"emote": "🂡"}, "malformed", "emotes are " + " ".join(EMOTES)),
        ({"text": "x" * (TEXT_LIMIT + 1)}, "malformed", f"a message has at most {TEXT_LIMIT} characters"),
        ({"text": " \x00\n "}, "malformed", "an empty message says nothing"),
        ({"text": 5}, "malformed", "a chat text is a string"),
        ({"phrase": "gg", "text": "hi"}, "malformed", "a chat message has one of phrase, emote or text"),
    ],
)
def test_what_may_not_be_said_is_refused_in_one_sentence(
    client: Any, player: Player, message: dict[str, Any], code: str, sentence: str
) -> None:
    table = player.table("3-5-8")
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        sock = Socket(ws, player.token)
        sock.joined()
        error = chat(sock, **message)
        assert (error["type"], error["code"], error["message"]) == ("error", code, sentence)
    assert _stored(client, table) == []


def _stored(client: Any, table: str) -> list[dict[str, Any]]:
    from blot.store import chat as store

    db = Store.open(str(client.app.state.hub.config.db_url))
    try:
        return db.read(lambda c: store.of_table(c, table))
    finally:
        db.close()


def test_a_player_talks_at_most_three_times_in_five_seconds(client: Any, player: Player) -> None:
    table = player.table("3-5-8")
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        sock = Socket(ws, player.token)
        sock.joined()
        for _ in range(BURST):
            assert chat(sock, phrase="hello")["type"] == "chat"
        error = chat(sock, phrase="hello")
        assert error["code"] == "rate_limited" and error["message"].startswith(
            "you are talking too fast: wait "
        )
    assert len(_stored(client, table)) == BURST


def test_talk_is_not_in_the_log_and_does_not_number_events(client: Any, player: Player) -> None:
    table = start_with_bots(player, "3-5-8")
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        sock = Socket(ws, player.token)
        sock.joined()
        view = sock.my_turn(0)
        n = sock.n
        chat(sock, phrase="hello")
        chat(sock, text="good luck")
        reply = sock.play(0, simple_choice(view))
        assert reply["type"] == "event" and reply["n"] == n + 1
    entries = Store.open(str(client.app.state.hub.config.db_url)).log(table)
    assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
    assert not any("good luck" in json.dumps(e.payload) for e in entries)


def test_the_host_turns_the_chat_off_for_both_rooms(client: Any) -> None:
    ani, boris, watcher = Player(client, "Ani"), Player(client, "Boris"), Player(client, "Vera")
    table = ani.table("3-5-8")
    boris.post(f"/api/tables/{table}/sit", {"seat": 1})
    with ExitStack() as stack:
        a = Socket(stack.enter_context(client.websocket_connect(f"/ws/tables/{table}")), ani.token)
        b = Socket(stack.enter_context(client.websocket_connect(f"/ws/tables/{table}")), boris.token)
        w = Socket(stack.enter_context(client.websocket_connect(f"/ws/tables/{table}")), watcher.token)
        for sock in (a, b, w):
            sock.joined()
        b.send(type="chat_switch", on=False)
        error = b.until(lambda m: m["type"] == "error")
        assert error["message"] == "only the table's host may turn its chat off or on"
        a.send(type="chat_switch", on=False)
        for sock in (a, b, w):
            off = sock.until(lambda m: m["type"] == "chat")["message"]
            assert (off["kind"], off["player"]) == ("off", ani.id)
        assert chat(b, phrase="gg")["message"] == "the host has turned the chat of this table off"
        assert chat(w, phrase="gg")["message"] == "the host has turned the chat of this table off"
        a.send(type="chat_switch", on=True)
        b.until(lambda m: m["type"] == "chat" and m["message"]["kind"] == "on")
        assert chat(b, phrase="gg")["type"] == "chat"
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        sock = Socket(ws, boris.token)
        sock.joined()
        assert sock.chat is not None and sock.chat["on"] is True


def test_a_muted_player_is_never_heard_again_by_who_muted_them(client: Any) -> None:
    ani, boris = Player(client, "Ani"), Player(client, "Boris")
    table = ani.table("3-5-8")
    boris.post(f"/api/tables/{table}/sit", {"seat": 1})
    with ExitStack() as stack:
        a = Socket(stack.enter_context(client.websocket_connect(f"/ws/tables/{table}")), ani.token)
        b = Socket(stack.enter_context(client.websocket_connect(f"/ws/tables/{table}")), boris.token)
        for sock in (a, b):
            sock.joined()
        chat(b, phrase="hello")
        a.until(lambda m: m["type"] == "chat")
        a.send(type="mute", player=boris.id, muted=True)
        assert a.until(lambda m: m["type"] == "muted")["players"] == [boris.id]
        chat(b, text="you cannot hear this")
        chat(a, phrase="gg")  # Ani's own message comes after Boris's, had his been sent
        assert ("text", "you cannot hear this") not in said(a)
        a.send(type="mute", player=ani.id, muted=True)
        assert a.until(lambda m: m["type"] == "error")["message"] == "you cannot mute yourself"
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        sock = Socket(ws, ani.token)
        sock.joined()
        assert sock.chat is not None and sock.chat["muted"] == [boris.id]
        assert [m["body"] for m in sock.chat["messages"]] == ["gg"]  # Boris's are left out
        sock.send(type="mute", player=boris.id, muted=False)
        assert sock.until(lambda m: m["type"] == "muted")["players"] == []


def ended_or_mine(view: dict[str, Any] | None) -> bool:
    """The deal's result shows, or seat 0 must act."""
    return view is not None and (
        view["result"] is not None or (view["to_act"] == 0 and view["legal"] is not None)
    )


def test_a_rated_tables_players_talk_only_between_deals_and_never_in_free_text(db: Path) -> None:
    with make_client(db, deal_pause=30.0) as client:
        ani = Account(client, "Ani")
        table = start_with_bots(ani, "bazar-blot", rated=True)
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            sock = Socket(ws, ani.token)
            assert sock.joined()["free_text"] is False
            view = sock.my_turn(0)
            error = chat(sock, phrase="gg")
            assert error["message"] == (
                "at a rated or event table nothing may be said while a deal is played: "
                "wait for its end (League §10)"
            )
            error = chat(sock, text="hi")
            assert error["message"] == "free text is off at rated and event tables: use the quick phrases"
            while view["result"] is None:  # the deal played out, then its result shows for 30 s
                sock.play(0, simple_choice(view))
                # the frame of Ani's own move may already be her next turn (she declares, then
                # leads): waiting for a later frame would wait on her 60 s turn timer
                if not ended_or_mine(sock.view):
                    sock.until(lambda m: ended_or_mine(m.get("view")))
                assert sock.view is not None
                view = sock.view
            assert chat(sock, phrase="wp")["type"] == "chat"  # between deals


def test_admin_removes_a_message_and_silences_an_account(client: Any, capsys: Any) -> None:
    ani = Account(client, "Ani")
    table = ani.table("3-5-8")
    url = str(client.app.state.hub.config.db_url)
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        sock = Socket(ws, ani.token)
        sock.joined()
        rude = chat(sock, text="something rude")["message"]
        chat(sock, phrase="sorry")
        remove_message(url, rude["id"])
        set_silenced(url, "ani", True)
        error = chat(sock, phrase="gg")
        assert error["message"] == "your account may not talk at tables"
    table_chat(url, table)
    listing = capsys.readouterr().out
    assert "Ani: something rude  [removed]" in listing and "Ani: sorry" in listing
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        sock = Socket(ws, ani.token)
        sock.joined()
        assert sock.chat is not None and [m["body"] for m in sock.chat["messages"]] == ["sorry"]
    set_silenced(url, "ANI", False)
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        sock = Socket(ws, ani.token)
        sock.joined()
        assert chat(sock, phrase="gg")["type"] == "chat"


def test_a_deleted_account_takes_what_it_said_with_it(client: Any) -> None:
    ani, boris = Account(client, "Ani"), Player(client, "Boris")
    table = boris.table("3-5-8")
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        sock = Socket(ws, ani.token)
        sock.joined()
        chat(sock, text="hello from a spectator")
    assert len(_stored(client, table)) == 1
    response = client.request("DELETE", "/api/account", json={"password": ani.password}, headers=ani.headers)
    assert response.status_code == 200, response.text
    assert _stored(client, table) == []
