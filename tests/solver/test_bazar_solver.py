"""The Bazar Blot double-dummy solver against brute-force minimax over the rules engine, and its
move rules against the engine's on every position of sampled deals."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from random import Random

import pytest

from blot.bazar import PASS, Deal, bid, random_deal
from blot.bazar.declarations import DECLARE_NONE
from blot.bazar.play import legal_mask, trick_winner_pos
from blot.bazar.tables import KEY, NT
from blot.cards import CARDS
from blot.solver import Solver, solve
from blot.solver import _search as core
from blot.solver import bazar_kernel as k
from blot.solver._jit import int_array
from blot.solver.bazar import COMPACT, EXPAND, to_compact

STRAINS = ("S", "H", "D", "C", "NT")


def start(rng: Random, strain: str) -> Deal:
    deal = Deal(random_deal(rng).hands, dealer=rng.randrange(4))
    for call in (bid(8, strain), PASS, PASS, PASS):
        deal.apply(call)
    return deal


def step(deal: Deal, action: object) -> None:
    deal.apply(action)  # type: ignore[arg-type]
    while deal.must_declare:
        deal.apply(DECLARE_NONE)


def advance(deal: Deal, rng: Random, cards: int) -> Deal:
    while deal.must_declare:
        deal.apply(DECLARE_NONE)
    while len(deal.plays) < cards:
        step(deal, rng.choice(deal.legal_actions()))
    return deal


def brute(deal: Deal) -> int:
    """Team 0's card points from here on, by plain minimax over the engine (no pruning)."""
    if deal.is_over:
        return 0
    seat = deal.to_act
    assert seat is not None
    base = deal.card_points[0]
    values = []
    for card in deal.legal_actions():
        child = deal.copy()
        step(child, card)
        values.append(child.card_points[0] - base + brute(child))
    return max(values) if seat % 2 == 0 else min(values)


@pytest.mark.parametrize("seed", range(6))
def test_solver_equals_brute_force_on_endgames_of_up_to_three_tricks(seed: int) -> None:
    rng = Random(seed)
    solver = Solver()
    for _ in range(40):
        tricks_left = rng.randint(1, 3)
        deal = advance(start(rng, rng.choice(STRAINS)), rng, 32 - 4 * tricks_left + rng.randint(0, 3))
        solution = solver.solve(deal)
        remaining = 162 - sum(deal.card_points)
        assert sum(solution.points) == remaining
        assert set(solution.values) == set(deal.legal_actions())
        for card, value in solution.values.items():
            child = deal.copy()
            step(child, card)
            team0 = child.card_points[0] - deal.card_points[0] + brute(child)
            assert value == (team0 if solution.team == 0 else remaining - team0), (card, deal.plays)
        assert max(solution.values.values()) == solution.points[solution.team]


def test_the_last_two_tricks_evaluated_at_once_equal_brute_force() -> None:
    """The kernel's closed-form minimax of the last two tricks (used instead of searching them)
    against plain minimax over the engine, from the start of the seventh trick."""
    rng = Random(12)
    h = int_array(4)
    tables = Solver().points
    for i in range(300):
        deal = advance(start(rng, STRAINS[i % 5]), rng, 24)
        tix = deal.tix
        for s in range(4):
            h[s] = to_compact(deal.hands[s], tix)
        points = tables[tix]
        before = [h[s] for s in range(4)]
        value = k.last_two(h, deal.leader, points, -1 if tix == NT else tix)
        assert [h[s] for s in range(4)] == before  # the hands are left as they were
        assert value == brute(deal), deal.plays


def test_every_value_is_the_points_of_its_trick_plus_the_value_after_it() -> None:
    """Full deals: each card's value equals what its team gains in the trick plus the solved
    value of the position after it (the solver agrees with itself one card deeper)."""
    rng = Random(99)
    solver = Solver()
    for i in range(6):
        deal = advance(start(rng, STRAINS[i % 5]), rng, rng.choice((8, 14, 17)))
        solution = solver.solve(deal)
        for card, value in solution.values.items():
            child = deal.copy()
            step(child, card)
            gained = child.card_points[solution.team] - deal.card_points[solution.team]
            after = 0 if child.is_over else solver.solve(child, all_cards=False).points[solution.team]
            assert value == gained + after


