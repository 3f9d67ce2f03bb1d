"""Declarations (B-40 … B-45, B-90): what a hand holds, what it may declare, what each is worth,
and which team's declarations count.

A *declaration* is a sequence of 3, 4 or 5 cards of one suit in natural order (terz, fifty,
hundred) or the four cards of one rank. A seat declares a set of declarations that share no card
(B-43); it may declare fewer than it holds, or none. Four 7s are never a declaration (B-25).

>>> from blot.cards import parse_cards
>>> hand = parse_cards("JH QH KH AH JS JD JC 7S")
>>> [d.describe() for d in candidates(hand)]
['four jacks', 'terz to the king of hearts', 'terz to the ace of hearts', 'fifty to the ace of hearts']
>>> [str(option) for option in choices(hand)]  # the jack of hearts serves one declaration only
['none', 'JS JH JD JC', 'KH QH JH', 'AH KH QH', 'JS JH JD JC, AH KH QH', 'AH KH QH JH']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from blot.bazar.rules import Rules
from blot.bazar.tables import NT
from blot.cards import (
    ACE,
    JACK,
    KING,
    QUEEN,
    RANK_NAMES,
    SUIT_NAMES,
    Suit,
    card,
    parse_cards,
    rank_mask,
)
from blot.errors import IllegalAction, NotationError

TERZ, FIFTY, HUNDRED, FOUR = "terz", "fifty", "hundred", "four"
SEQUENCE_KINDS: Final = {3: TERZ, 4: FIFTY, 5: HUNDRED}
SEQUENCE_POINTS: Final = {TERZ: 2, FIFTY: 5, HUNDRED: 10}
#: B-44 classes, high to low: four 8s, four of a kind, hundred, fifty, terz.
_CLASS: Final = {HUNDRED: 4, FIFTY: 3, TERZ: 2}


@dataclass(frozen=True, slots=True, eq=False)
class Declaration:
    """One declaration: its kind, its top rank (the rank of a four), its suit (sequences only).
    There is one object per declaration (:data:`ALL_DECLARATIONS`), so equality is identity."""

    kind: str
    rank: int
    suit: Suit | None
    mask: int

    @property
    def is_sequence(self) -> bool:
        return self.suit is not None

    @property
    def cards_text(self) -> str:
        """The record notation: the cards from the top down (a four: spades, hearts, diamonds, clubs)."""
        if self.suit is None:
            return " ".join(str(card(s, self.rank)) for s in Suit)
        length = {TERZ: 3, FIFTY: 4, HUNDRED: 5}[self.kind]
        return " ".join(str(card(self.suit, self.rank - i)) for i in range(length))

    def __str__(self) -> str:
        return self.cards_text

    def announcement(self) -> str:
        """What the table hears at once (B-43): kind and top rank, no suit."""
        if self.kind == FOUR:
            return f"four {RANK_NAMES[self.rank]}s"
        return f"{self.kind} to the {RANK_NAMES[self.rank]}"

    def describe(self) -> str:
        """Kind, top rank and suit, as shown at the second trick."""
        if self.suit is None:
            return self.announcement()
        return f"{self.announcement()} of {SUIT_NAMES[self.suit]}"

    def points(self, rules: Rules, tix: int) -> int:
        """B-40, B-41 (league) or B-90 (classic)."""
        if self.kind != FOUR:
            return SEQUENCE_POINTS[self.kind]
        trump_points, nt_points = rules.preset.four_points[self.rank]
        if tix != NT:
            return trump_points
        return rules.nt_four_nines if nt_points is None else nt_points

    def strength(self, rules: Rules, tix: int) -> tuple[int, int]:
        """B-44 order: a higher tuple is a stronger declaration; equal tuples are equal declarations."""
        if self.kind != FOUR:
            return (_CLASS[self.kind], self.rank)
        preset = rules.preset
        order = preset.four_order_no_trump if tix == NT else preset.four_order_trump
        if self.rank == 8:
            return (6, 0)
        return (5, len(order) - order.index(self.rank))


def _all_declarations() -> tuple[Declaration, ...]:
    out = []
    for suit in Suit:
        for length, kind in SEQUENCE_KINDS.items():
            for top in range(7 + length - 1, ACE + 1):
                mask = sum(card(suit, top - i).bit for i in range(length))
                out.append(Declaration(kind, top, suit, mask))
    for rank in (8, 9, 10, JACK, QUEEN, KING, ACE):
        out.append(Declaration(FOUR, rank, None, rank_mask(rank)))
    return tuple(out)


ALL_DECLARATIONS: Final = _all_declarations()
_BY_MASK: Final = {d.mask: d for d in ALL_DECLARATIONS}
_LOW16: Final = 0xFFFF
_NO_SEVENS: Final = _LOW16 & ~(1 << 7)


def may_hold_declaration(hand: int) -> bool:
    """A quick test that is false for most hands: three in a row of one suit, or four of a rank
    other than 7. (Suits are 16 bits apart with empty bits between, so runs never cross suits.)"""
    if hand & (hand >> 1) & (hand >> 2):
        return True
    return bool(hand & (hand >> 16) & (hand >> 32) & (hand >> 48) & _NO_SEVENS)


def _sequence_table() -> tuple[tuple[tuple[Declaration, ...], ...], ...]:
    """``table[suit][pattern]``: the sequences held by a suit whose ranks 7 … A are ``pattern``."""
    seqs = [d for d in ALL_DECLARATIONS if d.suit is not None]
    return tuple(
        tuple(
            tuple(d for d in seqs if d.suit == suit and (pattern << (16 * suit + 7)) & d.mask == d.mask)
            for pattern in range(256)
        )
        for suit in Suit
    )


_SEQUENCES: Final = _sequence_table()
_FOURS: Final = tuple(d for d in ALL_DECLARATIONS if d.suit is None)


def candidates(hand: int) -> list[Declaration]:
    """Every declaration the hand holds, overlapping ones included."""
    if not may_hold_declaration(hand):
        return []
    out = [d for d in _FOURS if hand & d.mask == d.mask]
    for suit in range(4):
        out += _SEQUENCES[suit][(hand >> (16 * suit + 7)) & 0xFF]
    return out


def _display_order(d: Declaration) -> tuple[int, int, int]:
    return (-d.mask.bit_count() if d.is_sequence else -9, -d.rank, d.suit or 0)


@dataclass(frozen=True, slots=True)
class Declare:
    """A seat's declarations in the first trick (B-43): a set of declarations sharing no card,
    possibly empty. Its text is the record notation, one declaration's cards per item."""

    declarations: tuple[Declaration, ...] = ()

    def __post_init__(self) -> None:
        ordered = tuple(sorted(self.declarations, key=_display_order))
        object.__setattr__(self, "declarations", ordered)

    def __str__(self) -> str:
        return ", ".join(d.cards_text for d in self.declarations) or "none"

    @property
    def texts(self) -> list[str]:
        """As a record's ``declarations`` list."""
        return [d.cards_text for d in self.declarations]


