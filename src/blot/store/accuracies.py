"""Each seat's accuracy in a finished game (issue 28; :mod:`blot.analysis`), stored with the
game's analysis and read by profiles through an index, never recomputed. Every function is
blocking and takes a connection.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import delete, func, insert, select
from sqlalchemy.engine import Connection

from blot.store import iso
from blot.store.schema import accuracies, results, tables

#: The last analysed games of a player a profile's accuracy (average and trend) covers.
TREND = 50


def save(c: Connection, table_id: str, game: str, found: Sequence[Mapping[str, Any]]) -> int:
    """Keep the accuracy of each seat of a finished table (``found``: the analysis document's
    ``accuracy`` list), for the player its results name; answers how many rows were written
    (none for a table without results)."""
    seated = {
        int(r.seat): r
        for r in c.execute(
            select(results.c.seat, results.c.player_id, results.c.finished_at).where(
                results.c.table_id == table_id
            )
        )
    }
    c.execute(delete(accuracies).where(accuracies.c.table_id == table_id))
    rows = [
        {
            "table_id": table_id,
            "seat": int(a["seat"]),
            "player_id": int(seated[int(a["seat"])].player_id),
            "game": game,
            "cards": int(a["cards"]),
            "loss": int(a["loss"]),
            "accuracy": float(a["accuracy"]),
            "finished_at": seated[int(a["seat"])].finished_at,
        }
        for a in found
        if int(a["seat"]) in seated
    ]
    if rows:
        c.execute(insert(accuracies), rows)
    return len(rows)


def of_seats(c: Connection, table_ids: Sequence[str]) -> dict[tuple[str, int], float]:
    """The accuracy of every seat of these tables that has one."""
    if not table_ids:
        return {}
    rows = c.execute(
        select(accuracies.c.table_id, accuracies.c.seat, accuracies.c.accuracy).where(
            accuracies.c.table_id.in_(list(table_ids))
        )
    )
    return {(str(r.table_id), int(r.seat)): float(r.accuracy) for r in rows}


def trend(c: Connection, player: int, game: str, visible: Any) -> dict[str, Any] | None:
    """A player's accuracy over the last :data:`TREND` analysed games of ``game``: the average,
    how many games, and each game's accuracy, oldest first (a table's id only where ``visible``,
    the profile's condition on tables, holds). None before the first analysed game."""
    rows = c.execute(
        select(accuracies.c.finished_at, accuracies.c.table_id, accuracies.c.accuracy, visible)
        .join(tables, tables.c.id == accuracies.c.table_id)
        .where(accuracies.c.player_id == player, accuracies.c.game == game)
        .order_by(accuracies.c.finished_at.desc(), accuracies.c.table_id.desc())
        .limit(TREND)
    ).all()
    if not rows:
        return None
    values = [float(r.accuracy) for r in rows]
    return {
        "average": round(sum(values) / len(values), 1),
        "games": len(values),
        "history": [
            {"at": iso(r.finished_at), "accuracy": float(r.accuracy), "table": r.table_id if r[3] else None}
            for r in reversed(rows)
        ],
    }


def count(c: Connection) -> int:
    """How many accuracies are stored (tests and operators)."""
    return int(c.execute(select(func.count()).select_from(accuracies)).scalar_one())
