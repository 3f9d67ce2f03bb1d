"""Who must take how many tricks (T-3) and who gives a card to whom after a counted deal
(T-20): the exchange of 3-5-8, which the deal is given and the game computes."""

from __future__ import annotations

from typing import Final

from blot.three_five_eight.values import NEXT, PREV, SEATS, DealResult


def targets_for(dealer: int) -> tuple[int, int, int]:
    """Tricks each seat must take (T-3): first (after the dealer) 8, second 5, dealer 3."""
    targets = [0, 0, 0]
    targets[NEXT[dealer]] = 8
    targets[PREV[dealer]] = 5
    targets[dealer] = 3
    return (targets[0], targets[1], targets[2])


#: Each dealer's targets, seat by seat.
TARGETS: Final = tuple(targets_for(d) for d in range(SEATS))


def exchange_plan(previous: DealResult | None) -> tuple[tuple[int, int], ...]:
    """Who gives a card to whom, card by card, in order (T-20), after ``previous``, the last
    counted deal (``None`` before the first: no exchange).

    Every trick a seat took above its previous target is one card it gives; every trick below
    is one card it receives. Plus points, the plus seats taken by higher previous target, are
    paired in order with minus points, the minus seats taken by higher previous target.

    **Interpretation**: a seat's cards go in one block, so with two minus seats the one with the
    higher previous target receives all his cards before the other receives any, and with two
    plus seats the one with the higher previous target gives all of his first.
    """
    if previous is None or previous.void:
        return ()
    order = sorted(range(SEATS), key=lambda s: -previous.targets[s])
    givers = [s for s in order for _ in range(max(previous.scores[s], 0))]
    takers = [s for s in order for _ in range(max(-previous.scores[s], 0))]
    return tuple(zip(givers, takers, strict=True))
