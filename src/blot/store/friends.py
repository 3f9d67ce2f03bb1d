"""Friends and invitations in the database (issue 41 item 2): rows only, the rules are the
server's (:mod:`blot.server.friends`).

``friends`` holds one row per pair and direction: ``asked`` (a request waiting for the other),
``friend`` (both directions once the other accepted) and ``blocked`` (the blocker's row only).
``invitations`` holds each invitation to a table, once per table, inviter and invitee.
Every function is blocking and takes a connection, as :mod:`blot.store.accounts`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, delete, insert, or_, select, update
from sqlalchemy.engine import Connection

from blot.store.schema import friends, invitations, players, tables

ASKED, FRIEND, BLOCKED = "asked", "friend", "blocked"


@dataclass(frozen=True)
class Person:
    """An account as a friends list shows it."""

    id: int
    username: str
    name: str


def account(c: Connection, key: str) -> Person | None:
    """The account whose case-folded username is ``key`` (deleted accounts have none)."""
    row = c.execute(
        select(players.c.id, players.c.username, players.c.name).where(
            players.c.username_key == key, players.c.disabled.is_(False)
        )
    ).first()
    return None if row is None else Person(int(row.id), str(row.username), str(row.name))


def status(c: Connection, player: int, other: int) -> str | None:
    """The row ``player`` -> ``other``: asked, friend, blocked or None."""
    found = c.execute(
        select(friends.c.status).where(friends.c.player_id == player, friends.c.other_id == other)
    ).scalar()
    return None if found is None else str(found)


def _set(c: Connection, player: int, other: int, state: str, at: datetime) -> None:
    c.execute(delete(friends).where(friends.c.player_id == player, friends.c.other_id == other))
    c.execute(insert(friends).values(player_id=player, other_id=other, status=state, since=at))


def ask(c: Connection, player: int, other: int, at: datetime) -> str:
    """``player`` asks ``other`` to be friends; when ``other`` had asked ``player``, this accepts
    and both are friends. Answers the state now: ``asked`` or ``friend``."""
    if status(c, player, other) == FRIEND:
        return FRIEND
    if status(c, other, player) == ASKED:
        _set(c, player, other, FRIEND, at)
        _set(c, other, player, FRIEND, at)
        return FRIEND
    _set(c, player, other, ASKED, at)
    return ASKED


def remove(c: Connection, player: int, other: int) -> None:
    """Everything ``player`` set about ``other`` (a request, a friendship, a block), and the
    other's request or friendship with ``player``; a block by ``other`` stays."""
    c.execute(delete(friends).where(friends.c.player_id == player, friends.c.other_id == other))
    c.execute(
        delete(friends).where(
            friends.c.player_id == other, friends.c.other_id == player, friends.c.status != BLOCKED
        )
    )
    _drop_invitations(c, player, other)


def block(c: Connection, player: int, other: int, at: datetime) -> None:
    """``player`` blocks ``other``: no friendship or request either way, no invitation between
    them, and ``other`` may not ask or invite ``player`` again."""
    remove(c, player, other)
    _set(c, player, other, BLOCKED, at)


def _drop_invitations(c: Connection, a: int, b: int) -> None:
    c.execute(
        delete(invitations).where(
            or_(
                and_(invitations.c.inviter == a, invitations.c.invitee == b),
                and_(invitations.c.inviter == b, invitations.c.invitee == a),
            )
        )
    )


def relations(c: Connection, player: int) -> list[dict[str, Any]]:
    """Each account ``player`` has a row with (``status`` as ``player`` set it) and each that
    asked ``player`` (``status``: ``asking``), with their id, username and name."""
    mine = c.execute(
        select(friends.c.status, players.c.id, players.c.username, players.c.name)
        .join(players, players.c.id == friends.c.other_id)
        .where(friends.c.player_id == player, players.c.username.is_not(None))
        .order_by(players.c.username_key)
    ).all()
    theirs = c.execute(
        select(players.c.id, players.c.username, players.c.name)
        .join(players, players.c.id == friends.c.player_id)
        .where(friends.c.other_id == player, friends.c.status == ASKED, players.c.username.is_not(None))
        .order_by(players.c.username_key)
    ).all()
    out = [
        {"status": str(r.status), "id": int(r.id), "username": str(r.username), "name": str(r.name)}
        for r in mine
    ]
    out += [
        {"status": "asking", "id": int(r.id), "username": str(r.username), "name": str(r.name)}
        for r in theirs
    ]
    return out


def seated(c: Connection) -> dict[int, dict[str, Any]]:
    """Where each person sits at a table whose game is not over: ``{player: {"table", "game",
    "public", "status"}}`` (the first found). One pass over the open tables, however many ask."""
    out: dict[int, dict[str, Any]] = {}
    rows = c.execute(
        select(tables.c.id, tables.c.game, tables.c.public, tables.c.status, tables.c.seats).where(
            tables.c.status.in_(["waiting", "playing"])
        )
    )
    for row in rows:
        for seat in row.seats or []:
            who = seat.get("player") if isinstance(seat, dict) else None
            if isinstance(who, int) and who not in out:
                out[who] = {
                    "table": str(row.id),
                    "game": str(row.game),
                    "public": bool(row.public),
                    "status": str(row.status),
                }
    return out


def invite(c: Connection, table: str, inviter: int, invitee: int, at: datetime) -> int:
    """The invitation of ``invitee`` to ``table`` by ``inviter`` (made again: its time renewed);
    answers its id."""
    where = and_(
        invitations.c.table_id == table, invitations.c.inviter == inviter, invitations.c.invitee == invitee
    )
    found = c.execute(select(invitations.c.id).where(where)).scalar()
    if found is not None:
        c.execute(update(invitations).where(invitations.c.id == found).values(created_at=at, dismissed=False))
        return int(found)
    made = c.execute(
        insert(invitations).values(
            table_id=table, inviter=inviter, invitee=invitee, created_at=at, dismissed=False
        )
    )
    key = made.inserted_primary_key
    assert key is not None
    return int(key[0])


def invitations_to(c: Connection, invitee: int, since: datetime) -> list[dict[str, Any]]:
    """The invitations ``invitee`` has not dismissed made after ``since``, the newest first, with
    their table's row (game, status, seats) and the inviter's username and name."""
    rows = c.execute(
        select(
            invitations.c.id,
            invitations.c.table_id,
            invitations.c.created_at,
            players.c.username,
            players.c.name,
            tables.c.game,
            tables.c.status,
            tables.c.seats,
        )
        .join(players, players.c.id == invitations.c.inviter)
        .join(tables, tables.c.id == invitations.c.table_id)
        .where(
            invitations.c.invitee == invitee,
            invitations.c.dismissed.is_(False),
            invitations.c.created_at > since,
            players.c.username.is_not(None),
        )
        .order_by(invitations.c.created_at.desc(), invitations.c.id.desc())
    ).all()
    return [dict(r._mapping) for r in rows]


def dismiss(c: Connection, invitee: int, invitation: int) -> bool:
    """``invitee`` dismisses one of their invitations; False when there is no such one."""
    done = c.execute(
        update(invitations)
        .where(invitations.c.id == invitation, invitations.c.invitee == invitee)
        .values(dismissed=True)
    )
    return bool(done.rowcount)
