"""Who meets whom in a round of a tournament, and who sits where: a pure function of the tournament's
history (no I/O, no clock; the server reads the history from the database and stores the answer).

An *entrant* is an entry id: a pair of accounts in Bazar Blot (one team), one account in 3-5-8.
A table is a tuple of entrants in seat order: in Bazar Blot ``(team of seats 0 and 2, team of
seats 1 and 3)``, in 3-5-8 ``(seat 0, seat 1, seat 2)``.

**Swiss** (:func:`swiss`). Entrants are ranked by match points, then by their seed (the order
they registered in). No two entrants meet twice while it can be avoided; entrants meet others on
equal or nearest score; when the count does not fill the tables, the lowest-ranked entrants who
have had no bye get one (at most one each while it can be avoided); a withdrawn entrant is
simply not among the entrants given. *Forbidden pairs* (issue 42: two entrants the organizer
says must not meet, same club or family) weigh more than any repeat meeting: they meet only when
no grouping avoids it. A *requested bye* (an entrant who asked to sit the round out) takes the
entrant out of the round before anything is paired: it is no pairing bye (``Pairing.absent``).

- *Bazar Blot pairs* are paired by the kept library caissify-pairings: its FIDE Dutch system for
  up to :data:`DUTCH_LIMIT` entrants, its casual Swiss above (the Dutch takes about 1.5 s for 64
  entrants and minutes for 200). Chess colours mean nothing in Blot (the deal passes round the
  table): the library is told no colours at all, so that its colour rules never shape a pairing,
  and which pair sits as team 0 (seats 0 and 2, speaking first in the first deal) is blot's own
  choice (:func:`seat`). The library's answer is checked against the
  rules above, and when it breaks one (the casual engine can leave several entrants unpaired
  with byes, and both engines give everybody a bye when repeats cannot be avoided) the pairing
  comes from this module's own search instead.
- *3-5-8 tables of three* come from this module's own search (no library pairs threes), which
  also pairs when the library's answer is refused: the grouping with the fewest pairs that met
  before, then the smallest score spread (the difference between the best and the worst score at
  each table, added up) — exact for up to :data:`EXACT_LIMIT` entrants, else greedy in ranking
  order and improved by swaps. When the count is not a multiple of three, the one or two
  lowest-ranked entrants without a bye get one (3-5-8 is played by three; there are no tables of
  four or two).

**Round robin** (:func:`round_robin`): the whole schedule at once. Pairs follow the FIDE Berger
tables (caissify-pairings; with an odd count whoever would meet the phantom entrant has a bye).
3-5-8 players meet at tables of three as evenly as the count allows: round after round, the
search puts together players who have not met yet (byes rotating to those with the fewest),
until every player has met every other; that takes ``ceil((n - 1) / 2)`` rounds when it can.

**Seats** (:func:`seat`): of the ways to seat a table's entrants, the one whose entrants held
those places least often before is taken (the first in ranking order on a tie). In Bazar Blot
that makes team 0 the pair that has been team 0 less often; at a 3-5-8 table the seats rotate
(seat 0 speaks first in the first deal, seat 2 deals it).

>>> p = swiss([1, 2, 3, 4], [], size=2, round_number=1, total_rounds=3)
>>> p.tables, p.byes
(((1, 3), (2, 4)), ())
"""

from __future__ import annotations

import itertools
import logging
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from random import Random

#: The most entrants the FIDE Dutch engine pairs; above, the library's casual Swiss.
DUTCH_LIMIT = 64
#: Up to this many entrants the grouping is exact (every grouping is weighed, with pruning).
EXACT_LIMIT = 9
#: Above it, each entrant's mates are chosen among the next this many in ranking order ...
WINDOW = 24
#: ... and then entrants of tables at most this far apart are swapped while it helps.
REACH = 4
#: ... or, when every score is the same (a round robin), this far.
FULL_REACH = 64
IMPROVE_PASSES = 8
#: Choices of who has the byes that the search tries before it settles, in fields too large for
#: the exact grouping (the exact grouping weighs every choice: a small field, 8 players with two
#: byes, can have 28 choices and only the last few without a repeat).
BYE_TRIES = 24
#: Orders of the players a 3-5-8 round robin is built from before the shortest is kept.
SCHEDULE_TRIES = 12
#: What a forbidden pair weighs in the search's count of repeated meetings: more than every
#: repeat of a field (two entrants that must not meet are paired only when nothing else works).
FORBIDDEN = 10_000

