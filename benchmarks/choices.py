"""What a 3-5-8 bot's trump call, gifts and discard are worth on their own (issue 27 item 2): the same
card player at every seat, only one seat's choices differ, on duplicate deals.

    python benchmarks/choices.py [--a expert:choices=expert] [--b expert] [--deals 200]
                                 [--seed 1] [--jobs 1] [--repeat 1] [--later]

Each deal (the arena's cards and dealer for that seed and number) is played once by B at every
seat, and once per seat with A in that seat instead. A seat's difference is its deal score (T-40)
with A less its score with B, with the same cards and the same random numbers for every bot: the
other seats' bots are seeded alike at both tables, and the ``expert`` draws its searched call and
discard from a generator of their own, so when A calls and discards as B does the two tables are
the same card for card and the difference is 0. Only the deals where the choices differ add to
the noise, which is why this measures choices far more closely than ``blot arena`` (where A's
margin is its score against the other seats' at one table, and the card play differs at every
table). A deal's figure is the mean of its three seats' differences: tricks per seat and deal.
With ``--repeat K`` a seat table whose choices differ is played K times over, both ways, each
time with the bots seeded anew (the choices stay: they do not draw on the bots' numbers), and
its difference is the mean: the card play's luck averages out where it is the only noise left.

With ``--later`` each measured deal is the second counted deal of a game, so that it has the
exchange its first deal calls for (T-20): the first deal (its cards from the seed and number
too) is played by ``heuristic`` players at every seat, the same at every table, and sets the
exchange plan, the dealer and who may still pass (T-10).

Prints the mean with its 95% interval, at how many of the seat tables A's call differed from B's
(and at how many only its gifts, or only its discard, did) and what those tables gave, and each
side's calls by strain with how often the caller made its target. Every table is a pure function
of the seed and the deal's number, so ``--jobs`` does not change the result.
"""

from __future__ import annotations

import argparse
import math
import time
from collections import Counter
from dataclasses import dataclass, field
from random import Random

GAME = "3-5-8"


@dataclass
class Table:
    """One table of a deal: the seats' scores and what the seat of interest chose."""

    scores: tuple[int, ...]
    calls: tuple[str, ...]
    discard: tuple[str, ...]
    gifts: tuple[str, ...]
    trump: str
    caller: int | None


@dataclass
class DealOutcome:
    margin: float
    #: The differences of the tables where the call differed, where only the exchange's gifts
    #: did, and where only the discard did.
    call: list[float] = field(default_factory=list)
    gifts: list[float] = field(default_factory=list)
    discard: list[float] = field(default_factory=list)
    calls: dict[str, Counter[tuple[str, bool]]] = field(default_factory=dict)
    seconds: float = 0.0


def play_table(bots: list[str], seed: int, number: int, play_seed: int = 0, later: bool = False) -> Table:
    """Deal ``number`` of the run played by ``bots``; ``play_seed`` > 0 seeds the bots anew (the
    same cards, other random numbers for the card play); ``later``: after a first counted deal
    played by heuristic players."""
    from blot.arena import _seed
    from blot.bots import make_bot
    from blot.games import spec
    from blot.play import deal_over, finish, play, reset

    game = spec(GAME)
    cards = game.random_deal(Random(_seed(seed, number)))
    state = game.new_game(dealer=number % game.seats)
    if later:
        first_deal = Random(_seed(seed, number, 1 << 20))
        heuristic = [make_bot(game, "heuristic", Random(_seed(seed, number, 1 << 20, s))) for s in range(3)]
        while not state.results or state.results[-1].void:  # T-10: three passes deal again
            state.start_deal(game.random_deal(first_deal))
            play(state, heuristic, until=deal_over)
    state.start_deal(cards)
    bot_seed = _seed(seed, number, play_seed) if play_seed else _seed(seed, number)
    players = [make_bot(game, name, Random(_seed(bot_seed, s))) for s, name in enumerate(bots)]
    reset(players)
    play(state, players, until=deal_over)
    deal = state.deal
    calls = tuple(str(c) for c in deal.calls)
    discard = tuple(sorted(str(c) for c in deal.discard))
    gifts = tuple(str(c) for c in deal.gifts)
    trump = str(deal.trump) if deal.trump is not None else "-"
    finish(state, players)
    result = state.result.deals[-1]
    return Table(tuple(result.seat_points), calls, discard, gifts, trump, result.caller)


