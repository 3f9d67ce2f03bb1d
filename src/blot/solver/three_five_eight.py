"""Double-dummy solver for 3-5-8: with every hand known, how many tricks one seat takes from the
trick in progress on when it plays for itself and the other two play against it (the paranoid
objective; see :mod:`blot.solver.tfe_kernel` for why), and the value of every legal card.

>>> from random import Random
>>> from blot.three_five_eight import Deal, HEARTS
>>> deal = Deal.random(Random(4), dealer=2)
>>> deal.apply(HEARTS)
>>> while deal.to_act is not None and deal.phase.value == "discard":
...     deal.apply(deal.legal_actions()[0])
>>> solution = TfeSolver().solve(deal, me=deal.to_act)
>>> 0 <= max(solution.values.values()) <= 16
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, cast

from blot.cards import CARDS, Card
from blot.errors import BlotError
from blot.solver import tfe_kernel as k
from blot.solver._jit import int_array_of
from blot.solver._search import PerThread, Workspace
from blot.three_five_eight import Deal, Phase


@dataclass(frozen=True, slots=True)
class TfeSolution:
    """``values[card]``: the tricks ``me`` takes from the trick in progress on if the seat to
    act plays ``card`` and everybody plays perfectly after (``me`` for itself, the other two
    against it)."""

    to_act: int
    me: int
    values: dict[Card, int]
    nodes: int


#: The weights of :func:`blot.solver.tfe_kernel.fitted_estimate` (trump deals, then no-trump
#: deals; times :data:`blot.solver.tfe_kernel.SCALE`), fitted by ``benchmarks/tfe_estimate.py``.
FITTED_WEIGHTS: Final[tuple[int, ...]] = (
    *(431, 130, 356, 405, -119, 816, -378, -267, 250, 207, 6, -137, 88, 357),
    *(-63, 169, 583, 0, -243, 0, 0, 0, 110, 87, 0, 0, -112, 1279),
)


class TfeSolver(Workspace):
    """A 3-5-8 solver with its own transposition table and scratch arrays (:class:`Workspace`)."""

    def __init__(self) -> None:
        super().__init__(k.TT_SIZE, 3, k.MAX_PLY, k.MAX_MOVES, k.NODE_WIDTH)
        self.plain = int_array_of([0] * (1 + len(FITTED_WEIGHTS)))
        self.fitted = int_array_of([1, *FITTED_WEIGHTS])

    def solve_cards(
        self,
        hands: Sequence[int],
        trick: Sequence[int],
        leader: int,
        trump: int | None,
        tricks_left: int,
        me: int,
        horizon: int = 16,
        fitted: bool = False,
    ) -> TfeSolution:
        """``hands`` as card sets, ``trick`` the card indices of the trick in progress led by
        ``leader``, ``trump`` the trump suit (None for NT), ``tricks_left`` the tricks still to
        finish (the one in progress included). The search is exact when ``horizon`` (in tricks,
        counting the one in progress) reaches the end; otherwise the tricks after the horizon are
        estimated: by :func:`blot.solver.tfe_kernel.estimate`, or with ``fitted`` by the linear
        model of :func:`blot.solver.tfe_kernel.fitted_estimate` (closer to the exact values)."""
        n = len(trick)
        if n > 2 or not 1 <= tricks_left <= 16:
            raise BlotError("a 3-5-8 position has 0 to 2 cards in its trick and 1 to 16 tricks to finish")
        t = -1 if trump is None else int(trump)  # an int: numba types an IntEnum slowly
        for s in range(3):
            self.h[s] = hands[s]
        win = 0
        for i, index in enumerate(trick):
            self.tc[i] = index
            if i and k.beats(index, self.tc[win], t):
                win = i
        self.gen += 1
        self.stats[0] = 0
        count = k.solve_root(
            self.h, self.tc, n, leader, win, tricks_left, me, t, self.tt, self.gen,
            self.mv, self.ms, self.st, self.stats, self.out, self.values, self.drv, horizon,
            self.fitted if fitted else self.plain,
        )  # fmt: skip
        values = {cast(Card, CARDS[int(self.out[i])]): int(self.values[i]) for i in range(count)}
        return TfeSolution((leader + n) % 3, me, values, int(self.stats[0]))

    def solve(self, deal: Deal, me: int | None = None, horizon: int = 16) -> TfeSolution:
        """Solve a deal in play for ``me`` (by default the seat to act)."""
        if deal.phase is not Phase.PLAY:
            raise BlotError("only a deal in play can be solved")
        trick = deal.trick
        leader = trick[0][0] if trick else deal.to_act
        assert leader is not None and deal.to_act is not None
        trump = deal.trump.suit if deal.trump is not None else None
        left = 16 - len(deal.tricks)
        seat = deal.to_act if me is None else me
        return self.solve_cards(deal.hands, [c.index for _, c in trick], leader, trump, left, seat, horizon)


#: This thread's 3-5-8 solver (:class:`~blot.solver._search.PerThread`), as for Bazar Blot.
default_tfe_solver: PerThread[TfeSolver] = PerThread(TfeSolver)