Table = tuple[int, ...]


@dataclass(frozen=True)
class Pairing:
    """A round: its tables (entrants in seat order), the entrants with a bye, and those who asked
    to sit it out (``absent``: a requested bye, issue 42)."""

    tables: tuple[Table, ...]
    byes: tuple[int, ...] = ()
    absent: tuple[int, ...] = ()

    def entrants(self) -> list[int]:
        return [e for t in self.tables for e in t] + list(self.byes)


@dataclass(frozen=True)
class Played:
    """A round already paired, as pairing needs it: its tables, its byes, and the match points
    each entrant earned in it (nothing yet for a game not over)."""

    tables: tuple[Table, ...]
    byes: tuple[int, ...] = ()
    points: Mapping[int, float] = field(default_factory=dict)


def pair_key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def meetings(history: Sequence[Played]) -> Counter[tuple[int, int]]:
    """How often each two entrants have sat at one table."""
    met: Counter[tuple[int, int]] = Counter()
    for played in history:
        for table in played.tables:
            for a, b in itertools.combinations(table, 2):
                met[pair_key(a, b)] += 1
    return met


def scores(history: Sequence[Played]) -> Counter[int]:
    """Each entrant's match points so far."""
    total: Counter[int] = Counter()
    for played in history:
        for entrant, points in played.points.items():
            total[entrant] += points  # type: ignore[assignment]
    return total


def byes_had(history: Sequence[Played]) -> Counter[int]:
    return Counter(e for played in history for e in played.byes)


def seat_counts(history: Sequence[Played]) -> Counter[tuple[int, int]]:
    """How often each entrant has held each place of a table: ``(entrant, place)``."""
    counts: Counter[tuple[int, int]] = Counter()
    for played in history:
        for table in played.tables:
            for place, entrant in enumerate(table):
                counts[(entrant, place)] += 1
    return counts


# --- Swiss ----------------------------------------------------------------------------------------


def swiss(
    entrants: Sequence[int],
    history: Sequence[Played],
    *,
    size: int,
    round_number: int,
    total_rounds: int,
    forbidden: Sequence[tuple[int, int]] = (),
    requested: Sequence[int] = (),
) -> Pairing:
    """The next Swiss round of ``entrants`` (the active ones, in seed order) after ``history``;
    ``size`` is 2 (Bazar Blot pairs) or 3 (3-5-8 players). ``forbidden``: pairs of entrants that
    must not meet while avoidable; ``requested``: entrants sitting this round out (their
    requested byes, answered as ``absent``)."""
    if len(set(entrants)) != len(entrants):
        raise ValueError("an entrant is listed twice")
    away = tuple(e for e in entrants if e in set(requested))
    if away:
        rest = swiss(
            [e for e in entrants if e not in set(away)],
            history,
            size=size,
            round_number=round_number,
            total_rounds=total_rounds,
            forbidden=forbidden,
        )
        return Pairing(rest.tables, rest.byes, away)
    points = scores(history)
    seed = {e: i for i, e in enumerate(entrants)}
    ranked = sorted(entrants, key=lambda e: (-points[e], seed[e]))
    met = meetings(history)
    for a, b in forbidden:
        met[pair_key(a, b)] += FORBIDDEN
    byes = byes_had(history)
    counts = seat_counts(history)
    if size == 2 and len(ranked) >= 2:
        found = _library_swiss(ranked, history, round_number, total_rounds, forbidden)
        if found is not None and _acceptable(found, ranked, met, byes, size):
            rank = {e: i for i, e in enumerate(ranked)}
            ordered = (tuple(sorted(t, key=rank.__getitem__)) for t in found.tables)
            return Pairing(tuple(seat(t, counts) for t in ordered), found.byes)
    tables, bye = _search(ranked, points, met, byes, size)
    return Pairing(tuple(seat(t, counts) for t in tables), tuple(bye))


