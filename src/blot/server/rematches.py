"""A finished game's rematch waits for its people (issue 41 item 8): the first person who asks
for it starts a wait of :data:`REMATCH_WAIT` seconds on the server's clock, during which the
others of the game are *deciding* (the table's ``rematch_asks`` and ``rematch_until``). The
rematch is dealt as soon as every person has asked; when the wait runs out first, a casual game's
rematch fills the seats of those who did not ask with bots and is dealt, provided somebody who
asked is still at the table, and otherwise (a rated game, whose seats are its people's, or
nobody left to play it) the asks lapse and there is no rematch. Before, a casual rematch was
dealt at the first click and showed the friends who had not clicked yet as "away".

This module folds the rematch's log lines into a table's state (``rematch_ask``, ``rematch``,
``rematch_lapsed``); :class:`blot.server.openings.Openings` decides and opens the table."""

from __future__ import annotations

from typing import Any, Protocol

from blot.server.table_core import TableCore
from blot.wire import Event


class RematchTable(TableCore, Protocol):
    """What a rematch needs of a table (:class:`blot.server.table.Table`, which imports this
    module: a protocol, not an import back) besides its core."""

    public: bool
    rematch: str | None
    rematch_asks: set[int]
    rematch_until: float | None


#: Seconds the people of a finished game have to decide on its rematch once one of them asked.
REMATCH_WAIT = 60.0
#: The log lines of a rematch.
KINDS = frozenset({"rematch_ask", "rematch", "rematch_lapsed"})


def fold(table: RematchTable, kind: str, p: dict[str, Any]) -> Event:
    """Apply one rematch line to ``table``: an ask (the first with the wait's end), the new
    table (a private table's link only to its players), or the asks lapsed at the wait's end."""
    if kind == "rematch_ask":
        table.rematch_asks.add(int(p["seat"]))
        if p.get("until") is not None:
            table.rematch_until = float(p["until"])
        return {"kind": "rematch_ask", "seat": int(p["seat"]), "until": table.rematch_until}, {}
    if kind == "rematch_lapsed":
        table.rematch_asks.clear()
        table.rematch_until = None
        return {"kind": "rematch_lapsed"}, {}
    table.rematch = str(p["table"])
    table.rematch_until = None
    if table.public:
        return {"kind": "rematch", "table": table.rematch}, {}
    # a private table's rematch is private too: its link goes to the players only
    at_table = {i: {"table": table.rematch} for i in range(table.spec.seats)}
    return {"kind": "rematch", "table": None}, at_table


def deciding(table: RematchTable) -> list[int]:
    """The seats of the people who have not asked for the rematch yet (while one is asked for)."""
    if not table.rematch_asks or table.rematch is not None:
        return []
    return [i for i, s in enumerate(table.seats) if s.player is not None and i not in table.rematch_asks]


def fill_level(table: RematchTable) -> str:
    """The bots' level for the seats of those who did not come back: the table's own bots'."""
    levels = [s.bot for s in table.seats if s.bot is not None]
    return levels[0] if levels else str(table.settings.get("substitute") or "basic")
