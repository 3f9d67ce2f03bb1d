"""blot.cards: notation in and out, decks, card sets."""

import pytest

from blot.cards import (
    DECK32,
    DECK52,
    Card,
    Suit,
    cards_of,
    format_cards,
    parse_card,
    parse_cards,
    rank_mask,
)
from blot.errors import NotationError


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("10H", "10H"),
        ("TH", "10H"),
        ("th", "10H"),
        ("AS", "AS"),
        ("7♣", "7C"),
        ("Q♦", "QD"),
        ("K♥", "KH"),
        ("J♠", "JS"),
        ("2c", "2C"),
        (" 9D ", "9D"),
    ],
)
def test_notation_is_read(text: str, expected: str) -> None:
    assert str(parse_card(text)) == expected


@pytest.mark.parametrize("text", ["1H", "11S", "AX", "", "H", "10", "AAS", "ZZ"])
def test_anything_else_is_refused_with_a_clear_message(text: str) -> None:
    with pytest.raises(NotationError, match=r"is not a card: write the rank"):
        parse_card(text)


def test_cards_are_singletons() -> None:
    assert parse_card("TH") is parse_card("10h") is Card("10H")
    import copy
    import pickle

    ah = parse_card("AH")
    assert pickle.loads(pickle.dumps(ah)) is ah
    assert copy.deepcopy(ah) is ah


def test_decks() -> None:
    assert DECK32.bit_count() == 32
    assert DECK52.bit_count() == 52
    assert {c.rank for c in cards_of(DECK32)} == set(range(7, 15))
    assert DECK32 & DECK52 == DECK32
    for suit in Suit:
        assert (DECK52 & suit.mask).bit_count() == 13
    assert rank_mask(11).bit_count() == 4


def test_sets_round_trip_and_refuse_repeats() -> None:
    mask = parse_cards("JH, 9H AH 10S")
    assert format_cards(mask) == "10S 9H JH AH"
    assert parse_cards(format_cards(mask)) == mask
    with pytest.raises(NotationError, match="appears twice"):
        parse_cards("AS TS 10S")
