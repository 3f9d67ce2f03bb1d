"""Bazar Blot play-outs from any position of the play, compiled (:mod:`blot.solver.bazar_playout_kernel`):
a deal played to its end by random, ``basic`` or ``heuristic`` players at every seat, as often as
asked, with the means of what each team took.

>>> from random import Random
>>> from blot.bazar import Deal, bid, PASS, random_deal
>>> deal = Deal(random_deal(Random(3)).hands, dealer=3)
>>> for call in (bid(8, "H"), PASS, PASS, PASS):
...     deal.apply(call)
>>> outcome = Playouts(deal, seed=1).run("random", 1000)
>>> round(sum(outcome.points)), outcome.count
(162, 1000)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal, cast

from blot.bazar.deal import Deal
from blot.bazar.tables import NT, POINTS
from blot.bazar.values import Phase
from blot.cards import CARDS, Card
from blot.errors import BlotError
from blot.solver import bazar_kernel
from blot.solver import bazar_playout_kernel as k
from blot.solver._jit import int_array, int_array_of
from blot.solver._random import seed_state
from blot.solver.bazar import COMPACT, EXPAND, to_compact

Policy = Literal["random", "basic", "heuristic"]
POLICIES: Final[dict[str, int]] = {"random": k.RANDOM, "basic": k.BASIC, "heuristic": k.HEURISTIC}
#: ``POINTS_BY_NUMBER[tix][number]``: card points of each compact card number in strain ``tix``.
POINTS_BY_NUMBER: Final = [[POINTS[tix][i] for i in expand] for tix, expand in enumerate(EXPAND)]


@dataclass(frozen=True, slots=True)
class Outcome:
    """Means over ``count`` play-outs from the trick in progress on, indexed by team: card points
    (the last trick's 10 included), tricks, and the share in which that team took every trick
    still to play."""

    count: int
    points: tuple[float, float]
    tricks: tuple[float, float]
    all_tricks: tuple[float, float]


class Playouts:
    """One position, ready to be played out again and again (its arrays are reused)."""

    def __init__(
        self,
        deal: Deal | None = None,
        seed: int = 0,
        *,
        hands: Sequence[int] = (),
        trick: Sequence[int] = (),
        leader: int = 0,
        tix: int = NT,
        team: int = 0,
        forbidden: Sequence[int] = (0, 0, 0, 0),
        played: int = 0,
    ) -> None:
        """From a ``deal`` in play, or from card sets (card indices, as the engine's): ``hands``
        what each seat holds now, ``trick`` the cards of the trick in progress (led by
        ``leader``), ``tix`` the strain, ``team`` the contractors', the cards each seat was shown
        not to hold (:func:`blot.bots.bazar_info.infer`), the cards played before the trick. A
        deal's cards played so far are played again from the first trick on, so that what each
        showed is learned as the play-outs learn it."""
        again: list[int] = []
        if deal is not None:
            if deal.phase is not Phase.PLAY:
                raise BlotError("only a deal in play can be played out")
            contract = deal.contract
            assert contract is not None
            again = [c.index for t in deal.tricks for c in t.cards] + [c.index for _, c in deal.trick]
            hands, leader, tix, team = _dealt(deal), (deal.dealer + 1) % 4, deal.tix, contract.team
        self.tix = tix
        self.P = int_array_of(POINTS_BY_NUMBER[tix])
        comp = COMPACT[tix]
        trump = -1 if tix == NT else tix
        p = int_array(k.SIZE)
        for s in range(4):
            p[k.HANDS + s] = to_compact(hands[s], tix)
            p[k.FORB + s] = to_compact(forbidden[s], tix)
        p[k.PLAYED] = to_compact(played, tix)
        p[k.TRUMP], p[k.TEAM], p[k.LEADER] = trump, team, leader
        for i, index in enumerate(trick):
            c = comp[index]
            p[k.TRICK + i] = c
            p[k.PLAYED] |= 1 << c
            if i and bazar_kernel.beats(c, p[k.TRICK + p[k.WIN]], trump):
                p[k.WIN] = i
        p[k.N] = len(trick)
        for index in again:
            k.play(p, comp[index], self.P, True)
        for team_index in (0, 1):  # what the play-outs take counts from here
            p[k.POINTS0 + team_index] = p[k.TRICKS0 + team_index] = 0
        p[k.RNG] = seed_state(seed)
        self.start = p
        self.scratch = int_array(k.SIZE)
        self.sums = int_array(6)

    def run(self, policy: Policy, count: int) -> Outcome:
        """``count`` play-outs, every seat played by ``policy``."""
        k.play_outs(self.start, self.scratch, POLICIES[policy], self.P, count, self.sums)
        s = [int(x) / count for x in self.sums]
        return Outcome(count, (s[0], s[1]), (s[2], s[3]), (s[4], s[5]))

    def choice(self, policy: Policy) -> Card:
        """The card the seat to act plays under ``policy``."""
        number = int(k.choose(self.start, POLICIES[policy], self.P))
        return cast(Card, CARDS[EXPAND[self.tix][number]])


def _dealt(deal: Deal) -> list[int]:
    """Each seat's cards when the play began: its hand and the cards it has played."""
    hands = list(deal.hands)
    for t in deal.tricks:
        for i, c in enumerate(t.cards):
            hands[(t.leader + i) % 4] |= c.bit
    for seat, c in deal.trick:
        hands[seat] |= c.bit
    return hands
