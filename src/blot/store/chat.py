"""Talk at the table (issue 26) in the server's database (``blot.store``): what was said at each
table, whom each player muted, accounts silenced by ``blot admin``. Every function is blocking and
takes a SQLAlchemy connection.

Messages are kept with the table but are not lines of its log: a table's events, its replay and
its record are the same with or without talk (docs/protocol.md, "Talk at the table").
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import and_, delete, insert, select, update
from sqlalchemy.engine import Connection

from blot.store.schema import chat_messages, chat_mutes, players

#: The messages a page gets when it opens a table (the newest ones of its room).
HISTORY = 50
#: Kinds of message: said by a player, or the host's turning the table's chat off and on.
SAID = ("phrase", "emote", "text")
SWITCH = ("off", "on")


def _json(row: Any) -> dict[str, Any]:
    return {
        "id": int(row.id),
        "at": row.at.isoformat(),
        "room": row.room,
        "seat": row.seat,
        "player": int(row.player_id),
        "name": row.name,
        # a guest's message is marked: a guest may take no account's name, yet may look like one
        "guest": row.username_key is None and row.bot is None,
        "kind": row.kind,
        "body": row.body,
    }


_COLUMNS = (
    chat_messages.c.id,
    chat_messages.c.at,
    chat_messages.c.room,
    chat_messages.c.seat,
    chat_messages.c.player_id,
    players.c.name,
    players.c.username_key,
    players.c.bot,
    chat_messages.c.kind,
    chat_messages.c.body,
)


def add(
    c: Connection, table_id: str, player: int, seat: int | None, room: str, kind: str, body: str, at: datetime
) -> dict[str, Any]:
    """Store one message; answers it as clients get it (with its author's name)."""
    key = c.execute(
        insert(chat_messages).values(
            table_id=table_id, player_id=player, seat=seat, room=room, kind=kind, body=body, at=at
        )
    ).inserted_primary_key
    assert key is not None
    row = c.execute(
        select(*_COLUMNS)
        .join(players, players.c.id == chat_messages.c.player_id)
        .where(chat_messages.c.id == key[0])
    ).one()
    return _json(row)


def history(
    c: Connection, table_id: str, room: str, muted: set[int], limit: int = HISTORY
) -> list[dict[str, Any]]:
    """The newest ``limit`` messages of a table's room, oldest first, without removed ones and
    without those of ``muted`` players (the host's switches always show)."""
    query = (
        select(*_COLUMNS)
        .join(players, players.c.id == chat_messages.c.player_id)
        .where(
            chat_messages.c.table_id == table_id,
            chat_messages.c.room == room,
            chat_messages.c.removed_at.is_(None),
        )
        .order_by(chat_messages.c.id.desc())
        .limit(limit)
    )
    if muted:
        query = query.where(
            (chat_messages.c.player_id.not_in(sorted(muted))) | chat_messages.c.kind.in_(SWITCH)
        )
    return [_json(r) for r in reversed(c.execute(query).all())]


def chat_on(c: Connection, table_id: str) -> bool:
    """Whether the table's chat is on: the host's last switch says, on when there was none."""
    row = c.execute(
        select(chat_messages.c.kind)
        .where(chat_messages.c.table_id == table_id, chat_messages.c.kind.in_(SWITCH))
        .order_by(chat_messages.c.id.desc())
        .limit(1)
    ).first()
    return row is None or row.kind == "on"


def mutes(c: Connection, player: int) -> set[int]:
    """The players ``player`` muted."""
    rows = c.execute(select(chat_mutes.c.muted_id).where(chat_mutes.c.player_id == player)).all()
    return {int(r.muted_id) for r in rows}


def is_player(c: Connection, player: int) -> bool:
    """Whether ``player`` is the id of a player (a person, a bot or a deleted account)."""
    return c.execute(select(players.c.id).where(players.c.id == player)).first() is not None


def set_mute(c: Connection, player: int, muted: int, on: bool, at: datetime) -> None:
    c.execute(delete(chat_mutes).where(chat_mutes.c.player_id == player, chat_mutes.c.muted_id == muted))
    if on:
        c.execute(insert(chat_mutes).values(player_id=player, muted_id=muted, at=at))


def silenced(c: Connection, player: int) -> bool:
    row = c.execute(select(players.c.silenced_at).where(players.c.id == player)).first()
    return row is not None and row.silenced_at is not None


def set_silenced(c: Connection, player: int, at: datetime | None) -> None:
    """Silence an account at every table from ``at`` on (None: give its voice back)."""
    c.execute(update(players).where(players.c.id == player).values(silenced_at=at))


def remove(c: Connection, message: int, at: datetime) -> bool:
    """Remove a message from the table's talk (``blot admin chat-remove``); False when there is
    no such message still shown."""
    done = c.execute(
        update(chat_messages)
        .where(and_(chat_messages.c.id == message, chat_messages.c.removed_at.is_(None)))
        .values(removed_at=at)
    )
    return bool(done.rowcount)


def of_table(c: Connection, table_id: str) -> list[dict[str, Any]]:
    """Every message of a table, removed ones included (``blot admin chat``), oldest first."""
    rows = c.execute(
        select(*_COLUMNS, chat_messages.c.removed_at)
        .join(players, players.c.id == chat_messages.c.player_id)
        .where(chat_messages.c.table_id == table_id)
        .order_by(chat_messages.c.id)
    ).all()
    return [_json(r) | {"removed": r.removed_at is not None} for r in rows]


def forget_player(c: Connection, player: int) -> None:
    """A deleted account: what it said and whom it muted go, and nobody mutes it any more."""
    c.execute(delete(chat_messages).where(chat_messages.c.player_id == player))
    c.execute(
        delete(chat_mutes).where((chat_mutes.c.player_id == player) | (chat_mutes.c.muted_id == player))
    )
