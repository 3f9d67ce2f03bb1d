"""What a table's sockets are sent for one event: a message text per *frame key* (a seat's
``"0"``, ``"1"``, …; a spectator's ``"s"``; ``"h"`` for the host of a private table watching
it), each built once however many sockets share it. In a cluster the owner builds the keys the
other processes' sockets want too, and they relay the texts as they are (issue 40 item 1)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from blot.game import AnyGame
from blot.server.connection import dumps


class FramedTable(Protocol):
    """What the frames need of a table (:class:`blot.server.table.Table`)."""

    wire: Any  # the game's wire module (blot.wire)

    @property
    def game(self) -> AnyGame: ...

    def view_json(self, seat: int | None) -> dict[str, Any] | None: ...

    def summary(self, at_table: bool = True) -> dict[str, Any]: ...

    def event_for(self, n: int, seat: int | None) -> dict[str, Any]: ...


def build(table: FramedTable, n: int, keys: Iterable[str]) -> dict[str, str]:
    """Event ``n``'s message text for each key: its view from the public part built and encoded
    once and each seat's own part (:meth:`Wire.seat_json`), the table encoded once for those at
    it and once for the others."""
    public = table.view_json(None)
    rest: str | None = None  # the public view's text without the seats' own fields
    tables: dict[bool, str] = {}
    texts: dict[str, str] = {}
    for key in keys:
        seat = int(key) if key.isdigit() else None
        at = key != "s"
        if seat is None or public is None:
            view = dumps(public)
        else:
            own = table.wire.seat_json(table.game.view(seat)) or {}
            if rest is None:
                rest = dumps({k: v for k, v in public.items() if k not in own})
            view = _joined(rest, dumps(own))
        summary = tables.get(at)
        if summary is None:
            summary = tables[at] = dumps(table.summary(at))
        event = dumps(table.event_for(n, seat))
        texts[key] = f'{{"type":"event","n":{n},"event":{event},"view":{view},"table":{summary}}}'
    return texts


def _joined(a: str, b: str) -> str:
    """The texts of two JSON objects (with no key in common) as one object's."""
    if a == "{}" or b == "{}":
        return b if a == "{}" else a
    return a[:-1] + "," + b[1:]
