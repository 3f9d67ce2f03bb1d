"""Calls of the bidding (B-20 … B-25): bids, pass, contra, redouble and four sevens.

Every call is a singleton whose ``str`` is its record notation (``pass``, ``10S``, ``12NT``,
``contra``, ``redouble``, ``sevens``).

>>> from blot.bazar.calls import PASS, bid, parse_call
>>> parse_call("10 h") is bid(10, "H"), str(parse_call("12nt")), parse_call("Pass") is PASS
(True, '12NT', True)
>>> bid(25, "S").describe()
'25 spades (kapoot)'
"""

from __future__ import annotations

from typing import Final

from blot.cards import SUIT_NAMES, Notation, Suit
from blot.errors import NotationError

#: Strains in the order they are listed: the four suits, then no trump.
STRAINS: Final = ("S", "H", "D", "C", "NT")
STRAIN_NAMES: Final = {**{s.name: SUIT_NAMES[s] for s in Suit}, "NT": "no trump"}
KAPOOT: Final = 25
KANACH: Final = 30


class Call(Notation):
    """One call of the bidding. Compare with ``is``: there is one object per call."""

    __slots__ = ("kind", "level", "strain", "text", "trump")

    kind: str  # "bid", "pass", "contra", "redouble", "sevens"
    level: int  # 0 unless a bid
    strain: str  # "" unless a bid
    trump: Suit | None  # the trump suit of a bid; None for NT and non-bids
    text: str

    @classmethod
    def _make(cls, kind: str, level: int = 0, strain: str = "") -> Call:
        call = object.__new__(cls)
        call.kind = kind
        call.level = level
        call.strain = strain
        call.trump = Suit[strain] if strain in Suit.__members__ else None
        call.text = f"{level}{strain}" if kind == "bid" else kind
        return call

    @property
    def is_bid(self) -> bool:
        return self.kind == "bid"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (parse_call, (self.text,))

    def describe(self) -> str:
        """Words for people: ``10 spades``, ``25 no trump (kapoot)``."""
        if not self.is_bid:
            return self.text
        extra = " (kapoot)" if self.level == KAPOOT else " (kanach)" if self.level == KANACH else ""
        return f"{self.level} {STRAIN_NAMES[self.strain]}{extra}"


PASS: Final = Call._make("pass")
CONTRA: Final = Call._make("contra")
REDOUBLE: Final = Call._make("redouble")
SEVENS: Final = Call._make("sevens")

LEVELS: Final = (*range(8, KAPOOT + 1), KANACH)
#: Every bid, lowest first, so the bids above a level are one slice.
BIDS: Final = tuple(Call._make("bid", level, strain) for level in LEVELS for strain in STRAINS)
_BY_TEXT: Final = {c.text: c for c in (PASS, CONTRA, REDOUBLE, SEVENS, *BIDS)}


def bid(level: int, strain: str) -> Call:
    """The bid of that level and strain."""
    found = _BY_TEXT.get(f"{level}{strain}")
    if found is None or not found.is_bid:
        raise NotationError("not_a_bid", level=level, strain=strain)
    return found


def parse_call(text: str) -> Call:
    """Read a call in record notation (letter case and spaces do not matter: ``10 nt``)."""
    cleaned = "".join(text.split()).upper()
    found = _BY_TEXT.get(cleaned) or _BY_TEXT.get(cleaned.lower())
    if found is None:
        raise NotationError("not_a_call", text=repr(text.strip()))
    return found
