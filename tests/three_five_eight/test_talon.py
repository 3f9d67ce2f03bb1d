"""The talon, T-22: shown to all after the exchange, taken by the first seat (target 8), who
puts back four cards one at a time; only he knows which."""

from __future__ import annotations

import pytest

from blot.cards import parse_card, parse_cards
from blot.errors import IllegalAction
from blot.three_five_eight import PASS, Phase

from .helpers import act, make_deal

TALON = "2C 3C 4C 5C"


def test_t22_first_seat_takes_the_talon_shown_to_all() -> None:
    deal = make_deal("AS", "", "", TALON, dealer=2)
    talon = parse_cards(TALON)
    assert all(deal.view(s).talon is None for s in range(3))  # face down until the call is over
    dealt = deal.hand(0)
    act(deal, "pass", "S")
    assert deal.phase is Phase.DISCARD and deal.to_act == 0
    assert deal.hand(0) == dealt | talon and deal.hand(0).bit_count() == 20
    assert all(deal.view(s).talon == talon for s in range(3))
    assert len(deal.legal_actions()) == 20
    assert deal.view(0).hand_sizes == (20, 16, 16)


def test_t22_discard_is_four_one_card_actions_of_any_cards() -> None:
    deal = make_deal("AS KS", "", "", TALON, dealer=2)
    act(deal, "H")
    act(deal, "AS", "2C")  # a dealt card and a talon card: any four cards
    assert deal.view(0).phase is Phase.DISCARD and deal.to_act == 0
    assert deal.view(0).discard == parse_cards("AS 2C")
    assert deal.view(1).discard is None and deal.view(2).discard is None
    snapshot = deal.copy()
    with pytest.raises(IllegalAction) as refused:
        deal.apply(parse_card("AS"))
    assert str(refused.value) == "seat 0 does not hold AS"
    assert deal == snapshot
    with pytest.raises(IllegalAction) as refused:
        deal.apply(PASS)
    assert str(refused.value) == "seat 0 must discard a card now, and pass is not a card"
    assert deal == snapshot
    act(deal, "KS", "3C")
    assert deal.phase is Phase.PLAY and deal.to_act == 0  # T-30: the first seat leads
    assert [str(c) for c in deal.discard] == ["AS", "2C", "KS", "3C"]
    assert deal.hand(0).bit_count() == 16
    assert deal.hand(0) & parse_cards("AS KS 2C 3C") == 0
    assert deal.view(0).discard == parse_cards("AS KS 2C 3C")
    assert deal.view(1).discard is None and deal.view(2).discard is None
    assert deal.view(2).talon == parse_cards(TALON)  # the talon stays known to all


def test_t22_first_seat_with_dealer_zero() -> None:
    deal = make_deal("", "", "", TALON, dealer=0)
    act(deal, "D")
    assert deal.to_act == 1 and deal.hand(1).bit_count() == 20
