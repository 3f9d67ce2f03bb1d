"""The exchange, T-20 and T-21: who gives to whom and in what order, the forced return, no
exchange on the first counted deal or after an NT call."""

from __future__ import annotations

from random import Random

import pytest

from blot.cards import parse_card, parse_cards
from blot.errors import IllegalAction
from blot.three_five_eight import (
    HEARTS,
    NO_TRUMP,
    SPADES,
    Action,
    Exchange,
    Game,
    Phase,
    exchange_plan,
    random_deal,
)

from .helpers import act, make_deal, random_play, result


@pytest.mark.parametrize(
    ("name", "dealer", "tricks", "plan"),
    [
        ("one plus, one minus", 0, (5, 6, 5), ((0, 1), (0, 1))),
        ("one plus, two minus: higher target receives first", 0, (7, 6, 3), ((0, 1),) * 2 + ((0, 2),) * 2),
        ("two plus, one minus: higher target gives first", 0, (5, 4, 7), ((2, 1),) * 2 + ((0, 1),) * 2),
        ("previous targets, not deficits, order the minus seats", 1, (9, 2, 5), ((0, 2),) * 3 + ((0, 1),)),
        ("previous targets order the plus seats", 2, (6, 6, 4), ((1, 0), (2, 0))),
        ("everyone on target: no exchange", 2, (8, 5, 3), ()),
        ("a big plus", 0, (16, 0, 0), ((0, 1),) * 8 + ((0, 2),) * 5),
    ],
)
def test_t20_exchange_plan(
    name: str, dealer: int, tricks: tuple[int, int, int], plan: tuple[tuple[int, int], ...]
) -> None:
    assert exchange_plan(result(dealer, tricks)) == plan, name


def test_t20_no_exchange_before_the_first_counted_deal() -> None:
    assert exchange_plan(None) == ()
    deal = make_deal("", "", "", dealer=0)
    act(deal, "H")
    assert deal.phase is Phase.DISCARD and deal.exchanges == ()


def test_t20_never_after_an_nt_call() -> None:
    deal = make_deal("", "", "", dealer=1, previous=result(0, (5, 6, 5)))
    assert deal.view(0).plan == ((0, 1), (0, 1))
    act(deal, "NT")
    assert deal.phase is Phase.DISCARD and deal.to_act == 2
    assert deal.plan == () and deal.exchanges == ()


# Previous deal: dealer 0 (targets 3 8 5), tricks 5 6 5: seat 0 is +2, seat 1 is -2.
PLUS0_MINUS1 = result(0, (5, 6, 5))
SPADES_SPLIT = ("10S AS KS QS JS", "9S 3S", "8S 7S 6S 5S 4S 2S")
HEARTS_SPLIT = ("5H", "KH 9H 2H", "AH QH JH 10H 8H 7H 6H 4H 3H")


def test_t21_one_plus_one_minus_worked() -> None:
    deal = make_deal(
        *(f"{s} {h}" for s, h in zip(SPADES_SPLIT, HEARTS_SPLIT, strict=True)),
        dealer=1,
        previous=PLUS0_MINUS1,
    )
    h0, h1 = deal.hand(0), deal.hand(1)
    act(deal, "S")  # seat 2, the first seat, names spades
    assert deal.view(0).phase is Phase.EXCHANGE and deal.to_act == 0
    assert set(deal.legal_actions()) == set(deal.view(0).hand_cards)
    act(deal, "5H")  # seat 1 holds KH 9H 2H: KH is his strongest heart and beats 5H
    assert list(deal.exchanges) == [Exchange(0, 1, parse_card("5H"), parse_card("KH"))]
    assert deal.hand(0) == h0 ^ parse_cards("5H KH")
    assert deal.hand(1) == h1 ^ parse_cards("5H KH")
    assert deal.to_act == 0
    act(deal, "10S")  # seat 1 holds only 9S 3S: the gift itself comes back
    assert deal.exchanges[1] == Exchange(0, 1, parse_card("10S"), parse_card("10S"))
    assert deal.hand(0) == h0 ^ parse_cards("5H KH")
    assert [str(c) for c in deal.gifts] == ["5H", "10S"]
    assert deal.phase is Phase.DISCARD and deal.to_act == 2  # then the talon (T-22)
    random_play(deal, Random(0))
    assert deal.result is not None and deal.result.exchanged == 2


