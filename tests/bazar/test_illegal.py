"""Every kind of illegal action is refused with one plain sentence and changes nothing (DESIGN.md:
``apply`` raises ``IllegalAction`` and leaves the state untouched)."""

from __future__ import annotations

from collections.abc import Callable
from random import Random

import pytest

from blot.bazar import CONTRA, PASS, REDOUBLE, SEVENS, Action, Deal, Game, Rules, parse_call
from blot.bazar.declarations import DECLARE_NONE, Declare
from blot.cards import parse_card
from blot.errors import IllegalAction

from .helpers import CLASSIC, decl, declare, fill, finish, new_deal, play, snapshot

HANDS = fill("7S", "7H", "7D", "7C")
SEVENS_0 = fill("7S 7H 7D 7C")


def _late_declare() -> Deal:
    deal = new_deal(fill("AS KS QS"), "8H pass pass pass")
    deal.apply(DECLARE_NONE)
    while len(deal.tricks) < 1 or deal.to_act != 0:
        deal.apply(deal.legal_actions()[0])
    return deal


def _first_trick(named: list[str], voids: str, played: str, strain: str = "H") -> Callable[[], Deal]:
    def setup() -> Deal:
        deal = new_deal(fill(*named, voids=voids), f"8{strain} pass pass pass")
        play(deal, played)
        if deal.must_declare:
            deal.apply(DECLARE_NONE)
        return deal

    return setup


CASES: list[tuple[str, Callable[[], Deal], Action, str]] = [
    # bidding
    (
        "bid_too_low",
        lambda: new_deal(HANDS, "10H"),
        parse_call("10S"),
        "10S is too low: a bid must be above 10H",
    ),
    (
        "bid_equal",
        lambda: new_deal(HANDS, "10H"),
        parse_call("10H"),
        "10H is too low: a bid must be above 10H",
    ),
    (
        "contra_own_team",
        lambda: new_deal(HANDS, "8S pass"),
        CONTRA,
        "seat 2 may not contra its own team's bid",
    ),
    ("contra_no_bid", lambda: new_deal(HANDS, "pass"), CONTRA, "there is no bid to contra"),
    ("redouble_no_contra", lambda: new_deal(HANDS, "8S"), REDOUBLE, "there is no contra to redouble"),
    (
        "bid_after_contra",
        lambda: new_deal(HANDS, "8S contra"),
        parse_call("9S"),
        "after a contra seat 2 may only redouble or pass (B-24)",
    ),
    (
        "contra_after_contra",
        lambda: new_deal(HANDS, "8S contra pass"),
        CONTRA,
        "after a contra seat 0 may only redouble or pass (B-24)",
    ),
    ("bid_after_25", lambda: new_deal(HANDS, "25S"), parse_call("25NT"), "nobody may bid after 25S (B-22)"),
    (
        "kanach_without_option",
        lambda: new_deal(HANDS),
        parse_call("30NT"),
        "30 (kanach) is not a bid unless the kanach option is on",
    ),
    (
        "bid_after_30",
        lambda: new_deal(HANDS, "30S", rules=Rules(kanach=True)),
        parse_call("30NT"),
        "nobody may bid after 30S (B-22)",
    ),
    ("sevens_not_held", lambda: new_deal(HANDS), SEVENS, "seat 0 was not dealt all four 7s"),
    (
        "sevens_late",
        lambda: new_deal(SEVENS_0, "pass 8S pass pass"),
        SEVENS,
        "four sevens may only be shown as a seat's first call (B-25)",
    ),
    (
        "sevens_classic",
        lambda: new_deal(SEVENS_0, rules=CLASSIC),
        SEVENS,
        "four sevens do not void a deal in the classic ruleset (B-90)",
    ),
    (
        "going_on_same_strain",
        lambda: new_deal(HANDS, "8H pass pass pass", rules=Rules(three_passes_end_bidding=False)),
        parse_call("9H"),
        "seat 0 may go on only in a strain other than H (B-26)",
    ),
    (
        "card_in_bidding",
        lambda: new_deal(HANDS),
        parse_card("7S"),
        "7S is not a call: the bidding is not over",
    ),
    (
        "declare_in_bidding",
        lambda: new_deal(HANDS, "8S"),
        DECLARE_NONE,
        "none is not a call: the bidding is not over",
    ),
    # play
    (
        "call_in_play",
        lambda: new_deal(HANDS, "8S pass pass pass"),
        PASS,
        "pass is not a card: the bidding is over",
    ),
    (
        "bid_in_play",
        lambda: new_deal(HANDS, "8S pass pass pass"),
        parse_call("10H"),
        "10H is not a card: the bidding is over",
    ),
    (
        "card_not_held",
        _first_trick(["7S", "", "AS"], "", "7S"),
        parse_card("AS"),
        "seat 1 does not hold AS",
    ),
    (
        "card_already_played",
        _first_trick(["7S"], "", "7S"),
        parse_card("7S"),
        "seat 1 does not hold 7S",
    ),
    (
        "revoke",
        _first_trick(["7S", "8S JH"], "1:S", "7S"),
        parse_card("JH"),
        "seat 1 holds spades and must follow spades",
    ),
    (
        "trump_not_followed",
        _first_trick(["7H", "8H AS"], "1:H", "7H"),
        parse_card("AS"),
        "seat 1 holds trumps and must follow hearts",
    ),
    (
        "trump_not_overtrumped",
        _first_trick(["10H", "9H 7H"], "1:H", "10H"),
        parse_card("7H"),
        "seat 1 holds a trump above 10H and must play one (B-31)",
    ),
    (
        "no_ruff",
        _first_trick(["7S", "7H 7D"], "1:S", "7S"),
        parse_card("7D"),
        "seat 1 has no spades and must trump (B-32)",
    ),
    (
        "no_overruff",
        _first_trick(["7S", "10H", "JH 8H"], "1:S 2:SH", "7S 10H"),
        parse_card("8H"),
        "seat 2 has no spades and must play a trump above 10H (B-32)",
    ),
    (
        "card_before_declaring",
        lambda: new_deal(fill("AS KS QS"), "8H pass pass pass"),
        parse_card("AS"),
        "seat 0 must say what it declares before playing its first card",
    ),
    (
        "overlapping_declarations",
        lambda: new_deal(fill("JS JH JD JC QH KH"), "8S pass pass pass"),
        Declare((decl("JS JH JD JC"), decl("KH QH JH"))),
        "seat 0 cannot declare JS JH JD JC, KH QH JH: a card may serve in only one declaration (B-43)",
    ),
    (
        "declaration_not_held",
        lambda: new_deal(fill("JS JH JD JC", "AD KD QD"), "8S pass pass pass"),
        declare("AD KD QD"),
        "seat 0 cannot declare AD KD QD: it does not hold QD KD AD",
    ),
    (
        "declare_twice",
        lambda: _declared_once(),
        declare("AS KS QS"),
        "seat 0 has already said what it declares",
    ),
    (
        "declare_with_nothing_to_declare",
        lambda: new_deal(fill("7S", "8H", "9D", "10C"), "8H pass pass pass"),
        DECLARE_NONE,
        "seat 0 has nothing to declare",
    ),
    (
        "text_instead_of_a_call",
        lambda: new_deal(HANDS, ""),
        "pass",  # type: ignore[arg-type]
        "the text 'pass' is not an action: read it with parse_action first",
    ),
    (
        "declare_after_first_trick",
        _late_declare,
        declare("AS KS QS"),
        "seat 0 may declare only in the first trick, before its card",
    ),
    # over
    ("call_after_void", lambda: new_deal(HANDS, "pass pass pass pass"), PASS, "the deal is over"),
    (
        "card_after_end",
        lambda: finish(new_deal(HANDS, "8S pass pass pass")),
        parse_card("7S"),
        "the deal is over",
    ),
    (
        "declare_after_end",
        lambda: finish(new_deal(HANDS, "8S pass pass pass")),
        DECLARE_NONE,
        "the deal is over",
    ),
    ("bid_after_sevens", lambda: new_deal(SEVENS_0, "sevens"), parse_call("8S"), "the deal is over"),
]


