"""3-5-8 play-outs from any position of the play, compiled (:mod:`blot.solver.tfe_playout_kernel`):
a deal played to its end by random, ``basic`` or ``heuristic`` players at every seat, as often as
asked, with the mean tricks each seat took.

>>> from random import Random
>>> from blot.three_five_eight import Deal, HEARTS, Phase
>>> deal = Deal.random(Random(4), dealer=2)
>>> deal.apply(HEARTS)
>>> while deal.phase is not Phase.PLAY:
...     deal.apply(deal.legal_actions()[0])
>>> outcome = TfePlayouts(deal, seed=1).run("heuristic", 100)
>>> round(sum(outcome.tricks)), outcome.count
(16, 100)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal, cast

from blot.cards import CARDS, Card
from blot.errors import BlotError
from blot.solver import tfe_playout_kernel as k
from blot.solver._jit import int_array
from blot.solver._random import seed_state
from blot.three_five_eight import Deal, Phase

Policy = Literal["random", "basic", "heuristic"]
POLICIES: Final[dict[str, int]] = {"random": k.RANDOM, "basic": k.BASIC, "heuristic": k.HEURISTIC}


@dataclass(frozen=True, slots=True)
class TfeOutcome:
    """Means over ``count`` play-outs, indexed by seat: the tricks taken from the trick in
    progress on."""

    count: int
    tricks: tuple[float, float, float]


class TfePlayouts:
    """One position of a deal in play, ready to be played out again and again."""

    def __init__(self, deal: Deal, seed: int = 0) -> None:
        if deal.phase is not Phase.PLAY:
            raise BlotError("only a deal in play can be played out")
        trump = deal.trump
        p = int_array(k.SIZE)
        p[k.TRUMP] = trump.suit if trump is not None and trump.suit is not None else -1
        discard = 0
        for c in deal.discard:
            discard |= c.bit
        p[k.FIRST], p[k.DISCARD] = (deal.first, discard) if discard else (-1, 0)
        played = [c for t in deal.tricks for c in t.cards] + [c for _, c in deal.trick]
        hands = list(deal.hands)  # each card played back in the hand that played it
        for t in deal.tricks:
            for i, c in enumerate(t.cards):
                hands[(t.leader + i) % 3] |= c.bit
        for seat, c in deal.trick:
            hands[seat] |= c.bit
        for s in range(3):
            p[k.HANDS + s] = hands[s]
        p[k.LEADER] = deal.first
        for c in played:  # played again, so that what each card showed is learned
            k.play(p, c.index)
        for s in range(3):
            p[k.TRICKS + s] = 0
        p[k.RNG] = seed_state(seed)
        self.start = p
        self.scratch = int_array(k.SIZE)
        self.sums = int_array(3)

    def run(self, policy: Policy, count: int) -> TfeOutcome:
        """``count`` play-outs, every seat played by ``policy``."""
        k.play_outs(self.start, self.scratch, POLICIES[policy], count, self.sums)
        t = [int(x) / count for x in self.sums]
        return TfeOutcome(count, (t[0], t[1], t[2]))

    def choice(self, policy: Policy) -> Card:
        """The card the seat to act plays under ``policy``."""
        return cast(Card, CARDS[int(k.choose(self.start, POLICIES[policy]))])


def heuristic_discard(deal: Deal) -> Card:
    """The card the ``basic`` and ``heuristic`` bots put back next (T-22) in ``deal``'s discard,
    compiled: what :func:`blot.bots.tfe_basic.discard_bit` chooses, card for card."""
    if deal.phase is not Phase.DISCARD or deal.to_act is None:
        raise BlotError("only a deal in its discard has a card to put back")
    trump = deal.trump
    suit = (
        int(trump.suit) if trump is not None and trump.suit is not None else -1
    )  # not an enum: numba types those slowly
    return cast(Card, CARDS[int(k.discard(deal.hands[deal.to_act], suit))])


def heuristic_score(deal: Deal, seat: int) -> int:
    """``seat``'s score (T-40) once ``deal``, in its discard (T-22) or at the first card of its
    play, is played to its end by ``heuristic`` players: the rest of the discard and the card
    play compiled in one call (the quick path of a played-out trump call)."""
    at_first_card = deal.phase is Phase.PLAY and not deal.tricks and not deal.trick
    if not at_first_card and deal.phase is not Phase.DISCARD:
        raise BlotError("only a deal in its discard or at its first card can be played out from it")
    trump = deal.trump
    p = int_array(k.SIZE)
    for s in range(3):
        p[k.HANDS + s] = deal.hands[s]
    discard = 0
    for c in deal.discard:  # all four of them once in play (T-22)
        discard |= c.bit
    p[k.TRUMP] = int(trump.suit) if trump is not None and trump.suit is not None else -1
    p[k.FIRST], p[k.DISCARD], p[k.LEADER] = deal.first, discard, deal.first
    k.discard_and_play_out(p, k.HEURISTIC)
    return int(p[k.TRICKS + seat]) - deal.targets[seat]
