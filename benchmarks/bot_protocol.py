"""The bot protocol's overhead: deals per second of ``blot arena`` between two ``cmd:`` random
bots (examples/bots/random_bot.py, one program per seat) against the same two bots built in
(``random``), on the same duplicate deals. Wall-clock time (the programs run in processes of
their own), best of several rounds; the programs are started once before the timing, as the
arena keeps them running from deal to deal.

    python benchmarks/bot_protocol.py [--deals 200] [--rounds 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from blot.arena import run
from blot.games import names

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "bots" / "random_bot.py"
PROGRAM = f"cmd:{sys.executable} {EXAMPLE}"


def deals_per_second(game: str, a: str, b: str, deals: int) -> float:
    start = time.perf_counter()
    result = list(run(game, a, b, deals, 1))[-1]
    assert result.faults == {"a": [0, 0], "b": [0, 0]}, result.faults
    return result.deals / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    for game in names():
        list(run(game, PROGRAM, PROGRAM, 1, 0))  # start the programs
        built_in = max(deals_per_second(game, "random", "random", args.deals) for _ in range(args.rounds))
        programs = max(deals_per_second(game, PROGRAM, PROGRAM, args.deals) for _ in range(args.rounds))
        print(
            f"{game}: built-in random {built_in:,.1f} duplicate deals/s, cmd: random {programs:,.1f} "
            f"duplicate deals/s ({built_in / programs:.1f} times slower)"
        )


if __name__ == "__main__":
    main()
