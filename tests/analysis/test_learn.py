"""Issue 28: each player's accuracy in a finished game, the par contract and the review of a Bazar
Blot bidding, and the puzzles mined from finished games (each verified by the solver again), never
from a game that is not over."""

from __future__ import annotations

import math
from random import Random
from typing import Any

import pytest

from blot.analysis import accuracy, analyse
from blot.analysis.bazar import dd_table
from blot.analysis.par import review
from blot.bazar import PASS, Rules, parse_call
from blot.bazar.bidding import Bidding
from blot.bazar.scoring import DealSummary, score_deal
from blot.bots import make_bot
from blot.cli.solve import position as solve_position
from blot.games import names, spec
from blot.play import play, when_over
from blot.puzzles import CHOICES, anonymous, mine, position, touching
from blot.solver import solve
from blot.solver.three_five_eight import default_tfe_solver
from blot.three_five_eight.values import TRICKS

from .test_analysis import bazar_positions, hand_made_bazar, tfe_positions

BAZAR, TFE = names()


def finished(game: str, seed: int, level: str = "basic", **options: Any) -> Any:
    """A game bots played to its end (Bazar Blot: to ``options``' target)."""
    game_spec = spec(game)
    state = game_spec.new_game(game_spec.rules(None, options or None), rng=Random(seed))
    bots = [make_bot(game_spec, level, Random(seed * 10 + s)) for s in range(game_spec.seats)]
    play(state, bots, until=lambda g: g.is_over)
    return state


@pytest.fixture(scope="module")
def bazar_game() -> Any:
    return finished(BAZAR, 6, target=51)


@pytest.fixture(scope="module")
def tfe_game() -> Any:
    return finished(TFE, 6)


def test_accuracy_equals_a_hand_computation_on_a_small_game() -> None:
    """A game to 1 point ends with its first played deal: every position is solved again, each
    seat's losses summed by hand and put through the documented formula."""
    game = finished(BAZAR, 3, level="heuristic", target=1)
    assert game.is_over
    loss, cards = [0, 0, 0, 0], [0, 0, 0, 0]
    for index, played in enumerate(game.deals):
        if played.is_void:
            continue
        for deal, card in zip(bazar_positions(game, index), played.plays, strict=True):
            seat = deal.to_act
            values = solve(deal).values
            loss[seat] += max(values.values()) - values[card]
            cards[seat] += 1
    expected = [round(100 * math.exp(-(loss[s] / cards[s]) / (162 / 32)), 1) for s in range(4)]
    found = analyse(game).accuracy
    assert found is not None
    assert [a.accuracy for a in found] == expected
    assert [(a.loss, a.cards) for a in found] == list(zip(loss, cards, strict=True))
    assert analyse(game).to_json()["accuracy"] == [a.to_json() for a in found]


def test_accuracy_is_100_without_loss_and_falls_as_the_loss_grows() -> None:
    scale = 162 / 32
    shown = [accuracy(loss, 32, scale) for loss in range(0, 400, 9)]
    assert shown[0] == 100.0 and shown == sorted(shown, reverse=True) and len(set(shown)) == len(shown)
    assert accuracy(162, 32, scale) == round(100 / math.e, 1)  # a card's value lost per card: 1/e


def test_no_accuracy_and_no_puzzle_for_a_game_that_is_not_over(bazar_game: Any) -> None:
    game_spec = spec(BAZAR)
    state = game_spec.new_game(rng=Random(2))
    bots = [make_bot(game_spec, "random", Random(s)) for s in range(4)]
    play(state, bots, until=when_over(state.deal))
    assert not state.is_over
    analysis = analyse(state)
    assert analysis.accuracy is None and analysis.to_json()["accuracy"] is None
    assert mine(state, analysis) == []
    # one deal of a finished game is no whole game either
    one = analyse(bazar_game, 1)
    assert one.accuracy is None and mine(bazar_game, one) == []


