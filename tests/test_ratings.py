"""OpenSkill ratings of finished games and what counts (blot.ratings): teams of two (B-70), a
ranking of three (T-50), leavers, and one bot level in several seats."""

from __future__ import annotations

import pytest

from blot.games import spec
from blot.ratings import MU, SIGMA, Rating, changes, display

BAZAR = spec("bazar-blot").teams
TFE = spec("3-5-8").teams


def test_b70_the_winning_pair_rises_as_one_and_the_losers_fall() -> None:
    new = changes(BAZAR, (1, 0, 1, 0), ("a", "b", "c", "d"), {}, frozenset())
    assert new["b"] == new["d"] and new["a"] == new["c"]
    assert new["b"].mu > MU > new["a"].mu and new["b"].sigma < SIGMA


def test_t50_a_ranking_of_three_orders_the_changes() -> None:
    new = changes(TFE, (2, 0, 1), ("a", "b", "c"), {}, frozenset())
    assert new["b"].mu > new["c"].mu > MU > new["a"].mu


def test_an_upset_moves_ratings_more_than_the_expected_result() -> None:
    strong, weak = Rating(35.0, 3.0), Rating(15.0, 3.0)
    expected = changes(TFE, (0, 1, 2), ("s", "w", "x"), {"s": strong, "w": weak}, frozenset())
    upset = changes(TFE, (1, 0, 2), ("s", "w", "x"), {"s": strong, "w": weak}, frozenset())
    assert upset["w"].mu - weak.mu > expected["s"].mu - strong.mu > 0


@pytest.mark.parametrize(
    ("teams", "places", "left", "movers"),
    [
        (BAZAR, (0, 1, 0, 1), {0}, {"a"}),  # the leaver's team won, he still loses
        (BAZAR, (1, 0, 1, 0), {1, 2}, {"b", "c"}),
        (TFE, (0, 1, 2), {0}, {"a"}),
        (TFE, (0, 1, 2), {0, 1, 2}, {"a", "b", "c"}),  # everybody left: everybody loses
    ],
)
def test_league_7_a_leaver_loses_and_nobody_else_moves(
    teams: tuple[tuple[int, ...], ...], places: tuple[int, ...], left: set[int], movers: set[str]
) -> None:
    players = ("a", "b", "c", "d")[: len(places)]
    new = changes(teams, places, players, {}, frozenset(left))
    assert set(new) == movers
    assert all(r.mu < MU for r in new.values())


def test_a_bot_level_on_both_sides_learns_nothing_and_on_one_side_moves_once() -> None:
    both = changes(BAZAR, (0, 1, 0, 1), ("ani", "bot", "bot", "gohar"), {}, frozenset())
    assert both["bot"].mu == pytest.approx(MU)
    pair = changes(BAZAR, (0, 1, 0, 1), ("bot", "ani", "bot", "gohar"), {}, frozenset())
    alone = changes(BAZAR, (0, 1, 0, 1), ("bot", "ani", "bot2", "gohar"), {}, frozenset())
    assert pair["bot"] == alone["bot"] == alone["bot2"]


def test_the_shown_rating_is_mu_minus_three_sigma() -> None:
    assert display(MU, SIGMA) == 0.0
    assert display(30.0, 2.0) == 24.0
    assert Rating(30.0, 2.0).ordinal == 24.0
