"""A seat's view as a fixed-size array, and every action as a number (docs/environments.md).

Each game has one :class:`Encoding`, in its module of the environments' layer
(``blot.env.<package>``, found through the registry by :func:`blot.env.encoding`):
``observe(view)`` writes the seat's :class:`GameView` into a float32 array of ``size`` values in
[0, 1], seats counted from the observing seat (0 is itself, 1 the next to act after it, …);
``actions`` is the fixed action space, ``mask(view)`` marks the legal ones, ``action(view,
index)`` is the engine's action for an index. Only the view is read, so an observation can never
hold more than the seat may know. ``from_json(view, options)`` reads the bot protocol's JSON view
into the same fields, so that a trained policy's program at a table (``cmd:``) observes what it
was trained on (:class:`blot.env.program.Observer`). This module holds what the games' encodings
share.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from blot.cards import Card, cards_of, mask_of, parse_card
from blot.errors import IllegalAction
from blot.game import Action, Trick

Array = npt.NDArray[Any]


class Layout:
    """Named slices of the observation, in order (the documentation's table is made from it)."""

    def __init__(self, parts: Sequence[tuple[str, int]]) -> None:
        self.slices: dict[str, slice] = {}
        start = 0
        for name, width in parts:
            self.slices[name] = slice(start, start + width)
            start += width
        self.size = start


class Encoding:
    """What both games' encodings share: cards as 0/1 vectors over the game's deck, and the
    action space's order: the calls, then the deck's cards, then any actions of the game's own."""

    seats: int
    layout: Layout
    actions: tuple[str, ...]

    def __init__(
        self, deck: int, calls: Sequence[Any], phases: Iterable[object], own: Sequence[str] = ()
    ) -> None:
        self.calls = tuple(calls)
        self.call_action: dict[object, int] = {c: i for i, c in enumerate(self.calls)}
        self.deck = cards_of(deck)
        self.shifts = np.array([c.index for c in self.deck], dtype=np.uint64)
        self.card_action: dict[object, int] = {c: i for i, c in enumerate(self.deck)}
        self.actions = (*(c.text for c in self.calls), *(c.text for c in self.deck), *own)
        #: The game's phases (its ``Phase`` enum) by their place in the observation's one-hot.
        self.phases: dict[object, int] = {p: i for i, p in enumerate(phases)}

    @property
    def size(self) -> int:
        return self.layout.size

    def cards(self, mask: int | None) -> Array:
        """A card set as 0/1 over the deck."""
        if not mask:
            return np.zeros(len(self.deck), dtype=np.float32)
        return ((np.uint64(mask) >> self.shifts) & np.uint64(1)).astype(np.float32)

    def rel(self, seat: int | None, me: int) -> int | None:
        return None if seat is None else (seat - me) % self.seats

    def one_hot(self, out: Array, name: str, index: int | None) -> None:
        if index is not None:
            out[self.layout.slices[name].start + index] = 1.0

    def put(self, out: Array, name: str, values: Any) -> None:
        out[self.layout.slices[name]] = values

    def mask(self, view: Any) -> Array:
        mask = np.zeros(len(self.actions), dtype=np.int8)
        for action in view.legal:
            mask[self.index(view, action)] = 1
        return mask

    def index(self, view: Any, action: Action) -> int:
        """The number of ``action`` in the action space."""
        call = self.call_action.get(action)
        if call is not None:
            return call
        card = self.card_action.get(action)
        if card is not None:
            return len(self.calls) + card
        return self.other_index(view, action)

    def other_index(self, view: Any, action: Action) -> int:
        """The number of an action that is neither a call nor a card (none in 3-5-8)."""
        raise KeyError(action)

    def action(self, view: Any, index: int) -> Action:
        """The legal action of ``view`` numbered ``index``; ``IllegalAction`` when there is none."""
        for action in view.legal:
            if self.index(view, action) == index:
                chosen: Action = action
                return chosen
        name = self.actions[index] if 0 <= index < len(self.actions) else str(index)
        raise IllegalAction(f"action {index} ({name}) is not legal now (see the action mask)")

    def observe(self, view: Any) -> Array:
        raise NotImplementedError

    def from_json(self, view: Mapping[str, Any], options: Mapping[str, Any]) -> Any:
        """The bot protocol's JSON view (and the game's ``options`` from its ``new_game``
        message) as the fields :meth:`observe`, :meth:`mask` and :meth:`action` read."""
        raise NotImplementedError

    def action_json(self, view: Any, index: int) -> Any:
        """The bot protocol's form of the action numbered ``index`` (``IllegalAction`` when it
        is not legal)."""
        return str(self.action(view, index))


def cards_from_json(texts: Sequence[str] | None) -> int:
    """A card list of the JSON views as a card set."""
    return mask_of(parse_card(t) for t in texts or ())


def card_from_json(text: str | None) -> Card | None:
    return None if text is None else parse_card(text)


def trick_from_json(trick: Sequence[Mapping[str, Any]]) -> tuple[tuple[int, Card], ...]:
    """The trick in progress as (seat, card) pairs (:func:`blot.wire.trick_json`)."""
    return tuple((int(p["seat"]), parse_card(p["card"])) for p in trick)


def tricks_from_json(tricks: Sequence[Mapping[str, Any]]) -> tuple[Trick, ...]:
    """Completed tricks (:func:`blot.wire.tricks_json`)."""
    return tuple(
        Trick(int(t["leader"]), tuple(parse_card(c) for c in t["cards"]), int(t["winner"])) for t in tricks
    )


def rotate(values: list[Any], me: int) -> list[Any]:
    """Per-seat values counted from ``me``."""
    return values[me:] + values[:me]


def mine_first(pair: Sequence[Any], team: int) -> list[Any]:
    return [pair[team], pair[1 - team]]
