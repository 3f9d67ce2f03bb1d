"""The ladder of bot levels (issue 27 item 6): a round robin of every level on duplicate deals
(``blot arena``), for both games, with each pair's mean margin and 95% interval, and an Elo-like
rating anchored at ``random`` = 0.

    python benchmarks/ladder.py [--game bazar-blot] [--deals 200] [--seed 1] [--jobs 2]
                                [--levels random,basic,heuristic,pimc,expert] [--rated 0]

The rating is fitted to the duplicate deals won, drawn and lost: A's score against B is
(won + drawn / 2) / deals, and the ratings are the Bradley-Terry (Elo) model's most likely ones
given every pair's score (:func:`elo`), ``random`` held at 0. ``--rated N`` also plays N whole
games of each pair and rates them as rated tables do (:func:`blot.ratings.changes`, OpenSkill),
printing each level's displayed rating (the server's ``bot:…`` players), whose order should
agree. Every run is seeded and its budgets counted in work, so it gives the same table on any
machine.
"""

from __future__ import annotations

import argparse
import math
import time
from dataclasses import dataclass
from itertools import combinations

LEVELS = "random,basic,heuristic,pimc,expert"


@dataclass
class Pair:
    a: str
    b: str
    deals: int
    margin: float
    low: float
    high: float
    score: float  # A's share of the duplicate deals: (won + drawn / 2) / deals
    seconds: float


def play_pair(game: str, a: str, b: str, deals: int, seed: int, jobs: int) -> Pair:
    from blot.arena import run

    start = time.perf_counter()
    result = list(run(game, a, b, deals, seed, jobs=jobs))[-1]
    won = sum(m > 0 for m in result.margins)
    drawn = sum(m == 0 for m in result.margins)
    low, high = result.ci95
    score = (won + drawn / 2) / result.deals
    return Pair(a, b, result.deals, result.mean_margin, low, high, score, time.perf_counter() - start)


def elo(levels: list[str], pairs: list[Pair], anchor: str = "random") -> dict[str, float]:
    """Bradley-Terry ratings by maximum likelihood (Hunter's MM iteration): each level's
    strength ``p`` such that A's expected score against B is ``p_A / (p_A + p_B)``, shown as
    ``400 · log10(p / p_anchor)`` Elo points. A pair's share of deals weighs by how much it
    tells (a close pair more than a crushing one), so a near-certain win over ``random`` does
    not outweigh a head-to-head match."""
    scores = []
    for p in pairs:
        half = 0.5 / p.deals  # a score of 0 or 1 counts as half a deal lost or won: finite
        scores.append((p.a, p.b, min(max(p.score, half), 1 - half), p.deals))
    strength = dict.fromkeys(levels, 1.0)
    for _ in range(5000):
        new = {}
        for level in levels:
            won = games = 0.0
            for a, b, score, deals in scores:
                if level in (a, b):
                    won += deals * (score if level == a else 1 - score)
                    games += deals / (strength[a] + strength[b])
            new[level] = won / games if games else strength[level]
        strength = {level: v / new[anchor] for level, v in new.items()}
    return {level: 400 * math.log10(v) for level, v in strength.items()}


def rated_games(game: str, levels: list[str], games: int, seed: int) -> dict[str, float]:
    """Whole games of every pair rated as rated tables rate them: each level's displayed rating."""
    from random import Random

    from blot.bots import make_bot
    from blot.games import spec
    from blot.play import play
    from blot.ratings import Rating, changes, display

    game_spec = spec(game)
    ratings: dict[str, Rating] = {}
    rng = Random(seed)
    for a, b in combinations(levels, 2):
        for g in range(games):
            first = (a, b) if g % 2 == 0 else (b, a)  # the first team (or seat) alternates
            players = tuple(first[0] if s in game_spec.teams[0] else first[1] for s in range(game_spec.seats))
            state = game_spec.new_game(dealer=g % game_spec.seats, rng=Random(rng.getrandbits(32)))
            bots = [make_bot(game_spec, p, Random(rng.getrandbits(32))) for p in players]
            play(state, bots)
            ranking = tuple(state.result.ranking())
            ratings.update(changes(game_spec.teams, ranking, players, ratings, frozenset()))
    return {level: display(r.mu, r.sigma) for level, r in ratings.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="", help="bazar-blot or 3-5-8 (default: both)")
    parser.add_argument("--deals", type=int, default=200, help="duplicate deals per pair (0: none)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--levels", default=LEVELS, help="comma-separated bot specs, weakest first")
    parser.add_argument("--rated", type=int, default=0, help="whole games per pair rated by OpenSkill")
    args = parser.parse_args()

    from blot.bots import check_bots, split_bot_specs
    from blot.errors import BlotError
    from blot.games import names

    if args.deals < 0 or args.rated < 0 or args.jobs < 1:
        parser.error("--deals and --rated take 0 or more, --jobs 1 or more")
    games = [args.game] if args.game else list(names())
    try:  # a bad game or level is refused before anything is played
        levels = split_bot_specs(args.levels)
        for game in games:
            check_bots(game, levels)
    except BlotError as e:
        parser.error(str(e))
    for game in games:
        if args.deals:  # 0: the rated games alone
            print(f"{game}: {args.deals} duplicate deals per pair, seed {args.seed}")
            print("| A | B | mean margin (A − B) | 95% interval | A's deal score | seconds |")
            print("|---|---|---|---|---|---|", flush=True)
            pairs = []
            for i, (a, b) in enumerate(combinations(levels, 2)):
                p = play_pair(game, b, a, args.deals, args.seed + i, args.jobs)
                pairs.append(p)
                print(  # each row as soon as its pair is played: a long run shows its progress
                    f"| `{p.a}` | `{p.b}` | {p.margin:+.3f} | [{p.low:+.3f}, {p.high:+.3f}] "
                    f"| {p.score:.3f} | {p.seconds:.0f} |",
                    flush=True,
                )
            rating = elo(levels, pairs, anchor=levels[0])
            print("| level | Elo-like rating |")
            print("|---|---|")
            for level in sorted(levels, key=lambda x: rating[x]):
                print(f"| `{level}` | {rating[level]:+.0f} |")
        if args.rated:
            shown = rated_games(game, levels, args.rated, args.seed)
            print(
                f"rated tables (OpenSkill, {args.rated} games per pair): "
                + ", ".join(
                    f"bot:{level} {shown[level]:.1f}" for level in sorted(shown, key=lambda x: shown[x])
                )
            )
        print()


if __name__ == "__main__":
    main()
