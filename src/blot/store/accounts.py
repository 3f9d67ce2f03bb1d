"""Accounts, sessions and bot players in the server's database (``blot.store``).

Every function here is blocking and takes a SQLAlchemy connection, like
:mod:`blot.store.scoresheets`: the server runs writes through its store writer and ``blot admin``
runs them directly. Tokens are never stored, only their SHA-256 (``sessions.token_hash``); the
password only as its Argon2id hash. Nothing here returns a hash to a caller that answers a client:
:class:`Account` keeps it for the password check and leaves it out of :meth:`Account.to_json`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection

from blot.accounts import DELETED_NAME, skeleton
from blot.store.schema import (
    devices,
    players,
    ratings,
    results,
    scoresheet_edits,
    scoresheets,
    sessions,
    table_log,
    tables,
)

NAME_LIMIT = 40


@dataclass(frozen=True)
class Account:
    """An account as stored (``password_hash`` stays on the server)."""

    id: int
    username: str
    password_hash: str | None
    disabled: bool
    created_at: datetime

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "username": self.username, "name": self.username}


@dataclass(frozen=True)
class Who:
    """The player behind a token: a guest (``username`` None) or an account."""

    id: int
    name: str
    username: str | None = None


def _account(row: Any) -> Account:
    return Account(
        id=int(row.id),
        username=str(row.username),
        password_hash=row.password_hash,
        disabled=bool(row.disabled),
        created_at=row.created_at,
    )


_ACCOUNT_COLUMNS = (
    players.c.id,
    players.c.username,
    players.c.password_hash,
    players.c.disabled,
    players.c.created_at,
)


def find(c: Connection, key: str) -> Account | None:
    """The account whose case-folded username is ``key`` (deleted accounts have none)."""
    row = c.execute(select(*_ACCOUNT_COLUMNS).where(players.c.username_key == key)).first()
    return None if row is None else _account(row)


def look_alike(c: Connection, username: str) -> str | None:
    """The username of an account that looks like ``username`` (one skeleton,
    :func:`blot.accounts.skeleton`), if there is one."""
    row = c.execute(
        select(players.c.username).where(players.c.username_skeleton == skeleton(username)).limit(1)
    ).first()
    return None if row is None else str(row.username)


def by_id(c: Connection, player: int) -> Account | None:
    row = c.execute(
        select(*_ACCOUNT_COLUMNS).where(players.c.id == player, players.c.username_key.is_not(None))
    ).first()
    return None if row is None else _account(row)


def _unexpired(now: datetime | None) -> Any:
    """A session that has not ended by itself by ``now`` (a join code's ends at its time)."""
    if now is None:
        return sessions.c.token_hash.is_not(None)
    return or_(sessions.c.expires_at.is_(None), sessions.c.expires_at > now)


def who(c: Connection, token_hash: str, now: datetime | None = None) -> Who | None:
    """The player of a session (none for a disabled account: its sessions are gone anyway; none
    for a session that ended by itself before ``now``)."""
    row = c.execute(
        select(players.c.id, players.c.name, players.c.username)
        .join(sessions, sessions.c.player_id == players.c.id)
        .where(sessions.c.token_hash == token_hash, players.c.disabled.is_(False), _unexpired(now))
    ).first()
    return None if row is None else Who(int(row.id), str(row.name), row.username)


def live_sessions(c: Connection, token_hashes: Iterable[str], now: datetime | None = None) -> set[str]:
    """Those of ``token_hashes`` that are still sessions of players not disabled (the others
    logged out, lost them to a new password, or belong to a disabled or deleted account)."""
    wanted = list(set(token_hashes))
    live: set[str] = set()
    for start in range(0, len(wanted), 500):
        rows = c.execute(
            select(sessions.c.token_hash)
            .join(players, sessions.c.player_id == players.c.id)
            .where(
                sessions.c.token_hash.in_(wanted[start : start + 500]),
                players.c.disabled.is_(False),
                _unexpired(now),
            )
        )
        live.update(str(r.token_hash) for r in rows)
    return live


def new_guest(c: Connection, name: str, token_hash: str, at: datetime) -> int:
    key = c.execute(insert(players).values(name=name, created_at=at)).inserted_primary_key
    assert key is not None
    player = int(key[0])
    add_session(c, player, token_hash, at)
    return player


def rename(c: Connection, player: int, name: str) -> None:
    c.execute(update(players).where(players.c.id == player).values(name=name))


def is_guest(c: Connection, player: int) -> bool:
    row = c.execute(
        select(players.c.username_key, players.c.bot, players.c.deleted_at).where(players.c.id == player)
    ).first()
    return row is not None and row.username_key is None and row.bot is None and row.deleted_at is None


def create(
    c: Connection, username: str, key: str, password_hash: str, at: datetime, guest: int | None = None
) -> int:
    """A new account; ``guest``: the guest player (of the browser signing up) that becomes it, so
    that its games are the account's. The guest's old sessions end (the caller makes a new one)."""
    values = {
        "username": username,
        "username_key": key,
        "username_skeleton": skeleton(username),
        "password_hash": password_hash,
        "name": username,
    }
    if guest is not None and is_guest(c, guest):
        c.execute(update(players).where(players.c.id == guest).values(**values))
        c.execute(delete(sessions).where(sessions.c.player_id == guest))
        return guest
    made = c.execute(insert(players).values(created_at=at, **values)).inserted_primary_key
    assert made is not None
    return int(made[0])


def add_session(c: Connection, player: int, token_hash: str, at: datetime) -> None:
    c.execute(insert(sessions).values(token_hash=token_hash, player_id=player, created_at=at))


def see_device(c: Connection, player: int, device: str, at: datetime) -> None:
    """Remember that ``player`` used the browser ``device`` (a hash of its cookie)."""
    seen = (devices.c.player_id == player) & (devices.c.device == device)
    if c.execute(update(devices).where(seen).values(last_seen=at)).rowcount == 0:
        c.execute(insert(devices).values(player_id=player, device=device, last_seen=at))


def sharing_browser(c: Connection, player: int, others: Iterable[int]) -> int | None:
    """One of ``others`` who used a browser that ``player`` used too, or None."""
    ids = [o for o in set(others) if o != player]
    if not ids:
        return None
    mine = select(devices.c.device).where(devices.c.player_id == player)
    row = c.execute(
        select(devices.c.player_id).where(devices.c.player_id.in_(ids), devices.c.device.in_(mine)).limit(1)
    ).first()
    return None if row is None else int(row.player_id)


def end_session(c: Connection, token_hash: str) -> None:
    c.execute(delete(sessions).where(sessions.c.token_hash == token_hash))


def end_sessions(c: Connection, player: int, keep: str | None = None) -> None:
    """End every session of ``player`` but ``keep`` (a token hash)."""
    condition = sessions.c.player_id == player
    if keep is not None:
        condition = and_(condition, sessions.c.token_hash != keep)
    c.execute(delete(sessions).where(condition))


def set_password(c: Connection, player: int, password_hash: str) -> None:
    c.execute(update(players).where(players.c.id == player).values(password_hash=password_hash))


def set_disabled(c: Connection, player: int, disabled: bool) -> None:
    c.execute(update(players).where(players.c.id == player).values(disabled=disabled))
    if disabled:
        end_sessions(c, player)


def listing(c: Connection) -> list[dict[str, Any]]:
    """Every account, oldest first, with the number of finished games it sat in."""
    games = (
        select(results.c.player_id, func.count().label("games"))
        .where(results.c.place.is_not(None))
        .group_by(results.c.player_id)
        .subquery()
    )
    rows = c.execute(
        select(players.c.id, players.c.username, players.c.created_at, players.c.disabled, games.c.games)
        .outerjoin(games, games.c.player_id == players.c.id)
        .where(players.c.username_key.is_not(None))
        .order_by(players.c.id)
    ).all()
    return [
        {
            "id": int(r.id),
            "username": str(r.username),
            "created_at": r.created_at,
            "disabled": bool(r.disabled),
            "games": int(r.games or 0),
        }
        for r in rows
    ]


def bot_player(c: Connection, level: str, at: datetime) -> int:
    """The player row of a bot level (made the first time the level plays a rated game)."""
    row = c.execute(select(players.c.id).where(players.c.bot == level)).first()
    if row is not None:
        return int(row.id)
    # two processes may make it at once: one row, whoever comes second finds it
    if c.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as upsert
    else:
        from sqlalchemy.dialects.sqlite import insert as upsert  # type: ignore[assignment]
    values = {"name": f"bot ({level})"[:NAME_LIMIT], "bot": level, "created_at": at}
    c.execute(upsert(players).values(**values).on_conflict_do_nothing(index_elements=[players.c.bot]))
    return int(c.execute(select(players.c.id).where(players.c.bot == level)).scalar_one())


def delete_account(c: Connection, player: int, at: datetime) -> list[str]:
    """Delete an account: its sessions, password, username and ratings go; its games stay, and
    everywhere its name was written (seats, game records, the tables' logs, score sheets) it
    becomes "deleted player". Answers the tables whose stored names changed."""
    c.execute(
        update(players)
        .where(players.c.id == player)
        .values(
            name=DELETED_NAME,
            username=None,
            username_key=None,
            username_skeleton=None,
            password_hash=None,
            disabled=True,
            deleted_at=at,
            avatar=None,
        )
    )
    end_sessions(c, player)
    from blot.store import chat

    chat.forget_player(c, player)
    from blot.store import push

    push.forget_player(c, player)  # its browsers' push subscriptions (issue 41 item 4)
    c.execute(delete(ratings).where(ratings.c.player_id == player))
    touched = _rename_in_tables(c, player)
    c.execute(
        update(scoresheets).where(scoresheets.c.created_player == player).values(created_by=DELETED_NAME)
    )
    c.execute(
        update(scoresheet_edits).where(scoresheet_edits.c.by_player == player).values(by_name=DELETED_NAME)
    )
    return touched


def _rename_in_tables(c: Connection, player: int) -> list[str]:
    sits = c.execute(
        select(table_log.c.table_id, table_log.c.seq, table_log.c.payload).where(
            table_log.c.kind == "sit", table_log.c.payload["player"].as_integer() == player
        )
    ).all()
    for r in sits:
        payload = {**dict(r.payload), "name": DELETED_NAME}
        c.execute(
            update(table_log)
            .where(table_log.c.table_id == r.table_id, table_log.c.seq == r.seq)
            .values(payload=payload)
        )
    ids = sorted({str(r.table_id) for r in sits})
    for row in _table_rows(c, ids):
        seats = [{**s, "name": DELETED_NAME} if s.get("player") == player else s for s in (row.seats or [])]
        changes: dict[str, Any] = {"seats": seats}
        record = row.record
        if isinstance(record, dict) and isinstance(record.get("players"), list):
            names = list(record["players"])
            for s in seats:
                if s.get("player") == player and 0 <= int(s["seat"]) < len(names):
                    names[int(s["seat"])] = DELETED_NAME
            changes["record"] = {**record, "players": names}
        c.execute(update(tables).where(tables.c.id == row.id).values(**changes))
    return ids


def _table_rows(c: Connection, ids: Iterable[str]) -> list[Any]:
    wanted = list(ids)
    if not wanted:
        return []
    return list(
        c.execute(select(tables.c.id, tables.c.seats, tables.c.record).where(tables.c.id.in_(wanted)))
    )


__all__ = [
    "Account",
    "Who",
    "add_session",
    "bot_player",
    "by_id",
    "create",
    "delete_account",
    "end_session",
    "end_sessions",
    "find",
    "listing",
    "look_alike",
    "new_guest",
    "playing_at",
    "rename",
    "set_disabled",
    "set_password",
    "who",
]


def avatars(c: Connection, ids: Iterable[int]) -> dict[int, str]:
    """The avatars (emoji) that those of ``ids`` chose; players who chose none are left out."""
    wanted = sorted(set(ids))[:100]
    if not wanted:
        return {}
    rows = c.execute(
        select(players.c.id, players.c.avatar).where(players.c.id.in_(wanted), players.c.avatar.is_not(None))
    ).all()
    return {int(r.id): str(r.avatar) for r in rows}


def playing_at(c: Connection, player: int) -> str | None:
    """A table whose game is being played (started, not over) where ``player`` sits, if any."""
    rows = c.execute(select(tables.c.id, tables.c.seats).where(tables.c.status == "playing"))
    for row in rows:
        if any(isinstance(s, dict) and s.get("player") == player for s in row.seats or []):
            return str(row.id)
    return None


def set_avatar(c: Connection, player: int, avatar: str | None) -> None:
    c.execute(update(players).where(players.c.id == player).values(avatar=avatar))
