"""Random full deals per second through the public rules API, on one core.

Every decision is a uniformly random legal action, ``legal[int(random() * len(legal))]`` (the
same distribution as ``rng.choice`` without its Python-level overhead), applied with
``state.apply(action)``, so
each deal pays for dealing, the calls, declarations (Bazar Blot) or exchange and talon (3-5-8),
every card, and scoring. Time is the process's CPU time (one core, and steady when other
programs share the machine); prints the best of several rounds.

    python benchmarks/engine.py [--seconds 2] [--rounds 3]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from random import Random


def bazar_deals(rng: Random, n: int) -> int:
    from blot.bazar import Deal, random_deal

    random = rng.random
    for i in range(n):
        deal = Deal(random_deal(rng).hands, dealer=i % 4)
        while not deal.is_over:
            legal = deal.legal_actions()
            deal.apply(legal[int(random() * len(legal))])
    return n


def three_five_eight_deals(rng: Random, n: int) -> int:
    """Whole games, so that deals after the first pay for the exchange (T-20, T-21)."""
    from blot.three_five_eight import Game

    random = rng.random
    deals = 0
    while deals < n:
        game = Game(dealer=0, rng=rng)
        while not game.is_over:
            legal = game.legal_actions()
            game.apply(legal[int(random() * len(legal))])
        deals += len(game.result.deals)
    return deals


def rate(run: Callable[[Random, int], int], seconds: float, rounds: int) -> float:
    """Best deals per second over ``rounds`` rounds of about ``seconds`` each."""
    run(Random(0), 200)  # warm the caches and imports
    best = 0.0
    for r in range(rounds):
        rng = Random(r + 1)
        done, start = 0, time.process_time()
        while time.process_time() - start < seconds:
            done += run(rng, 500)
        best = max(best, done / (time.process_time() - start))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"Bazar Blot: {rate(bazar_deals, args.seconds, args.rounds):,.0f} random full deals/s")
    print(f"3-5-8:      {rate(three_five_eight_deals, args.seconds, args.rounds):,.0f} random full deals/s")


if __name__ == "__main__":
    main()
