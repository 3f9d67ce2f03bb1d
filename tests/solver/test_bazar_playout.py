"""Bazar Blot's compiled play-outs (issue 44 item 1) against the rules engine and the Python bots:
the same legal cards (B-31 … B-33), the same ``basic`` and ``heuristic`` card at every one of
10,000 random positions, the same whole play-outs card for card, and the same numbers with and
without numba."""

from __future__ import annotations

from collections.abc import Iterator
from random import Random
from typing import cast

import pytest
from tests.solver.plain import run_script

from blot.bazar import PASS, Deal, bid, random_deal
from blot.bazar.declarations import Declare
from blot.bazar.tables import POINTS
from blot.bots.bazar_basic import BasicBot
from blot.bots.bazar_heuristic import HeuristicBot
from blot.bots.bazar_info import infer
from blot.cards import CARDS, Card
from blot.errors import BlotError
from blot.solver import bazar_playout_kernel as k
from blot.solver._jit import COMPILED
from blot.solver.bazar import EXPAND, to_compact
from blot.solver.bazar_playout import Playouts

STRAINS = ("S", "H", "D", "C", "NT")


def contracted(rng: Random) -> Deal:
    """A random deal whose bidding is over: one seat bids 8 in a random strain, the rest pass."""
    deal = Deal(random_deal(rng).hands, dealer=rng.randrange(4))
    deal.apply(bid(8, rng.choice(STRAINS)))
    for _ in range(3):
        deal.apply(PASS)
    return deal


def step(deal: Deal, rng: Random) -> None:
    """One action at random (a declaration when one is due)."""
    deal.apply(rng.choice(list(deal.legal_actions())))


def positions(seed: int, count: int) -> Iterator[Deal]:
    """``count`` positions of random deals played at random, each with a card to choose."""
    rng = Random(seed)
    made = 0
    while made < count:
        deal = contracted(rng)
        while not deal.is_over and made < count:
            legal = deal.legal_actions()
            if type(legal[0]) is Card:
                made += 1
                yield deal
            step(deal, rng)


def numbers_to_cards(mask: int, tix: int) -> set[Card]:
    out = set()
    while mask:
        c = (mask & -mask).bit_length() - 1
        mask &= mask - 1
        out.add(cast(Card, CARDS[EXPAND[tix][c]]))
    return out


def test_issue44_b31_b33_and_both_bots_agree_with_the_engine_on_10000_positions() -> None:
    basic, heuristic = BasicBot(Random(0)), HeuristicBot(Random(0))
    checked = 0
    differing: list[str] = []
    for deal in positions(seed=44, count=10_000):
        view = deal.view(deal.to_act)  # type: ignore[arg-type]
        legal = [a for a in deal.legal_actions() if type(a) is Card]
        p = Playouts(deal)
        assert numbers_to_cards(int(k.legal(p.start)), deal.tix) == set(legal)
        for name, bot in (("basic", basic), ("heuristic", heuristic)):
            mine = p.choice(name)  # type: ignore[arg-type]
            theirs = bot.card(view, legal)
            if mine != theirs:
                differing.append(f"{name}: {mine} for {theirs} at {view}")
        checked += 1
    assert checked == 10_000
    assert differing == []


def kernel_step(p: Playouts, policy: int) -> Card:
    c = int(k.choose(p.start, policy, p.P))
    k.play(p.start, c, p.P, True)
    return cast(Card, CARDS[EXPAND[p.tix][c]])


def test_issue44_whole_heuristic_play_outs_are_the_python_bots_card_for_card() -> None:
    """From the second trick on (the first trick's declarations are the caller's, not the
    play-out's), every seat played by ``heuristic``, 600 deals: the kernel keeps each seat's
    knowledge up to date card by card (B-31 … B-33) as ``infer`` reads it from the
    view."""
    for seed in range(600):
        heuristic_play_out(seed, check_knowledge=seed < 150)


