"""Double-dummy analysis of a finished game: every card played valued against every card the
player could have played, with all hands known (issue 14; ``blot analyse``).

Once a game is over every hand is public, so each position of its play can be solved exactly
(:mod:`blot.solver`). A card's *value* is what the acting seat ends the deal with when everybody
plays perfectly from that card on, counting what it has already won: in Bazar Blot its team's
card points (B-12, the last trick's 10 included, no kapoot bonus), in 3-5-8 its own tricks
against the other two ("paranoid", as the solver plays it). ``best`` is the largest value and a
card's ``loss`` is ``best`` minus its value, 0 for a best card. Declarations and calls are not
cards and are not valued. Each game's part is the module its spec names (``analysis``).

A value is exact (``exact``) unless the game's module says otherwise: 3-5-8 positions with more
than nine tricks to play are searched five tricks deep and the rest estimated, because an exact
48-card search can take minutes.

>>> from random import Random
>>> from blot.bots import make_bot
>>> from blot.games import names, spec
>>> from blot.play import play, when_over
>>> bazar = spec(names()[0])
>>> game = bazar.new_game(rng=Random(4))
>>> play(game, [make_bot(bazar, "heuristic", Random(s)) for s in range(4)], until=when_over(game.deal))
[]
>>> deal = analyse(game, 1).deals[0]
>>> all(c.loss >= 0 and c.best == max(c.values.values()) for c in deal.cards)
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Protocol

from blot.cards import Card
from blot.errors import BlotError
from blot.game import AnyGame


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


class GameAnalyser(Protocol):
    """What each game's analysis module provides."""

    #: The compiled solver kernel it searches with (``blot analyse`` says when it compiles).
    kernel: ModuleType
    #: The smallest loss the replay's analysis calls large (:func:`cost`).
    large: int

    def analyse_deal(self, game: AnyGame, index: int) -> DealAnalysis:
        """Deal ``index`` (from 0) of a game whose deals are all finished."""
        ...


#: Called after each deal is analysed with (deals done, deals to do).
Progress = Callable[[int, int], None]


def analyse(game: AnyGame, deal: int | None = None, progress: Progress | None = None) -> GameAnalysis:
    """Analyse the finished deals of ``game`` (only deal number ``deal``, from 1, when given).
    Only finished deals are valued, so that no card a player could not yet see is solved for
    anybody still playing."""
    from blot.games import spec

    result = game.result
    game_spec = spec(result.to_json()["game"])
    finished = [i for i, d in enumerate(game.deals) if d.is_over]
    if deal is not None:
        if not 1 <= deal <= len(finished):
            raise BlotError(f"--deal must be from 1 to {len(finished)}, the finished deals of the game")
        finished = [finished[deal - 1]]
    analyser = game_spec.analysis_module()
    out = []
    for done, index in enumerate(finished, 1):
        out.append(analyser.analyse_deal(game, index))
        if progress is not None:
            progress(done, len(finished))
    return GameAnalysis(game_spec.name, tuple(out), game_spec.seats)


def cost(loss: int, large: int) -> str:
    """How the replay's analysis calls a card's loss: ``none`` (a best card), ``large`` from
    ``large`` on (the game module's threshold), else ``small``."""
    if loss <= 0:
        return "none"
    return "large" if loss >= large else "small"


def losses(cards: Sequence[CardValue], seats: int) -> tuple[int, ...]:
    """Each seat's total loss over ``cards``."""
    return tuple(sum(c.loss for c in cards if c.seat == s) for s in range(seats))
