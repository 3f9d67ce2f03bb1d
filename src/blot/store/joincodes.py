"""The rows of join codes (issue 41 item 10): the codes an event's organizer or a table's host
hands out for a club night, and who came in with each. Only stores: who may make a code, and
whether a use is allowed, is :mod:`blot.server.joincodes`'. Every function is blocking and takes
a SQLAlchemy connection."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection

from blot.store.schema import join_code_players, join_codes, players, sessions


def insert_code(c: Connection, row: Mapping[str, Any]) -> None:
    c.execute(insert(join_codes).values(**row))


def code_row(c: Connection, code: str) -> dict[str, Any] | None:
    row = c.execute(select(join_codes).where(join_codes.c.code == code)).mappings().first()
    return None if row is None else dict(row)


def codes_of(c: Connection, player: int) -> list[dict[str, Any]]:
    """The codes ``player`` made, newest first."""
    found = c.execute(
        select(join_codes).where(join_codes.c.created_by == player).order_by(join_codes.c.created_at.desc())
    ).mappings()
    return [dict(r) for r in found]


def take_use(c: Connection, code: str, now: datetime) -> bool:
    """Count one more use of ``code`` if it has one left, is not revoked and has not ended (one
    statement: two people using the last use at once cannot both get it)."""
    j = join_codes.c
    done = c.execute(
        update(join_codes)
        .where(j.code == code, j.used < j.uses, j.revoked_at.is_(None), j.until > now)
        .values(used=j.used + 1)
    )
    return bool(done.rowcount)


def new_player(c: Connection, code: str, name: str, token_hash: str, at: datetime, until: datetime) -> int:
    """A guest who came in with ``code``: their session ends at ``until``."""
    key = c.execute(insert(players).values(name=name, created_at=at)).inserted_primary_key
    assert key is not None
    player = int(key[0])
    c.execute(
        insert(sessions).values(token_hash=token_hash, player_id=player, created_at=at, expires_at=until)
    )
    c.execute(insert(join_code_players).values(code=code, player_id=player))
    return player


def revoke(c: Connection, code: str, at: datetime) -> list[int]:
    """Revoke ``code`` and end the sessions of everybody who came in with it; their ids."""
    c.execute(update(join_codes).where(join_codes.c.code == code).values(revoked_at=at))
    people = [
        int(r.player_id)
        for r in c.execute(select(join_code_players.c.player_id).where(join_code_players.c.code == code))
    ]
    if people:
        c.execute(delete(sessions).where(sessions.c.player_id.in_(people)))
    return people
