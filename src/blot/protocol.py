"""The one shape both games' rules share, so that bots, records, the arena and the server can
drive either game without knowing which it is (after OpenSpiel's ``State``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable


@runtime_checkable
class Action(Protocol):
    """A small immutable value whose ``str`` is exactly its record notation (``10H``, ``pass``)."""

    def __str__(self) -> str: ...


class View(Protocol):
    """What one seat may know. ``legal`` is empty unless that seat is to act."""

    @property
    def seat(self) -> int: ...

    @property
    def legal(self) -> Sequence[Action]: ...


class State(Protocol):
    """A deal or a game in progress."""

    @property
    def to_act(self) -> int | None: ...

    @property
    def is_over(self) -> bool: ...

    def legal_actions(self) -> Sequence[Action]: ...

    def apply(self, action: Action) -> None:
        """Play ``action`` for the seat to act; raise ``IllegalAction`` and change nothing if the
        rules do not allow it."""

    def view(self, seat: int) -> View: ...


class Bot(Protocol):
    """A computer player: it sees only its seat's view."""

    def choose(self, view: View) -> Action: ...
