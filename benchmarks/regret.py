"""Regret against a judge (issue 44 item 4, colver's quick measure): how many card points each
bot's card gives away, by the judgement of a far stronger searcher, at the same positions.

Positions: seeded Bazar Blot deals bid and played by ``heuristic`` players, every card decision
with more than one legal card kept with probability ``--keep``. The judge is the ``expert``'s
card play with ``--judge`` deals per decision (ten times the ``expert``'s 24 by default), weighted
by the calls as the ``expert`` weighs them and each solved exactly to the end of the deal: it
values every legal card as the mean card points the seat's team takes from there. A bot's regret
at a position is the judge's value of the judge's best card less that of the bot's card; the
script prints each bot's mean regret with its 95% interval, how often it played the judge's
best card, and for ``--pair A,B`` the mean difference of A's and B's regrets, position by
position (the same positions for all: their differences are much closer than their means).

    python benchmarks/regret.py [--positions 150] [--judge 240] [--seed 44]
        [--bots random,basic,heuristic,pimc:samples=5,pimc,expert] [--pair pimc:samples=5,pimc]

Only card play is judged (the bidding has no such judge here), so a bot whose gain is in its
calls (the ``expert``'s bidder) shows only its card play. One position costs the judge about a
second of CPU at 240 deals; the bots' own decisions come on top.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable, Mapping
from random import Random
from typing import Any


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=150)
    parser.add_argument("--judge", type=int, default=240, help="deals the judge solves per position")
    parser.add_argument("--keep", type=float, default=0.15, help="share of card decisions kept")
    parser.add_argument("--seed", type=int, default=44)
    parser.add_argument("--bots", default="random,basic,heuristic,pimc:samples=5,pimc,expert")
    parser.add_argument(
        "--pair", default="pimc:samples=5,pimc", help="two of --bots, compared position by position"
    )
    args = parser.parse_args()
    bots = args.bots.split(",")
    pair = args.pair.split(",") if args.pair else []
    if pair and (len(pair) != 2 or not set(pair) <= set(bots)):
        parser.error("--pair names two of --bots")

    from blot.bots import make_bot
    from blot.games import spec

    game = spec("bazar-blot")
    rng = Random(args.seed)
    judge = _judge(args.judge, Random(args.seed + 1))
    regrets: dict[str, list[float]] = {name: [] for name in bots}
    best_played = dict.fromkeys(bots, 0)
    spent = dict.fromkeys(bots, 0.0)
    judged = 0.0
    for deal, seat in _positions(args.positions, args.keep, rng):
        view = deal.view(seat)
        start = time.process_time()
        values = judge(view)
        judged += time.process_time() - start
        top = max(values.values())
        for number, name in enumerate(bots):
            bot = make_bot(game, name, Random(args.seed * 1000 + number))
            start = time.process_time()
            card = bot.choose(view)
            spent[name] += time.process_time() - start
            regrets[name].append(top - values[card])
            best_played[name] += values[card] == top

    n = len(regrets[bots[0]])
    print(
        f"Bazar Blot card play, regret against the judge (the expert's search, {args.judge} deals "
        f"each solved to the end): {n} positions of heuristic deals, seed {args.seed}"
    )
    print(
        f"{'bot':<28} {'regret, card points':>20} {'95% interval':>18} {'judge best':>11} {'ms a card':>10}"
    )
    for name in bots:
        mean, half = _mean_and_half(regrets[name])
        print(
            f"{name:<28} {mean:>20.2f} {f'[{mean - half:.2f}, {mean + half:.2f}]':>18} "
            f"{best_played[name] / n:>10.0%} {1000 * spent[name] / n:>10.1f}"
        )
    print(f"the judge: {judged / n:.2f} s of CPU a position")
    if pair:
        a, b = pair
        differences = [x - y for x, y in zip(regrets[a], regrets[b], strict=True)]
        mean, half = _mean_and_half(differences)
        interval = f"[{mean - half:+.2f}, {mean + half:+.2f}]"
        print(f"{a} less {b}, position by position: {mean:+.2f} {interval} card points")


def _positions(count: int, keep: float, rng: Random) -> Any:
    """Seeded deals bid and played by ``heuristic`` players; yields (a copy of the deal, the seat
    to act) at card decisions with more than one legal card, each with probability ``keep``."""
    from blot.bazar import Deal, random_deal
    from blot.bazar.values import Phase
    from blot.bots import make_bot
    from blot.cards import Card

    found = 0
    number = 0
    while found < count:
        deal = Deal(random_deal(rng).hands, dealer=number % 4)
        number += 1
        players = [make_bot("bazar-blot", "heuristic", Random(rng.getrandbits(32))) for _ in range(4)]
        while not deal.is_over and found < count:
            seat = deal.to_act
            assert seat is not None
            legal = deal.legal_actions()
            if deal.phase is Phase.PLAY and len(legal) > 1 and type(legal[0]) is Card and rng.random() < keep:
                found += 1
                yield deal.copy(), seat
            deal.apply(players[seat].choose(deal.view(seat)))


def _judge(samples: int, rng: Random) -> Callable[[Any], Mapping[Any, float]]:
    """The judge: the ``expert``'s card search with ``samples`` deals, each solved exactly; its
    value of every legal card (the mean card points of the seat's team)."""
    from blot.bots.bazar_expert import ExpertBot

    class Judge(ExpertBot):
        values: dict[Any, float]

        def settle(self, totals: Mapping[Any, int], done: int, fallback: Any, other: Any) -> Any:
            weight = samples if done else 1
            self.values = {c: v / weight for c, v in totals.items()}
            return super().settle(totals, done, fallback, other)

    judge = Judge(rng, samples=samples, exact=8)

    def values(view: Any) -> Mapping[Any, float]:
        judge.choose(view)
        return judge.values

    return values


def _mean_and_half(xs: list[float]) -> tuple[float, float]:
    """The mean and the half width of its 95% interval."""
    mean = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else math.inf
    return mean, half


if __name__ == "__main__":
    main()
