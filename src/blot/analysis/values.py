"""The values of a game's analysis (:mod:`blot.analysis`): each card played valued against every
legal card, each deal, each game. Kept apart from the analysis itself, so that the layers'
protocols (:mod:`blot.layers`) can name them without importing the registry."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from blot.cards import Card


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
        return {
            "seat": self.seat,
            "card": self.card.text,
            "values": {c.text: v for c, v in self.values.items()},
            "best": self.best,
            "loss": self.loss,
            "exact": self.exact,
        }


@dataclass(frozen=True, slots=True)
class DealAnalysis:
    """One deal: its cards in play order, each seat's total loss, and (Bazar Blot) the
    double-dummy table of what each team would make in each strain."""

    number: int
    void: bool
    cards: tuple[CardValue, ...]
    loss_by_seat: tuple[int, ...]
    dd_table: dict[str, dict[str, list[int | None]]] | None

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "void": self.void,
            "dd_table": self.dd_table,
            "cards": [c.to_json() for c in self.cards],
            "loss_by_seat": list(self.loss_by_seat),
        }


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    game: str
    deals: tuple[DealAnalysis, ...]
    seats: int

    @property
    def loss_by_seat(self) -> tuple[int, ...]:
        return tuple(sum(d.loss_by_seat[s] for d in self.deals) for s in range(self.seats))

    def to_json(self) -> dict[str, Any]:
        """The ``blot analyse --json`` object."""
        return {
            "game": self.game,
            "deals": [d.to_json() for d in self.deals],
            "loss_by_seat": list(self.loss_by_seat),
        }


def losses(cards: Sequence[CardValue], seats: int) -> tuple[int, ...]:
    """Each seat's total loss over ``cards``."""
    return tuple(sum(c.loss for c in cards if c.seat == s) for s in range(seats))
