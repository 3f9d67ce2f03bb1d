"""The rows of the score sheets (``blot.store``): sheets, their deals (each an entry as JSON)
and the append-only history of edits. Only stores: what an entry means, and whether a change is
allowed, is the score sheet's (:mod:`blot.scoresheet.sheets`, :mod:`blot.scoresheet.model`).
Every function is blocking and takes a SQLAlchemy connection."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection

from blot.store.schema import scoresheet_deals, scoresheet_edits, scoresheets


def sheet_row(
    c: Connection, *, sheet_id: str | None = None, share_id: str | None = None
) -> dict[str, Any] | None:
    """The sheet's row by its id or its share id, or None."""
    column = scoresheets.c.id if sheet_id is not None else scoresheets.c.share_id
    row = (
        c.execute(select(scoresheets).where(column == (sheet_id if sheet_id is not None else share_id)))
        .mappings()
        .first()
    )
    return None if row is None else dict(row)


def entries(c: Connection, sheet_id: str) -> list[Any]:
    """The sheet's deal entries (JSON), in order."""
    found = c.execute(
        select(scoresheet_deals.c.entry)
        .where(scoresheet_deals.c.sheet_id == sheet_id)
        .order_by(scoresheet_deals.c.number)
    ).all()
    return [r.entry for r in found]


def client_ids(c: Connection, sheet_id: str) -> dict[int, str]:
    """The page's own ids of the sheet's deals that have one (number -> id; issue 41 item 9)."""
    d = scoresheet_deals.c
    found = c.execute(
        select(d.number, d.client_id).where(d.sheet_id == sheet_id, d.client_id.is_not(None))
    ).all()
    return {int(r.number): str(r.client_id) for r in found}


def edit_rows(c: Connection, sheet_id: str) -> list[dict[str, Any]]:
    """The sheet's edits, oldest first."""
    e = scoresheet_edits.c
    found = c.execute(select(scoresheet_edits).where(e.sheet_id == sheet_id).order_by(e.seq)).mappings()
    return [dict(r) for r in found]


def version(c: Connection, share_id: str) -> int | None:
    """The number of the sheet's last edit (0 before any), or None for an unknown share id."""
    value = c.execute(select(scoresheets.c.version).where(scoresheets.c.share_id == share_id)).scalar()
    return None if value is None else int(value)


def listing(c: Connection, limit: int = 20) -> list[dict[str, Any]]:
    """The most recently changed sheets, newest first."""
    s = scoresheets.c
    found = c.execute(
        select(s.id, s.teams, s.ruleset, s.options, s.updated_at, s.version)
        .order_by(s.updated_at.desc())
        .limit(limit)
    ).mappings()
    return [dict(r) for r in found]


def insert_sheet(c: Connection, row: Mapping[str, Any]) -> None:
    c.execute(insert(scoresheets).values(**row))


def next_edit(c: Connection, sheet_id: str, stamp: datetime) -> int | None:
    """Take the sheet's row for this transaction and count one more edit: its number, or None
    for an unknown sheet."""
    c.execute(
        update(scoresheets)
        .where(scoresheets.c.id == sheet_id)
        .values(version=scoresheets.c.version + 1, updated_at=stamp)
    )
    seq = c.execute(select(scoresheets.c.version).where(scoresheets.c.id == sheet_id)).scalar()
    return None if seq is None else int(seq)


def insert_edit(c: Connection, values: Mapping[str, Any]) -> None:
    c.execute(insert(scoresheet_edits).values(**values))


def insert_deal(c: Connection, sheet_id: str, number: int, entry: Any, client_id: str | None = None) -> None:
    c.execute(
        insert(scoresheet_deals).values(sheet_id=sheet_id, number=number, entry=entry, client_id=client_id)
    )


def update_deal(c: Connection, sheet_id: str, number: int, entry: Any) -> None:
    c.execute(
        update(scoresheet_deals)
        .where(scoresheet_deals.c.sheet_id == sheet_id, scoresheet_deals.c.number == number)
        .values(entry=entry)
    )


def delete_deal(c: Connection, sheet_id: str, number: int) -> None:
    c.execute(
        delete(scoresheet_deals).where(
            scoresheet_deals.c.sheet_id == sheet_id, scoresheet_deals.c.number == number
        )
    )