def duplicate(args: tuple[str, str, int, int, int, bool]) -> DealOutcome:
    a, b, seed, number, repeat, later = args
    start = time.process_time()
    base = play_table([b, b, b], seed, number, later=later)
    again: dict[int, Table] = {}  # the B tables played again, by play seed
    outcome = DealOutcome(0.0, calls={"a": Counter(), "b": Counter()})
    total = 0.0
    for seat in range(3):
        bots = [a if s == seat else b for s in range(3)]
        mine = play_table(bots, seed, number, later=later)
        diff: float = mine.scores[seat] - base.scores[seat]
        if (mine.calls, mine.gifts, mine.discard) != (base.calls, base.gifts, base.discard):
            for r in range(1, repeat):  # the same choices, the card play drawn again: a closer mean
                if r not in again:
                    again[r] = play_table([b, b, b], seed, number, r, later)
                diff += play_table(bots, seed, number, r, later).scores[seat] - again[r].scores[seat]
            diff /= repeat
        total += diff
        if mine.calls != base.calls:
            outcome.call.append(diff)
        elif mine.gifts != base.gifts:
            outcome.gifts.append(diff)
        elif mine.discard != base.discard:
            outcome.discard.append(diff)
        if mine.caller == seat:  # who named the trump at each table, and whether it made its target
            outcome.calls["a"][(mine.trump, mine.scores[seat] >= 0)] += 1
        if base.caller == seat:
            outcome.calls["b"][(base.trump, base.scores[seat] >= 0)] += 1
    outcome.margin = total / 3
    outcome.seconds = time.process_time() - start
    return outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", default="expert:choices=expert", help="the bot whose choices are measured")
    parser.add_argument("--b", default="expert", help="the bot at every other seat, and the reference")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--repeat", type=int, default=1, help="plays of a seat table whose choices differ (the mean counts)"
    )
    parser.add_argument(
        "--later", action="store_true", help="measure second deals of a game, which have an exchange (T-20)"
    )
    args = parser.parse_args()
    if args.deals < 1 or args.jobs < 1 or args.repeat < 1:
        parser.error("--deals, --jobs and --repeat take 1 or more")
    from blot.bots import check_bots
    from blot.errors import BlotError
    from blot.games import spec

    try:
        check_bots(spec(GAME), [args.a, args.b])
    except BlotError as error:
        parser.error(str(error))

    tasks = [(args.a, args.b, args.seed, i, args.repeat, args.later) for i in range(args.deals)]
    start = time.perf_counter()
    if args.jobs > 1:
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            outcomes = list(pool.imap(duplicate, tasks))
    else:
        outcomes = [duplicate(t) for t in tasks]
    margins = [o.margin for o in outcomes]
    n = len(margins)
    mean = sum(margins) / n
    sd = math.sqrt(sum((m - mean) ** 2 for m in margins) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n)
    print(
        f"{GAME}: {args.a} in one seat against {args.b} in the same seat, the same card player at every "
        f"seat, {n} duplicate {'second deals of a game' if args.later else 'deals'} (seed {args.seed}), "
        f"{3 * n} seat tables"
        + (f", each whose choices differ played {args.repeat} times" if args.repeat > 1 else "")
    )
    interval = f"[{mean - half:+.3f}, {mean + half:+.3f}]"
    print(f"mean difference per seat and deal (tricks): {mean:+.3f}  95% {interval}")
    for kind, what in (("call", "the call"), ("gifts", "only the gifts"), ("discard", "only the discard")):
        differed = [d for o in outcomes for d in getattr(o, kind)]
        if not differed:
            print(f"{what} never differed in {3 * n} seat tables")
            continue
        print(
            f"{what} differed at {len(differed)} of {3 * n} seat tables; there A's seat took "
            f"{sum(differed) / len(differed):+.3f} tricks on average ({sum(d > 0 for d in differed)} more, "
            f"{sum(d < 0 for d in differed)} fewer, {sum(d == 0 for d in differed)} the same)"
        )
    for side, name in (("a", args.a), ("b", args.b)):
        calls: Counter[tuple[str, bool]] = Counter()
        for o in outcomes:
            calls.update(o.calls[side])
        strains = sorted({s for s, _ in calls})
        made = ", ".join(f"{s} {calls[(s, True)]}/{calls[(s, True)] + calls[(s, False)]}" for s in strains)
        print(f"trumps named by {name} (made / named): {made}")
    cpu = sum(o.seconds for o in outcomes)
    print(f"{time.perf_counter() - start:.0f} s ({cpu:.0f} s of CPU in the tables)")


if __name__ == "__main__":
    main()
