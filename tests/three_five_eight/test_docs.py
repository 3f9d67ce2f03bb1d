"""The examples in the 3-5-8 docstrings run as written."""

from __future__ import annotations

import doctest
from types import ModuleType

import pytest

from blot.cards import DECK52, cards_of, parse_cards
from blot.three_five_eight import calls, deal, game, play


@pytest.mark.parametrize("module", [calls, deal, game, play], ids=lambda m: m.__name__)
def test_docstring_examples(module: ModuleType) -> None:
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0


def test_card_tuple_lists_a_set_suit_by_suit_low_to_high() -> None:
    assert play.card_tuple(DECK52) == tuple(cards_of(DECK52))
    assert play.card_tuple(0) == ()
    hand = parse_cards("AH 2H 5C 10S")
    assert [str(c) for c in play.card_tuple(hand)] == ["10S", "2H", "AH", "5C"]
