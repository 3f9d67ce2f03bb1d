"""The values of a game's analysis (:mod:`blot.analysis`): each card played valued against every
legal card, each deal, each game. Kept apart from the analysis itself, so that the layers'
protocols (:mod:`blot.layers`) can name them without importing the registry."""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass, fields
from typing import Any

from blot.cards import Card


def fields_json(obj: Any, *, leave: Collection[str] = (), **converted: Any) -> dict[str, Any]:
    """A dataclass whose JSON is its fields (a card's value, a deal's analysis, a puzzle): each
    field in their order, as it is or as ``converted`` gives it (cards as their text), but those
    in ``leave``. One place for the shape, so that a new field is in the JSON unless left out."""
    return {
        f.name: converted[f.name] if f.name in converted else getattr(obj, f.name)
        for f in fields(obj)
        if f.name not in leave
    }


def card_values_json(values: dict[Card, int]) -> dict[str, int]:
    """Each legal card's value, by the card's text."""
    return {c.text: v for c, v in values.items()}


@dataclass(frozen=True, slots=True)
class CardValue:
    """One card played: by whom, the value of every legal card at that point, the best value
    and what the card played lost against it."""

    seat: int
    card: Card
    trick: int
    values: dict[Card, int]
    best: int
    loss: int
    exact: bool = True

    @classmethod
    def of(cls, seat: int, card: Card, trick: int, values: dict[Card, int], exact: bool = True) -> CardValue:
        best = max(values.values())
        return cls(seat, card, trick, values, best, best - values[card], exact)

    @property
    def best_cards(self) -> list[Card]:
        return [c for c, v in self.values.items() if v == self.best]

    def to_json(self) -> dict[str, Any]:
        return fields_json(self, leave={"trick"}, card=self.card.text, values=card_values_json(self.values))


@dataclass(frozen=True, slots=True)
class DealAnalysis:
    """One deal: its cards in play order, each seat's total loss, and (Bazar Blot) the
    double-dummy table of what each team would make in each strain."""

    number: int
    void: bool
    cards: tuple[CardValue, ...]
    loss_by_seat: tuple[int, ...]
    dd_table: dict[str, dict[str, list[int | None]]] | None
    #: Bazar Blot: the review of every call against the par contract (:mod:`blot.analysis.par`).
    bidding: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return fields_json(
            self, cards=[c.to_json() for c in self.cards], loss_by_seat=list(self.loss_by_seat)
        )


@dataclass(frozen=True, slots=True)
class Accuracy:
    """One seat's play over a whole finished game: the cards it played, what they lost in all,
    and its accuracy (:func:`accuracy`)."""

    seat: int
    cards: int
    loss: int
    accuracy: float

    @property
    def mean_loss(self) -> float:
        return self.loss / self.cards if self.cards else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "cards": self.cards,
            "loss": self.loss,
            "mean_loss": round(self.mean_loss, 3),
            "accuracy": self.accuracy,
        }


def accuracy(loss: int, cards: int, card_value: float) -> float:
    """A finished game's accuracy of one seat (issue 28): with ``m = loss / cards`` its mean loss
    per card played, ``100 * exp(-m / card_value)`` to one decimal, where ``card_value`` is the
    average value of one card in the game (its analysis module's ``card_value``: a deal's 162
    card points over its 32 cards in Bazar Blot, its 16 tricks over its 48 cards in 3-5-8). It is
    100 for a seat that lost nothing (or played no card), falls strictly as the mean loss grows,
    and is 36.8 for a mean loss of one card's value; every game of one kind has one
    ``card_value``, so accuracies of one kind compare. Every card played counts (a forced one
    loses nothing), estimated values included.

    >>> accuracy(0, 32, 162 / 32), accuracy(81, 32, 162 / 32), accuracy(162, 32, 162 / 32)
    (100.0, 60.7, 36.8)
    """
    if cards == 0:
        return 100.0
    return round(100 * math.exp(-(loss / cards) / card_value), 1)


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    game: str
    deals: tuple[DealAnalysis, ...]
    seats: int
    #: The game is over and every deal of it was analysed: only then is there an accuracy.
    whole: bool = False
    #: The average value of one card (the game module's ``card_value``).
    card_value: float = 1.0

    @property
    def loss_by_seat(self) -> tuple[int, ...]:
        return tuple(sum(d.loss_by_seat[s] for d in self.deals) for s in range(self.seats))

    @property
    def accuracy(self) -> tuple[Accuracy, ...] | None:
        """Each seat's accuracy, or None unless the game is over and analysed whole."""
        if not self.whole:
            return None
        cards = [0] * self.seats
        for deal in self.deals:
            for c in deal.cards:
                cards[c.seat] += 1
        return tuple(
            Accuracy(s, cards[s], loss, accuracy(loss, cards[s], self.card_value))
            for s, loss in enumerate(self.loss_by_seat)
        )

    def to_json(self) -> dict[str, Any]:
        """The ``blot analyse --json`` object."""
        found = self.accuracy
        return {
            "game": self.game,
            "deals": [d.to_json() for d in self.deals],
            "loss_by_seat": list(self.loss_by_seat),
            "accuracy": None if found is None else [a.to_json() for a in found],
        }


def losses(cards: Sequence[CardValue], seats: int) -> tuple[int, ...]:
    """Each seat's total loss over ``cards``."""
    return tuple(sum(c.loss for c in cards if c.seat == s) for s in range(seats))
