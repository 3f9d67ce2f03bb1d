"""The 3-5-8 solver (one seat against the other two) against brute-force minimax over the rules
engine, and its move rules against the engine's on every position of sampled deals."""

from __future__ import annotations

from random import Random

import pytest

from blot.cards import Suit, parse_cards
from blot.solver import tfe_kernel as k
from blot.solver._jit import int_array
from blot.solver.three_five_eight import TfeSolver
from blot.three_five_eight import HEARTS, NO_TRUMP, SPADES, Deal, Phase, legal_mask, winning_bit

CALLS = (HEARTS, NO_TRUMP, SPADES)


def start(rng: Random) -> Deal:
    deal = Deal.random(rng, dealer=rng.randrange(3))
    deal.apply(rng.choice(CALLS))
    while deal.phase is not Phase.PLAY:
        deal.apply(rng.choice(deal.legal_actions()))
    return deal


def brute(deal: Deal, me: int) -> int:
    """Tricks ``me`` takes from here: ``me`` maximises, the other two minimise."""
    if deal.is_over:
        return 0
    base = deal.tricks_taken[me]
    values = []
    for card in deal.legal_actions():
        child = deal.copy()
        child.apply(card)
        values.append(child.tricks_taken[me] - base + brute(child, me))
    return max(values) if deal.to_act == me else min(values)


@pytest.mark.parametrize("seed", range(4))
def test_solver_equals_brute_force_on_endgames_of_up_to_three_tricks(seed: int) -> None:
    rng = Random(seed)
    solver = TfeSolver()
    for _ in range(30):
        deal = start(rng)
        left = rng.randint(1, 3)
        while len(deal.plays) < 3 * (16 - left) + rng.randint(0, 2):
            deal.apply(rng.choice(deal.legal_actions()))
        me = rng.randrange(3)
        solution = solver.solve(deal, me)
        assert set(solution.values) == set(deal.legal_actions())
        for card, value in solution.values.items():
            child = deal.copy()
            child.apply(card)
            assert value == child.tricks_taken[me] - deal.tricks_taken[me] + brute(child, me)


@pytest.mark.parametrize("seed", range(2))
def test_solver_equals_brute_force_over_four_tricks_where_the_table_meets_positions_by_rank(
    seed: int,
) -> None:
    """Four tricks: after the first, positions reached by playing different low cards share a
    transposition-table entry by relative rank (tfe_kernel.relative); every value still equals
    brute force."""
    rng = Random(100 + seed)
    solver = TfeSolver()
    for _ in range(3):
        deal = start(rng)
        while len(deal.plays) < 3 * 12:
            deal.apply(rng.choice(deal.legal_actions()))
        me = rng.randrange(3)
        for card, value in solver.solve(deal, me).values.items():
            child = deal.copy()
            child.apply(card)
            assert value == child.tricks_taken[me] - deal.tricks_taken[me] + brute(child, me)


def test_relative_ranks_renumber_each_suits_cards_still_out_from_the_lowest() -> None:
    """♠3 and ♠4 played: ♠2 ♠5 ♠6 of three hands stand as ♠2 ♠3 ♠4; ♥A alone as ♥2."""
    spade, heart = 16 * Suit.S, 16 * Suit.H
    hands = (1 << (spade + 2) | 1 << (heart + 14), 1 << (spade + 5), 1 << (spade + 6))
    assert k.relative(*hands) == (1 << (spade + 2) | 1 << (heart + 2), 1 << (spade + 3), 1 << (spade + 4))


@pytest.mark.parametrize(
    ("lead", "x", "y", "trump", "cashed"),
    [
        # no trump: every run of top cards, suit by suit
        ("AS KS 10S AH", "QS 2H", "JS 3D", None, 3),
        # a suit nobody else holds is all top cards
        ("5C 4C", "AS", "KS", None, 2),
        # trumps above every trump out, then the side suits once the trumps are drawn
        ("AH KH AS", "2H 3S", "QS", Suit.H, 3),
        # a trump left to an opponent after the top trumps: the side ace may be ruffed
        ("AH AS", "2H 3H 3S", "QS", Suit.H, 1),
        # the queen below the king out: only the ace
        ("AD QD", "KD", "2C", None, 1),
    ],
)
def test_the_tricks_a_leader_can_cash_bound_a_trick_start(
    lead: str, x: str, y: str, trump: Suit | None, cashed: int
) -> None:
    assert (
        k.cashable(parse_cards(lead), parse_cards(x), parse_cards(y), -1 if trump is None else int(trump))
        == cashed
    )


def test_the_former_tail_position_is_searched_in_a_few_million_nodes() -> None:
    """Issue 44 item 2: seed 11's deal 10 (diamonds trump, 12 tricks to play), which took 379 M
    nodes and 33–47 s, as benchmarks/tfe_tail.py finds it; by relative rank about 6 M."""
    from blot.bots import make_bot
    from blot.games import spec
    from blot.three_five_eight import Game, random_deal

    game = spec("3-5-8")
    rng = Random(11)
    for number in range(11):
        state = game.new_game(dealer=number % 3)
        assert isinstance(state, Game)
        state.start_deal(random_deal(rng))
        players = [make_bot(game, "heuristic", Random(rng.getrandbits(32))) for _ in range(3)]
    deal = state.deal
    assert isinstance(deal, Deal)
    while deal.phase is not Phase.PLAY or len(deal.trick_winners) < 4 or len(deal.legal_actions()) < 2:
        seat = state.to_act
        assert seat is not None
        state.apply(players[seat].choose(state.view(seat)))
    assert len(deal.legal_actions()) > 1 and deal.trump is not None and deal.trump.suit is Suit.D
    solution = TfeSolver().solve(deal)
    assert set(solution.values.values()) == {6}
    assert solution.nodes < 10_000_000


def test_horizon_search_stays_within_the_tricks_left() -> None:
    rng = Random(7)
    solver = TfeSolver()
    for _ in range(3):
        deal = start(rng)
        solution = solver.solve(deal, horizon=2)
        assert set(solution.values) == set(deal.legal_actions())
        assert all(0 <= v <= 16 for v in solution.values.values())


def test_kernel_rules_agree_with_the_engine_on_every_position_of_sampled_deals() -> None:
    rng = Random(11)
    tc = int_array(4)
    for _ in range(40):
        deal = start(rng)
        trump = -1 if deal.trump is None or deal.trump.suit is None else int(deal.trump.suit)
        tmask = 0 if trump < 0 else 0x7FFC << (16 * trump)
        while not deal.is_over:
            seat = deal.to_act
            assert seat is not None
            trick = [c for _, c in deal.trick]
            n = len(trick)
            win = 0
            mask = 0
            for j, c in enumerate(trick):
                tc[j] = c.index
                mask |= c.bit
                if j and k.beats(c.index, tc[win], trump):
                    win = j
            lead = (0x7FFC << (16 * trick[0].suit)) if trick else 0
            if trick:
                assert winning_bit(mask, lead, tmask) == 1 << tc[win]
            hand = deal.hand(seat)
            assert k.legal_moves(hand, tc, n, n, win, trump) == legal_mask(hand, lead, mask, tmask)
            deal.apply(rng.choice(deal.legal_actions()))