def test_kernel_rules_agree_with_the_engine_on_every_position_of_sampled_deals() -> None:
    """B-31 … B-34 on the compact encoding against the engine's legal cards and trick winners."""
    rng = Random(3)
    tc = int_array(8)
    for i in range(150):
        deal = start(rng, STRAINS[i % 5])
        tix = deal.tix
        trump = -1 if tix == NT else tix
        while not deal.is_over:
            while deal.must_declare:
                deal.apply(DECLARE_NONE)
            seat = deal.to_act
            assert seat is not None
            in_trick = [c.index for _, c in deal.trick]
            n = len(in_trick)
            for j, index in enumerate(in_trick):
                tc[j] = COMPACT[tix][index]
            win = trick_winner_pos(in_trick, KEY[tix]) if in_trick else 0
            mine = legal_mask(deal.hands[seat], in_trick, win, tix)
            assert to_compact(mine, tix) == k.legal_moves(
                to_compact(deal.hands[seat], tix), tc, n, n, win, trump
            )
            assert {c.index for c in deal.legal_actions()} == {
                EXPAND[tix][c] for c in range(32) if to_compact(mine, tix) >> c & 1
            }  # type: ignore[union-attr]
            card = rng.choice(deal.legal_actions())
            if n == 3:
                trick = [*in_trick, card.index]  # type: ignore[union-attr]
                pos = trick_winner_pos(trick, KEY[tix])
                w = 0
                for j in range(1, 4):
                    if k.beats(COMPACT[tix][trick[j]], COMPACT[tix][trick[w]], trump):
                        w = j
                assert w == pos
            deal.apply(card)


def test_solve_values_every_legal_card_and_its_json() -> None:
    deal = start(Random(5), "H")
    solution = solve(deal)
    assert solution.to_act == deal.to_act
    assert set(solution.values) == set(deal.legal_actions())
    assert sum(solution.points) == 162
    out = solution.to_json()
    assert out["to_act"] == solution.to_act and out["team"] == solution.team
    assert all(isinstance(v, int) for v in out["values"].values())
    assert set(out["values"]) == {str(c) for c in solution.values}
    assert solution.best and all(solution.values[c] == max(solution.values.values()) for c in solution.best)


def test_compact_encoding_round_trips() -> None:
    for tix in range(5):
        assert sorted(EXPAND[tix]) == sorted(c.index for c in CARDS if c is not None and c.rank >= 7)
        for c in range(32):
            assert COMPACT[tix][EXPAND[tix][c]] == c


def test_plain_python_and_compiled_searches_agree() -> None:
    """The same kernel run without numba gives the same values (the fallback is the same code)."""
    script = (
        "from random import Random\n"
        "from tests.solver.test_bazar_solver import start, advance\n"
        "from blot.solver import Solver\n"
        "s = Solver(); rng = Random(8); out = []\n"
        "for i in range(4):\n"
        "    d = advance(start(rng, 'SHDC'[i]), rng, 16 + i)\n"
        "    out.append(sorted((str(c), v) for c, v in s.solve(d).values.items()))\n"
        "print(out)\n"
    )
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "BLOT_NO_JIT": "1"}
    plain = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300, cwd=root
    )
    assert plain.returncode == 0, plain.stderr
    env = {k: v for k, v in os.environ.items() if k != "BLOT_NO_JIT"}
    compiled = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, cwd=root, env=env
    )
    assert compiled.returncode == 0, compiled.stderr
    assert plain.stdout == compiled.stdout


def test_a_search_horizon_estimates_within_the_points_left_and_is_exact_beyond_the_end() -> None:
    rng = Random(17)
    solver = Solver()
    for i in range(5):
        deal = advance(start(rng, STRAINS[i]), rng, 4 * i)
        left = 8 - len(deal.tricks)
        remaining = 162 - sum(deal.card_points)
        shallow = solver.solve(deal).values if left <= 3 else None
        in_trick = [c.index for _, c in deal.trick]
        rough = solver.solve_cards(deal.hands, in_trick, deal.leader, deal.tix, left, horizon=2)
        assert set(rough.values) == set(deal.legal_actions())
        assert all(0 <= v <= remaining for v in rough.values.values())
        full = solver.solve_cards(deal.hands, in_trick, deal.leader, deal.tix, left, horizon=left)
        assert full.values == solver.solve(deal).values
        assert shallow is None or shallow == full.values