DECLARE_NONE: Final = Declare()
_DECLARES: dict[tuple[Declaration, ...], Declare] = {(): DECLARE_NONE}


_CHOICES: dict[tuple[Declaration, ...], tuple[Declare, ...]] = {}


def choices(hand: int) -> tuple[Declare, ...]:
    """Every set of non-overlapping declarations the hand may declare (B-43), the empty set first."""
    held = tuple(candidates(hand))
    found = _CHOICES.get(held)
    if found is None:
        found = _CHOICES[held] = _choices(held)
    return found


def _choices(held: tuple[Declaration, ...]) -> tuple[Declare, ...]:
    sets: list[tuple[tuple[Declaration, ...], int]] = [((), 0)]
    for d in held:
        sets += [((*s, d), m | d.mask) for s, m in sets if not m & d.mask]
    out = []
    for option, _ in sets:
        found = _DECLARES.get(option)
        if found is None:
            found = _DECLARES[option] = Declare(option)
        out.append(found)
    return tuple(out)


def best_choice(options: Sequence[Declare], rules: Rules, tix: int) -> Declare:
    """The set a seat declares when it declares its best (docs/format.md): the most points, then the
    strongest declarations compared from the strongest down; equal strength goes to a trump-suit
    sequence."""

    def key(option: Declare) -> tuple[int, list[tuple[int, int, int]]]:
        ds = option.declarations
        ranked = sorted(((*d.strength(rules, tix), int(d.suit == tix)) for d in ds), reverse=True)
        return (sum(d.points(rules, tix) for d in ds), ranked)

    return max(options, key=key)


def parse_declaration(text: str, hand: int) -> Declaration:
    """Read a declaration written as its cards and check that ``hand`` holds it."""
    mask = parse_cards(text)
    found = _BY_MASK.get(mask)
    if found is None:
        raise NotationError("not_a_declaration", cards=text)
    missing = mask & ~hand
    if missing:
        from blot.cards import format_cards

        raise IllegalAction("hand_does_not_hold", cards=format_cards(missing))
    return found


@dataclass(frozen=True, slots=True)
class Outcome:
    """Which declarations count (B-44, B-45): the team, the (seat, declaration) pairs, points per team."""

    team: int | None
    counting: tuple[tuple[int, Declaration], ...]
    points: tuple[int, int]


NO_DECLARATIONS: Final = Outcome(None, (), (0, 0))


def resolve(declared: Iterable[Sequence[Declaration]], rules: Rules, tix: int, second_leader: int) -> Outcome:
    """Only the team with the single highest declaration counts (B-44); ties of equal
    declarations in opposite teams go to a trump-suit sequence, then to the seat that plays
    earlier in the second trick. League four 8s void every other seat's declarations (B-45)."""
    pairs = [(seat, d) for seat, ds in enumerate(declared) for d in ds]
    if not pairs:
        return NO_DECLARATIONS

    def key(pair: tuple[int, Declaration]) -> tuple[tuple[int, int], int, int]:
        seat, d = pair
        return (d.strength(rules, tix), int(d.suit == tix), -((seat - second_leader) % 4))

    top_seat, top = max(pairs, key=key)
    team = top_seat % 2
    if rules.preset.four_eights_void_others and top.kind == FOUR and top.rank == 8:
        counting = tuple(p for p in pairs if p[0] == top_seat)
    else:
        counting = tuple(p for p in pairs if p[0] % 2 == team)
    total = sum(d.points(rules, tix) for _, d in counting)
    return Outcome(team, counting, (total, 0) if team == 0 else (0, total))