def _acceptable(
    pairing: Pairing, ranked: Sequence[int], met: Counter[tuple[int, int]], byes: Counter[int], size: int
) -> bool:
    """The library's answer keeps the rules: every entrant once, the fewest byes possible and
    to entrants without one (while someone is left without one), and no repeat meeting (when a
    repeat cannot be avoided the search decides, since it knows how to minimise them)."""
    placed = pairing.entrants()
    if sorted(placed) != sorted(ranked) or any(len(t) != size for t in pairing.tables):
        return False
    if len(pairing.byes) != len(ranked) % size:
        return False
    fresh = [e for e in ranked if byes[e] == 0]
    if fresh and any(byes[e] > 0 for e in pairing.byes):
        return False
    return all(met[pair_key(a, b)] == 0 for t in pairing.tables for a, b in itertools.combinations(t, 2))


def _library_swiss(
    ranked: Sequence[int],
    history: Sequence[Played],
    round_number: int,
    total_rounds: int,
    forbidden: Sequence[tuple[int, int]] = (),
) -> Pairing | None:
    """Bazar Blot pairs by caissify-pairings (FIDE Dutch up to :data:`DUTCH_LIMIT` entrants, its
    casual Swiss above; a forbidden pair told as if it had met); None when the library fails."""
    from caissify_pairings import generate_pairings

    players = []
    previous: set[tuple[int, int]] = {pair_key(a, b) for a, b in forbidden}
    for played in history:
        for table in played.tables:
            previous.add(pair_key(table[0], table[1]))
    active = set(ranked)
    before: Counter[int] = Counter()
    colours: dict[int, list[str]] = {e: [] for e in ranked}  # "none": colours mean nothing here
    floats: dict[int, list[str]] = {e: [] for e in ranked}
    for played in history:
        seen: set[int] = set()
        for table in played.tables:
            a, b = table
            seen.update(table)
            for me, other in ((a, b), (b, a)):
                if me in active:
                    colours[me].append("none")
                    diff = before[me] - before[other]
                    floats[me].append("down" if diff > 0 else "up" if diff < 0 else "none")
        for e in ranked:
            if e not in seen:
                colours[e].append("none")
                floats[e].append("none")
        for e, p in played.points.items():
            before[e] += p  # type: ignore[assignment]
    byes = byes_had(history)
    for number, e in enumerate(ranked, 1):
        players.append(
            {
                "id": e,
                "name": str(e),
                "score": float(before[e]),
                "rating": 0,
                "starting_number": number,
                "color_hist": colours[e],
                "float_history": floats[e],
                "bye_count": byes[e],
            }
        )
    system = "dutch" if len(ranked) <= DUTCH_LIMIT else "casual"
    logging.getLogger("caissify_pairings").setLevel(logging.ERROR)
    try:
        rows = generate_pairings(
            system=system,
            players=players,
            previous_pairings=previous,
            round_number=round_number,
            total_rounds=max(total_rounds, round_number),
            max_byes_per_player=1,
        )
    except Exception:
        return None
    tables: list[Table] = []
    bye: list[int] = []
    for row in rows:
        if row.get("bye") or row.get("black_id") is None:
            bye.append(int(row["white_id"]))
        else:
            tables.append((int(row["white_id"]), int(row["black_id"])))
    return Pairing(tuple(tables), tuple(bye))


# --- the search -----------------------------------------------------------------------------------


def _search(
    ranked: Sequence[int],
    points: Mapping[int, float],
    met: Counter[tuple[int, int]],
    byes: Counter[int],
    size: int,
) -> tuple[list[Table], list[int]]:
    """Tables of ``size`` and the byes: the byes to the lowest-ranked entrants with the fewest
    byes, then the grouping with the fewest repeated meetings and the smallest score spread."""
    spare = len(ranked) % size
    if len(ranked) < size:
        return [], list(ranked)
    place = {e: i for i, e in enumerate(ranked)}
    order = sorted(ranked, key=lambda e: (byes[e], -place[e]))
    fresh = [e for e in order if byes[e] == 0]
    # at most one bye each while enough entrants have none: only they may have this round's
    candidates = fresh if len(fresh) >= spare else order
    best: tuple[tuple[int, float], list[Table], list[int]] | None = None
    tries = None if len(ranked) - spare <= EXACT_LIMIT else BYE_TRIES
    for chosen in itertools.islice(itertools.combinations(candidates, spare), tries):
        rest = [e for e in ranked if e not in chosen]
        found = _groups(rest, points, met, size)
        if found is None:
            continue
        cost, tables = found
        if best is None or cost < best[0]:
            best = (cost, tables, list(chosen))
        if cost[0] == 0:
            break
    assert best is not None, "a grouping always exists"
    return best[1], best[2]


