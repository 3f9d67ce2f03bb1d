"""Trump calls of 3-5-8 (T-10): a strain (``S``, ``H``, ``D``, ``C``, ``NT``) or ``pass``.

Every call is a singleton whose ``str`` is exactly its record notation, so ``is`` and ``==``
agree and a call can be written to a record and read back unchanged.

>>> from blot.three_five_eight.calls import parse_call, HEARTS
>>> parse_call("h") is HEARTS, str(parse_call(" NT ")), str(parse_call("Pass"))
(True, 'NT', 'pass')
"""

from __future__ import annotations

from typing import Final

from blot.cards import SUIT_MASKS, SUIT_NAMES, SUIT_SYMBOLS, Card, Notation, Suit, parse_card, parse_either
from blot.errors import NotationError


class Call(Notation):
    """One trump call. There is one object per call; compare with ``is``."""

    __slots__ = ("suit", "text", "trump_mask")

    #: The trump suit named, or ``None`` for ``NT`` and ``pass``.
    suit: Suit | None
    #: The record notation: ``S``, ``H``, ``D``, ``C``, ``NT`` or ``pass``.
    text: str
    #: Every card of the trump suit as a card set (0 for ``NT`` and ``pass``).
    trump_mask: int

    @classmethod
    def _make(cls, text: str, suit: Suit | None) -> Call:
        call = object.__new__(cls)
        call.text = text
        call.suit = suit
        call.trump_mask = 0 if suit is None else SUIT_MASKS[suit]
        return call

    @property
    def is_pass(self) -> bool:
        return self.suit is None and self.text == "pass"

    @property
    def is_no_trump(self) -> bool:
        return self.text == "NT"

    def describe(self) -> str:
        """Words for people: ``hearts``, ``no trump``, ``pass``."""
        if self.suit is not None:
            return SUIT_NAMES[self.suit]
        return "no trump" if self.is_no_trump else "pass"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (parse_call, (self.text,))


SPADES: Final = Call._make("S", Suit.S)
HEARTS: Final = Call._make("H", Suit.H)
DIAMONDS: Final = Call._make("D", Suit.D)
CLUBS: Final = Call._make("C", Suit.C)
NO_TRUMP: Final = Call._make("NT", None)
PASS: Final = Call._make("pass", None)

#: The five strains a seat may name, in the order of docs/rules.md.
STRAINS: Final = (SPADES, HEARTS, DIAMONDS, CLUBS, NO_TRUMP)
#: Every call.
CALLS: Final = (*STRAINS, PASS)

_BY_TEXT: Final = {c.text.upper(): c for c in CALLS} | {sym: STRAINS[i] for i, sym in enumerate(SUIT_SYMBOLS)}


def parse_call(text: str) -> Call:
    """Read a call in record notation (letter case and surrounding spaces do not matter; the
    suit symbols are accepted too)."""
    found = _BY_TEXT.get(text.strip().upper()) if isinstance(text, str) else None
    if found is None:
        raise NotationError("tfe_not_a_call", text=repr(str(text).strip()))
    return found


def parse_action(text: str) -> Call | Card:
    """Read an action in record notation: a call (``H``, ``NT``, ``pass``) or a card (``10H``);
    the phase decides what a card means (a gift, a discard or a play)."""
    if not isinstance(text, str):
        raise NotationError("not_text", text=repr(text))
    return parse_either(text, parse_call, parse_card, "tfe_not_an_action")