def test_par_and_the_review_of_a_deal_both_teams_would_take_whole() -> None:
    """Team 0 takes all 162 in spades, hearts and NT, team 1 in diamonds and clubs (dealer 3:
    seat 0 speaks first). Kapoot (25) is the top bid, so whoever bids it first keeps it: par is
    25 spades by team 0, made: 25 + 25 (all eight tricks) + four fifties 20 + belote 2 = 72 to 0
    (B-50, B-53). A pass that lets the other team bid its kapoot first loses 72 - (-72) = 144."""
    hands = tuple(hand_made_bazar())
    table = dd_table(hands, 3, Rules())
    assert table["S"]["declarations"] == [20, 0] and table["S"]["belote"] == [2, 0]
    passed = review(table, Rules(), 3, hands, [PASS] * 4)
    assert passed["par"] == {
        "contract": "25S",
        "team": 0,
        "multiplier": 1,
        "made": True,
        "points": [72, 0],
        "calls": ["25S", "pass", "pass", "pass"],
    }
    assert passed["contract"] is None  # four passes: no contract
    assert [(c["seat"], c["loss"], c["best"]) for c in passed["calls"]] == [
        (0, 144, "25S"),
        (1, 144, "25D"),
        (2, 144, "25S"),
        (3, 72, "25D"),  # the last pass: 0 instead of 72
    ]
    bid = review(
        table, Rules(), 3, hands, [parse_call(c) for c in ("8S", "9D", "25S", "pass", "pass", "pass")]
    )
    assert [c["loss"] for c in bid["calls"]] == [144, 144, 0, 0, 0, 0]
    assert bid["contract"] == {"made": True, "points": [72, 0]}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_call_is_valued_against_par_and_par_is_a_legal_bidding(seed: int) -> None:
    """On played deals: no call gains on the best one, the best call loses nothing, and par's own
    bidding, replayed through the rules, ends in par's contract with par's points."""
    game = finished(BAZAR, seed, target=51)
    for played, analysed in zip(game.deals, analyse(game).deals, strict=True):
        got = analysed.bidding
        assert got is not None and len(got["calls"]) == len(played.calls)
        for call in got["calls"]:
            assert call["loss"] is None or call["loss"] >= 0
        par = got["par"]
        bidding = Bidding(played.rules, played.dealer, played.dealt)
        for text in par["calls"]:
            bidding.apply(parse_call(text))
        assert bidding.is_over
        contract = bidding.contract
        if par["contract"] is None:
            assert contract is None
            continue
        assert contract is not None
        assert (f"{contract.level}{contract.strain}", contract.team, contract.multiplier) == (
            par["contract"],
            par["team"],
            par["multiplier"],
        )
        entry = analysed.dd_table[par["contract"][-1] if not par["contract"].endswith("NT") else "NT"]  # type: ignore[index]
        cp = tuple(entry["card_points"])
        score = score_deal(
            DealSummary(
                contract.team,
                contract.level,
                contract.multiplier,
                cp,  # type: ignore[arg-type]
                next((t for t in (0, 1) if cp[t] == 162), None),
                False,
                tuple(entry["declarations"]),  # type: ignore[arg-type]
                tuple(entry["belote"]),  # type: ignore[arg-type]
            )
        )
        assert list(score.points) == par["points"]


def check_puzzle(p: Any, values: dict[Any, int]) -> None:
    """What the solver said again is what the puzzle says, and the puzzle is one."""
    assert values == p.values
    best = max(values.values())
    assert set(p.solution) == {c for c, v in values.items() if v == best}
    assert all(v <= best - p.threshold for c, v in values.items() if c not in p.solution)
    assert len(values) >= CHOICES


def test_every_bazar_puzzle_is_verified_by_the_solver_and_its_threshold(bazar_game: Any) -> None:
    found = mine(bazar_game, analyse(bazar_game))
    assert found, "the game gave no puzzle: choose another seed"
    record = spec(BAZAR).record_of(bazar_game, ["Ani", "Bagrat", "Gohar", "Davit"])
    assert anonymous(record)["players"] == ["Player 1", "Player 2", "Player 3", "Player 4"]
    assert len({p.deal for p in found}) == len(found)  # one puzzle a deal at most
    for p in found:
        assert p.threshold == 10
        deal = solve_position(record, p.deal, p.after)  # as blot solve --deal N --after K finds it
        assert deal.to_act == p.seat
        won = deal.card_points[p.seat % 2]
        check_puzzle(p, {c: won + v for c, v in solve(deal).values.items()})
        game = position(record, p.deal, p.after)
        assert game.deal is not None and game.deal.hands == deal.hands
        assert touching(game, p.solution)


def test_every_358_puzzle_is_verified_by_the_solver_and_its_threshold(tfe_game: Any) -> None:
    found = mine(tfe_game, analyse(tfe_game))
    assert found, "the game gave no puzzle: choose another seed"
    record = spec(TFE).record_of(tfe_game, ["Ivan", "Maria", "Petar"])
    for p in found:
        assert p.threshold == 1
        deal = list(tfe_positions(tfe_game, p.deal - 1))[p.after]
        assert deal.to_act == p.seat
        left = TRICKS - len(deal.trick_winners)
        solved = default_tfe_solver().solve(deal, me=p.seat, horizon=left)  # exact: every trick
        taken = deal.tricks_taken[p.seat]
        check_puzzle(p, {c: taken + v for c, v in solved.values.items()})
        game = position(record, p.deal, p.after)
        assert game.deal is not None and game.deal.hands == deal.hands


@pytest.mark.parametrize(
    ("cards", "touch"),
    [
        ("QS KS", True),  # trumps (spades), B-10: … Q K 10 A 9 J: nothing between Q and K
        ("KS AS", False),  # the 10 of trumps is still in seat 2's hand
        ("JS AS", False),  # and the 9
        ("JH QH KH", True),  # a plain suit: … 9 J Q K 10 A
        ("KH AH", False),  # the 10 of hearts
        ("KS KH", False),  # two suits
    ],
)
def test_equivalent_cards_are_of_one_suit_with_no_card_in_play_between_them(cards: str, touch: bool) -> None:
    from blot.bazar import DealtCards, Game
    from blot.cards import cards_of, parse_cards

    game = Game(Rules(), dealer=3)
    game.start_deal(DealtCards(tuple(hand_made_bazar())))
    for text in ("8S", "pass", "pass", "pass"):
        game.apply(parse_call(text))
    assert touching(game, tuple(cards_of(parse_cards(cards)))) is touch
