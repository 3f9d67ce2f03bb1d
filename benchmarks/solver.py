"""Full-deal double-dummy solve times of Bazar Blot on one core: 50 seeded deals, every legal
first card valued exactly (the position after the bidding, before the first lead).

    python benchmarks/solver.py [--deals 50] [--seed 0]

Prints the JIT/start-up cost (paid once per process), then median, p90 and max per deal and
the mean node count. Set ``BLOT_NO_JIT=1`` to time the same search as plain Python.
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
    args = parser.parse_args()

    from blot.bazar import PASS, Deal, bid, random_hands
    from blot.solver import COMPILED, Solver

    start = time.perf_counter()
    solver = Solver()
    warm = Deal(random_hands(Random(-1)), dealer=3)
    for call in (bid(8, "S"), PASS, PASS, PASS):
        warm.apply(call)
    solver.solve(warm)
    startup = time.perf_counter() - start

    rng = Random(args.seed)
    times, nodes = [], []
    for i in range(args.deals):
        deal = Deal(random_hands(rng), dealer=i % 4)
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


if __name__ == "__main__":
    main()
