"""Double-dummy solver for Bazar Blot: with every hand known, the card points each team takes
from the trick in progress on under perfect play, and the value of every legal card.

>>> from random import Random
>>> from blot.bazar import Deal, bid, PASS, random_deal
>>> deal = Deal(random_deal(Random(3)).hands, dealer=3)
>>> for call in (bid(8, "H"), PASS, PASS, PASS):
...     deal.apply(call)
>>> solution = solve(deal)
>>> solution.to_act, solution.team, sum(solution.points)
(0, 0, 162)
>>> max(solution.values.values()) == solution.points[solution.team]
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from blot.bazar.deal import Deal
from blot.bazar.tables import NT, PLAIN_ORDER, POINTS, TRUMP_ORDER
from blot.bazar.values import Phase
from blot.cards import CARDS, Card
from blot.errors import BlotError
from blot.solver import bazar_kernel as k
from blot.solver._jit import int_array, int_array_of
from blot.solver._search import MTDF, PerThread, Workspace


def _maps() -> tuple[list[list[int]], list[list[int]]]:
    compact, expand = [], []
    for tix in range(5):
        to_c = [-1] * 64
        to_i = [0] * 32
        for suit in range(4):
            order = TRUMP_ORDER if suit == tix else PLAIN_ORDER
            for strength, rank in enumerate(order):
                index = 16 * suit + rank
                to_c[index] = 8 * suit + strength
                to_i[8 * suit + strength] = index
        compact.append(to_c)
        expand.append(to_i)
    return compact, expand


#: ``COMPACT[tix][card index]``: the card's number in the solver's encoding for strain ``tix``;
#: ``EXPAND[tix][number]`` the card index back.
COMPACT, EXPAND = _maps()
_BIT_COMPACT: Final = [[(1 << i, 1 << c) for i, c in enumerate(m) if c >= 0] for m in COMPACT]


def to_compact(mask: int, tix: int) -> int:
    out = 0
    for bit, cbit in _BIT_COMPACT[tix]:
        if mask & bit:
            out |= cbit
    return out


@dataclass(frozen=True, slots=True)
class Solution:
    """The solved position. ``values[card]``: the card points the acting seat's team takes from
    the trick in progress on if it plays ``card`` and everybody plays perfectly after; ``points``
    the two teams' card points from here under perfect play (indexed by team)."""

    to_act: int
    team: int
    values: dict[Card, int]
    points: tuple[int, int]
    nodes: int

    @property
    def best(self) -> list[Card]:
        top = max(self.values.values())
        return [c for c, v in self.values.items() if v == top]

    def to_json(self) -> dict[str, Any]:
        return {
            "to_act": self.to_act,
            "team": self.team,
            "values": {str(c): v for c, v in self.values.items()},
        }


#: The weights of :func:`blot.solver.bazar_kernel.fitted_estimate` (trump deals, then no-trump
#: deals; times :data:`blot.solver.bazar_kernel.SCALE`), fitted by ``benchmarks/bazar_estimate.py``.
FITTED_WEIGHTS: Final[tuple[int, ...]] = (
    *(463, 62, 7602, -1458, 656, 584, 125, 5307),
    *(447, -44, 0, -737, 878, 0, 0, 10629),
)


