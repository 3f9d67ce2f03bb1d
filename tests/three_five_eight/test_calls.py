"""Trump calls and targets: T-3 and T-10 (call order, first strain named, pass once per game,
three passes void the deal and the same dealer deals again)."""

from __future__ import annotations

import copy
import pickle
from random import Random

import pytest

from blot.cards import parse_card
from blot.errors import IllegalAction, NotationError
from blot.three_five_eight import (
    CALLS,
    CLUBS,
    DIAMONDS,
    HEARTS,
    NO_TRUMP,
    PASS,
    SPADES,
    STRAINS,
    Deal,
    Game,
    Phase,
    parse_action,
    parse_call,
    random_deal,
    targets_for,
)

from .helpers import act, random_play


@pytest.mark.parametrize(
    ("text", "call"),
    [
        ("S", SPADES),
        ("H", HEARTS),
        ("D", DIAMONDS),
        ("C", CLUBS),
        ("NT", NO_TRUMP),
        ("pass", PASS),
        (" nt ", NO_TRUMP),
        ("h", HEARTS),
        ("PASS", PASS),
        ("♣", CLUBS),
    ],
)
def test_t10_calls_are_read_from_record_notation(text: str, call: object) -> None:
    assert parse_call(text) is call
    assert parse_action(text) is call


def test_t10_call_text_is_exactly_the_record_notation() -> None:
    assert [str(c) for c in CALLS] == ["S", "H", "D", "C", "NT", "pass"]
    assert [parse_call(str(c)) for c in CALLS] == list(CALLS)
    assert all(pickle.loads(pickle.dumps(c)) is c and copy.deepcopy(c) is c for c in CALLS)
    assert HEARTS.suit == 1 and NO_TRUMP.suit is None and PASS.is_pass and NO_TRUMP.is_no_trump
    assert [c.describe() for c in CALLS[3:]] == ["clubs", "no trump", "pass"]


@pytest.mark.parametrize("text", ["X", "10H", "", "passs", "N T", "1NT", "contra"])
def test_t10_anything_else_is_not_a_call(text: str) -> None:
    with pytest.raises(NotationError) as refused:
        parse_call(text)
    assert str(refused.value) == f"{text.strip()!r} is not a 3-5-8 call: write S, H, D, C, NT or pass"


@pytest.mark.parametrize("text", ["X", "11H", "", "contra", "AS KS"])
def test_parse_action_refuses_what_is_neither_card_nor_call(text: str) -> None:
    with pytest.raises(NotationError, match="is not a 3-5-8 action: write a card such as 10H"):
        parse_action(text)


def test_parse_action_reads_cards() -> None:
    assert parse_action("10h") is parse_card("10H")
    assert parse_action("TS") is parse_card("10S")


@pytest.mark.parametrize(
    ("dealer", "targets", "first"), [(0, (3, 8, 5), 1), (1, (5, 3, 8), 2), (2, (8, 5, 3), 0)]
)
def test_t3_targets_by_dealer(dealer: int, targets: tuple[int, int, int], first: int) -> None:
    cards = random_deal(Random(dealer))
    hands, talon = cards.hands, cards.talon
    deal = Deal(hands, talon, dealer)
    assert targets_for(dealer) == deal.targets == targets
    assert deal.first == first and deal.to_act == first  # T-10: the first seat calls first
    assert deal.targets[first] == 8


def _deal(dealer: int = 0, may_pass: tuple[bool, bool, bool] = (True, True, True)) -> Deal:
    cards = random_deal(Random(11))
    hands, talon = cards.hands, cards.talon
    return Deal(hands, talon, dealer, may_pass=may_pass)


def test_t10_calls_go_first_second_dealer_and_the_first_strain_is_trump() -> None:
    deal = _deal(dealer=0)
    assert deal.to_act == 1
    act(deal, "pass")
    assert deal.to_act == 2
    act(deal, "D")
    assert deal.trump is DIAMONDS and deal.caller == 2
    assert [str(c) for c in deal.calls] == ["pass", "D"]
    assert deal.phase is Phase.DISCARD
    assert deal.targets == (3, 8, 5)  # T-10: targets stay with the seats
    assert deal.to_act == 1  # the first seat takes the talon, not the caller