def sweeps(deal: Deal, team: int) -> bool:
    """Whether ``team`` takes every trick left, by plain minimax over the engine."""
    if deal.is_over:
        return True
    seat = deal.to_act
    assert seat is not None
    tricks = len(deal.trick_winners)
    outcomes = []
    for card in deal.legal_actions():
        child = deal.copy()
        step(child, card)
        if len(child.trick_winners) > tricks and child.trick_winners[-1] % 2 != team:
            outcomes.append(False)
        else:
            outcomes.append(sweeps(child, team))
    return any(outcomes) if seat % 2 == team else all(outcomes)


@pytest.mark.parametrize("seed", range(4))
def test_b51_takes_all_counts_tricks_not_points_as_brute_force_does(seed: int) -> None:
    """Kapoot is every trick: the search of tricks agrees with minimax over the engine on
    endgames of three tricks, zero-point tricks included."""
    rng = Random(200 + seed)
    solver = Solver()
    for i in range(10):
        deal = advance(start(rng, STRAINS[(seed + i) % 5]), rng, 20)
        for team in (0, 1):
            found = solver.takes_all(deal.hands, deal.leader, deal.tix, team, tricks_left=3)
            assert found == sweeps(deal, team), (seed, i, team)


def test_b51_a_hand_of_all_eight_trumps_takes_every_trick() -> None:
    deck = [c for c in CARDS if c is not None and c.rank >= 7]
    hearts = [c.index for c in deck if str(c).endswith("H")]
    rest = [c.index for c in deck if not str(c).endswith("H")]
    hands = [0, sum(1 << i for i in hearts), 0, 0]
    for n, index in enumerate(rest):
        hands[(0, 2, 3)[n // 8]] |= 1 << index
    solver = Solver()
    assert solver.takes_all(hands, 1, 1, team=1) and not solver.takes_all(hands, 1, 1, team=0)
    assert solver.solve_cards(hands, [], 1, 1, 8, all_cards=False).points == (0, 162)
    # led to by the other team, it must trump at once (B-32) and then leads trumps
    assert solver.takes_all(hands, 0, 1, team=1)


def test_a_key_of_ranks_numbers_each_suits_cards_in_play_from_the_weakest() -> None:
    """Exact searches key a trick start by the ranks of the cards among those still in play."""
    assert core.compress(0b1000_0100, 0b1010_0101) == 0b1010  # strengths 2 and 7 of 0, 2, 5, 7
    assert core.compress(0b1000_0000, 0b1100_0000) == 0b10  # strength 7 of 6, 7: the second
    h = int_array(4)
    h[0], h[1], h[2], h[3] = 0b1000_0100, 0b0000_0001, 0b0010_0000, 0b1100_0000 << 8
    union = h[0] | h[1] | h[2] | h[3]
    assert k.table_key(h, 2, -1, True) == (0b1010, 0b0001, 0b0100, (0b11 << 8) | (2 << 32), union)


def test_positions_of_one_key_differ_in_value_by_at_most_their_points_card_for_card() -> None:
    """The bounds stored for other cards of the same ranks widen by what each card, paired with
    the card of its rank, loses or gains (B-12, no trump: 7, 8, 9 nothing, K 4, 10 10, A 19)."""
    points = Solver().points[NT]
    ace, ten, king, nine = 7, 6, 5, 2  # strengths in the plain order
    stored = (1 << ace) | (1 << nine)
    union = (1 << ten) | (1 << king)  # the 10 in the ace's rank (-9), the king in the 9's (+4)
    assert k.rel_shift(stored, union, points) == (9, 4)
    assert k.rel_shift(union, union, points) == (0, 0)
    assert k.rel_card(ace, stored, union) == ten
    assert k.rel_card(nine, stored, union) == king


@pytest.mark.parametrize("strain", STRAINS)
def test_exact_searches_keyed_by_ranks_equal_searches_keyed_by_cards(strain: str) -> None:
    """A horizon one trick short of the end estimates nothing (the last trick plays itself) but
    keys the table by the cards themselves: every card's value must be the same both ways."""
    rng = Random(2026)
    solver = Solver()
    for _ in range(3):
        deal = advance(start(rng, strain), rng, rng.choice((0, 5, 10)))
        left = 8 - len(deal.trick_winners)
        trick = [c.index for _, c in deal.trick]
        by_ranks = solver.solve_cards(deal.hands, trick, deal.leader, deal.tix, left)
        by_cards = solver.solve_cards(deal.hands, trick, deal.leader, deal.tix, left, horizon=left - 1)
        assert by_ranks.values == by_cards.values, deal.plays
