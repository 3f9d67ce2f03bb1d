"""The rows of the League's courts (``blot.store``): their members, the cases a referee asks
them (L-5) and the Court of Conduct's published decisions (L-3), and the register of tars kapoots
(L-10). Only stores: what they allow is :mod:`blot.server.referees` and :mod:`blot.server.conduct`.
A court answers a case once (:func:`answer_case` updates only an unanswered one). Every function
is blocking and takes a SQLAlchemy connection.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import Table, insert, select, update
from sqlalchemy.engine import Connection, CursorResult

from blot.store.schema import (
    court_cases,
    court_decisions,
    court_members,
)


def add_court_member(c: Connection, player: int, court: str) -> bool:
    found = c.execute(
        select(court_members).where(court_members.c.player_id == player, court_members.c.court == court)
    ).first()
    if found is not None:
        return False
    c.execute(insert(court_members).values(player_id=player, court=court))
    return True


def courts_of(c: Connection, player: int) -> list[str]:
    return [
        str(r.court)
        for r in c.execute(select(court_members.c.court).where(court_members.c.player_id == player))
    ]


def insert_case(c: Connection, row_id: int | None, court: str, question: str, at: datetime) -> int:
    """A case for a court: a referee's, from an event table (``row_id``), or one the Court of
    Conduct opened from its fair-play view (none)."""
    result = c.execute(
        insert(court_cases).values(event_table=row_id, court=court, question=question, asked_at=at)
    )
    return _inserted(result)


def case(c: Connection, case_id: int) -> dict[str, Any] | None:
    return _by_id(c, court_cases, case_id)


def cases(
    c: Connection, *, courts: Iterable[str] = (), event_table_ids: Iterable[int] = ()
) -> list[dict[str, Any]]:
    """The cases of some courts, or of some event tables, oldest first."""
    query = select(court_cases)
    wanted_courts, wanted_tables = list(courts), list(event_table_ids)
    if wanted_courts:
        query = query.where(court_cases.c.court.in_(wanted_courts))
    else:
        query = query.where(court_cases.c.event_table.in_(wanted_tables))
    return [dict(r) for r in c.execute(query.order_by(court_cases.c.asked_at, court_cases.c.id)).mappings()]


def answer_case(c: Connection, case_id: int, answer: str, by: int, at: datetime) -> bool:
    k = court_cases.c
    done = c.execute(
        update(court_cases)
        .where(k.id == case_id, k.answer.is_(None))
        .values(answer=answer, answered_by=by, answered_at=at)
    )
    return bool(done.rowcount)


def apply_case(c: Connection, case_id: int, applied: str, at: datetime) -> bool:
    k = court_cases.c
    done = c.execute(
        update(court_cases)
        .where(k.id == case_id, k.answer.is_not(None), k.applied.is_(None))
        .values(applied=applied, applied_at=at)
    )
    return bool(done.rowcount)


def insert_decision(
    c: Connection, decided_on: str, decision: str, concerns: str, at: datetime, **dishonour: Any
) -> int:
    """A decision of the Court of Conduct; ``dishonour``: its kind, accounts, names, penance,
    until, case_id and recorded_by (L-9, L-10; :mod:`blot.league` checks them)."""
    result = c.execute(
        insert(court_decisions).values(
            decided_on=decided_on, decision=decision, concerns=concerns, created_at=at, **dishonour
        )
    )
    return _inserted(result)


def decision(c: Connection, number: int) -> dict[str, Any] | None:
    return _by_id(c, court_decisions, number)


def forgive(c: Connection, number: int, on: str, by: int | None) -> bool:
    """Mark a dishonour forgiven (L-10), once: False when it was forgiven already."""
    k = court_decisions.c
    done = c.execute(
        update(court_decisions)
        .where(k.id == number, k.forgiven_on.is_(None))
        .values(forgiven_on=on, forgiven_by=by)
    )
    return bool(done.rowcount)


def barring_decisions(c: Connection) -> list[dict[str, Any]]:
    """The decisions that bar accounts and are not forgiven (their days not checked)."""
    k = court_decisions.c
    query = select(k.id, k.accounts, k.until).where(k.penance.in_(["bar", "life"]), k.forgiven_on.is_(None))
    return [dict(r) for r in c.execute(query).mappings()]


def decisions(c: Connection, limit: int = 500) -> list[dict[str, Any]]:
    query = select(court_decisions).order_by(court_decisions.c.decided_on.desc(), court_decisions.c.id.desc())
    return [dict(r) for r in c.execute(query.limit(limit)).mappings()]


def tars_register(c: Connection) -> list[dict[str, Any]]:
    """Every tars kapoot on record with the pair's names, oldest first (the League's register)."""
    from blot.store.schema import tars_kapoots

    k = tars_kapoots.c
    rows_found = c.execute(select(k.player_a, k.player_b, k.at).order_by(k.at, k.id)).all()
    ids = {int(r.player_a) for r in rows_found} | {int(r.player_b) for r in rows_found}
    from blot.store.ratings import names_of

    names = names_of(c, ids)
    return [
        {
            "players": (int(r.player_a), int(r.player_b)),
            "names": (names.get(int(r.player_a), ""), names.get(int(r.player_b), "")),
            "at": r.at,
        }
        for r in rows_found
    ]


def _inserted(result: CursorResult[Any]) -> int:
    """The id of the row an insert made."""
    key = result.inserted_primary_key
    assert key is not None
    return int(key[0])


def _by_id(c: Connection, table: Table, key: int) -> dict[str, Any] | None:
    """A row by its id, or None."""
    row = c.execute(select(table).where(table.c.id == key)).mappings().first()
    return None if row is None else dict(row)
