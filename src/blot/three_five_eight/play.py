"""Trick play of 3-5-8 on card sets (T-31 … T-34): the legal cards, why a card is refused, and
who wins a trick.

Everything here works on int card sets (``blot.cards``): within a suit a higher bit is a stronger
card (T-1, A K Q … 2), so "the trumps stronger than ``t``" is ``trumps & -(1 << t.bit_length())``
and the strongest card of a set is its highest bit. Nothing here allocates. ``Deal.apply`` runs
the same logic inlined (it is the hot path of every search); these functions are the reference
that bots, the solver and the tests use, and the tests check that the two agree.

Hearts led, spades trump: a seat with a heart must follow; a void seat that cannot beat the
10S already in the trick may play any card (T-32); the trump takes the trick (T-34).

>>> from blot.cards import SUIT_MASKS, Suit, format_cards, parse_cards
>>> hearts, spades = SUIT_MASKS[Suit.H], SUIT_MASKS[Suit.S]
>>> format_cards(legal_mask(parse_cards("3H 9S 5D"), hearts, parse_cards("KH"), spades))
'3H'
>>> format_cards(legal_mask(parse_cards("9S 2S 5D"), hearts, parse_cards("KH 10S"), spades))
'2S 9S 5D'
>>> format_cards(winning_bit(parse_cards("KH 10S AH"), hearts, spades))
'10S'
"""

from __future__ import annotations

from typing import Final

from blot.cards import CARD_OF_BIT, SUIT_MASKS, SUIT_NAMES, Card, Suit
from blot.reasons import Reason


def highest(cards: int) -> int:
    """The bit of the strongest card of a non-empty set of one suit (T-1)."""
    return 1 << (cards.bit_length() - 1)


def legal_mask(hand: int, lead_mask: int, trick: int, trump_mask: int) -> int:
    """The cards of ``hand`` that may be played to a trick.

    ``lead_mask`` is the suit led (0 when leading: any card), ``trick`` the cards already in the
    trick and ``trump_mask`` the trump suit (0 in an NT deal).

    - T-31: follow suit; when trump is led, overtrump every trump in the trick when able.
    - T-32: void and holding trumps: trump; with a trump already in the trick, overtrump when
      able, otherwise any card (there is no duty to under-trump).
    - T-33: void with no trumps, or void in an NT deal: any card.
    """
    if not lead_mask:
        return hand
    follow = hand & lead_mask
    if follow:
        if lead_mask & trump_mask:
            higher = follow & -(1 << (trick & trump_mask).bit_length())
            return higher or follow
        return follow
    trumps = hand & trump_mask
    if not trumps:
        return hand
    in_trick = trick & trump_mask
    if in_trick:
        return (trumps & -(1 << in_trick.bit_length())) or hand
    return trumps


def refusal(seat: int, card: Card, hand: int, lead_mask: int, trick: int, trump_mask: int) -> Reason:
    """The one-sentence reason why ``seat`` may not play ``card`` now (it must hold it and the
    card must be outside :func:`legal_mask`)."""
    led = SUIT_NAMES[(lead_mask.bit_length() - 1) >> 4]
    follow = hand & lead_mask
    if follow and not card.bit & lead_mask:
        return Reason("must_follow", seat=seat, suit=led, lead=led)
    top = trick & trump_mask
    top_card = CARD_OF_BIT[highest(top)] if top else None
    if follow:  # trump led, a lower trump offered while a stronger one is held
        return Reason("tfe_must_overtrump_follow", seat=seat, card=top_card)
    if top_card is None:
        return Reason("tfe_must_trump", seat=seat, lead=led)
    return Reason("tfe_must_overtrump", seat=seat, lead=led, card=top_card)


def winning_bit(trick: int, lead_mask: int, trump_mask: int) -> int:
    """The card that takes a trick (T-34): the highest trump, or with no trump in it the highest
    card of the suit led."""
    trumps = trick & trump_mask
    return highest(trumps or (trick & lead_mask))


def _suit_tables() -> tuple[tuple[tuple[Card, ...], ...], ...]:
    """For each suit, the cards of every 13-bit rank pattern (bit 0 = rank 2), lowest first."""
    tables = []
    for suit in Suit:
        table: list[tuple[Card, ...]] = [()] * 8192
        for m in range(1, 8192):
            top = m.bit_length() - 1
            table[m] = (*table[m ^ (1 << top)], CARD_OF_BIT[1 << (16 * suit + 2 + top)])
        tables.append(tuple(table))
    return tuple(tables)


#: Per suit, the cards of each 13-bit rank pattern: ``SUIT_CARD_TABLES[s][(cards >> (16 * s + 2))
#: & 0x1FFF]`` is the tuple of that suit's cards in ``cards``.
SUIT_CARD_TABLES: Final = _suit_tables()
_SPADES, _HEARTS, _DIAMONDS, _CLUBS = SUIT_CARD_TABLES

#: The suit mask of each card index (``index >> 4`` is the suit).
SUIT_MASK_OF_INDEX: Final = tuple(SUIT_MASKS[i >> 4] for i in range(64))


def card_tuple(cards: int) -> tuple[Card, ...]:
    """The cards of a set, suit by suit and low to high, from precomputed tables: the hot path
    of ``legal_actions`` (a single-suit set is a shared tuple, nothing is allocated)."""
    s = _SPADES[(cards >> 2) & 0x1FFF]
    h = _HEARTS[(cards >> 18) & 0x1FFF]
    d = _DIAMONDS[(cards >> 34) & 0x1FFF]
    c = _CLUBS[(cards >> 50) & 0x1FFF]
    if not (h or d or c):
        return s
    return s + h + d + c