def test_t10_dealer_may_name_after_two_passes() -> None:
    deal = _deal(dealer=1)
    act(deal, "pass", "pass")
    assert deal.to_act == 1
    act(deal, "NT")
    assert deal.trump is NO_TRUMP and deal.caller == 1
    assert deal.may_pass == (False, True, False)


def test_t10_a_seat_that_passed_may_not_pass_again() -> None:
    deal = _deal(dealer=2, may_pass=(False, True, True))
    assert deal.legal_actions() == STRAINS
    snapshot = deal.copy()
    with pytest.raises(IllegalAction) as refused:
        deal.apply(PASS)
    assert str(refused.value) == "seat 0 has already passed once this game"
    assert deal == snapshot


def test_t10_call_phase_refuses_a_card() -> None:
    deal = _deal(dealer=2)
    snapshot = deal.copy()
    with pytest.raises(IllegalAction) as refused:
        deal.apply(parse_card("AS"))
    assert str(refused.value) == "seat 0 must name a trump or pass now, and AS is not a call"
    assert deal == snapshot


def test_t10_three_passes_void_the_deal() -> None:
    deal = _deal(dealer=0)
    act(deal, "pass", "pass", "pass")
    assert deal.is_over and deal.is_void and deal.phase is Phase.OVER
    assert deal.result is not None and deal.result.void
    assert deal.result.to_json() == {
        "dealer": 0,
        "void": True,
        "trump": None,
        "caller": None,
        "targets": [3, 8, 5],
        "tricks": [0, 0, 0],
        "scores": [0, 0, 0],
    }
    assert deal.legal_actions() == ()
    with pytest.raises(IllegalAction) as refused:
        deal.apply(HEARTS)
    assert str(refused.value) == "the deal is over"


def test_t10_pass_once_across_deals_of_a_game() -> None:
    rng = Random(3)
    game = Game(dealer=0)
    game.start_deal(random_deal(rng))
    act(game, "pass", "S")  # seat 1 passes, seat 2 names spades
    assert game.may_pass == (True, False, True)
    random_play(game, rng)  # the rest of deal 1
    assert game.counted == 1 and game.dealer == 1
    game.start_deal(random_deal(rng))
    assert game.to_act == 2 and PASS in game.legal_actions()
    act(game, "pass")
    assert game.to_act == 0 and PASS in game.legal_actions()
    act(game, "pass")
    assert game.to_act == 1 and game.legal_actions() == STRAINS  # the dealer passed in deal 1
    snapshot = game.copy()
    with pytest.raises(IllegalAction) as refused:
        game.apply(PASS)
    assert str(refused.value) == "seat 1 has already passed once this game"
    assert game == snapshot
    act(game, "C")
    assert game.may_pass == (False, False, False)


def test_t10_all_pass_redeal_by_the_same_dealer_is_not_counted() -> None:
    rng = Random(4)
    game = Game(dealer=2)
    game.start_deal(random_deal(rng))
    act(game, "pass", "pass", "pass")
    assert game.phase is Phase.DEAL and game.to_act is None and game.deal is not None and game.deal.is_void
    assert game.counted == 0 and game.dealer == 2 and game.totals == (0, 0, 0)
    assert [r.void for r in game.results] == [True]
    assert game.may_pass == (False, False, False)
    deal = game.start_deal(random_deal(rng))
    assert deal.dealer == 2 and deal.targets == (8, 5, 3) and deal.to_act == 0
    assert deal.plan == ()  # still the first counted deal: no exchange (T-20)
    assert game.legal_actions() == STRAINS  # nobody may pass any more
    act(game, "H")
    random_play(game, rng)
    assert game.counted == 1 and game.dealer == 0 and len(game.results) == 2


def test_t10_void_deal_in_a_game_with_its_own_shuffles() -> None:
    game = Game(dealer=1, rng=Random(9))
    act(game, "pass", "pass", "pass")
    assert game.phase is Phase.CALL and game.dealer == 1 and game.counted == 0
    assert game.deal is not None and game.deal.targets == (5, 3, 8)
    assert len(game.deals) == 2 and game.deals[0].is_void
    assert game.deals[0].dealt != game.deal.dealt  # a fresh shuffle
