"""Dealing the cards a bot cannot see, for both games' samplers (PIMC)."""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from blot.cards import iter_bits


def deal_rest(
    rest: int, seats: Sequence[int], hands: list[int], room: list[int], forbidden: Sequence[int], rng: Random
) -> bool:
    """Deal the cards of ``rest`` into ``hands`` of ``seats``, at most ``room[s]`` more each and none
    that ``forbidden[s]`` rules out; False when the random choices reach a dead end.

    The most constrained cards go first (random order among equals), each to a seat drawn in
    proportion to its room, so that the deals it makes are close to uniform."""
    cards = list(iter_bits(rest))
    rng.shuffle(cards)
    cards.sort(key=lambda b: sum(1 for s in seats if not forbidden[s] & b))
    for b in cards:
        choices = [s for s in seats if room[s] > 0 and not forbidden[s] & b]
        if not choices:
            return False
        pick = rng.randrange(sum(room[s] for s in choices))
        for s in choices:
            pick -= room[s]
            if pick < 0:
                hands[s] |= b
                room[s] -= 1
                break
    return True
