"""Search bots deciding in several threads at once (issue 22 item 1): the server's bots think in
two threads and the compiled solver releases the GIL, so each thread must search in a workspace
of its own. The same seeded decisions, made one after the other and in two threads at once, are
identical for both games."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from random import Random

import pytest

from blot.bots import make_bot
from blot.game import Action, View
from blot.games import spec

#: A budget counted in samples only: no time cap can cut a decision short on a loaded machine.
PIMC = {"bazar-blot": "pimc:samples=6,seconds=60,bid_samples=4", "3-5-8": "pimc:samples=6,seconds=60"}


def positions(game: str, count: int, seed: int) -> list[View]:
    """Views of seats about to choose among several actions, from seeded games of ``heuristic`` bots."""
    game_spec = spec(game)
    rng = Random(seed)
    views: list[View] = []
    while len(views) < count:
        state = game_spec.new_game(dealer=len(views) % game_spec.seats)
        state.start_deal(game_spec.random_deal(rng))
        bots = [make_bot(game, "heuristic", Random(s)) for s in range(game_spec.seats)]
        deal = state.deal
        assert deal is not None
        while not deal.is_over and len(views) < count:
            seat = state.to_act
            assert seat is not None
            if len(state.legal_actions()) > 1 and rng.random() < 0.3:
                views.append(state.view(seat))
            state.apply(bots[seat].choose(state.view(seat)))
    return views


def decide(game: str, index: int, view: View) -> Action:
    """One decision of a fresh ``pimc`` bot seeded by the position's index."""
    bot = make_bot(game, PIMC[game], Random(1000 + index))
    return bot.choose(view)


@pytest.mark.parametrize("game", ["bazar-blot", "3-5-8"])
def test_search_bots_in_two_threads_decide_as_one_after_the_other(game: str) -> None:
    views = positions(game, 40, seed=22)
    alone = [decide(game, i, v) for i, v in enumerate(views)]
    for _ in range(2):
        with ThreadPoolExecutor(max_workers=2) as pool:
            together = list(pool.map(lambda iv: decide(game, *iv), enumerate(views)))
        assert together == alone


def test_b51_kapoot_questions_in_two_threads_answer_as_one_after_the_other() -> None:
    """The expert's bidding asks each thread's solver whether a team takes every trick
    (:meth:`blot.solver.bazar.Solver.takes_all`): two threads at once get the serial answers
    (one solver shared by both gives wrong ones)."""
    from blot.bazar import random_deal
    from blot.solver import default_solver

    rng = Random(51)
    questions = [(random_deal(rng).hands, i % 4, i % 5, i % 2) for i in range(120)]

    def ask(q: tuple[tuple[int, ...], int, int, int]) -> bool:
        hands, leader, tix, team = q
        return default_solver().takes_all(hands, leader, tix, team)

    alone = [ask(q) for q in questions]
    assert any(alone) and not all(alone)
    for _ in range(2):
        with ThreadPoolExecutor(max_workers=2) as pool:
            assert list(pool.map(ask, questions)) == alone
