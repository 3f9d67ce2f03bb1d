"""Cards, suits, ranks and card sets as int bitmasks, and the docs/rules.md notation.

A card is one of 52 singletons. Its ``index`` is ``suit * 16 + rank`` with ranks 2 … 14
(J = 11, Q = 12, K = 13, A = 14), and its ``bit`` is ``1 << index``; a set of cards is the
int that ors their bits. Both decks use the same encoding, so the ranks 7 … A of one suit
are contiguous bits and a natural-order sequence is a run of set bits.

>>> from blot.cards import parse_card, parse_cards, format_cards
>>> str(parse_card("TH")), str(parse_card("a♠"))
('10H', 'AS')
>>> format_cards(parse_cards("JH 9H AH"))
'9H JH AH'
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from enum import IntEnum
from random import Random
from typing import Final, Self, TypeVar

from blot.errors import BlotError, NotationError


class Suit(IntEnum):
    """The four suits, in the order of docs/rules.md: spades, hearts, diamonds, clubs."""

    S = 0
    H = 1
    D = 2
    C = 3

    @property
    def letter(self) -> str:
        return self.name

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self]

    @property
    def mask(self) -> int:
        """Every card of this suit, of either deck."""
        return SUIT_MASKS[self]

    def __str__(self) -> str:
        return self.name


SUIT_SYMBOLS: Final = ("♠", "♥", "♦", "♣")
SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs")
SUIT_MASKS: Final = tuple(0x7FFC << (16 * s) for s in range(4))

JACK, QUEEN, KING, ACE = 11, 12, 13, 14
RANK_TEXT: Final = {
    **{r: str(r) for r in range(2, 11)},
    JACK: "J",
    QUEEN: "Q",
    KING: "K",
    ACE: "A",
}
RANK_NAMES: Final = {
    **{r: str(r) for r in range(2, 11)},
    JACK: "jack",
    QUEEN: "queen",
    KING: "king",
    ACE: "ace",
}
_RANK_OF_TEXT: Final = {text: rank for rank, text in RANK_TEXT.items()} | {"T": 10}
_SUIT_OF_TEXT: Final = {s.name: s for s in Suit} | {sym: Suit(i) for i, sym in enumerate(SUIT_SYMBOLS)}


class Notation:
    """A value of which there is one object per record notation (cards, calls): its ``str`` is
    the notation, and a copy is the value itself, so ``is`` and ``==`` agree."""

    __slots__ = ()

    text: str

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.text!r})"

    def __copy__(self) -> Self:
        return self

    def __deepcopy__(self, memo: object) -> Self:
        return self


class Card(Notation):
    """One playing card; there is exactly one object per card, so ``is`` and ``==`` agree."""

    __slots__ = ("bit", "index", "rank", "suit", "text")

    bit: int
    index: int
    rank: int
    suit: Suit
    text: str

    def __new__(cls, text: str) -> Card:
        return parse_card(text)

    @classmethod
    def _make(cls, suit: Suit, rank: int) -> Card:
        card = object.__new__(cls)
        card.suit = suit
        card.rank = rank
        card.index = 16 * suit + rank
        card.bit = 1 << card.index
        card.text = RANK_TEXT[rank] + suit.name
        return card

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (parse_card, (self.text,))


#: Every card by index (``None`` where an index is no card).
CARDS: Final[tuple[Card | None, ...]] = tuple(
    Card._make(Suit(i // 16), i % 16) if 2 <= i % 16 <= 14 else None for i in range(64)
)
#: Every card by its bit.
CARD_OF_BIT: Final[dict[int, Card]] = {c.bit: c for c in CARDS if c is not None}
_CARD_OF_TEXT: Final[dict[str, Card]] = {c.text: c for c in CARDS if c is not None}


def card(suit: Suit, rank: int) -> Card:
    """The card of that suit and rank (2 … 14)."""
    found = CARDS[16 * suit + rank] if 2 <= rank <= 14 else None
    if found is None:
        raise NotationError("no_rank", rank=rank)
    return found


def _mask_of(suits: Iterable[Suit], ranks: Iterable[int]) -> int:
    ranks = tuple(ranks)
    return sum(1 << (16 * s + r) for s in suits for r in ranks)


#: The 32-card deck of Bazar Blot (7 … A) and the 52-card deck of 3-5-8.
DECK32: Final = _mask_of(Suit, range(7, 15))
DECK52: Final = _mask_of(Suit, range(2, 15))


_DECK_BITS: Final = {d: [1 << i for i in range(64) if d >> i & 1] for d in (DECK32, DECK52)}
_PERMUTATION_BITS: Final = {n: math.factorial(n).bit_length() + 64 for n in (32, 52)}


def rank_mask(rank: int) -> int:
    """The four cards of one rank."""
    return _mask_of(Suit, (rank,))


def parse_card(text: str) -> Card:
    """Read one card: rank then suit (``10H``, ``AS``, ``TH``, ``7♣``; any letter case)."""
    cleaned = text.strip().upper()
    found = _CARD_OF_TEXT.get(cleaned)
    if found is not None:
        return found
    if len(cleaned) >= 2:
        rank = _RANK_OF_TEXT.get(cleaned[:-1])
        suit = _SUIT_OF_TEXT.get(cleaned[-1]) or _SUIT_OF_TEXT.get(text.strip()[-1])
        if rank is not None and suit is not None:
            return card(suit, rank)
    raise NotationError("not_a_card", text=repr(text.strip()))


First = TypeVar("First")
Second = TypeVar("Second")


def parse_either(
    text: str, first: Callable[[str], First], second: Callable[[str], Second], key: str
) -> First | Second:
    """``text`` as ``first`` reads it, else as ``second`` does (a call or a card, in the order
    the phase means them); NotationError ``key`` naming the text when neither can. Both games
    read an action so, whatever the phase, that the rules can then say why it is refused."""
    try:
        return first(text)
    except BlotError:
        pass
    try:
        return second(text)
    except BlotError:
        raise NotationError(key, text=repr(text.strip())) from None


def parse_cards(text: str) -> int:
    """Read cards separated by spaces or commas into a card set; a repeated card is refused."""
    mask = 0
    for word in text.replace(",", " ").split():
        bit = parse_card(word).bit
        if mask & bit:
            raise NotationError("card_twice", card=word)
        mask |= bit
    return mask


def cards_of(mask: int) -> list[Card]:
    """The cards of a set, lowest index first (suit by suit, low rank to high)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CARD_OF_BIT[low])
        mask ^= low
    return out


