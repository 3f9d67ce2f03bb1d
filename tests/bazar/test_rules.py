"""Rulesets and options (B-90, B-91) and table penalties that the software never lets happen (B-72)."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from blot.bazar import Deal, DealtCards, Game, Rules, random_deal
from blot.bazar.declarations import DECLARE_NONE
from blot.cards import parse_card, parse_cards
from blot.errors import BlotError, IllegalAction
from blot.records.bazar import record_of

from .helpers import CLASSIC, LEAGUE, fill, new_deal, play, play_random_game, snapshot

# --- B-91 ---------------------------------------------------------------------------------------


def test_b91_defaults() -> None:
    rules = Rules()
    assert rules.ruleset == "league"
    assert rules.options() == {
        "kanach": False,
        "three_passes_end_bidding": True,
        "nt_four_nines": 10,
        "target": 301,
    }
    assert rules.top_level == 25 and Rules(kanach=True).top_level == 30


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"ruleset": "modern"}, "unknown ruleset 'modern': use league or classic"),
        ({"kanach": 1}, "option kanach must be true or false"),
        ({"three_passes_end_bidding": "no"}, "option three_passes_end_bidding must be true or false"),
        ({"nt_four_nines": 5}, "option nt_four_nines must be 10 or 0"),
        ({"nt_four_nines": True}, "option nt_four_nines must be 10 or 0"),
        ({"target": 0}, "option target must be a whole number of points from 1 to 10000"),
        ({"target": 301.0}, "option target must be a whole number of points from 1 to 10000"),
    ],
)
def test_b91_bad_options_are_refused(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(BlotError) as info:
        Rules(**kwargs)
    assert str(info.value) == message


def test_b91_options_from_a_record() -> None:
    rules = Rules.from_record("classic", {"kanach": True, "target": 151})
    assert rules == Rules(ruleset="classic", kanach=True, target=151)
    with pytest.raises(BlotError) as info:
        Rules.from_record("league", {"kapoot": True})
    assert str(info.value) == (
        "unknown option 'kapoot': known options are kanach, nt_four_nines, target, three_passes_end_bidding"
    )


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(ruleset="classic"),
        Rules(kanach=True, three_passes_end_bidding=False, nt_four_nines=0, target=151),
    ],
)
def test_b91_every_option_is_part_of_a_games_record(rules: Rules) -> None:
    game = Game(rules, rng=Random(5))
    play_random_game(game, Random(6))
    record = record_of(game)
    assert record["ruleset"] == rules.ruleset
    assert record["options"] == rules.options()
    assert Rules.from_record(record["ruleset"], record["options"]) == rules


# --- B-90 ---------------------------------------------------------------------------------------


SEVENS = parse_cards("7S 7H 7D 7C")


@pytest.mark.parametrize("seed", range(40))
def test_b90_classic_changes_only_the_declarations(seed: int) -> None:
    """The same deal with the same calls and cards, nobody declaring: league and classic agree."""
    rng = Random(seed)
    hands = random_deal(rng).hands
    while any(h & SEVENS == SEVENS for h in hands):  # B-25 differs by design: another deal
        hands = random_deal(rng).hands
    dealer = rng.randrange(4)
    league, classic = Deal(hands, dealer, LEAGUE), Deal(hands, dealer, CLASSIC)
    while not league.is_over:
        assert list(league.legal_actions()) == list(classic.legal_actions())
        if league.must_declare:
            action: Any = DECLARE_NONE
        else:
            action = rng.choice(league.legal_actions())
        league.apply(action)
        classic.apply(action)
    assert classic.is_over and league.result == classic.result


# --- B-72 ---------------------------------------------------------------------------------------


def test_b72_no_misdeal_can_be_dealt() -> None:
    good = fill()
    with pytest.raises(BlotError):
        Deal([good[0], good[1], good[2], good[2]])
    game = Game()
    with pytest.raises(BlotError):
        game.start_deal(DealtCards(good[:3]))
    assert game.deals == ()


def test_b72_a_card_against_the_rules_is_refused_not_penalised() -> None:
    deal = new_deal(fill("7S", "8S AS JH", voids="1:S"), "8H pass pass pass")
    play(deal, "7S")
    before = snapshot(deal)
    with pytest.raises(IllegalAction):
        deal.apply(parse_card("JH"))
    assert snapshot(deal) == before
    assert deal.card_points == (0, 0) and not deal.is_over
