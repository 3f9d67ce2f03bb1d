"""Issue 11, item 15: arbitrary messages at the table websocket, before the hello and after it at
every phase of both games (waiting, each kind of decision a seat makes, the end of the game),
from the seat to act and from a spectator. Every message gets one answer (an error frame of the
pinned shape, or a pong), the socket lives on, and a refused message changes nothing.

One server for the whole module. Examples: 80 before the hello, 40 per phase after it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from blot.errors import BlotError
from blot.server.errors import Refused
from server.conftest import Player, Socket, make_client
from server.frames import check_shape

from .strategies import BODIES, CALLS, CARDS, FUZZ, TEXT, examples, json_values

#: Each phase: the game, and what seat 0 must be asked to do (a kind of ``legal``), or the
#: table's status when seat 0 is not asked anything.
PHASES = [
    ("bazar-blot", "waiting"),
    ("bazar-blot", "call"),
    ("bazar-blot", "declare"),
    ("bazar-blot", "card"),
    ("3-5-8", "call"),
    ("3-5-8", "discard"),
    ("3-5-8", "card"),
    ("3-5-8", "give"),
    ("3-5-8", "finished"),
]
ERRORS = {"malformed", "illegal", "not_your_turn", "not_seated", "conflict"}


class Seat:
    """A table brought to a phase, with seat 0's socket and a spectator's, both kept open."""

    def __init__(self, client: Any, stack: ExitStack, player: Player, game: str, phase: str) -> None:
        self.client = client
        self.table = player.table(game)
        self.phase = phase
        if phase == "finished":
            player.post(f"/api/tables/{self.table}/leave")
            player.post(f"/api/tables/{self.table}/fill-bots", {"level": "random"})
            player.post(f"/api/tables/{self.table}/start")
        elif phase != "waiting":
            player.post(f"/api/tables/{self.table}/fill-bots", {"level": "basic"})
            player.post(f"/api/tables/{self.table}/start")
        self.me = Socket(
            stack.enter_context(client.websocket_connect(f"/ws/tables/{self.table}")), player.token
        )
        if phase == "finished":
            self.me.until(lambda m: (m.get("view") or {}).get("game_over") is not None)
        elif phase != "waiting":
            self._reach(phase)
        watcher = Player(client, "Watcher")
        self.spectator = Socket(
            stack.enter_context(client.websocket_connect(f"/ws/tables/{self.table}")), watcher.token
        )
        self.spectator.until(lambda m: m["type"] == "snapshot")
        self._drain(self.me)
        self._drain(self.spectator)

    def _reach(self, kind: str) -> None:
        """Play seat 0 with the heuristic bot (from the server's own view of seat 0) until it is
        asked for ``kind``: a good player takes more tricks than its target in 3-5-8, and so
        gives cards in the next deal's exchange."""
        from random import Random

        from blot.bots import make_bot

        table = self.hub_table
        bot = make_bot(table.spec, "heuristic", Random(1))
        for _ in range(3000):
            view = self.me.my_turn(0)
            assert view["game_over"] is None, f"the game ended before seat 0 was asked to {kind}"
            if view["legal"]["kind"] == kind:
                return
            action = table.wire.action_json(bot.choose(table.game.view(0)))
            message = action if isinstance(action, dict) else {"action": action}
            answer = self.me.play(0, message)
            assert answer["type"] == "event", answer
        raise AssertionError(f"seat 0 was never asked to {kind}")

    def _drain(self, sock: Socket) -> None:
        """Read until the socket has nothing more to say (a ping's pong comes last)."""
        sock.send(type="ping")
        sock.until(lambda m: m["type"] == "pong")

    @property
    def hub_table(self) -> Any:
        return self.client.app.state.hub.tables[self.table]

    def accepts(self, message: Any) -> bool:
        """Whether the server would play this message's action for seat 0 now (such a message
        changes the phase, so the fuzz leaves it out)."""
        table = self.hub_table
        if not isinstance(message, dict) or message.get("type") != "action" or table.status != "playing":
            return False
        try:
            action = table.wire.action_from_message(table.game, message)
        except (BlotError, Refused, Exception):
            return False
        return table.game.to_act == 0 and table.game.refusal(action) is None


Server = tuple[Any, Player, dict[tuple[str, str], Seat]]


@pytest.fixture(scope="module")
def server(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[Any, Player, dict[tuple[str, str], Seat]]]:
    db = tmp_path_factory.mktemp("fuzz-ws") / "blot.sqlite3"
    with make_client(db, host_limit=100) as client, ExitStack() as stack:
        player = Player(client, "Ani")
        seats = {(game, phase): Seat(client, stack, player, game, phase) for game, phase in PHASES}
        yield client, player, seats


#: A message as the fuzz sends it: JSON of any shape (often an action of near-valid values), or
#: raw text or bytes.
ACTIONS = st.fixed_dictionaries(
    {"type": st.just("action")},
    optional={
        "action": st.one_of(st.sampled_from(CARDS + CALLS), TEXT, json_values(4)),
        "declare": st.one_of(
            st.sampled_from(["best", "none", ["AS KS QS"], ["JH JS JD JC"], []]), json_values(4)
        ),
        "id": st.one_of(st.integers(), TEXT, json_values(2)),
    },
)
MESSAGES = st.one_of(
    ACTIONS.map(lambda m: ("json", m)),
    json_values().map(lambda v: ("json", v)),
    TEXT.map(lambda t: ("text", t)),
    BODIES.map(lambda b: ("bytes", b)),
    st.integers(4000, 5000).map(lambda n: ("text", '{"type": "ping", "x": "' + "y" * n + '"}')),
)


def _send(ws: Any, kind: str, value: Any) -> None:
    if kind == "json":
        ws.send_text(json.dumps(value, allow_nan=True))
    elif kind == "text":
        ws.send_text(value)
    else:
        ws.send_bytes(value)


@pytest.mark.parametrize(("game", "phase"), PHASES)
def test_item15_every_message_after_hello_is_answered_and_refusals_change_nothing(
    server: Server, game: str, phase: str
) -> None:
    seat = server[2][(game, phase)]
    n = seat.hub_table.n

    @settings(FUZZ, max_examples=examples(40))
    @given(message=MESSAGES, spectator=st.booleans())
    def fuzz(message: tuple[str, Any], spectator: bool) -> None:
        kind, value = message
        assume(not (kind == "json" and seat.accepts(value)))
        sock = seat.spectator if spectator else seat.me
        before = len(sock.frames)
        _send(sock.ws, kind, value)
        answer = sock.until(lambda m: m["type"] != "presence")  # others come and go meanwhile
        check_shape(answer)
        if answer["type"] == "error":
            assert answer["code"] in ERRORS, answer
            assert isinstance(answer["message"], str) and "Traceback" not in answer["message"]
        else:
            assert answer["type"] == "pong", answer
        assert [m["type"] for m in sock.frames[before:-1]] == ["presence"] * (len(sock.frames) - before - 1)
        assert seat.hub_table.n == n  # nothing was played, nothing was stored

    fuzz()
    seat._drain(seat.me)  # the socket is alive and in order
    assert seat.hub_table.n == n


@settings(FUZZ, max_examples=examples(80))
@given(message=MESSAGES, which=st.sampled_from(["waiting", "playing", "unknown"]))
def test_item15_every_first_message_is_a_hello_or_refused(
    server: Server, message: tuple[str, Any], which: str
) -> None:
    client, _, seats = server
    table = {
        "waiting": seats[("bazar-blot", "waiting")].table,
        "playing": seats[("3-5-8", "card")].table,
    }.get(which, "no-such-table")
    kind, value = message
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        _send(ws, kind, value)
        answer = json.loads(ws.receive_text())
    check_shape(answer)
    is_hello = kind == "json" and isinstance(value, dict) and value.get("type") == "hello"
    if answer["type"] == "snapshot":
        assert is_hello and which != "unknown"
    else:
        assert answer["type"] == "error" and answer["code"] in ("malformed", "not_found"), answer


def test_item15_every_phase_was_reached(server: Server) -> None:
    for (game, phase), seat in server[2].items():
        view = seat.me.view
        if phase == "waiting":
            assert seat.hub_table.status == "waiting"
        elif phase == "finished":
            assert view is not None and view["game_over"] is not None
        else:
            assert view is not None and view["legal"]["kind"] == phase and view["to_act"] == 0, (game, phase)
