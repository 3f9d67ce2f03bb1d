"""The figures of fair play (issue 43 item 2): what each card and call of a finished deal gives
an account or a pair, and how they add up into accuracies and the test of information.

A :class:`Decision` is one card played: its double-dummy loss in the actual deal, whether it was
a best card there, and, for the decisions the test weighs, ``q``: the probability, over deals
of the hidden cards consistent with what the seat saw and was told, that the same card is best.
Under the hypothesis that the player chose from their own information only, the actual deal is
one more such deal, so whether the card was best is a coin of probability ``q``: the test adds
up ``x - q`` over the decisions and divides by the spread of its sums per deal
(:func:`score`, docs/fairplay.md).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from blot.analysis.values import accuracy


@dataclass(frozen=True, slots=True)
class Decision:
    """One card played, as the fair-play figures see it."""

    game: int  # the record's position in the input, from 1
    deal: int  # the deal's number in its game, from 1
    seat: int
    trick: int  # from 1
    lead: bool  # the deal's opening lead
    side: str  # Bazar Blot: "declarer" or "defence"; 3-5-8: ""
    loss: int  # double-dummy loss in the actual deal (0: a best card)
    legal: int  # how many legal cards there were
    #: The test of information: the card was best in the actual deal, and how likely that was
    #: from the seat's own information (None: the decision is not weighed).
    best: bool = True
    q: float | None = None
    #: Deals of the hidden cards behind ``q``.
    samples: int = 0


@dataclass(frozen=True, slots=True)
class CallLoss:
    """One call against par (Bazar Blot, :mod:`blot.analysis.par`): its loss in game points."""

    game: int
    deal: int
    seat: int
    loss: int


@dataclass(frozen=True, slots=True)
class Test:
    """The test of information over a set of decisions: how many, how many best cards were
    expected and seen, the standardised score and its one-sided p-value."""

    decisions: int
    expected: float
    observed: int
    score: float
    p_value: float

    def to_json(self) -> dict[str, Any]:
        return {
            "decisions": self.decisions,
            "expected": round(self.expected, 2),
            "observed": self.observed,
            "score": round(self.score, 3),
            "p_value": round(self.p_value, 6),
        }


def score(decisions: Iterable[Decision]) -> Test:
    """The test of information: with ``x`` 1 where the card was best in the actual deal, each
    deal's sum ``S`` of ``x - q`` over its weighed decisions, and ``Z = sum(S) / sqrt(sum(S^2))``.
    Under the hypothesis that the player chose from their own information, each ``S`` has mean
    0 and the deals are independent, so ``Z`` is close to a standard normal variable however the
    decisions of one deal hang together (they share its hidden cards: a layout that favours one
    choice favours the next, which a sum of ``q(1 - q)`` would miss) and however noisy each
    sampled ``q`` is. Its p-value is the normal one, one-sided: only choices better than the
    seat's information could justify count against it."""
    n = observed = 0
    expected = 0.0
    sums: dict[tuple[int, int], float] = {}
    for d in decisions:
        if d.q is None:
            continue
        n += 1
        observed += d.best
        expected += d.q
        key = (d.game, d.deal)
        sums[key] = sums.get(key, 0.0) + d.best - d.q
    variance = sum(s * s for s in sums.values())
    if variance <= 1e-12:
        return Test(n, expected, observed, 0.0, 1.0)
    z = (observed - expected) / math.sqrt(variance)
    return Test(n, expected, observed, z, 0.5 * math.erfc(z / math.sqrt(2)))


@dataclass
class Figures:
    """An account's or a pair's figures over the decisions and calls given to it."""

    name: str
    card_value: float
    decisions: list[Decision] = field(default_factory=list)
    calls: list[CallLoss] = field(default_factory=list)

    @property
    def deals(self) -> int:
        return len({(d.game, d.deal) for d in self.decisions})

    def accuracy(self, which: Sequence[Decision] | None = None) -> float | None:
        """Accuracy (:func:`blot.analysis.values.accuracy`) over ``which`` (all by default)."""
        chosen = self.decisions if which is None else which
        if not chosen:
            return None
        return accuracy(sum(d.loss for d in chosen), len(chosen), self.card_value)

    def weighty_deals(self, count: int = 5) -> list[dict[str, Any]]:
        """The deals that weigh most in the test: the largest sums of ``x - q``."""
        sums: dict[tuple[int, int], float] = {}
        for d in self.decisions:
            if d.q is not None:
                sums[(d.game, d.deal)] = sums.get((d.game, d.deal), 0.0) + d.best - d.q
        top = sorted(sums.items(), key=lambda item: -item[1])[:count]
        return [{"game": g, "deal": n, "weight": round(w, 3)} for (g, n), w in top if w > 0]

    def to_json(self) -> dict[str, Any]:
        ds = self.decisions
        chosen = [d for d in ds if d.legal > 1]
        out: dict[str, Any] = {
            "name": self.name,
            "deals": self.deals,
            "cards": len(ds),
            "accuracy": self.accuracy(),
            "best_card_rate": round(sum(d.loss == 0 for d in chosen) / len(chosen), 4) if chosen else None,
            "opening_lead_accuracy": self.accuracy([d for d in ds if d.lead]),
            "opening_leads": sum(d.lead for d in ds),
        }
        if any(d.side for d in ds):
            out["declarer_accuracy"] = self.accuracy([d for d in ds if d.side == "declarer"])
            out["defence_accuracy"] = self.accuracy([d for d in ds if d.side == "defence"])
        if self.calls:
            out["calls"] = len(self.calls)
            out["bidding_loss_per_call"] = round(sum(c.loss for c in self.calls) / len(self.calls), 3)
        out["test"] = score(ds).to_json()
        out["weighty_deals"] = self.weighty_deals()
        return out
