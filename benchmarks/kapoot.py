"""How a Bazar Blot bidder's contracts come out (issue 27 item 2): seeded deals bid by four copies
of one bot, then played out by them where the contract is high (level ``--play-from`` or more).

    python benchmarks/kapoot.py [--bot expert] [--deals 300] [--seed 1] [--play-from 20]

Prints how many contracts of each level were bid (and void deals), then each high contract: the
deal's number, the contract, the tricks each team took and whether it was made. A kapoot bid
that goes down costs its team far more than a level too low, so the expert bids it only when
nearly every deal it imagines takes every trick (its ``kapoot`` setting).
"""

from __future__ import annotations

import argparse
from collections import Counter
from random import Random


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="expert")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--play-from", type=int, default=20, help="contracts from this level are played out")
    args = parser.parse_args()

    from blot.bazar import Deal, random_deal
    from blot.bazar.calls import KAPOOT
    from blot.bazar.values import Phase
    from blot.bots import make_bot
    from blot.errors import BlotError

    try:
        make_bot("bazar-blot", args.bot, Random(0))
    except BlotError as e:
        parser.error(str(e))
    rng = Random(args.seed)
    levels: Counter[str] = Counter()
    high = []
    for number in range(args.deals):
        deal = Deal(random_deal(rng).hands, dealer=number % 4)
        bots = [make_bot("bazar-blot", args.bot, Random(args.seed * 1000 + 4 * number + s)) for s in range(4)]
        while deal.phase is Phase.BIDDING:
            seat = deal.to_act
            assert seat is not None
            deal.apply(bots[seat].choose(deal.view(seat)))
        contract = deal.contract
        if contract is None:
            levels["void"] += 1
            continue
        levels["kapoot" if contract.level == KAPOOT else str(contract.level)] += 1
        if contract.level >= args.play_from:
            while not deal.is_over:
                seat = deal.to_act
                assert seat is not None
                deal.apply(bots[seat].choose(deal.view(seat)))
            score = deal.score
            assert score is not None
            made = "made" if score.made else "down"
            tricks = "-".join(map(str, deal.team_tricks))
            high.append(f"  deal {number}: {contract}, tricks {tricks}, {made}")
    order = sorted(levels, key=lambda name: (not name.isdigit(), int(name) if name.isdigit() else 0, name))
    print(f"{args.deals} deals bid by four `{args.bot}` (seed {args.seed}):")
    print("  " + ", ".join(f"{name}: {levels[name]}" for name in order))
    print(f"contracts of level {args.play_from} or more, played out by the same bots:")
    print("\n".join(high) if high else "  none")


if __name__ == "__main__":
    main()
