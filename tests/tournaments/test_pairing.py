"""Pairing properties (issue 25), over random events played to the end with random results and
withdrawals: no two entrants meet twice while it can be avoided (checked against every possible
grouping), at most one bye per entrant while anybody is without one, score groups respected,
withdrawn entrants never paired, 3-5-8 seats rotated; and the round robins' schedules."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from random import Random

from hypothesis import example, given, settings
from hypothesis import strategies as st

from blot.tournaments.pairing import (
    Pairing,
    Played,
    meetings,
    pair_key,
    round_robin,
    scores,
    seat,
    seat_counts,
    swiss,
)


def groupings(entrants: Sequence[int], size: int) -> list[list[tuple[int, ...]]]:
    """Every way to split ``entrants`` (a multiple of ``size``) into tables."""
    if not entrants:
        return [[]]
    head, rest = entrants[0], list(entrants[1:])
    out = []
    for mates in itertools.combinations(rest, size - 1):
        left = [e for e in rest if e not in mates]
        out.extend([(head, *mates), *g] for g in groupings(left, size))
    return out


def repeats(tables: Sequence[Sequence[int]], met: Counter[tuple[int, int]]) -> int:
    return sum(1 for t in tables for a, b in itertools.combinations(t, 2) if met[pair_key(a, b)])


def fewest_repeats(
    active: Sequence[int], size: int, met: Counter[tuple[int, int]], byes: Counter[int]
) -> int:
    """The fewest repeated meetings of any round the rules allow (byes to entrants without one
    while someone has none)."""
    spare = len(active) % size
    fresh = [e for e in active if byes[e] == 0]
    best = None
    for bye in itertools.combinations(active, spare):
        if fresh and any(byes[e] for e in bye) and len(fresh) >= spare:
            continue
        rest = [e for e in active if e not in bye]
        for g in groupings(rest, size):
            r = repeats(g, met)
            best = r if best is None else min(best, r)
    assert best is not None
    return best


def check_round(
    p: Pairing, active: Sequence[int], withdrawn: set[int], history: Sequence[Played], size: int, exact: bool
) -> None:
    met = meetings(history)
    byes = Counter(e for h in history for e in h.byes)
    placed = p.entrants()
    assert sorted(placed) == sorted(active), "every active entrant exactly once"
    assert not set(placed) & withdrawn, "a withdrawn entrant is never paired"
    assert all(len(t) == size for t in p.tables)
    assert len(p.byes) == len(active) % size
    fresh = [e for e in active if byes[e] == 0]
    if len(fresh) >= len(p.byes):
        assert all(byes[e] == 0 for e in p.byes), "at most one bye each while someone has none"
    if exact:
        assert repeats(p.tables, met) == fewest_repeats(active, size, met, byes), "no avoidable repeat"
    points = scores(history)
    groups = Counter(points[e] for e in active if e not in p.byes)
    rest = [e for e in active if e not in p.byes]
    if exact and all(n % size == 0 for n in groups.values()):
        inside = [
            g
            for g in groupings(sorted(rest, key=lambda e: points[e]), size)
            if all(len({points[e] for e in t}) == 1 for t in g)
        ]
        if any(repeats(g, met) == 0 for g in inside):
            assert all(len({points[e] for e in t}) == 1 for t in p.tables), "score groups kept together"


def play_swiss(seed: int, count: int, rounds: int, size: int, exact: bool) -> list[Played]:
    rng = Random(seed)
    entrants = list(range(1, count + 1))
    withdrawn: set[int] = set()
    history: list[Played] = []
    for number in range(1, rounds + 1):
        if rng.random() < 0.3 and len(entrants) - len(withdrawn) > size + 1:
            withdrawn.add(rng.choice([e for e in entrants if e not in withdrawn]))
        active = [e for e in entrants if e not in withdrawn]
        p = swiss(active, history, size=size, round_number=number, total_rounds=rounds)
        check_round(p, active, withdrawn, history, size, exact)
        earned: dict[int, float] = {e: 1 for e in p.byes}
        for t in p.tables:
            order = list(range(size))
            rng.shuffle(order)
            for place, i in enumerate(order):
                earned[t[i]] = [2, 1, 0][place] if size == 3 else (rng.choice([1, 2]) if place == 0 else 0)
        history.append(Played(p.tables, p.byes, earned))
    return history


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 9), st.integers(1, 6))
def test_swiss_pairs(seed: int, count: int, rounds: int) -> None:
    play_swiss(seed, count, min(rounds, count), 2, exact=True)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(3, 9), st.integers(1, 5))
@example(seed=1527, count=9, rounds=4)  # 8 left after a withdrawal: the zero-repeat byes came late
def test_swiss_threes(seed: int, count: int, rounds: int) -> None:
    spare = count % 3
    most = count // spare if spare else rounds  # byes <= 1 each is possible for this many rounds
    play_swiss(seed, count, min(rounds, most), 3, exact=True)


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10**6), st.integers(10, 70), st.sampled_from([2, 3]))
def test_swiss_large_fields_keep_the_rules(seed: int, count: int, size: int) -> None:
    """Fields too large to weigh every grouping: the other properties hold (the library's casual
    engine above 64 pairs, the search's greedy with swaps for threes)."""
    play_swiss(seed, count, 4, size, exact=False)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=9, max_size=9), st.permutations([7, 8, 9]))
