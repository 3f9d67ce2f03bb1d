"""What both games' ``pimc`` bots share: dealing the cards a bot cannot see, and valuing each
legal card over many such deals within a budget of samples and seconds."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from random import Random
from typing import Final

from blot.bots.settings import Setting
from blot.cards import Card, iter_bits

#: The settings of a card decision's budget, the same in both games.
BUDGET: Final = {
    "samples": Setting(int, 1, 1000, "deals sampled per card decision", web_high=100),
    "seconds": Setting(float, 0, 60, "time limit per decision", web_high=3, above_low=True),
}


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


def card_totals(
    cards: Sequence[Card],
    sample: Callable[[], list[int] | None],
    solve: Callable[[list[int]], Mapping[Card, int]],
    samples: int,
    seconds: float,
) -> tuple[dict[Card, int], int]:
    """Each card's value summed over up to ``samples`` deals from ``sample`` (each valued by
    ``solve``), and how many deals that was: sampling stops early once ``seconds`` have passed or
    when ``sample`` finds no deal that fits what the bot knows (None)."""
    totals = dict.fromkeys(cards, 0)
    start = time.perf_counter()
    done = 0
    for _ in range(samples):
        hands = sample()
        if hands is None:
            break
        values = solve(hands)
        for c in cards:
            totals[c] += values[c]
        done += 1
        if time.perf_counter() - start > seconds:
            break
    return totals, done


def best_cards(totals: Mapping[Card, int]) -> list[Card]:
    """The cards with the highest total, in the order of ``totals``."""
    best = max(totals.values())
    return [c for c, total in totals.items() if total == best]
