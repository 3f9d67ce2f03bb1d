"""Random numbers for the compiled play-outs (:mod:`blot.solver.bazar_playout_kernel`,
:mod:`blot.solver.tfe_playout_kernel`): a xorshift generator on 32 bits kept in one slot of an
int array, so that it runs the same compiled and as plain Python (no 64-bit overflow to tell
the two apart) and a seeded play-out is the same card for card with and without numba.
"""

from __future__ import annotations

from typing import Any

from blot.solver._jit import bit_count, jit

MASK32 = 0xFFFFFFFF


def seed_state(seed: int) -> int:
    """A generator state from any int (never 0, which xorshift cannot leave)."""
    return (seed * 2654435761 + 0x9E3779B9) & MASK32 or 1


@jit
def next_random(state: Any, at: int) -> int:
    """The next number in 0 … 2^32 - 1 of the generator kept in ``state[at]`` (Marsaglia's
    xorshift32: 13, 17, 5)."""
    x: int = state[at]
    x ^= (x << 13) & MASK32
    x ^= x >> 17
    x ^= (x << 5) & MASK32
    state[at] = x
    return x


@jit
def nth_bit(x: int, n: int) -> int:
    """The ``n``-th lowest set bit of ``x`` (from 0), as a one-bit set."""
    for _ in range(n):
        x &= x - 1
    return x & -x


@jit
def random_bit(x: int, state: Any, at: int) -> int:
    """One set bit of the non-empty ``x`` at random, as a one-bit set."""
    return nth_bit(x, next_random(state, at) % bit_count(x))
