"""Trick play, T-30 … T-34: legal cards, refusals with their exact sentences, trick winners."""

from __future__ import annotations

import pytest

from blot.cards import DECK52, SUIT_MASKS, Card, cards_of, parse_card, parse_cards
from blot.errors import IllegalAction
from blot.three_five_eight import (
    HEARTS,
    NO_TRUMP,
    PASS,
    Call,
    Deal,
    Phase,
    legal_mask,
    winning_bit,
)
from blot.three_five_eight.play import SUIT_MASK_OF_INDEX, card_tuple

from .helpers import act, make_deal, to_play

H = SUIT_MASKS[1]


def _legal(hand: str, trick: str, trump: int) -> int:
    cards = parse_cards(trick)
    lead = SUIT_MASK_OF_INDEX[parse_card(trick.split()[0]).index] if trick else 0
    return legal_mask(parse_cards(hand), lead, cards, trump)


@pytest.mark.parametrize(
    ("rule", "hand", "trick", "trump", "legal"),
    [
        ("T-30 leader plays any card", "AS 2H 3D 4C", "", H, "AS 2H 3D 4C"),
        ("T-31 follow a plain suit", "AS 2S 3H KD", "10S", H, "AS 2S"),
        ("T-31 plain suit led and trumped: just follow", "AS 2S 3H", "10S 2H", H, "AS 2S"),
        ("T-31 trump led: overtrump", "KH 9H 2H 5S", "10H", H, "KH"),
        ("T-31 trump led: any stronger trump", "AH KH 2H", "QH", H, "AH KH"),
        ("T-31 trump led: beat the highest trump in", "KH 2H", "10H 5S", H, "KH"),
        ("T-31 trump led, none stronger: any trump", "KH 2H 5S", "10H AH", H, "KH 2H"),
        ("T-33 trump led, void of trumps: any card", "AS 2D", "10H", H, "AS 2D"),
        ("T-32 void: must trump", "2H 9H AD 3C", "KS", H, "2H 9H"),
        ("T-32 void, trump in: must overtrump", "2H 9H AD", "KS 5H", H, "9H"),
        ("T-32 void, trump in, cannot overtrump: any card", "2H 3H AD", "KS 5H", H, "2H 3H AD"),
        ("T-33 void without trumps: any card", "AD 3C", "KS", H, "AD 3C"),
        ("T-33 NT: follow suit", "AS 2S 3H", "KS", 0, "AS 2S"),
        ("T-33 NT: void, any card", "AD 3C 2H", "KS", 0, "AD 3C 2H"),
    ],
)
def test_t31_t33_legal_cards(rule: str, hand: str, trick: str, trump: int, legal: str) -> None:
    assert _legal(hand, trick, trump) == parse_cards(legal), rule


@pytest.mark.parametrize(
    ("trick", "trump", "winner"),
    [
        ("10S KS 2S", H, "KS"),
        ("10S 2H KS", H, "2H"),
        ("10S 2H 3H", H, "3H"),
        ("10S AD KS", H, "KS"),
        ("10S AD 2S", 0, "10S"),
        ("5H AS 2H", H, "5H"),
        ("2S 3S AH", 0, "3S"),
    ],
)
def test_t34_trick_winner(trick: str, trump: int, winner: str) -> None:
    lead = SUIT_MASK_OF_INDEX[parse_card(trick.split()[0]).index]
    assert winning_bit(parse_cards(trick), lead, trump) == parse_card(winner).bit


TALON = "2C 3C 4C 5C"
SPADES_0_2 = ("AS KS QS JS 10S 9S 8S", "7S 6S 5S 4S 3S 2S")


# Each case: the hands (first seat 0, dealer 2), the trump, the cards played before, the card
# offered, the sentence it is refused with, and then the legal cards of the seat to act.
PLAY_CASES = [
    (
        "t31_must_follow_suit",
        ("AS KS QS JS 10S", "2S 3S 4S 5S 3H", "6S 7S 8S 9S"),
        HEARTS,
        ["AS"],
        "3H",
        "seat 1 holds spades and must follow spades",
        "2S 3S 4S 5S",
    ),
    (
        "t31_trump_led_must_overtrump",
        ("10H 2H 3H 4H", "KH 9H 5H 6H", "AH QH JH 7H 8H"),
        HEARTS,
        ["10H"],
        "9H",
        "seat 1 holds a trump stronger than 10H and must play one",
        "KH",
    ),
    (
        "t31_trump_led_must_beat_the_highest_trump",
        ("10H 2H 3H 4H", "KH 9H 5H 6H", "AH QH JH 7H 8H"),
        HEARTS,
        ["10H", "KH"],
        "QH",
        "seat 2 holds a trump stronger than KH and must play one",
        "AH",
    ),
    (
        "t31_trump_led_follow_before_anything",
        ("AH 2H", "KH 3H 4H 2D", "QH JH 10H 9H 8H 7H 6H 5H"),
        HEARTS,
        ["AH"],
        "2D",
        "seat 1 holds hearts and must follow hearts",
        "3H 4H KH",
    ),
    (
        "t32_void_must_trump",
        (SPADES_0_2[0] + " AH KH", "2H 5H 2D", SPADES_0_2[1] + " 3H 4H 6H 7H 8H 9H 10H JH QH"),
        HEARTS,
        ["AS"],
        "2D",
        "seat 1 has no spades and holds a trump, so must trump",
        "2H 5H",
    ),
    (
        "t32_void_trump_in_must_overtrump",
        (
            "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S",
            "3H 4H 5H 7H 8H 10H JH QH KH AH",
            "2H 6H 9H",
        ),
        HEARTS,
        ["AS", "5H"],
        "2H",
        "seat 2 has no spades and holds a trump stronger than 5H, so must overtrump",
        "6H 9H",
    ),
]


