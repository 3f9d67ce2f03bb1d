"""The rows of the quick game's queue (issue 41 item 3): who waits for which game. Only stores:
who may be seated with whom is :mod:`blot.server.quick`. Every function is blocking and takes a
SQLAlchemy connection.

A person waits once (the primary key): asking again replaces the wait. Seating takes waits that
are still unseated in the same transaction as the table's creation (:func:`seat`), so two
processes that chose the same people make one table, and the other's is not made."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, delete, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from blot.store.schema import quick_waits


def wait_of(c: Connection, player: int) -> dict[str, Any] | None:
    row = c.execute(select(quick_waits).where(quick_waits.c.player_id == player)).mappings().first()
    return None if row is None else dict(row)


def wait(c: Connection, row: Mapping[str, Any]) -> dict[str, Any]:
    """``row`` as the person's wait: a wait for the same thing goes on (its ``since`` kept),
    anything else (another game, a seated wait) starts anew."""
    player = int(row["player_id"])
    old = wait_of(c, player)
    key = ("game", "ruleset", "rated")
    if old is not None and old["table_id"] is None and all(old[k] == row[k] for k in key):
        c.execute(
            update(quick_waits)
            .where(quick_waits.c.player_id == player)
            .values(seen=row["seen"], device=row["device"] or old["device"], name=row["name"])
        )
    else:
        c.execute(delete(quick_waits).where(quick_waits.c.player_id == player))
        try:
            with c.begin_nested():
                c.execute(insert(quick_waits).values(**row, table_id=None, seat=None))
        except IntegrityError:  # the same person asked another process at the same moment
            c.execute(update(quick_waits).where(quick_waits.c.player_id == player).values(seen=row["seen"]))
    found = wait_of(c, player)
    assert found is not None
    return found


def seen(c: Connection, player: int, at: datetime, cutoff: datetime) -> dict[str, Any] | None:
    """The person asked again (the page polls): their wait, heard of now; None when there is
    none, or when it went unheard of since ``cutoff`` unseated (dropped: it is deleted)."""
    found = wait_of(c, player)
    if found is None:
        return None
    if found["table_id"] is None and _aware(found["seen"]) < cutoff:
        cancel(c, player)
        return None
    c.execute(update(quick_waits).where(quick_waits.c.player_id == player).values(seen=at))
    return {**found, "seen": at}


def cancel(c: Connection, player: int) -> None:
    c.execute(delete(quick_waits).where(quick_waits.c.player_id == player))


def drop_stale(c: Connection, before: datetime) -> None:
    """Waits not heard of since ``before`` (a closed page), seated or not."""
    c.execute(delete(quick_waits).where(quick_waits.c.seen < before))


def waiting(c: Connection, game: str, ruleset: str, rated: bool, since: datetime) -> list[dict[str, Any]]:
    """The unseated waits for one thing heard of since ``since``, the longest waiting first."""
    query = (
        select(quick_waits)
        .where(
            and_(
                quick_waits.c.game == game,
                quick_waits.c.ruleset == ruleset,
                quick_waits.c.rated == rated,
                quick_waits.c.table_id.is_(None),
                quick_waits.c.seen >= since,
            )
        )
        .order_by(quick_waits.c.since, quick_waits.c.player_id)
    )
    return [dict(r) for r in c.execute(query).mappings()]


def seat(c: Connection, table_id: str, seats: Sequence[tuple[int, int]], since: datetime) -> bool:
    """Seat each ``(player, seat)`` at ``table_id``; False (nothing to keep) when one of them
    is no longer waiting unseated (cancelled, dropped, or seated by another request)."""
    for player, number in seats:
        done = c.execute(
            update(quick_waits)
            .where(
                quick_waits.c.player_id == player,
                quick_waits.c.table_id.is_(None),
                quick_waits.c.seen >= since,
            )
            .values(table_id=table_id, seat=number)
        )
        if done.rowcount != 1:
            return False
    return True


def _aware(when: datetime) -> datetime:
    """A stored time as an aware UTC time (SQLite gives it back naive)."""
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)
