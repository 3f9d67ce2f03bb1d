"""Winning the game (B-70, B-71, B-55 in a game, the ``target`` option) and the deal order (B-3).

A game is driven deal by deal with :meth:`Game.start_deal`. Where a test needs a given score
before a deal it sets ``game.totals`` (a public attribute: the totals of the deals so far), then
plays a deal whose points it learnt from the same deal played alone.
"""

from __future__ import annotations

from random import Random

import pytest

from blot.bazar import (
    PASS,
    Deal,
    DealResult,
    DealScore,
    DealSummary,
    DealtCards,
    Game,
    Rules,
    game_winner,
    match_score,
    random_deal,
)
from blot.cards import parse_cards
from blot.errors import BlotError, IllegalAction

from .helpers import LEAGUE, best_for, calls, fill, finish, new_deal

SUIT_HANDS = {
    "S": "JS 9S AS 10S KS QS 8S 7S",
    "H": "JH 9H AH 10H KH QH 8H 7H",
    "D": "JD 9D AD 10D KD QD 8D 7D",
    "C": "JC 9C AC 10C KC QC 8C 7C",
}


def suit_hands(dealer: int, order: str) -> list[str]:
    """The seat after the dealer holds the suit ``order[0]``, the next ``order[1]``, and so on."""
    hands = [""] * 4
    for i, letter in enumerate(order):
        hands[(dealer + 1 + i) % 4] = SUIT_HANDS[letter]
    return hands


def play_deal(
    game: Game, hands: list[str] | list[int], bidding: str, declarers: tuple[int, ...] = ()
) -> Deal:
    """Deal ``hands`` in ``game``, make the calls, play the lowest legal cards; the seats (counted
    from the seat after the dealer) in ``declarers`` declare their best."""
    deal = game.start_deal(DealtCards([h if isinstance(h, int) else parse_cards(h) for h in hands]))
    for call in calls(bidding):
        game.apply(call)
    seats = tuple((deal.dealer + 1 + k) % 4 for k in declarers)
    policy = best_for(*seats)
    while not deal.is_over:
        game.apply(policy(deal, deal.to_act) if deal.must_declare else deal.legal_actions()[0])  # type: ignore[arg-type]
    return deal


def preview(hands: list[str] | list[int], dealer: int, bidding: str, rules: Rules = LEAGUE) -> DealResult:
    """The result of ``hands`` played alone as :func:`play_deal` plays them (nobody declares)."""
    masks = [h if isinstance(h, int) else parse_cards(h) for h in hands]
    deal = finish(new_deal(masks, bidding, dealer=dealer, rules=rules))
    assert deal.result is not None
    return deal.result


#: A deal that is no kapoot, and its points with dealer 0 and 8NT by seat 1.
PLAIN = random_deal(Random(11)).hands


def plain_points(dealer: int, bidding: str = "8NT pass pass pass", rules: Rules = LEAGUE) -> tuple[int, int]:
    r = preview(PLAIN, dealer, bidding, rules)
    assert r.kapoot is None and r.points[0] != r.points[1]
    return r.points


# --- B-70 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("first_dealer", [0, 1])
def test_b70_a_team_at_301_after_a_non_kapoot_deal_wins(first_dealer: int) -> None:
    game = Game(dealer=first_dealer)
    p = plain_points(first_dealer)
    w = 0 if p[0] > p[1] else 1
    game._totals = (301 - p[0], 0) if w == 0 else (0, 301 - p[1])
    play_deal(game, PLAIN, "8NT pass pass pass")
    assert game.totals[w] == 301
    assert game.is_over and game.winner == w
    assert game.match_score == ("2-0" if game.totals[1 - w] <= 150 else "1-0")
    with pytest.raises(IllegalAction) as info:
        game.apply(PASS)
    assert str(info.value) == "the game is over"
    with pytest.raises(BlotError) as info2:
        game.start_deal(DealtCards(PLAIN))
    assert str(info2.value) == "the game is over"
    assert game.legal_actions() == () and game.to_act is None


