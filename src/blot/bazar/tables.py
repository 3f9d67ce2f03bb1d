"""Precomputed per-strain tables for the hot paths: card points (B-12), trick strength (B-10).

Tables are indexed by a *strain index*: 0-3 the trump suit (``Suit``), 4 no trump (``NT``), and
then by card index (``Card.index``), so a lookup is two list indexings and no branching.
"""

from __future__ import annotations

from typing import Final

from blot.cards import ACE, JACK, KING, QUEEN, SUIT_MASKS

NT: Final = 4
STRAIN_INDEX: Final = {"S": 0, "H": 1, "D": 2, "C": 3, "NT": NT}

#: B-10: trick strength, lowest first.
TRUMP_ORDER: Final = (7, 8, QUEEN, KING, 10, ACE, 9, JACK)
PLAIN_ORDER: Final = (7, 8, 9, JACK, QUEEN, KING, 10, ACE)

#: B-12: card points by rank.
TRUMP_POINTS: Final = {JACK: 20, 9: 14, ACE: 11, 10: 10, KING: 4, QUEEN: 3, 8: 0, 7: 0}
PLAIN_POINTS: Final = {JACK: 2, 9: 0, ACE: 11, 10: 10, KING: 4, QUEEN: 3, 8: 0, 7: 0}
NT_POINTS: Final = {**PLAIN_POINTS, ACE: 19}
LAST_TRICK: Final = 10
TOTAL_CARD_POINTS: Final = 162


def _tables() -> tuple[list[list[int]], list[list[int]], list[list[int]]]:
    points, keys, above = [], [], []
    for tix in range(5):
        p = [0] * 64
        k = [-1] * 64
        a = [0] * 64
        for suit in range(4):
            for rank in range(7, 15):
                i = 16 * suit + rank
                if suit == tix:
                    p[i] = TRUMP_POINTS[rank]
                    k[i] = 100 + TRUMP_ORDER.index(rank)
                    stronger = TRUMP_ORDER[TRUMP_ORDER.index(rank) + 1 :]
                    a[i] = sum(1 << (16 * suit + r) for r in stronger)
                else:
                    p[i] = (NT_POINTS if tix == NT else PLAIN_POINTS)[rank]
                    k[i] = PLAIN_ORDER.index(rank)
        points.append(p)
        keys.append(k)
        above.append(a)
    return points, keys, above


#: ``POINTS[tix][card]``: card points of a card in a deal of that strain.
#: ``KEY[tix][card]``: strength in a trick; a trump is 100 + its rank in B-10, any other card its
#: rank in B-10 (it only counts when it is of the suit led). A card beats the card winning a trick
#: when it is a trump or of the suit led, and its key is higher.
#: ``ABOVE[tix][card]``: for a trump, the trumps stronger than it.
POINTS, KEY, ABOVE = _tables()
TRUMP_MASKS: Final = (*SUIT_MASKS, 0)