def test_358_seats_rotate(counts: list[int], table: list[int]) -> None:
    """The seats chosen are those the three held least often before (of all six orders)."""
    history = Counter(
        {(e, place): counts[3 * i + place] for i, e in enumerate(sorted(table)) for place in range(3)}
    )
    chosen = seat(table, history)
    cost = sum(history[(e, place)] for place, e in enumerate(chosen))
    assert cost == min(
        sum(history[(e, p)] for p, e in enumerate(order)) for order in itertools.permutations(table)
    )


def test_three_players_take_every_seat_once_in_three_rounds() -> None:
    history: list[Played] = []
    for number in (1, 2, 3):
        p = swiss([1, 2, 3], history, size=3, round_number=number, total_rounds=3)
        history.append(Played(p.tables, p.byes, {}))
    counts = seat_counts(history)
    assert all(counts[(e, place)] == 1 for e in (1, 2, 3) for place in range(3))


def test_berger_pairs_everyone_once() -> None:
    for n in range(2, 12):
        schedule = round_robin(list(range(1, n + 1)), size=2)
        met = meetings([Played(r.tables, r.byes) for r in schedule])
        assert len(schedule) == (n - 1 if n % 2 == 0 else n)
        assert len(met) == n * (n - 1) // 2 and set(met.values()) == {1}
        byes = Counter(e for r in schedule for e in r.byes)
        assert all(v == 1 for v in byes.values()) and len(byes) == (n if n % 2 else 0)


def test_358_round_robin_meets_everyone() -> None:
    """Every player meets every other at tables of three; ``ceil((n - 1) / 2)`` rounds when the
    count is a multiple of three and a design exists (6: 4 rounds, as no 3 rounds can cover its
    15 pairs; 9: 4 rounds, each pair exactly once)."""
    expected = {3: 1, 6: 4, 9: 4}
    for n in range(3, 13):
        schedule = round_robin(list(range(1, n + 1)), size=3)
        met = meetings([Played(r.tables, r.byes) for r in schedule])
        assert len(met) == n * (n - 1) // 2, n
        byes = Counter(e for r in schedule for e in r.byes)
        assert max(byes.values(), default=0) - min((byes[e] for e in range(1, n + 1)), default=0) <= 1
        if n in expected:
            assert len(schedule) == expected[n]
    nine = round_robin(list(range(1, 10)), size=3)
    assert set(meetings([Played(r.tables) for r in nine]).values()) == {1}