class Solver(Workspace):
    """A solver with its own transposition table and scratch arrays (:class:`Workspace`)."""

    def __init__(self) -> None:
        super().__init__(k.TT_SIZE, 4, k.MAX_PLY, k.MAX_MOVES, k.NODE_WIDTH)
        #: Root search (:mod:`blot.solver._search`): ``FULL`` a full window per card, ``MTDF``
        #: MTD(f) from the previous card's value (the first from a quick estimate; the fastest,
        #: measured: a full window costs more than the estimate's few extra null windows),
        #: ``FULL_FIRST`` the first card with a full window and the rest by MTD(f).
        self.mode = MTDF
        self.hist = int_array(4 * 32)
        self.points = [int_array_of([POINTS[tix][i] for i in expand]) for tix, expand in enumerate(EXPAND)]
        self.plain = int_array_of([0] * (1 + len(FITTED_WEIGHTS)))
        self.fitted = int_array_of([1, *FITTED_WEIGHTS])
        #: Every card worth 1: the card points of :meth:`takes_all`'s search of tricks.
        self.ones = int_array_of([1] * 32)

    def solve_cards(
        self,
        hands: Sequence[int],
        trick: Sequence[int],
        leader: int,
        tix: int,
        tricks_left: int,
        all_cards: bool = True,
        horizon: int = 8,
        fitted: bool = False,
    ) -> Solution:
        """Solve a position given as card sets: ``hands`` what each seat holds, ``trick`` the card
        indices of the trick in progress (led by ``leader``), ``tix`` the strain (0-3 the trump
        suit, 4 no trump), ``tricks_left`` the tricks still to finish, the one in progress
        included. With ``all_cards`` false only the best card's value is exact (the others are
        left out of ``values``). With ``horizon`` below ``tricks_left`` only that many tricks are
        searched and the rest is estimated (:func:`blot.solver.bazar_kernel.estimate`, or with
        ``fitted`` the closer linear model of :func:`blot.solver.bazar_kernel.fitted_estimate`):
        no longer exact, for PIMC's early decisions."""
        n = len(trick)
        if n > 3 or not 1 <= tricks_left <= 8:
            raise BlotError("a position has 0 to 3 cards in its trick and 1 to 8 tricks to finish")
        comp = COMPACT[tix]
        trump = -1 if tix == NT else tix
        h = self.h
        for s in range(4):
            h[s] = to_compact(hands[s], tix)
        tc = self.tc
        win = 0
        tpts = 0
        pts = POINTS[tix]
        for i, index in enumerate(trick):
            c = comp[index]
            tc[i] = c
            tpts += pts[index]
            if i and k.beats(c, tc[win], trump):
                win = i
        rpts = sum(pts[c.index] for hand in hands for c in _cards(hand))
        self.gen += 1
        for i in range(4 * 32):
            self.hist[i] = 0
        stats = self.stats
        stats[0] = 0
        count = k.solve_root(
            h, tc, n, leader, win, tpts, rpts, tricks_left, self.points[tix], trump, self.tt, self.gen,
            self.mv, self.ms, self.st, stats, self.hist, self.out, self.values, self.drv, all_cards,
            self.mode, horizon, self.fitted if fitted else self.plain,
        )  # fmt: skip
        seat = (leader + n) % 4
        team = seat % 2
        total = tpts + rpts + 10
        expand = EXPAND[tix]
        values: dict[Card, int] = {}
        for i in range(count if all_cards else 0):
            v = int(self.values[i])
            values[CARDS[expand[int(self.out[i])]]] = v if team == 0 else total - v  # type: ignore[index]
        if all_cards:
            best0 = max(values.values()) if team == 0 else total - max(values.values())
        else:
            best0 = int(self.values[0])
        return Solution(seat, team, values, (best0, total - best0), int(stats[0]))

    def takes_all(self, hands: Sequence[int], leader: int, tix: int, team: int, tricks_left: int = 8) -> bool:
        """Whether ``team`` takes every trick still to play under perfect play, ``leader`` to lead
        the next (each hand holds ``tricks_left`` cards, ``tix`` the strain): kapoot from the
        opening lead (B-50, B-51).

        Card points cannot tell it (a trick of 7s, 8s and 9s is worth 0), so every card counts
        1 here, and one zero-window search asks whether team 0 takes them all and the last
        trick's 10, or for team 1 whether team 0 takes nothing: a cheap yes/no question."""
        trump = -1 if tix == NT else tix
        for s in range(4):
            self.h[s] = to_compact(hands[s], tix)
        cards = 4 * tricks_left
        beta = cards + 10 if team == 0 else 1
        self.gen += 1
        v = k.search(
            self.h, self.tc, 0, leader, 0, 0, cards, tricks_left, beta - 1, beta, -1, self.ones, trump,
            self.tt, self.gen, self.mv, self.ms, self.st, self.stats, self.hist, 8, self.plain,
        )  # fmt: skip
        return bool(v >= beta) == (team == 0)

    def solve(self, deal: Deal, all_cards: bool = True) -> Solution:
        """Solve a deal in play (every hand is known to the deal)."""
        if deal.phase is not Phase.PLAY:
            raise BlotError(
                "only a deal in play can be solved: the bidding is not over"
                if deal.phase is Phase.BIDDING
                else "the deal is over"
            )
        trick = [c.index for _, c in deal.trick]
        return self.solve_cards(
            deal.hands, trick, deal.leader, deal.tix, 8 - len(deal.trick_winners), all_cards
        )


def _cards(mask: int) -> list[Card]:
    from blot.cards import cards_of

    return cards_of(mask)


#: This thread's solver (:class:`~blot.solver._search.PerThread`): its tables are reused from one
#: search to the next, and never by two threads at once.
default_solver: PerThread[Solver] = PerThread(Solver)


def solve(deal: Deal, all_cards: bool = True) -> Solution:
    """Solve ``deal`` (in play) with this thread's solver."""
    return default_solver().solve(deal, all_cards)