def _groups(
    ranked: Sequence[int], points: Mapping[int, float], met: Counter[tuple[int, int]], size: int
) -> tuple[tuple[int, float], list[Table]] | None:
    """The grouping of ``ranked`` (a multiple of ``size``, in ranking order) with the fewest
    pairs that met before, then the smallest score spread: exact for up to
    :data:`EXACT_LIMIT` entrants (branch and bound), else greedy in ranking order (each
    highest-ranked entrant left takes the best mates among the next :data:`WINDOW`) improved by
    swapping entrants between tables while that lowers the cost."""
    if len(ranked) <= EXACT_LIMIT:
        return _exact(ranked, points, met, size)
    tables = _greedy(ranked, points, met, size)
    level = {points.get(e, 0) for e in ranked}
    _improve(tables, points, met, REACH if len(level) > 1 else min(len(tables), FULL_REACH))
    return _total(tables, points, met), tables


def _cost(
    group: Sequence[int], points: Mapping[int, float], met: Counter[tuple[int, int]]
) -> tuple[int, float]:
    repeats = sum(_weight(met[pair_key(a, b)]) for a, b in itertools.combinations(group, 2))
    values = [points.get(e, 0) for e in group]
    return repeats, max(values) - min(values)


def _weight(times: int) -> int:
    """A pair's weight in the count of repeats: 0 when it never met, 1 when it did, and
    :data:`FORBIDDEN` for a pair that must not meet."""
    return FORBIDDEN if times >= FORBIDDEN else 1 if times else 0


def _total(
    tables: Sequence[Sequence[int]], points: Mapping[int, float], met: Counter[tuple[int, int]]
) -> tuple[int, float]:
    costs = [_cost(t, points, met) for t in tables]
    return sum(c[0] for c in costs), sum(c[1] for c in costs)


def _exact(
    ranked: Sequence[int], points: Mapping[int, float], met: Counter[tuple[int, int]], size: int
) -> tuple[tuple[int, float], list[Table]] | None:
    best: list[tuple[tuple[int, float], list[Table]]] = []
    chosen: list[Table] = []

    def visit(rest: list[int], cost: tuple[int, float]) -> None:
        if best and cost >= best[0][0]:
            return
        if not rest:
            best[:] = [(cost, list(chosen))]
            return
        head, tail = rest[0], rest[1:]
        for others in itertools.combinations(range(len(tail)), size - 1):
            group = (head, *(tail[i] for i in others))
            extra = _cost(group, points, met)
            after = (cost[0] + extra[0], cost[1] + extra[1])
            if best and after >= best[0][0]:
                continue
            chosen.append(group)
            visit([e for i, e in enumerate(tail) if i not in others], after)
            chosen.pop()

    visit(list(ranked), (0, 0))
    return best[0] if best else None


def _greedy(
    ranked: Sequence[int], points: Mapping[int, float], met: Counter[tuple[int, int]], size: int
) -> list[Table]:
    rest = list(ranked)
    tables: list[Table] = []
    while rest:
        head, window = rest[0], rest[1 : 1 + WINDOW]
        best = min(
            itertools.combinations(range(len(window)), size - 1),
            key=lambda picks: (*_cost((head, *(window[i] for i in picks)), points, met), max(picks)),
        )
        group = (head, *(window[i] for i in best))
        tables.append(group)
        taken = set(group)
        rest = [e for e in rest if e not in taken]
    return tables