def same_knowledge(p: Playouts, deal: Deal) -> bool:
    """What each seat may hold in the eyes of each other seat is what the Python bots read from
    that seat's view (:func:`blot.bots.bazar_info.infer`)."""
    for me in range(4):
        knows = infer(deal.view(me))
        for s in range(4):
            if int(k.may_hold(p.start, me, s)) != to_compact(knows.may_hold(s), deal.tix):
                return False
    return True


def heuristic_play_out(seed: int, check_knowledge: bool) -> None:
    rng = Random(seed)
    deal = contracted(rng)
    start_at = rng.randrange(4, 29)
    while len(deal.tricks) < 1 or 4 * len(deal.tricks) + len(deal.trick) < start_at:
        step(deal, rng)
    p = Playouts(deal)
    bots = [HeuristicBot(Random(s)) for s in range(4)]
    team = [0, 0]
    first = len(deal.tricks)
    while not deal.is_over:
        seat = deal.to_act
        assert seat is not None
        theirs = bots[seat].choose(deal.view(seat))
        assert kernel_step(p, k.HEURISTIC) == theirs, (
            f"seed {seed}, seat {seat}, trick {len(deal.tricks) + 1}"
        )
        deal.apply(theirs)
        if check_knowledge and not deal.is_over:
            assert same_knowledge(p, deal), f"seed {seed}, after {theirs}"
    for i, t in enumerate(deal.tricks[first:], first):
        team[t.winner % 2] += sum(POINTS[deal.tix][c.index] for c in t.cards) + (10 if i == 7 else 0)
    assert (int(p.start[k.POINTS0]), int(p.start[k.POINTS0 + 1])) == tuple(team)


@pytest.mark.parametrize("seed", range(20))
def test_issue44_random_play_outs_play_only_legal_cards_and_count_162(seed: int) -> None:
    rng = Random(1000 + seed)
    deal = contracted(rng)
    p = Playouts(deal, seed=seed)
    while not deal.is_over:
        if type(deal.legal_actions()[0]) is Declare:
            step(deal, rng)
            continue
        deal.apply(kernel_step(p, k.RANDOM))  # the engine refuses an illegal card
    assert int(p.start[k.POINTS0]) + int(p.start[k.POINTS0 + 1]) == 162
    assert int(p.start[k.TRICKS0]) + int(p.start[k.TRICKS0 + 1]) == 8
    assert tuple(int(p.start[k.TRICKS0 + t]) for t in (0, 1)) == tuple(
        sum(1 for t in deal.tricks if t.winner % 2 == team) for team in (0, 1)
    )


@pytest.mark.parametrize("policy", ["random", "basic", "heuristic"])
def test_issue44_play_outs_add_up(policy: str) -> None:
    deal = contracted(Random(7))
    outcome = Playouts(deal, seed=3).run(policy, 500)  # type: ignore[arg-type]
    assert outcome.count == 500
    assert sum(outcome.points) == pytest.approx(162)
    assert sum(outcome.tricks) == pytest.approx(8)
    assert 0 <= outcome.all_tricks[0] + outcome.all_tricks[1] <= 1
    again = Playouts(deal, seed=3).run(policy, 500)  # type: ignore[arg-type]
    assert again == outcome


def test_issue44_a_deal_not_in_play_is_refused() -> None:
    deal = Deal(random_deal(Random(1)).hands, dealer=0)
    with pytest.raises(BlotError, match="only a deal in play can be played out"):
        Playouts(deal)


SCRIPT = """
import json, sys
from random import Random
sys.path.insert(0, {tests!r})
from solver.test_bazar_playout import contracted
from blot.solver.bazar_playout import Playouts
out = []
for seed in range(3):
    deal = contracted(Random(seed))
    for policy in ("random", "basic", "heuristic"):
        o = Playouts(deal, seed=seed).run(policy, 30)
        out.append([o.points, o.tricks, o.all_tricks])
print(json.dumps(out))
"""


@pytest.mark.skipif(not COMPILED, reason="numba is not installed: nothing compiled to compare")
def test_issue44_seeded_play_outs_are_the_same_compiled_and_in_plain_python() -> None:
    assert run_script(SCRIPT, no_jit=True) == run_script(SCRIPT, no_jit=False)