def test_b70_one_point_short_plays_on() -> None:
    game = Game()
    p = plain_points(0)
    w = 0 if p[0] > p[1] else 1
    game._totals = (300 - p[0], 0) if w == 0 else (0, 300 - p[1])
    play_deal(game, PLAIN, "8NT pass pass pass")
    assert game.totals[w] == 300 and not game.is_over and game.winner is None and game.match_score is None


@pytest.mark.parametrize("lead", [1, 5, 40])
def test_b70_both_over_301_the_team_with_more_points_wins(lead: int) -> None:
    p = plain_points(0)
    for w in (0, 1):
        game = Game()
        final = [320, 320]
        final[w] += lead
        game._totals = (final[0] - p[0], final[1] - p[1])
        play_deal(game, PLAIN, "8NT pass pass pass")
        assert game.totals == tuple(final)
        assert game.winner == w and game.match_score == "1-0"


def test_b70_equal_totals_play_on() -> None:
    game = Game()
    p = plain_points(0)
    game._totals = (330 - p[0], 330 - p[1])
    play_deal(game, PLAIN, "8NT pass pass pass")
    assert game.totals == (330, 330) and not game.is_over
    # the next played deal decides
    q = plain_points(1)
    play_deal(game, PLAIN, "8NT pass pass pass")
    assert game.totals == (330 + q[0], 330 + q[1])
    assert game.winner == (0 if q[0] > q[1] else 1)


@pytest.mark.parametrize(
    ("order", "declarer", "team", "before"),
    [
        ("HSDC", 0, 0, (290, 50)),  # the contractors take every trick
        ("SHDC", 1, 1, (50, 290)),  # the defenders take every trick (the contract fails)
    ],
)
def test_b70_kapoot_deal_crossing_301_plays_on_then_the_next_played_deal_decides(
    order: str, declarer: int, team: int, before: tuple[int, int]
) -> None:
    game = Game(dealer=3)  # seat 0 calls and leads first
    game._totals = before
    deal = play_deal(game, suit_hands(3, order), "8H pass pass pass", declarers=(declarer,))
    assert deal.result is not None and deal.result.kapoot == team
    assert game.totals[team] == 290 + 8 + 25 + 12 + 2 and game.totals[1 - team] == 50
    assert not game.is_over and game.winner is None  # 337 after a kapoot deal: play goes on
    game.start_deal(DealtCards(fill("7S", "7H", "7D", "7C")))
    for _ in range(4):
        game.apply(PASS)  # a void deal: no test
    assert not game.is_over and game.totals[team] == 337
    p = plain_points(1)
    play_deal(game, PLAIN, "8NT pass pass pass")
    assert game.totals[team] == 337 + p[team]
    assert game.is_over and game.winner == team and game.match_score == "2-0"


def test_b70_target_option() -> None:
    rules = Rules(target=40)
    p = plain_points(0, rules=rules)
    game = Game(rules)
    w = 0 if p[0] > p[1] else 1
    game._totals = (40 - p[0], 0) if w == 0 else (0, 40 - p[1])
    play_deal(game, PLAIN, "8NT pass pass pass")
    assert game.winner == w
    game = Game(rules)
    game._totals = (39 - p[0], 0) if w == 0 else (0, 39 - p[1])
    play_deal(game, PLAIN, "8NT pass pass pass")
    assert game.winner is None


@pytest.mark.parametrize(
    ("totals", "kapoot", "target", "winner"),
    [
        ((301, 0), None, 301, 0),
        ((300, 0), None, 301, None),
        ((0, 301), None, 301, 1),
        ((310, 310), None, 301, None),
        ((320, 330), None, 301, 1),
        ((330, 320), None, 301, 0),
        ((400, 100), 0, 301, None),
        ((400, 100), 1, 301, None),
        ((101, 99), None, 101, 0),
        ((100, 99), None, 101, None),
    ],
)
def test_b70_game_winner(
    totals: tuple[int, int], kapoot: int | None, target: int, winner: int | None
) -> None:
    card_points = (162, 0) if kapoot == 0 else (0, 162) if kapoot == 1 else (100, 62)
    summary = DealSummary(0, 8, 1, card_points, kapoot)
    score = DealScore(True, (0, 0), tars_kapoot=False)
    assert game_winner(totals, summary, score, target) == winner