def _improve(
    tables: list[Table], points: Mapping[int, float], met: Counter[tuple[int, int]], reach: int
) -> None:
    """Swap two entrants of two tables while that lowers the two tables' cost (tables at most
    ``reach`` apart in ranking order, so that scores stay near)."""
    costs = [_cost(t, points, met) for t in tables]
    for _ in range(IMPROVE_PASSES):
        better = False
        for i in range(len(tables)):
            if costs[i] == (0, 0):
                continue
            for j in range(max(0, i - reach), min(len(tables), i + 1 + reach)):
                if j == i:
                    continue
                a, b = tables[i], tables[j]
                now = _add(costs[i], costs[j])
                for x, y in itertools.product(range(len(a)), range(len(b))):
                    a2 = (*a[:x], b[y], *a[x + 1 :])
                    b2 = (*b[:y], a[x], *b[y + 1 :])
                    cost_a, cost_b = _cost(a2, points, met), _cost(b2, points, met)
                    if _add(cost_a, cost_b) < now:
                        tables[i], tables[j], costs[i], costs[j] = a2, b2, cost_a, cost_b
                        a, b, now = a2, b2, _add(cost_a, cost_b)
                        better = True
        if not better:
            return


def _add(x: tuple[int, float], y: tuple[int, float]) -> tuple[int, float]:
    return x[0] + y[0], x[1] + y[1]


def seat(table: Sequence[int], counts: Counter[tuple[int, int]]) -> Table:
    """The seats of a table's entrants: of every order, the one whose entrants held those
    places least often before (the first such order in ranking order on a tie)."""
    best = min(
        itertools.permutations(table),
        key=lambda order: sum(counts[(e, place)] for place, e in enumerate(order)),
    )
    return tuple(best)


# --- round robin ----------------------------------------------------------------------------------


def round_robin(entrants: Sequence[int], *, size: int) -> list[Pairing]:
    """The whole round-robin schedule of ``entrants`` (in seed order)."""
    if size == 2:
        return _berger(entrants)
    return _threes_schedule(entrants)


def _berger(entrants: Sequence[int]) -> list[Pairing]:
    """FIDE Berger tables (caissify-pairings); with an odd count the phantom's partner has a bye."""
    from caissify_pairings.engines.round_robin import berger_round

    players: list[int | None] = list(entrants)
    if len(players) % 2:
        players.append(None)
    n = len(players)
    if n < 2:
        return []
    rounds = []
    for number in range(1, n):
        tables: list[Table] = []
        byes: list[int] = []
        for white, black in berger_round(n, number):
            a, b = players[white - 1], players[black - 1]
            if a is None or b is None:
                byes.extend(e for e in (a, b) if e is not None)
            else:
                tables.append((a, b))
        rounds.append(Pairing(tuple(tables), tuple(byes)))
    return rounds


def _threes_schedule(entrants: Sequence[int]) -> list[Pairing]:
    """3-5-8 round robin: rounds of tables of three until every two players have met. The
    rounds are built one by one (each with the fewest repeated meetings); the build is tried
    from a few orders of the players (fixed, so the schedule is always the same) and the
    shortest schedule, then the one with the fewest repeats, is kept."""
    everyone = list(entrants)
    if len(everyone) < 3:
        return []
    shortest = -(-(len(everyone) - 1) // 2)
    best: list[Played] | None = None
    for attempt in range(SCHEDULE_TRIES):
        order = list(everyone)
        if attempt:
            Random(attempt).shuffle(order)
        built = _build_threes(order)
        if best is None or _schedule_cost(built) < _schedule_cost(best):
            best = built
        if len(best) <= shortest and len(everyone) % 3 == 0:
            break
    assert best is not None
    return [Pairing(p.tables, p.byes) for p in best]


def _schedule_cost(rounds: Sequence[Played]) -> tuple[int, int]:
    met = meetings(rounds)
    return len(rounds), sum(n - 1 for n in met.values())


def _build_threes(order: Sequence[int]) -> list[Played]:
    wanted = len(order) * (len(order) - 1) // 2
    history: list[Played] = []
    zero: dict[int, float] = {}
    while len(history) < 2 * len(order):
        met = meetings(history)
        if len(met) >= wanted:
            break
        tables, bye = _search(order, zero, met, byes_had(history), 3)
        counts = seat_counts(history)
        history.append(Played(tuple(seat(t, counts) for t in tables), tuple(bye)))
    return history


__all__ = [
    "DUTCH_LIMIT",
    "Pairing",
    "Played",
    "meetings",
    "pair_key",
    "round_robin",
    "scores",
    "seat",
    "swiss",
]
