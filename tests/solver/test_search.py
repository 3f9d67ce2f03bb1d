"""The helpers both kernels share (:mod:`blot.solver._search`): the transposition table and the
root driver, checked on their own against known values."""

from __future__ import annotations

from random import Random

import pytest

from blot.solver import _search as core
from blot.solver._jit import int_array


def fail_soft(value: int, alpha: int, beta: int, rng: Random) -> int:
    """What a fail-soft search of a position worth ``value`` may answer for (alpha, beta): the
    value inside the window, else any bound on the right side of it that is still true."""
    if value <= alpha:
        return rng.randint(value, alpha)
    if value >= beta:
        return rng.randint(beta, value)
    return value


@pytest.mark.parametrize("mode", [core.FULL, core.MTDF, core.FULL_FIRST])
def test_the_root_driver_finds_every_cards_exact_value(mode: int) -> None:
    rng = Random(mode)
    out = int_array(2 * core.ROOT_REP)
    values = int_array(core.ROOT_REP)
    drv = int_array(core.DRIVER_WIDTH)
    for _ in range(300):
        top = rng.choice((1, 16, 162))
        count = rng.randint(1, 8)
        truth = [rng.randint(0, top) for _ in range(count)]
        reps: list[int] = []
        for i in range(count):  # some cards stand for an earlier one (equivalent cards)
            out[i] = i
            rep = rng.choice(reps) if reps and rng.random() < 0.3 else i
            out[core.ROOT_REP + i] = rep
            if rep == i:
                reps.append(i)
            truth[i] = truth[rep]
        core.root_start(drv, count, rng.randint(0, top), mode, 0, top)
        searched = []
        i = core.root_next(drv, out, values, 0)
        while i >= 0:
            searched.append(i)
            assert drv[core.ALPHA] < drv[core.BETA]
            i = core.root_next(drv, out, values, fail_soft(truth[i], drv[core.ALPHA], drv[core.BETA], rng))
        assert [values[i] for i in range(count)] == truth
        assert set(searched) == set(reps)  # only the first card of each run is searched


def test_the_table_keeps_bounds_per_position_and_solve() -> None:
    tt = int_array(4 * core.TT_WIDTH)  # two buckets of two slots
    key = (0b1011, 0b0100, 7, 2)
    slot = core.tt_slot(*key, 1)
    assert core.tt_probe(tt, slot, 1, *key, 0, 30) == (0, 30, -1, -1)  # nothing stored yet
    core.tt_store(tt, slot, 1, *key, 12, 12, 20, 30, 5, 0)  # fails low: at most 12
    assert core.tt_probe(tt, slot, 1, *key, 0, 30) == (0, 12, 5, 0)
    core.tt_store(tt, slot, 1, *key, 9, 8, 9, 30, 6, 0)  # fails high: at least 9
    assert core.tt_probe(tt, slot, 1, *key, 0, 30) == (9, 12, 6, 0)
    core.tt_store(tt, slot, 1, *key, 10, 9, 11, 30, 4, 0)  # inside the window: exact
    assert core.tt_probe(tt, slot, 1, *key, 0, 30) == (10, 10, 4, 0)
    assert core.tt_probe(tt, slot, 2, *key, 0, 30) == (0, 30, -1, -1)  # a new solve
    assert core.tt_probe(tt, slot, 1, key[0], key[1], key[2], 3, 0, 30) == (0, 30, -1, -1)  # another key


def test_a_bound_stored_with_another_payload_replaces_the_old_bounds() -> None:
    """The payload is what a kernel's key leaves out (the Bazar Blot kernel: the cards in play
    behind a key of ranks): bounds are merged only for the same payload, else they start over."""
    tt = int_array(2 * core.TT_WIDTH)
    key = (5, 6, 7, 8)
    core.tt_store(tt, 0, 1, *key, 40, 39, 40, 100, 3, 0xF0F0)  # at least 40
    core.tt_store(tt, 0, 1, *key, 60, 60, 61, 100, 2, 0xF0F0)  # at most 60, same cards: merged
    assert core.tt_probe(tt, 0, 1, *key, 0, 100) == (40, 60, 2, 0xF0F0)
    core.tt_store(tt, 0, 1, *key, 70, 70, 71, 90, 1, 0x0F0F)  # other cards: only "at most 70"
    assert core.tt_probe(tt, 0, 1, *key, 0, 90) == (0, 70, 1, 0x0F0F)


def test_a_bucket_keeps_the_costliest_position_and_the_latest_other() -> None:
    """Two slots per bucket: the first holds the position with the most still to play (``top``),
    the second the latest other one; a position found in either is updated in place."""
    tt = int_array(2 * core.TT_WIDTH)  # one bucket
    deep, shallow, other = (1, 0, 0, 0), (2, 0, 0, 0), (3, 0, 0, 0)
    core.tt_store(tt, 0, 1, *deep, 50, 40, 60, 120, 7, 0)  # exact 50, 120 points still to play
    core.tt_store(tt, 0, 1, *shallow, 9, 10, 11, 20, 1, 0)  # at most 9, 20 to play: second slot
    assert core.tt_probe(tt, 0, 1, *deep, 0, 120) == (50, 50, 7, 0)
    assert core.tt_probe(tt, 0, 1, *shallow, 0, 20) == (0, 9, 1, 0)
    core.tt_store(tt, 0, 1, *other, 5, 0, 10, 30, 2, 0)  # replaces the shallow one, not the deep one
    assert core.tt_probe(tt, 0, 1, *deep, 0, 120) == (50, 50, 7, 0)
    assert core.tt_probe(tt, 0, 1, *shallow, 0, 20) == (0, 20, -1, -1)
    core.tt_store(tt, 0, 1, *shallow, 15, 10, 11, 130, 3, 0)  # deeper still: first slot, deep moves down
    assert core.tt_probe(tt, 0, 1, *shallow, 0, 130) == (15, 130, 3, 0)
    assert core.tt_probe(tt, 0, 1, *deep, 0, 120) == (50, 50, 7, 0)
    assert core.tt_probe(tt, 0, 1, *other, 0, 30) == (0, 30, -1, -1)
    assert core.tt_probe(tt, 0, 2, *deep, 0, 120) == (0, 120, -1, -1)  # a new solve sees nothing


@pytest.mark.parametrize(
    ("lo", "hi", "window", "expected"),
    [
        (10, 20, (0, 5), (True, 10, 0, 5)),  # at least 10: fails high
        (10, 20, (25, 30), (True, 20, 25, 30)),  # at most 20: fails low
        (10, 20, (5, 15), (False, 0, 10, 15)),  # narrowed from below
        (10, 20, (15, 25), (False, 0, 15, 20)),  # narrowed from above
        (12, 12, (5, 25), (True, 12, 12, 12)),  # exact
    ],
)
def test_stored_bounds_decide_or_narrow_a_window(
    lo: int, hi: int, window: tuple[int, int], expected: tuple[bool, int, int, int]
) -> None:
    assert core.narrow(lo, hi, *window) == expected