@pytest.mark.parametrize(
    ("receiver_holds", "gift", "returned"),
    [
        ("KH 9H 2H", "5H", "KH"),  # stronger cards held: the strongest comes back
        ("AH QH", "JH", "AH"),
        ("3C", "2C", "3C"),
        ("AC", "KC", "AC"),
        ("9S 3S", "10S", "10S"),  # only weaker cards: the gift comes back
        ("", "7D", "7D"),  # void in the suit: the gift comes back
        ("KD", "AD", "AD"),
    ],
)
def test_t21_receiver_returns_strongest_higher_card_or_the_gift(
    receiver_holds: str, gift: str, returned: str
) -> None:
    suit = gift[-1]
    deal = make_deal(gift, receiver_holds, "", dealer=1, voids=f"1:{suit}", previous=PLUS0_MINUS1)
    before = deal.hands
    act(deal, "H", gift)
    assert deal.exchanges[0].returned is parse_card(returned)
    moved = parse_card(gift).bit ^ parse_card(returned).bit  # nothing moves when it comes back
    assert deal.hands == (before[0] ^ moved, before[1] ^ moved, before[2])


def test_t20_one_plus_two_minus_order() -> None:
    # dealer 0 (targets 3 8 5), tricks 7 6 3: seat 0 +4, seat 1 -2 (target 8), seat 2 -2 (target 5)
    deal = make_deal("2S 3S 4S 5S", "", "", dealer=1, previous=result(0, (7, 6, 3)))
    act(deal, "H")
    seen = []
    for card in ("2S", "3S", "4S", "5S"):
        seen.append(deal.to_act)
        act(deal, card)
    assert seen == [0, 0, 0, 0]
    assert [(e.giver, e.receiver) for e in deal.exchanges] == [(0, 1), (0, 1), (0, 2), (0, 2)]


def test_t20_two_plus_one_minus_order() -> None:
    # dealer 0 (targets 3 8 5), tricks 5 4 7: seat 0 +2 (target 3), seat 2 +2 (target 5), seat 1 -4
    deal = make_deal("2S 3S", "", "4S 5S", dealer=1, previous=result(0, (5, 4, 7)))
    act(deal, "H")
    seen = []
    for card in ("4S", "5S", "2S", "3S"):
        seen.append(deal.to_act)
        act(deal, card)
    assert seen == [2, 2, 0, 0]
    assert [(e.giver, e.receiver) for e in deal.exchanges] == [(2, 1), (2, 1), (0, 1), (0, 1)]


def test_t21_a_card_that_came_back_may_be_given_again() -> None:
    # dealer 0, tricks 5 7 4: seat 0 +2 gives one card to seat 1 (target 8), then one to seat 2
    deal = make_deal("10S AS", "9S 3S", "JS 8S 7S 6S 5S 4S 2S KS QS", dealer=1, previous=result(0, (5, 7, 4)))
    act(deal, "H", "10S")
    assert deal.exchanges[0].returned is parse_card("10S")
    act(deal, "10S")
    assert deal.exchanges[1] == Exchange(0, 2, parse_card("10S"), parse_card("KS"))


def test_t20_exchange_refusals_leave_the_deal_unchanged() -> None:
    deal = make_deal("2S", "AS", "", dealer=1, previous=PLUS0_MINUS1)
    act(deal, "H")
    refusals: list[tuple[Action, str]] = [
        (parse_card("AS"), "seat 0 does not hold AS"),
        (HEARTS, "seat 0 must give a card to seat 1 now, and H is not a card"),
    ]
    for action, message in refusals:
        snapshot = deal.copy()
        with pytest.raises(IllegalAction) as refused:
            deal.apply(action)
        assert str(refused.value) == message
        assert deal == snapshot


def test_t22_exchange_comes_before_the_talon() -> None:
    deal = make_deal("", "", "", dealer=1, previous=PLUS0_MINUS1)
    act(deal, "S")
    assert deal.phase is Phase.EXCHANGE
    assert deal.hand(2).bit_count() == 16
    assert all(deal.view(s).talon is None for s in range(3))


def test_t20_after_a_void_deal_the_last_counted_deal_decides() -> None:
    rng = Random(21)
    game = Game(dealer=0)
    game.start_deal(random_deal(rng))
    act(game, "S")  # nobody passes in the first deal
    random_play(game, rng)
    first = game.results[0]
    game.start_deal(random_deal(rng))
    act(game, "pass", "pass", "pass")
    assert game.results[-1].void and game.dealer == 1
    deal = game.start_deal(random_deal(rng))
    assert deal.plan == exchange_plan(first)
    act(game, SPADES.text if deal.plan else NO_TRUMP.text)
    for _ in deal.plan:
        assert game.phase is Phase.EXCHANGE
        game.apply(game.legal_actions()[0])
    assert game.phase is Phase.DISCARD