# --- B-55 in a game -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "match"),
    [((0, 0), "2-0"), ((280, 0), "1-0"), ((150, 0), "2-0"), ((87, 151), "2-0"), ((300, 290), "1-0")],
)
def test_b55_tars_kapoot_ends_the_game_for_the_defenders(before: tuple[int, int], match: str) -> None:
    game = Game(dealer=3)
    game._totals = before
    # seat 0 holds spades and bids 25H; seat 1 holds every heart and takes every trick
    deal = play_deal(game, suit_hands(3, "SHDC"), "25H pass pass pass", declarers=(1,))
    r = deal.result
    assert r is not None and r.tars_kapoot and not r.made
    assert r.points == (0, 25 + 25 + 12 + 2)
    assert game.totals == (before[0], before[1] + 64)
    assert game.is_over and game.winner == 1 and game.tars_kapoot
    assert game.match_score == match == match_score(game.totals, 1)


def test_b55_tars_kapoot_with_kanach() -> None:
    game = Game(Rules(kanach=True), dealer=3)
    game._totals = (250, 0)
    play_deal(game, suit_hands(3, "SHDC"), "30H pass pass pass")
    assert game.is_over and game.winner == 1 and game.tars_kapoot
    assert game.totals == (250, 30 + 25 + 2)


def test_b55_a_failed_kapoot_with_a_trick_is_no_tars_kapoot() -> None:
    game = Game(dealer=3)
    deal = play_deal(game, suit_hands(3, "SHDC"), "24H pass pass pass")  # below 25: plays on
    assert deal.result is not None and not deal.result.tars_kapoot and deal.result.kapoot == 1
    assert not game.is_over and not game.tars_kapoot


# --- B-71 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("totals", "winner", "score"),
    [
        ((301, 150), 0, "2-0"),
        ((301, 151), 0, "1-0"),
        ((301, 0), 0, "2-0"),
        ((150, 400), 1, "2-0"),
        ((151, 400), 1, "1-0"),
        ((300, 310), 1, "1-0"),
        ((0, 64), 1, "2-0"),
    ],
)
def test_b71_rubicon_2_0_when_the_loser_has_150_or_fewer(
    totals: tuple[int, int], winner: int, score: str
) -> None:
    assert match_score(totals, winner) == score


# --- B-3 and the game loop ---------------------------------------------------------------------------


def test_b3_game_needs_the_deal_over_before_the_next() -> None:
    game = Game()
    assert game.view(0).deal is None and game.needs_cards
    with pytest.raises(IllegalAction) as info2:
        game.apply(PASS)
    assert str(info2.value) == "no deal is in progress: the next deal must be dealt first"
    game.start_deal(DealtCards(fill("7S", "7H", "7D", "7C")))
    with pytest.raises(BlotError) as info3:
        game.start_deal(DealtCards(fill("7S", "7H", "7D", "7C")))
    assert str(info3.value) == "the current deal is not over yet"
    for _ in range(4):
        game.apply(PASS)
    with pytest.raises(IllegalAction) as info4:
        game.apply(PASS)
    assert str(info4.value) == "no deal is in progress: the next deal must be dealt first"
    with pytest.raises(BlotError) as info5:
        game.start_deal()
    assert str(info5.value) == "this game has no random source: give the cards of the deal"


def test_b70_totals_are_the_sum_of_the_deals() -> None:
    for seed in range(30):
        game = Game(dealer=seed % 4, rng=Random(seed))
        rng = Random(seed + 1000)
        while not game.is_over:
            legal = game.legal_actions()
            game.apply(PASS if PASS in legal and rng.random() < 0.6 else rng.choice(legal))
        results = game.results
        assert tuple(map(sum, zip(*[r.points for r in results], strict=True))) == game.totals
        assert all(not r.void or r.points == (0, 0) for r in results)
        assert game.winner is not None
