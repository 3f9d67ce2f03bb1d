"""What the rules show, and to whom: for each game of the registry, the cards of the deal in
progress that everybody has seen by the rules, and the cards one seat may know besides. Written
from the rule text (docs/rules.md), from the full state of the deal; the contract suite checks
every view, every view's JSON and every event against it. A new game adds its entry here.

Card sets are ints (``blot.cards``). Finished deals say nothing about the deal in progress: a
card seen in an earlier deal may be anywhere now, so views must not show them either.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any

from bazar.helpers import spec_resolve
from blot.cards import Card, Suit, format_cards, parse_card

CARD = re.compile(r"^(10|[2-9JQKA])[SHDC]$")


@dataclass(frozen=True)
class Knowledge:
    """One game's answer: ``public(game)`` and ``seat(game, seat)`` are card sets of the deal in
    progress; ``card_sets`` names the fields of its views that hold a card set as an int."""

    public: Callable[[Any], int]
    seat: Callable[[Any, int], int]
    card_sets: frozenset[str]


# --- Bazar Blot ----------------------------------------------------------------------------------


def _bazar_public(game: Any) -> int:
    """Every card played (B-30), and from the second trick the cards of the declarations that
    count (B-43, B-44, B-45: the reference model of tests/bazar/helpers decides which)."""
    deal = game.deal
    if deal is None:
        return 0
    shown = _played(deal.plays)
    if deal.tricks:
        contract = deal.contract
        trump = None if contract.strain == "NT" else Suit("SHDC".index(contract.strain))
        declared = [[d.mask for d in (ds or ())] for ds in deal.declared]
        _, _, counting = spec_resolve(declared, deal.rules, trump, deal.tricks[0].winner)
        for _, mask in counting:
            shown |= mask
    return shown


def _bazar_seat(game: Any, seat: int) -> int:
    """What everybody sees, and the seat's own hand as dealt (B-2)."""
    deal = game.deal
    return 0 if deal is None else _bazar_public(game) | deal.dealt[seat]


# --- 3-5-8 ---------------------------------------------------------------------------------------


def _talon_shown(deal: Any) -> bool:
    """T-22: the talon is shown to all after the exchange (T-20: none after NT) of a deal with a
    trump (T-10: a deal all three passed is void)."""
    if deal.trump is None:
        return False
    return str(deal.trump) == "NT" or len(deal.exchanges) == len(deal.plan)


def _tfe_public(game: Any) -> int:
    """Every card played (T-30), and the talon once shown (T-22); exchanges are face down (T-20)
    and the discard is known to the first seat only (T-22)."""
    deal = game.deal
    if deal is None:
        return 0
    return _played(deal.plays) | (deal.talon if _talon_shown(deal) else 0)


def _tfe_seat(game: Any, seat: int) -> int:
    """What everybody sees, the seat's own hand as dealt, and the cards of each exchange step it
    gave or took (T-20, T-21)."""
    deal = game.deal
    if deal is None:
        return 0
    known = _tfe_public(game) | deal.dealt[seat]
    for e in deal.exchanges:
        if seat in (e.giver, e.receiver):
            known |= e.gift.bit | e.returned.bit
    return known


def _played(cards: Any) -> int:
    mask = 0
    for c in cards:
        mask |= c.bit
    return mask


# --- Toy Duel (tests/toygame) ----------------------------------------------------------------------


def _toy_public(game: Any) -> int:
    """Every card played in the deal."""
    deal = game.deal
    return 0 if deal is None else int(_played(deal.plays))


def _toy_seat(game: Any, seat: int) -> int:
    """What everybody sees, and the seat's own hand as dealt."""
    deal = game.deal
    return 0 if deal is None else _toy_public(game) | deal.dealt[seat]


GAMES = {
    "bazar-blot": Knowledge(_bazar_public, _bazar_seat, frozenset({"hand", "mask"})),
    "3-5-8": Knowledge(_tfe_public, _tfe_seat, frozenset({"hand", "talon", "discard"})),
    "toy-duel": Knowledge(_toy_public, _toy_seat, frozenset({"hand"})),
}


def knowledge(name: str) -> Knowledge:
    found = GAMES.get(name)
    assert found is not None, f"tests/contract/knowledge.py does not say what the rules of {name} show"
    return found


# --- the cards a value mentions ------------------------------------------------------------------


def cards_of_value(value: Any, card_sets: frozenset[str]) -> int:
    """Every card an engine value mentions (a view, an event's action …): Card objects anywhere,
    and the int fields named in ``card_sets`` as card sets."""
    return _walk(value, card_sets, 0)


#: Frozen values already walked (the results of finished deals come back in every view), by id,
#: with the value kept so that its id is not reused.
_WALKED: dict[int, tuple[Any, int]] = {}
_PLAIN = (int, str, float, type(None), Enum)


def _walk(value: Any, card_sets: frozenset[str], depth: int) -> int:
    assert depth < 30, "a view nested too deep"
    if isinstance(value, _PLAIN):
        return 0
    if isinstance(value, Card):
        return value.bit
    if isinstance(value, (tuple, list)):
        found = 0
        for item in value:
            found |= _walk(item, card_sets, depth + 1)
        return found
    fields = getattr(type(value), "__dataclass_fields__", None)
    if fields is None:
        return 0
    frozen = type(value).__dataclass_params__.frozen  # type: ignore[attr-defined]
    if frozen and id(value) in _WALKED:
        return _WALKED[id(value)][1]
    found = 0
    for name in fields:
        item = getattr(value, name)
        if name in card_sets and isinstance(item, int):
            found |= item
        else:
            found |= _walk(item, card_sets, depth + 1)
    if frozen and len(_WALKED) < 100_000:
        _WALKED[id(value)] = (value, found)
    return found


def cards_of_json(value: Any) -> int:
    """Every card a JSON value writes (one card per string, or several separated by spaces),
    outside the places where calls are written (a bid ``8H`` looks like a card)."""
    found = 0
    for text in _strings(value, value, ()):
        for token in text.split():
            if CARD.match(token):
                found |= parse_card(token).bit
    return found


def _strings(root: Any, value: Any, path: tuple[Any, ...]) -> Iterator[str]:
    """The strings of a JSON value, but for those where calls are written."""
    if isinstance(value, str):
        if not _is_call(root, path):
            yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            if k != "calls" and not isinstance(v, (int, type(None))):
                yield from _strings(root, v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            if not isinstance(v, (int, type(None))):
                yield from _strings(root, v, (*path, i))


def _is_call(root: Any, path: tuple[Any, ...]) -> bool:
    """Calls are written under ``calls``, as ``call``, or as the ``action`` of a call event."""
    if path[-1:] == ("call",):
        return True
    if path[-1:] == ("action",):
        holder = root
        for key in path[:-1]:
            holder = holder[key]
        return bool(holder.get("kind") == "call")
    return False


def names_cards(cards: int) -> str:
    """A card set as text, for assertion messages."""
    return format_cards(cards)
