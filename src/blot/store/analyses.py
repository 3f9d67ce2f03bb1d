"""Stored double-dummy analyses of finished games (issue 14; the server's
:mod:`blot.server.analyses` computes them). Every function is blocking and takes a connection.

Only a finished table's game is ever handed out for analysis (:func:`finished_game`): its
stored record holds its finished deals only, so no card of a deal still hidden is valued.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, insert, select
from sqlalchemy.engine import Connection

from blot.store.schema import analyses, tables

FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """What an analysis needs of a finished table: its game's name and record (docs/format.md)."""

    game: str
    record: dict[str, Any] | None
    #: A public table's (a private one's game is never mined for puzzles).
    public: bool = True


def finished_game(c: Connection, table_id: str, with_record: bool = False) -> FinishedGame | None:
    """The table's game when it is finished (played out or ended by agreement), else None."""
    columns = [tables.c.game, tables.c.status, tables.c.public] + ([tables.c.record] if with_record else [])
    row = c.execute(select(*columns).where(tables.c.id == table_id)).first()
    if row is None or row.status != FINISHED:
        return None
    record = dict(row.record) if with_record and row.record is not None else None
    return FinishedGame(str(row.game), record, bool(row.public))


def unanalysed(c: Connection, format: int, limit: int, among: Sequence[str] | None = None) -> list[str]:
    """The last ``limit`` finished tables (of ``among``, when given) whose game was played out to
    its end with a person seated and has no analysis in ``format`` (issue 28: they are analysed
    at a start), oldest first."""
    done = select(analyses.c.table_id).where(analyses.c.table_id == tables.c.id, analyses.c.format == format)
    query = select(tables.c.id, tables.c.seats, tables.c.summary).where(
        tables.c.status == FINISHED, ~done.exists()
    )
    if among is not None:
        query = query.where(tables.c.id.in_(list(among)))
    rows = c.execute(query.order_by(tables.c.finished_at.desc()).limit(limit)).all()
    found = [
        str(r.id)
        for r in rows
        if not (r.summary or {}).get("ended") and any(s.get("player") is not None for s in r.seats or [])
    ]
    return found[::-1]


def stored(c: Connection, table_id: str, format: int) -> dict[str, Any] | None:
    """The table's analysis in this ``format``, or None (none yet, or an older format)."""
    row = c.execute(
        select(analyses.c.analysis).where(analyses.c.table_id == table_id, analyses.c.format == format)
    ).first()
    return None if row is None else dict(row.analysis)


def save(
    c: Connection, table_id: str, format: int, analysis: dict[str, Any], seconds: float, at: datetime
) -> None:
    """Keep the table's analysis (replacing one of an older format)."""
    c.execute(delete(analyses).where(analyses.c.table_id == table_id))
    c.execute(
        insert(analyses).values(
            table_id=table_id, format=format, analysis=analysis, seconds=seconds, created_at=at
        )
    )


def count(c: Connection) -> int:
    """How many analyses are stored (tests and operators)."""
    from sqlalchemy import func

    return int(c.execute(select(func.count()).select_from(analyses)).scalar_one())