@pytest.mark.parametrize(
    ("name", "hands", "call", "before", "offered", "message", "legal"),
    PLAY_CASES,
    ids=[c[0] for c in PLAY_CASES],
)
def test_play_refusals(
    name: str,
    hands: tuple[str, str, str],
    call: Call,
    before: list[str],
    offered: str,
    message: str,
    legal: str,
) -> None:
    deal = to_play(make_deal(*hands, TALON), call, TALON.split())
    act(deal, *before)
    snapshot = deal.copy()
    with pytest.raises(IllegalAction) as refused:
        deal.apply(parse_card(offered))
    assert str(refused.value) == message
    assert deal == snapshot
    assert set(deal.legal_actions()) == {parse_card(c) for c in legal.split()}
    for card in deal.legal_actions():  # every legal card is accepted
        deal.copy().apply(card)


SEAT0_ALL_SPADES = (
    "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S",
    "3H 4H 5H 7H 8H 10H JH QH KH AH",
    "2H 6H 9H",
)


def _trick_deal() -> Deal:
    return to_play(make_deal(*SEAT0_ALL_SPADES, TALON), HEARTS, TALON.split())


def test_t32_void_trump_in_cannot_overtrump_plays_any_card() -> None:
    deal = _trick_deal()
    act(deal, "AS", "AH")
    assert set(deal.legal_actions()) == set(_cards(deal.hand(2)))
    act(deal, "2H")  # under-trumping is allowed, nothing obliges it
    assert deal.tricks[-1].winner == 1
    assert deal.to_act == 1


def _cards(mask: int) -> list[Card]:
    return cards_of(mask)


def test_t33_void_without_trumps_plays_any_card() -> None:
    deal = to_play(make_deal("AS", "", "", TALON, voids="1:SH"), HEARTS, TALON.split())
    act(deal, "AS")
    assert set(deal.legal_actions()) == set(_cards(deal.hand(1)))


def test_t33_no_trump_void_plays_any_card_and_follower_must_follow() -> None:
    deal = to_play(make_deal("AS", "2H", "2S", TALON, voids="1:S"), NO_TRUMP, TALON.split())
    act(deal, "AS")
    assert set(deal.legal_actions()) == set(_cards(deal.hand(1)))
    act(deal, "2H")
    assert set(deal.legal_actions()) == set(_cards(deal.hand(2) & SUIT_MASKS[0]))
    act(deal, "2S")
    assert deal.tricks[0].winner == 0  # T-34: no trump, highest of the suit led


def test_t30_first_seat_leads_whoever_called_and_winner_leads_next() -> None:
    deal = make_deal(
        "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S",
        "3H 4H 5H 7H 8H 10H JH QH KH AH",
        "2H 6H 9H",
        TALON,
    )
    act(deal, "pass", "H")  # seat 1 names hearts; seat 0 is still the first seat
    assert deal.caller == 1
    act(deal, *TALON.split())
    assert deal.phase is Phase.PLAY and deal.to_act == 0
    act(deal, "AS", "5H", "9H")  # T-34: seat 2's 9H is the highest trump
    assert deal.tricks[0].winner == 2 and deal.to_act == 2
    assert deal.tricks_taken == (0, 0, 1)


def test_t30_play_of_a_card_not_held_is_refused() -> None:
    deal = _trick_deal()
    snapshot = deal.copy()
    with pytest.raises(IllegalAction) as refused:
        deal.apply(parse_card("2H"))
    assert str(refused.value) == "seat 0 does not hold 2H"
    assert deal == snapshot


def test_play_phase_refuses_a_call() -> None:
    deal = _trick_deal()
    snapshot = deal.copy()
    with pytest.raises(IllegalAction) as refused:
        deal.apply(PASS)
    assert str(refused.value) == "seat 0 must play a card now, and pass is not a card"
    assert deal == snapshot


def test_card_tuple_lists_a_set_suit_by_suit_low_to_high() -> None:
    assert card_tuple(DECK52) == tuple(cards_of(DECK52))
    assert card_tuple(0) == ()
    hand = parse_cards("AH 2H 5C 10S")
    assert [str(c) for c in card_tuple(hand)] == ["10S", "2H", "AH", "5C"]
