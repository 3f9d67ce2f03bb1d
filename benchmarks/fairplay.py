"""The fair-play test's error rates (issue 43 item 3, L-9): honest sides and cheating ones play
seeded deals against a fixed opponent, and the test of information (:mod:`blot.fairplay`) is
run on each side's decisions — how often an honest side is flagged (false positives) and how
often a cheating one is (power), at the threshold ``--alpha``.

    python benchmarks/fairplay.py [--game bazar-blot] [--pairs 4] [--deals 20] [--alpha 0.01]
        [--honest random --honest heuristic ...] [--cheat cheat:peek=1 ...] [--against heuristic]
        [--samples 16] [--seed 1] [--jobs 1]

Each "pair" is one run of ``--deals`` deals (:func:`blot.fairplay.trial.side_decisions`, the side
in the first team's seats), its seed from ``--seed`` and its number. Prints, per bot, the runs,
the mean and spread of the score (0 and 1 for a calibrated test on honest players), how many
runs were flagged at ``--alpha`` and at 0.05, and the test's CPU time per deal (the figures of
the side's two seats, not the bots' play). The defaults are tiny, to run here in minutes; the
issue's sizes (100 pairs x 300 deals) are for a bigger machine with ``--jobs``. A cheat spec
``A+B`` puts A in the side's first seat and B in its partner's: ``--cheat
cheat:peek=1+cheat:peek=0`` is a pair where only one partner sees the other's hand.
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

#: The honest levels and the cheats measured by default: cheap budgets, so a small run is quick.
HONEST = [
    "random",
    "basic",
    "heuristic",
    "pimc:samples=10",
    "cheat:peek=0,samples=6,bid_samples=4,bidding=heuristic",
]
CHEATS = [
    "cheat:peek=1,samples=6,bid_samples=4,bidding=heuristic",
    "cheat:peek=0.25,samples=6,bid_samples=4,bidding=heuristic",
]


def one_run(args: tuple[str, str, str, int, int, int]) -> tuple[str, float, float, float]:
    """One side's run: (bot, score, p-value, the test's CPU seconds)."""
    from blot.fairplay import Settings
    from blot.fairplay.figures import score
    from blot.fairplay.trial import side_decisions

    game, bot, against, deals, seed, samples = args
    clock = [0.0]
    settings = Settings(samples=samples, bidding=False)
    test = score(side_decisions(game, bot, against, deals, seed, settings, clock))
    return bot, test.score, test.p_value, clock[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="bazar-blot")
    parser.add_argument("--pairs", type=int, default=4, help="runs per bot")
    parser.add_argument("--deals", type=int, default=20, help="deals per run")
    parser.add_argument("--alpha", type=float, default=0.01)
    parser.add_argument("--honest", action="append", help="an honest bot (repeat); default: five levels")
    parser.add_argument(
        "--cheat", action="append", help="a cheating bot (repeat); A+B: A and its partner B (one cheats)"
    )
    parser.add_argument("--against", default="heuristic")
    parser.add_argument("--samples", type=int, default=16)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()

    from blot.bots import make_bot
    from blot.errors import BlotError

    honest = args.honest or HONEST
    cheats = args.cheat or CHEATS
    for bot in [one for spec in [*honest, *cheats, args.against] for one in spec.split("+")]:
        try:
            make_bot(args.game, bot, testing=True)
        except BlotError as e:
            parser.error(str(e))
    tasks = [
        (args.game, bot, args.against, args.deals, args.seed * 100_003 + r, args.samples)
        for bot in [*honest, *cheats]
        for r in range(args.pairs)
    ]
    start = time.perf_counter()
    results: list[Any]
    if args.jobs > 1:
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            results = pool.map(one_run, tasks)
    else:
        results = [one_run(t) for t in tasks]
    print(
        f"{args.game}: {args.pairs} runs of {args.deals} deals per bot against {args.against}, "
        f"{args.samples} samples per decision, seed {args.seed}, flagged at p < {args.alpha}"
    )
    print()
    print(f"| side | kind | runs | mean score | sd | flagged (p < {args.alpha}) | p < 0.05 |")
    print("|---|---|---|---|---|---|---|")
    cpu = 0.0
    for bot in [*honest, *cheats]:
        mine = [r for r in results if r[0] == bot]
        scores = [r[1] for r in mine]
        mean = sum(scores) / len(scores)
        sd = math.sqrt(sum((z - mean) ** 2 for z in scores) / (len(scores) - 1)) if len(scores) > 1 else 0.0
        flagged = sum(r[2] < args.alpha for r in mine)
        five = sum(r[2] < 0.05 for r in mine)
        kind = "honest" if bot in honest else "cheat"
        print(f"| `{bot}` | {kind} | {len(mine)} | {mean:+.2f} | {sd:.2f} | {flagged} | {five} |")
        cpu += sum(r[3] for r in mine)
    deals = len(results) * args.deals
    print()
    print(f"the test's CPU time: {1000 * cpu / deals:.0f} ms per deal for the side's seats ({deals} deals)")
    print(f"wall time {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