_LOW_RANKS: Final = _mask_of(Suit, range(2, 7))
_HALF: Final = 0x7F807F80  # ranks 7 … A of two suits
#: The cards of ranks 7 … A of spades and hearts (``_LOW_HALF``) or of diamonds and clubs
#: (``_HIGH_HALF``, shifted down by 32), filled as they are met: at most 65,536 entries each.
_LOW_HALF: dict[int, tuple[Card, ...]] = {0: ()}
_HIGH_HALF: dict[int, tuple[Card, ...]] = {0: ()}
_SUIT_TUPLES: Final[tuple[dict[int, tuple[Card, ...]], ...]] = ({}, {}, {}, {})


def cards_tuple(mask: int) -> tuple[Card, ...]:
    """The cards of a set as a shared tuple. Hot paths call this for every move, so a set of
    the 32-card deck costs two dictionary lookups."""
    if not mask & _LOW_RANKS:
        low = mask & _HALF
        a = _LOW_HALF.get(low)
        if a is None:
            a = _LOW_HALF[low] = tuple(cards_of(low))
        high = mask >> 32
        b = _HIGH_HALF.get(high)
        if b is None:
            b = _HIGH_HALF[high] = tuple(cards_of(high << 32))
        return a + b
    out: tuple[Card, ...] = ()
    for suit in (0, 1, 2, 3):
        segment = (mask >> (16 * suit)) & 0xFFFF
        if segment:
            found = _SUIT_TUPLES[suit].get(segment)
            if found is None:
                found = _SUIT_TUPLES[suit][segment] = tuple(cards_of(segment << (16 * suit)))
            out += found
    return out


def iter_bits(mask: int) -> Iterator[int]:
    """The single-card bits of a set, lowest first."""
    while mask:
        low = mask & -mask
        yield low
        mask ^= low


def mask_of(cards: Iterable[Card]) -> int:
    """The card set holding these cards."""
    mask = 0
    for c in cards:
        mask |= c.bit
    return mask


def format_cards(cards: int | Iterable[Card]) -> str:
    """The notation of a set or sequence of cards, separated by single spaces."""
    if isinstance(cards, int):
        cards = cards_of(cards)
    return " ".join(c.text for c in cards)


def shuffled_bits(deck: int, rng: Random) -> list[int]:
    """The single-card bits of ``deck`` in a random order drawn from ``rng``.

    One big random number is decoded as a Fisher-Yates shuffle (mixed radix); with 64 spare bits
    the deviation from a uniform order is below 2^-64, and it is several times faster than
    ``Random.shuffle`` on a hot path that deals millions of deals."""
    bits = [c.bit for c in cards_of(deck)] if deck not in _DECK_BITS else _DECK_BITS[deck].copy()
    n = len(bits)
    r = rng.getrandbits(_PERMUTATION_BITS[n] if n in _PERMUTATION_BITS else 8 * n + 64)
    for i in range(n - 1, 0, -1):
        r, j = divmod(r, i + 1)
        bits[i], bits[j] = bits[j], bits[i]
    return bits


def deal_cards(deck: int, hands: int, hand_size: int, rng: Random) -> tuple[list[int], int]:
    """Shuffle ``deck`` with ``rng`` and deal ``hands`` hands of ``hand_size`` cards; returns the
    hands and the undealt rest as card sets."""
    bits = shuffled_bits(deck, rng)
    out = []
    for h in range(hands):
        m = 0
        for b in bits[h * hand_size : (h + 1) * hand_size]:
            m |= b
        out.append(m)
    rest = 0
    for b in bits[hands * hand_size :]:
        rest |= b
    return out, rest