def _declared_once() -> Deal:
    deal = new_deal(fill("AS KS QS"), "8H pass pass pass")
    deal.apply(declare("AS KS QS"))
    return deal


@pytest.mark.parametrize(("setup", "action", "message"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_illegal_action_refused_with_its_message_state_unchanged(
    setup: Callable[[], Deal], action: Action, message: str
) -> None:
    deal = setup()
    legal = list(deal.legal_actions())
    assert action not in legal
    before = snapshot(deal)
    with pytest.raises(IllegalAction) as info:
        deal.apply(action)
    assert str(info.value) == message
    assert "\n" not in message and not message.endswith(".")
    assert snapshot(deal) == before
    assert list(deal.legal_actions()) == legal
    # and the deal still goes on as if nothing had been tried
    twin = setup()
    while not deal.is_over:
        if deal.must_declare:
            deal.apply(DECLARE_NONE)
            twin.apply(DECLARE_NONE)
            continue
        a = deal.legal_actions()[0]
        deal.apply(a)
        twin.apply(a)
    assert deal.result == twin.result


def test_game_refuses_actions_after_the_end() -> None:
    game = Game(rng=Random(1))
    rng = Random(2)
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(PASS if PASS in legal and rng.random() < 0.6 else rng.choice(legal))
    before = snapshot(game)
    for action in [PASS, parse_card("7S"), DECLARE_NONE]:
        with pytest.raises(IllegalAction) as info:
            game.apply(action)
        assert str(info.value) == "the game is over"
    assert snapshot(game) == before
