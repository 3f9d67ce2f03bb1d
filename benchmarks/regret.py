"""Regret against a judge (issue 44 item 4, colver's quick measure): how much each bot's card
gives away, by the judgement of a far stronger searcher, at the same positions.

Positions: seeded deals bid and played by ``heuristic`` players, every card decision with more
than one legal card kept with probability ``--keep`` (in 3-5-8 only from the last ``exact``
tricks, where the judge's search is exact and cheap). The judge is the ``expert``'s card play
with ``--judge`` deals per decision (ten times the ``expert``'s by default), weighted by the
calls as the ``expert`` weighs them and each solved exactly to the end of the deal: it values
every legal card as the mean card points the seat's team takes from there (Bazar Blot), or the
tricks the seat takes (3-5-8). A bot's regret at a position is the judge's value of the judge's
best card less that of the bot's card; the script prints each bot's mean regret with its 95%
interval, how often it played the judge's best card, and for ``--pair A,B`` the mean difference
of A's and B's regrets, position by position (the same positions for all: their differences are
much closer than their means).

    python benchmarks/regret.py [--game bazar-blot] [--positions 150] [--judge 240] [--seed 44]
        [--bots random,basic,heuristic,pimc:samples=5,pimc,expert] [--pair pimc:samples=5,pimc]

Only card play is judged (the bidding has no such judge here), so a bot whose gain is in its
calls (the ``expert``'s bidder) shows only its card play.
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
    parser.add_argument("--game", default="bazar-blot", choices=("bazar-blot", "3-5-8"))
    parser.add_argument("--positions", type=int, default=150)
    parser.add_argument("--judge", type=int, help="deals the judge solves per position (240; 3-5-8: 140)")
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

    game = spec(args.game)
    bazar = args.game == "bazar-blot"
    samples = args.judge or (240 if bazar else 140)
    rng = Random(args.seed)
    judge = _judge(bazar, samples, Random(args.seed + 1))
    regrets: dict[str, list[float]] = {name: [] for name in bots}
    best_played = dict.fromkeys(bots, 0)
    spent = dict.fromkeys(bots, 0.0)
    judged = 0.0
    for view in (_positions if bazar else _tfe_positions)(args.positions, args.keep, rng):
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
    unit = "card points" if bazar else "tricks"
    print(
        f"{'Bazar Blot' if bazar else '3-5-8'} card play, regret against the judge (the expert's search, "
        f"{samples} deals each solved to the end): {n} positions of heuristic deals, seed {args.seed}"
    )
    print(f"{'bot':<28} {f'regret, {unit}':>20} {'95% interval':>18} {'judge best':>11} {'ms a card':>9}")
    for name in bots:
        mean, half = _mean_and_half(regrets[name])
        print(
            f"{name:<28} {mean:>20.2f} {f'[{mean - half:.2f}, {mean + half:.2f}]':>18} "
            f"{best_played[name] / n:>10.0%} {1000 * spent[name] / n:>9.1f}"
        )
    print(f"the judge: {judged / n:.2f} s of CPU a position")
    if pair:
        a, b = pair
        differences = [x - y for x, y in zip(regrets[a], regrets[b], strict=True)]
        mean, half = _mean_and_half(differences)
        interval = f"[{mean - half:+.2f}, {mean + half:+.2f}]"
        print(f"{a} less {b}, position by position: {mean:+.2f} {interval} {unit}")


def _positions(count: int, keep: float, rng: Random) -> Any:
    """Seeded Bazar Blot deals bid and played by ``heuristic`` players; yields the view of the
    seat to act at card decisions with more than one legal card, each with probability ``keep``."""
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
                yield deal.view(seat)
            deal.apply(players[seat].choose(deal.view(seat)))


def _tfe_positions(count: int, keep: float, rng: Random) -> Any:
    """The same for 3-5-8 (first deals of games), from the last tricks the ``expert`` searches
    exactly."""
    from blot.bots import make_bot
    from blot.games import spec
    from blot.three_five_eight import Game, Phase, random_deal

    game = spec("3-5-8")
    exact = make_bot(game, "expert").exact  # type: ignore[attr-defined]
    found = 0
    number = 0
    while found < count:
        state = game.new_game(dealer=number % 3)
        assert isinstance(state, Game)
        number += 1
        state.start_deal(random_deal(rng))
        players = [make_bot(game, "heuristic", Random(rng.getrandbits(32))) for _ in range(3)]
        deal = state.deal
        assert deal is not None
        while not deal.is_over and found < count:
            seat = state.to_act
            assert seat is not None
            left = 16 - len(deal.trick_winners)
            chosen = deal.phase is Phase.PLAY and left <= exact and len(state.legal_actions()) > 1
            if chosen and rng.random() < keep:
                found += 1
                yield state.view(seat)
            state.apply(players[seat].choose(state.view(seat)))


def _judge(bazar: bool, samples: int, rng: Random) -> Callable[[Any], Mapping[Any, float]]:
    """The judge: the ``expert``'s card search with ``samples`` deals, each solved exactly; its
    value of every legal card (the mean card points of the seat's team, or the seat's tricks)."""
    from blot.bots.bazar_expert import ExpertBot
    from blot.bots.tfe_expert import ExpertBot as TfeExpertBot

    class Judge(ExpertBot if bazar else TfeExpertBot):  # type: ignore[misc]
        values: dict[Any, float]

        def settle(self, totals: Mapping[Any, int], done: int, fallback: Any, other: Any) -> Any:
            weight = samples if done else 1
            self.values = {c: v / weight for c, v in totals.items()}
            return super().settle(totals, done, fallback, other)

    judge = Judge(rng, samples=samples, exact=8 if bazar else 16)

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
