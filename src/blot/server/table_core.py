"""What every part of a table's work (its turns, its endings) reads of the table
(:class:`blot.server.table.Table`): its game, its seats, its settings. The parts' own protocols
extend this one with what each needs besides."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from blot.game import AnyGame
    from blot.games import GameSpec
    from blot.server.seats import Seat
    from blot.wire import Wire


class TableCore(Protocol):
    """A table's game and seats as its parts see them."""

    id: str
    spec: GameSpec
    wire: Wire
    status: str
    settings: dict[str, Any]
    seats: list[Seat]
    boards: list[dict[str, Any]] | None
    paused: bool

    @property
    def game(self) -> AnyGame: ...
