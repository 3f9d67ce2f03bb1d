"""Helpers shared by the server and browser tests: a client of the websocket protocol, the
pinned JSON shapes of every message (anti-regression: a new field is a deliberate change here),
and the check that a seat never receives a card of another seat's hand before it is played."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from blot.cards import parse_cards
from blot.game import AnyGame
from blot.games import spec
from blot.store import LogEntry
from toygame.wire import VIEW_KEYS as TOY_VIEW_KEYS

CARD = re.compile(r"^(10|[2-9JQKA])[SHDC]$")

MESSAGE_KEYS = {
    "event": {"type", "n", "event", "view", "table"},
    "snapshot": {"type", "n", "reset", "events", "you", "view", "table"},
    "presence": {"type", "n", "table"},
    "pong": {"type", "n"},
    "error": {"type", "code", "message"},
    "status": {"type", "state"},
    "chat": {"type", "message"},
    "chat_history": {"type", "room", "on", "free_text", "phrases", "emotes", "muted", "messages"},
    "muted": {"type", "players"},
}
CHAT_MESSAGE_KEYS = {"id", "at", "room", "seat", "player", "name", "guest", "kind", "body"}
TABLE_KEYS = {
    "id", "game", "settings", "public", "status", "host", "seats", "deadline", "end_votes",
    "end_is_resignation", "ended", "rematch", "rematch_asks", "rematch_until", "resume_asks", "resumed",
    "paused",
}  # fmt: skip
SEAT_KEYS = {"seat", "name", "player", "guest", "bot", "connected", "away", "substitute", "handed"}
BAZAR_VIEW_KEYS = {
    "game", "seat", "deal_number", "phase", "to_act", "dealer", "hand", "hand_sizes", "calls",
    "contract", "trump", "must_declare", "own_declarations", "announced", "shown",
    "declarations_team", "trick", "tricks", "tricks_won", "card_points", "belotes", "legal",
    "result", "history", "totals", "game_over",
}  # fmt: skip
TFE_VIEW_KEYS = {
    "game", "seat", "deal_number", "counted", "phase", "to_act", "dealer", "targets", "hand",
    "hand_sizes", "may_pass", "calls", "trump", "caller", "plan", "exchanges", "talon", "discard",
    "trick", "tricks", "tricks_taken", "legal", "result", "history", "totals", "game_over",
}  # fmt: skip
EVENT_KEYS = {
    "create": {"kind", "n"},
    "sit": {"kind", "seat", "name", "guest", "n"},
    "leave": {"kind", "seat", "n"},
    "bot": {"kind", "seat", "level", "n"},
    "start": {"kind", "n"},
    "deal": {"kind", "dealer", "deal_number", "n"},
    "call": {"kind", "seat", "action", "by", "n"},
    "declare": {"kind", "seat", "declare", "by", "n"},
    "card": {"kind", "seat", "action", "by", "n"},
    "give": {"kind", "seat", "to", "action", "returned", "by", "n"},
    "discard": {"kind", "seat", "action", "by", "n"},
    "end": {"kind", "seat", "agree", "ended", "n"},
    "rematch": {"kind", "table", "n"},
    "rematch_ask": {"kind", "seat", "until", "n"},
    "rematch_lapsed": {"kind", "n"},
    "forfeit": {"kind", "seats", "n"},
    "boards_over": {"kind", "seats", "n"},
    "resume_ask": {"kind", "seat", "n"},
    "resumed": {"kind", "table", "n"},
    "pause": {"kind", "paused", "n"},
}
EVENT_OPTIONAL = {"card": {"belote", "trick_winner"}, "bot": {"reason"}}


#: The keys of each game's view, the tests' toy game's from its own module (tests/toygame).
VIEW_KEYS: dict[str, set[str] | frozenset[str]] = {
    "bazar-blot": BAZAR_VIEW_KEYS,
    "3-5-8": TFE_VIEW_KEYS,
    "toy-duel": TOY_VIEW_KEYS,
}


def check_shape(message: dict[str, Any]) -> None:
    """Every message has exactly the pinned keys (docs/protocol.md)."""
    kind = message["type"]
    # an error may repeat the message's id, and names its sentence when it is catalogued
    keys = set(message) - ({"id", "reason", "params"} if kind == "error" else set())
    assert keys == MESSAGE_KEYS[kind], (kind, sorted(keys ^ MESSAGE_KEYS[kind]))
    for said in [message["message"]] if kind == "chat" else message.get("messages", []):
        assert set(said) == CHAT_MESSAGE_KEYS, sorted(set(said) ^ CHAT_MESSAGE_KEYS)
    table = message.get("table")
    if table is not None:
        assert set(table) == TABLE_KEYS, sorted(set(table) ^ TABLE_KEYS)
        for seat in table["seats"]:
            assert set(seat) == SEAT_KEYS
    view = message.get("view")
    if view is not None:
        expected = VIEW_KEYS[view["game"]]
        assert set(view) == expected, sorted(set(view) ^ expected)
    events = [message["event"]] if kind == "event" else message.get("events", [])
    for event in events:
        allowed = EVENT_KEYS[event["kind"]]
        extra = set(event) - allowed
        assert allowed <= set(event) and extra <= EVENT_OPTIONAL.get(event["kind"], set()), event


def _strings(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _strings(v, (*path, i))


def _is_call(message: dict[str, Any], path: tuple[Any, ...]) -> bool:
    """Calls such as ``8H`` or ``10S`` look like cards: they sit under known keys only."""
    if "calls" in path or (len(path) >= 1 and path[-1] == "call"):
        return True
    if path[-1:] == ("action",):
        holder: Any = message
        for key in path[:-1]:
            holder = holder[key]
        return bool(holder.get("kind") == "call")
    return False


def cards_in(message: dict[str, Any]) -> set[str]:
    """Every card written in a message, outside the places where calls are written."""
    found = set()
    for path, text in _strings(message):
        if _is_call(message, path):
            continue
        for token in text.split():
            if CARD.match(token):
                found.add(token)
    return found


def known_timeline(game: str, entries: list[LogEntry], seat: int) -> list[frozenset[str]]:
    """``timeline[n]``: what ``seat`` may know of the deal in progress after event ``n``, by the
    rules: its own cards of that deal, every card played in it, and in 3-5-8 the talon once shown
    (T-22) and the cards of the exchange steps it took part in (T-20, T-21). Each deal starts
    from nothing but the seat's new hand: a card seen in an earlier deal says nothing about who
    holds it now. Computed by replaying the log through the engine."""
    game_spec = spec(game)
    wire = game_spec.wire_module()
    state: AnyGame | None = None
    known: set[str] = set()
    timeline: list[frozenset[str]] = [frozenset()]
    for entry in entries:
        p = entry.payload
        if entry.kind == "create":
            settings = p["settings"]
            state = game_spec.new_game(game_spec.rules(settings.get("ruleset"), settings.get("options")))
        elif entry.kind == "deal":
            assert state is not None
            state.start_deal(game_spec.cards_from_json(p))
            known = set(p["hands"][seat].split())  # a new deal: nothing of the last one counts
        elif entry.kind == "act":
            assert state is not None
            before = state.phase.value
            action = wire.action_from_json(state, p["action"])
            state.apply(action)
            if before == "play":
                known.add(str(action))
            elif before == "exchange":
                e = state.deals[-1].exchanges[-1]  # type: ignore[attr-defined]
                if seat in (e.giver, e.receiver):
                    known |= {str(e.gift), str(e.returned)}
            deal: Any = state.deals[-1]
            if game == "3-5-8" and deal.phase.value in ("discard", "play", "over") and deal.trump is not None:
                known |= {c.text for c in _cards(deal.talon)}
        assert entry.seq == len(timeline), "a table's log is numbered 1, 2, 3 … without gaps"
        timeline.append(frozenset(known))
    return timeline


def known_cards(game: str, entries: list[LogEntry], n: int, seat: int) -> set[str]:
    """What ``seat`` may know of the deal in progress after event ``n`` (:func:`known_timeline`)."""
    return set(known_timeline(game, entries, seat)[n])


def _cards(mask: int) -> list[Any]:
    from blot.cards import cards_of

    return cards_of(mask)


def check_no_leak(game: str, entries: list[LogEntry], frames: list[dict[str, Any]], seat: int) -> int:
    """Every frame shows ``seat`` only cards it may know at that moment of that deal; the events
    a snapshot carries are each checked at their own number. Returns the cards checked."""
    timeline = known_timeline(game, entries, seat)
    checked = 0
    for message in frames:
        n = message.get("n")
        if n is None:
            continue
        parts: list[tuple[int, dict[str, Any]]] = [(n, {k: v for k, v in message.items() if k != "events"})]
        parts += [(int(e["n"]), {"event": e}) for e in message.get("events", [])]
        for at, part in parts:
            seen = cards_in(part)
            leaked = seen - timeline[at]
            assert not leaked, f"frame n={n} ({message['type']}, event {at}) shows {sorted(leaked)}"
            checked += len(seen)
    return checked


def parse_hand(text: str) -> int:
    return parse_cards(text)
