"""The day's deals without I/O (issue 45): which day it is in the server's zone, the deals and the
seat a day's secret seed gives, which board a daily table deals next, the bots' par line, each
deal's points from a seat, and the matchpoints of a field.

**Counted deals.** A game played to a target (Bazar Blot) counts every deal, a void one too (it
scores nothing for either side, B-23), so board k is deal k. A game of counted deals (3-5-8: a
void deal is dealt again by the same dealer, T-10) has a spare board for each deal: when the k-th
counted deal's cards are passed out, the same dealer deals the k-th spare, so everybody's k-th
counted deal is board k unless it was passed out (each player passes once a game in 3-5-8, so a
counted deal is passed out at most once).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from datetime import date, datetime, timedelta
from random import Random
from typing import Any
from zoneinfo import ZoneInfo

from blot.games import GameSpec


def day_of(clock: float, zone: str) -> date:
    """The day it is in ``zone`` at ``clock`` (seconds since the epoch)."""
    return datetime.fromtimestamp(clock, ZoneInfo(zone)).date()


def ends(day: date, zone: str) -> datetime:
    """When ``day`` ends in ``zone`` (the next midnight there)."""
    return datetime.combine(day + timedelta(days=1), datetime.min.time(), ZoneInfo(zone))


def spares(game: GameSpec) -> bool:
    """Whether the game's daily tables hold a spare board per deal (a game of counted deals)."""
    return game.counted_deals() is not None


def boards(game: GameSpec, seed: str, ruleset: str, deals: int) -> list[dict[str, Any]]:
    """The day's boards of a game and ruleset, from the day's secret seed: never from the date."""
    rng = Random(f"{seed}:{game.name}:{ruleset}")
    count = deals * (2 if spares(game) else 1)
    return [game.random_deal(rng).to_json() for _ in range(count)]


def seat_of(game: GameSpec, seed: str, ruleset: str) -> int:
    """The seat every player of the day takes (the same for everybody, from the seed)."""
    return Random(f"{seed}:{game.name}:{ruleset}:seat").randrange(game.seats)


def board_index(voids: Sequence[bool], deals: int, with_spares: bool) -> int | None:
    """The board a daily table deals next, its finished deals void or not (``voids``); None once
    its ``deals`` counted deals are played."""
    if not with_spares:
        return len(voids) if len(voids) < deals else None
    counted = sum(1 for v in voids if not v)
    if counted >= deals:
        return None
    return deals + counted if voids and voids[-1] else counted


def score_of(game: GameSpec, seat_points: Sequence[int], seat: int) -> int:
    """A deal's score from ``seat``: its side's points less the other side's (Bazar Blot), or its
    own score against its target (3-5-8, T-40)."""
    team = next(t for t in game.teams if seat in t)
    if len(game.teams) == 2:
        other = next(t for t in game.teams if seat not in t)
        return int(seat_points[team[0]]) - int(seat_points[other[0]])
    return int(seat_points[seat])


def deal_scores(game: GameSpec, results: Sequence[Any], seat: int, deals: int) -> list[dict[str, Any]]:
    """Each counted deal's score from ``seat`` and its result (``DealResult.to_json``), from a
    game's deal results (a game of counted deals leaves its void deals out)."""
    kept = [r for r in results if not (spares(game) and r.void)]
    return [{"score": score_of(game, r.seat_points, seat), "result": r.to_json()} for r in kept[:deals]]


def par(
    game: GameSpec, rules: Any, table_boards: list[dict[str, Any]], deals: int, level: str, seed: str
) -> list[Any]:
    """The deal results of the day's deals played by bots of the day's level in
    every seat (CPU work: run it in a thread)."""
    from blot.bots import make_bot
    from blot.play import deal_over, play

    rng = Random(f"{seed}:par")
    bots = [make_bot(game, level, Random(rng.getrandbits(64))) for _ in range(game.seats)]
    state = game.new_game(rules)
    with_spares = spares(game)
    while not state.is_over:
        voids = [r.void for r in state.result.deals]
        index = board_index(voids, deals, with_spares)
        if index is None:
            break
        if state.needs_cards:
            state.start_deal(game.cards_from_json(table_boards[index]))
        play(state, bots, until=deal_over)
    return list(state.result.deals)


def matchpoints(mine: int, others: Sequence[int]) -> float | None:
    """A score's percentage of matchpoints against ``others``: 2 per score beaten, 1 per tie, of 2
    per score (as duplicate events count them, :func:`blot.tournaments.standings.duplicate`);
    None against nobody."""
    if not others:
        return None
    earned = sum(2 if mine > o else 1 if mine == o else 0 for o in others)
    return 100.0 * earned / (2 * len(others))


def percent_in(column: Sequence[int], mine: int) -> float | None:
    """:func:`matchpoints` of ``mine`` against the rest of ``column``, the deal's scores sorted
    (``mine`` among them); None alone."""
    if len(column) < 2:
        return None
    below = bisect_left(column, mine)
    ties = bisect_right(column, mine) - below - 1
    return 100.0 * (2 * below + ties) / (2 * (len(column) - 1))


def field_percents(scores: Mapping[Any, Sequence[int]], par_scores: Sequence[int]) -> dict[Any, float]:
    """Each entrant's mean percentage over the deals it played: on each deal, its score against
    every other entrant's and the par's (the bots' own result from that seat). ``scores`` holds
    each entrant's deal scores (the par under the key ``None`` is compared with the people).
    Each deal's scores are sorted once, so a large field costs n log n, not n²."""
    everyone: dict[Any, Sequence[int]] = dict(scores)
    everyone[None] = par_scores
    deals = max((len(s) for s in everyone.values()), default=0)
    sums: dict[Any, float] = {}
    counts: dict[Any, int] = {}
    for k in range(deals):
        column = sorted(s[k] for s in everyone.values() if k < len(s))
        if len(column) < 2:
            continue
        for key, mine in everyone.items():
            if k >= len(mine):
                continue
            sums[key] = sums.get(key, 0.0) + (percent_in(column, mine[k]) or 0.0)
            counts[key] = counts.get(key, 0) + 1
    return {key: sums[key] / counts[key] for key in sums}
