"""What each ingredient of the ``expert`` bot is worth (issue 27): the expert with and without
each of them, against ``pimc`` on the same duplicate deals, with the margin's 95% interval and
both sides' double-dummy loss per deal and seat (``blot arena --dd-loss``).

    python benchmarks/ablation.py [--game bazar-blot] [--deals 300] [--seed 27] [--jobs 2] [--no-dd]

Bazar Blot's ingredients: the deals weighted by the calls (``trust=0`` weighs them alike, as
``pimc`` does), the bidder (``bidding=heuristic``: the heuristic player's calls, which ``pimc``
makes too) and the fitted leaf estimate (``leaf=plain``: the solver's plain guess beyond the
horizon, as ``pimc``); the last row takes all three away: what remains is ``pimc``'s card play
with the expert's budget. 3-5-8's: the deals weighted by the trump calls, the fitted leaf
estimate and the exact search from 9 tricks left (``exact=7,samples=20``: ``pimc``'s 7, with
the 20 deals that budget affords), each away and all three away, and one row that adds the
searched trump call and discard (``choices=expert``; the default is the heuristic player's,
``choices=heuristic``). Each row's time per decision is the variant's own (``bot_seconds`` over
its decisions), wall clock: on a busy machine it grows with the load, so compare the rows of one
run. ``--no-dd`` leaves the double-dummy losses out (shown as ``—``): a quick run of the table's
rows, since solving every decision double dummy costs most of a small run's time.
"""

from __future__ import annotations

import argparse
import time

VARIANTS = {
    "bazar-blot": [
        ("all ingredients", "expert"),
        ("without the call-weighted deals", "expert:trust=0"),
        ("without the bidder", "expert:bidding=heuristic"),
        ("without the fitted leaf estimate", "expert:leaf=plain"),
        ("without all three", "expert:trust=0,bidding=heuristic,leaf=plain"),
    ],
    "3-5-8": [
        ("all ingredients", "expert"),
        ("without the call-weighted deals", "expert:trust=0"),
        ("without the fitted leaf estimate", "expert:leaf=plain"),
        ("without the exact search from 9 tricks left", "expert:exact=7,samples=20"),
        ("without all three", "expert:trust=0,leaf=plain,exact=7,samples=20"),
        ("with the searched call and discard", "expert:choices=expert"),
    ],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="", help="bazar-blot or 3-5-8 (default: both)")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--against", default="pimc", help="the bot every variant plays")
    parser.add_argument("--budget", default="", help="settings added to every variant, e.g. samples=4")
    parser.add_argument("--no-dd", action="store_true", help="leave out the double-dummy losses (quick)")
    args = parser.parse_args()

    from blot.arena import check, run
    from blot.errors import BlotError

    games = [args.game] if args.game else list(VARIANTS)
    try:  # a bad game, opponent or budget is refused before anything is played
        for game in games:
            for _, variant in VARIANTS.get(game, [("", "expert")]):
                check(game, _with(variant, args.budget), args.against, args.deals)
    except BlotError as e:
        parser.error(str(e))
    for game in games:
        print(f"{game}: each variant against {args.against}, {args.deals} duplicate deals, seed {args.seed}")
        print(
            "| variant | bot | mean margin | 95% interval | DD loss (variant) | DD loss (against) "
            "| ms per decision (variant) | seconds |"
        )
        print("|---|---|---|---|---|---|---|---|")
        for label, variant in VARIANTS[game]:
            bot = _with(variant, args.budget)
            start = time.perf_counter()
            dd = not args.no_dd
            result = list(run(game, bot, args.against, args.deals, args.seed, jobs=args.jobs, dd=dd))[-1]
            low, high = result.ci95
            loss = {side: f"{v:.3f}" for side, v in (result.mean_dd_loss or {"a": 0.0, "b": 0.0}).items()}
            if not dd:
                loss = {"a": "—", "b": "—"}
            print(
                f"| {label} | `{bot}` | {result.mean_margin:+.3f} | [{low:+.3f}, {high:+.3f}] "
                f"| {loss['a']} | {loss['b']} "
                f"| {1000 * result.bot_seconds['a'] / max(1, result.decisions['a']):.1f} "
                f"| {time.perf_counter() - start:.0f} |",
                flush=True,
            )
        print()


def _with(bot: str, settings: str) -> str:
    """``bot`` with more ``settings``, which replace its own of the same name (``expert:exact=7,
    samples=20`` + ``samples=4`` -> ``expert:exact=7,samples=4``)."""
    from blot.bots import parse_bot_spec

    if not settings:
        return bot
    name, own = parse_bot_spec(bot)
    merged = own | parse_bot_spec(f"{name}:{settings}")[1]
    return f"{name}:" + ",".join(f"{key}={value}" for key, value in merged.items())


if __name__ == "__main__":
    main()
