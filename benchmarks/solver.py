"""Full-deal double-dummy solve times of Bazar Blot on one core: 50 seeded deals, every legal
first card valued exactly (the position after the bidding, before the first lead).

    python benchmarks/solver.py [--deals 50] [--seed 0] [--bots 10]

Prints the JIT/start-up cost (paid once per process), then median, p90 and max per deal and
the mean node count; then the default ``pimc`` bots' first-trick decisions (Bazar Blot: the
opening lead; 3-5-8: the 8-player's first lead after the discard): time and samples used.
Set ``BLOT_NO_JIT=1`` to time the same search as plain Python.
"""

from __future__ import annotations

import argparse
import statistics
import time
from random import Random


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bots", type=int, default=10, help="first-trick decisions timed per pimc bot")
    args = parser.parse_args()

    from blot.bazar import PASS, Deal, bid, random_deal
    from blot.solver import COMPILED, Solver

    start = time.perf_counter()
    solver = Solver()
    warm = Deal(random_deal(Random(-1)).hands, dealer=3)
    for call in (bid(8, "S"), PASS, PASS, PASS):
        warm.apply(call)
    solver.solve(warm)
    startup = time.perf_counter() - start

    rng = Random(args.seed)
    times, nodes = [], []
    for i in range(args.deals):
        deal = Deal(random_deal(rng).hands, dealer=i % 4)
        strain = ("S", "H", "D", "C", "NT")[i % 5]
        for call in (bid(8, strain), PASS, PASS, PASS):
            deal.apply(call)
        t = time.perf_counter()
        solution = solver.solve(deal)
        times.append(time.perf_counter() - t)
        nodes.append(solution.nodes)
    times.sort()
    ms = [1000 * t for t in times]
    p90 = ms[min(len(ms) - 1, int(0.9 * len(ms)))]
    print(
        f"solver: {'numba' if COMPILED else 'pure Python'}; "
        f"start-up (import, JIT or cache load, first solve) {startup:.2f} s"
    )
    print(
        f"{args.deals} full deals, every first card valued: median {statistics.median(ms):.1f} ms, "
        f"p90 {p90:.1f} ms, max {ms[-1]:.1f} ms, mean nodes {statistics.mean(nodes):,.0f}"
    )

    if args.bots:
        pimc_first_trick(args.bots, args.seed)


def pimc_first_trick(decisions: int, seed: int) -> None:
    from blot.bazar import PASS, Deal, bid, random_deal
    from blot.bots.bazar_pimc import PimcBot
    from blot.bots.tfe_pimc import PimcBot as TfePimcBot
    from blot.three_five_eight import Deal as TfeDeal
    from blot.three_five_eight import Phase

    rng = Random(seed + 1)
    bot = PimcBot(Random(seed))
    times, samples = [], []
    for i in range(decisions + 1):
        deal = Deal(random_deal(rng).hands, dealer=3)
        for call in (bid(8, ("S", "H", "D", "C", "NT")[i % 5]), PASS, PASS, PASS):
            deal.apply(call)
        while deal.must_declare:
            deal.apply(deal.best_declare(deal.to_act or 0))
        t = time.perf_counter()
        bot.choose(deal.view(0))
        if i:  # the first decision pays the import and JIT cache load
            times.append(time.perf_counter() - t)
            samples.append(bot.last_samples)
    _report("pimc (Bazar Blot, defaults), opening lead", times, samples)

    tbot = TfePimcBot(Random(seed))
    times, samples = [], []
    for i in range(decisions + 1):
        tdeal = TfeDeal.random(rng, dealer=2)
        tdeal.apply(tdeal.legal_actions()[i % 4])
        while tdeal.phase is not Phase.PLAY:
            tdeal.apply(tdeal.legal_actions()[0])
        t = time.perf_counter()
        tbot.choose(tdeal.view(tdeal.to_act or 0))
        if i:
            times.append(time.perf_counter() - t)
            samples.append(tbot.last_samples)
    _report("pimc (3-5-8, defaults), first lead", times, samples)


def _report(what: str, times: list[float], samples: list[int]) -> None:
    times.sort()
    print(
        f"{what}: median {statistics.median(times):.2f} s, max {times[-1]:.2f} s, "
        f"samples median {statistics.median(samples):.0f}, min {min(samples)}"
    )


if __name__ == "__main__":
    main()
