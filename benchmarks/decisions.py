"""How long a bot thinks per decision at a web table (issue 27 item 3): seeded deals of the bot
against ``pimc``, each of its decisions timed on one core (CPU time of this process, so that a
busy machine does not count), with the web's settings (the level as the lobby offers it, and
its safety time limit).

    python benchmarks/decisions.py [--bot expert] [--deals 20] [--seed 3]

Prints, per game, the median, 90th percentile and slowest decision, and how many there were;
the bidding (Bazar Blot) or the trump call and discard (3-5-8) apart from the card play, and the
3-5-8 exchange's gifts apart too; and how many of the bot's searches its safety time limit cut
short (wall clock: on a busy machine the limit cuts searches that a quiet one finishes). Every
other 3-5-8 deal is the second of a game, after a first deal played by heuristic players, so
that it has an exchange (T-20).
"""

from __future__ import annotations

import argparse
import logging
import statistics
import time
from random import Random


class _Cuts(logging.Handler):
    """Counts the warnings of searches cut by their time limit, per bot name."""

    def __init__(self) -> None:
        super().__init__()
        self.count: dict[str, int] = {}

    def emit(self, record: logging.LogRecord) -> None:
        name = str(record.args[0]) if isinstance(record.args, tuple) and record.args else "?"
        self.count[name] = self.count.get(name, 0) + 1


def timings(game: str, bot: str, deals: int, seed: int) -> dict[str, list[float]]:
    from blot.bots import make_bot
    from blot.games import spec
    from blot.play import deal_over, play

    game_spec = spec(game)
    rng = Random(seed)
    out: dict[str, list[float]] = {"cards": [], "other": [], "gifts": []}
    for number in range(deals):
        dealer = number % game_spec.seats
        state = game_spec.new_game(dealer=dealer)
        if game_spec.seats == 3 and number % 2:  # 3-5-8: a second deal, with an exchange
            first = [make_bot(game_spec, "heuristic", Random(s)) for s in range(3)]
            while not state.results or state.results[-1].void:
                state.start_deal(game_spec.random_deal(rng))
                play(state, first, until=deal_over)
            dealer = state.dealer
        state.start_deal(game_spec.random_deal(rng))
        mine = (dealer + 1 + number // game_spec.seats) % game_spec.seats  # every seat from the dealer
        bots = [
            make_bot(game_spec, bot if s == mine else "pimc", Random(rng.getrandbits(32)), web=True)
            for s in range(game_spec.seats)
        ]
        deal = state.deal
        assert deal is not None
        while not deal.is_over:
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            start = time.process_time()
            action = bots[seat].choose(view)
            spent = time.process_time() - start
            if seat == mine and len(state.legal_actions()) > 1:
                phase = deal.phase.value
                out["cards" if phase == "play" else "gifts" if phase == "exchange" else "other"].append(spent)
            state.apply(action)
    return out


def _line(what: str, times: list[float]) -> str:
    if not times:
        return f"{what}: none"
    times = sorted(times)
    p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
    return (
        f"{what}: {len(times)} decisions, median {statistics.median(times):.3f} s, p90 {p90:.3f} s, "
        f"slowest {times[-1]:.3f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="expert")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--game", default="", help="bazar-blot or 3-5-8 (default: both)")
    args = parser.parse_args()
    from blot.games import names

    cuts = _Cuts()
    log = logging.getLogger("blot.bots")
    log.addHandler(cuts)
    log.propagate = False
    for game in [args.game] if args.game else list(names()):
        cuts.count.clear()
        found = timings(game, args.bot, args.deals, args.seed)
        print(f"{game}, {args.bot} at a web table's settings, {args.deals} deals against pimc:")
        print("  " + _line("every decision", found["cards"] + found["other"] + found["gifts"]))
        print("  " + _line("cards", found["cards"]))
        print("  " + _line("calls, discards", found["other"]))
        if game == "3-5-8":
            print("  " + _line("gifts", found["gifts"]))
        name = args.bot.partition(":")[0]
        print(f"  searches cut by the safety time limit: {cuts.count.get(name, 0)}")


if __name__ == "__main__":
    main()
