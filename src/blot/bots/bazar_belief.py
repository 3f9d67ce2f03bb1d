"""What the calls say about the hidden hands (issue 27): a deal of the cards a seat cannot see is
weighted by how well its hands explain the calls the other seats made.

Plain PIMC treats every deal that fits the cards seen as equally likely, although a seat that bid
hearts holds hearts and a seat that passed holds little. Here each call a seat made is compared
with the call a model player (the ``heuristic`` player, :func:`blot.bots.bazar_heuristic.heuristic_call`)
would have made at that point with the hand the sampled deal gives it: a call it would have made
too (a bid in the same strain counts as agreeing, whatever the level) weighs 1, any other
``miss`` (``1 - trust``). A deal's weight is the product over the other seats' calls; ``trust`` 0
weighs every deal alike (plain PIMC).

Everything here reads the seat's :class:`~blot.bazar.view.DealView` only.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from blot.bazar.bidding import Bidding
from blot.bazar.calls import Call
from blot.bazar.view import DealView
from blot.bots.bazar_heuristic import heuristic_call
from blot.cards import DECK32, iter_bits

#: One call of another seat: the call, the calls before it, and the calls legal then.
Step = tuple[Call, tuple[tuple[int, Call], ...], tuple[Call, ...]]


def agree(call: Call, model: Call) -> bool:
    """Whether a seat's ``call`` is the one the model player made (a bid in the same strain at
    another level counts: players differ in how high they go more than in what they name)."""
    return call is model or (call.is_bid and model.is_bid and call.strain == model.strain)


class CallModel:
    """The likelihood of the other seats' calls for the hands a deal gives them."""

    def __init__(self, view: DealView, trust: float) -> None:
        self.seat = view.seat
        self.rules = view.rules
        self.miss = 1.0 - trust
        self.steps: list[list[Step]] = [[], [], [], []]
        bidding = Bidding(view.rules, view.dealer, (0, 0, 0, 0))
        for i, (seat, call) in enumerate(view.calls):
            if seat != view.seat:
                self.steps[seat].append((call, view.calls[:i], bidding.legal_calls()))
            bidding.apply(call)
        self._cache: dict[tuple[int, int], float] = {}

    @property
    def informative(self) -> bool:
        """Whether any weight can differ from 1."""
        return self.miss < 1.0 and any(self.steps)

    def seat_weight(self, seat: int, hand: int) -> float:
        """The likelihood of ``seat``'s calls had it been dealt ``hand``."""
        key = (seat, hand)
        weight = self._cache.get(key)
        if weight is None:
            weight = 1.0
            for call, before, legal in self.steps[seat]:
                if not agree(call, heuristic_call(hand, seat, before, self.rules, legal)):
                    weight *= self.miss
            self._cache[key] = weight
        return weight

    def weight(self, dealt: Sequence[int]) -> float:
        """The likelihood of every other seat's calls for the hands ``dealt`` (as dealt, before any
        card was played)."""
        weight = 1.0
        for seat in range(4):
            if seat != self.seat and self.steps[seat]:
                weight *= self.seat_weight(seat, dealt[seat])
        return weight


def deal_others(view: DealView, rng: Random) -> list[int]:
    """A random deal of the cards ``view``'s seat cannot see, eight to each other seat (for the
    bidding, before any card is played)."""
    hidden = list(iter_bits(DECK32 & ~view.hand))
    rng.shuffle(hidden)
    hands = [0, 0, 0, 0]
    hands[view.seat] = view.hand
    j = 0
    for seat in range(4):
        if seat != view.seat:
            for b in hidden[8 * j : 8 * j + 8]:
                hands[seat] |= b
            j += 1
    return hands
