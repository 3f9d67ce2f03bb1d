"""Seeded trials of the test of information (issue 43 items 3 and 6): a side of bots plays
deals against another, and the test is run on the side's decisions — how often an honest side
is flagged (false positives) and how often a cheating one is (power).

Each deal is dealt from the seed and its number, as ``blot arena`` deals them
(:func:`blot.arena.duplicate_deal`), and played once, side A in the seats of the first team
(Bazar Blot: seats 0 and 2; 3-5-8: seat 0) against side B; only the arena's bots may be named,
``cheat`` among them (:mod:`blot.bots.cheat`).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from random import Random

from blot.arena import _seed
from blot.bots import make_bot
from blot.fairplay import Settings, game_decisions
from blot.fairplay.figures import Decision, Test, score
from blot.games import spec
from blot.play import deal_over, play, reset


def side_decisions(
    game: str, a: str, b: str, deals: int, seed: int, settings: Settings, clock: list[float] | None = None
) -> Iterator[Decision]:
    """Side A's card decisions over ``deals`` deals of the run ``seed``; the CPU seconds the
    figures took (not the bots' play) are added to ``clock[0]``. ``a`` may name two bots,
    ``A+B``: A in the side's first seat, B in its partner's (one partner cheating)."""
    game_spec = spec(game)
    mine = game_spec.teams[0]
    first, _, second = a.partition("+")
    side = {seat: (second or first) if i else first for i, seat in enumerate(mine)}
    for number in range(deals):
        cards = game_spec.random_deal(Random(_seed(seed, number)))
        state = game_spec.new_game(dealer=number % game_spec.seats)
        state.start_deal(cards)
        bots = [
            make_bot(game_spec, side.get(s, b), Random(_seed(seed, number, s)), testing=True)
            for s in range(game_spec.seats)
        ]
        reset(bots)
        play(state, bots, until=deal_over)
        start = time.process_time()
        found = [
            d for d in game_decisions(state, number + 1, settings, frozenset(mine)) if isinstance(d, Decision)
        ]
        if clock is not None:
            clock[0] += time.process_time() - start
        yield from found


def trial(game: str, a: str, b: str, deals: int, seed: int, settings: Settings) -> Test:
    """The test of information on side A over one run of ``deals`` deals."""
    return score(side_decisions(game, a, b, deals, seed, settings))
