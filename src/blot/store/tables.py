"""The tables' rows and their append-only logs (issue 39 item 3: the store's rows of tables):
:class:`Store` opens a database (applying the migrations, :mod:`blot.store.migrate`) and reads
and writes the ``tables`` and ``table_log`` rows; :class:`LogEntry` is one line of a log."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import Engine, bindparam, create_engine, event, insert, select, update
from sqlalchemy.engine import Connection

from blot.store.migrate import migrate
from blot.store.schema import results, table_log, tables
from blot.store.urls import StoreError, _reason, safe_url

T = TypeVar("T")


def iso(at: datetime) -> str:
    """An ISO 8601 time in UTC (SQLite gives back naive datetimes, stored in UTC)."""
    return (at if at.tzinfo is not None else at.replace(tzinfo=UTC)).isoformat()


def now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class Append:
    """A table's new log lines and its row's changes (:meth:`Store.append_many`)."""

    table_id: str
    entries: Sequence[LogEntry]
    changes: dict[str, Any]


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One line of a table's log: its number (the event number), kind and JSON payload."""

    seq: int
    kind: str
    payload: dict[str, Any]


class Store:
    """A database: open it with :meth:`open`, which also applies the migrations."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @classmethod
    def open(cls, url: str, *, migrate_schema: bool = True) -> Store:
        """Open (and migrate) the database at ``url``; :class:`StoreError` in one sentence when
        it cannot be (a bad URL, a missing driver, a file in a folder that does not exist)."""
        import warnings

        from sqlalchemy.exc import SAWarning, SQLAlchemyError

        engine = None
        try:
            kwargs: dict[str, Any] = {}
            if url.startswith("sqlite"):
                kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
            with warnings.catch_warnings():  # e.g. query arguments SQLite ignores: not worth a word
                warnings.simplefilter("ignore", SAWarning)
                engine = create_engine(url, **kwargs)
            if engine.dialect.name == "sqlite":
                event.listen(engine, "connect", _sqlite_pragmas)
            store = cls(engine)
            if migrate_schema:
                migrate(engine)
            return store
        except (SQLAlchemyError, ImportError, OSError) as e:
            if engine is not None:
                engine.dispose()
            reason = _reason(e)
            if type(e).__name__ == "NoSuchModuleError":
                kind = url.partition(":")[0]
                reason = f"unknown kind of database {kind!r} (use sqlite:///FILE or postgresql+psycopg://...)"
            raise StoreError(f"cannot open the database {safe_url(url)}: {reason}") from None

    def close(self) -> None:
        self.engine.dispose()

    def read(self, fn: Callable[[Connection], T]) -> T:
        """Run ``fn`` on a connection of its own (blocking: the server calls it from a thread)."""
        with self.engine.connect() as c:
            return fn(c)

    def write(self, fn: Callable[[Connection], T]) -> T:
        """Run ``fn`` in a transaction of its own (``blot admin``; the server uses :class:`Writer`)."""
        with self.engine.begin() as c:
            return fn(c)

    # --- tables --------------------------------------------------------------------------------

    @staticmethod
    def insert_table(c: Connection, row: dict[str, Any]) -> None:
        stamp = now()
        c.execute(insert(tables).values(created_at=stamp, updated_at=stamp, **row))

    @staticmethod
    def append(c: Connection, table_id: str, entries: Sequence[LogEntry], changes: dict[str, Any]) -> None:
        """Append ``entries`` to the table's log and update its row, in the caller's transaction."""
        Store.append_many(c, [Append(table_id, entries, changes)])

    @staticmethod
    def append_many(c: Connection, appends: Sequence[Append]) -> None:
        """Several tables' appends in the caller's transaction, in few statements (the writer's
        batch of every table that moved meanwhile): their log lines in one ``INSERT``, their rows'
        changes in one ``UPDATE`` run for every row (executemany) per set of columns changed."""
        stamp = now()
        lines = [
            {"table_id": a.table_id, "seq": e.seq, "kind": e.kind, "payload": e.payload, "at": stamp}
            for a in appends
            for e in a.entries
        ]
        if lines:
            c.execute(_INSERT_LINES, lines)
        rows: dict[tuple[str, ...], list[dict[str, Any]]] = {}
        for a in appends:
            row = {"_id": a.table_id, "_updated_at": stamp}
            row.update({f"_{column}": value for column, value in a.changes.items()})
            rows.setdefault(tuple(sorted(a.changes)), []).append(row)
        for columns, values in rows.items():
            c.execute(_update_row(columns), values)

    @staticmethod
    def delete_waiting_table(c: Connection, table_id: str) -> None:
        """Delete a table that never started, with its log (an expired waiting table)."""
        from sqlalchemy import delete, exists

        from blot.store.schema import chat_messages, invitations

        waiting = exists().where(tables.c.id == table_id, tables.c.status == "waiting")
        c.execute(delete(table_log).where(table_log.c.table_id == table_id, waiting))
        c.execute(delete(chat_messages).where(chat_messages.c.table_id == table_id, waiting))
        c.execute(delete(invitations).where(invitations.c.table_id == table_id, waiting))
        c.execute(delete(tables).where(tables.c.id == table_id, tables.c.status == "waiting"))

    @staticmethod
    def table_row(c: Connection, table_id: str) -> dict[str, Any] | None:
        """A table's row, or None."""
        row = c.execute(select(tables).where(tables.c.id == table_id)).mappings().first()
        return None if row is None else dict(row)

    @staticmethod
    def log_of(c: Connection, table_id: str, since: int = 0) -> list[LogEntry]:
        """A table's log after line ``since``, in order."""
        rows = c.execute(
            select(table_log.c.seq, table_log.c.kind, table_log.c.payload)
            .where(table_log.c.table_id == table_id, table_log.c.seq > since)
            .order_by(table_log.c.seq)
        ).all()
        return [LogEntry(int(r.seq), str(r.kind), dict(r.payload)) for r in rows]

    @staticmethod
    def ids_with_status(c: Connection, statuses: Iterable[str]) -> list[str]:
        rows = c.execute(select(tables.c.id).where(tables.c.status.in_(list(statuses)))).all()
        return [str(r.id) for r in rows]

    def table(self, table_id: str) -> dict[str, Any] | None:
        return self.read(lambda c: Store.table_row(c, table_id))

    def log(self, table_id: str) -> list[LogEntry]:
        return self.read(lambda c: Store.log_of(c, table_id))

    @staticmethod
    def hosted(c: Connection, player: int) -> int:
        """Open tables (waiting or being played) that ``player`` hosts."""
        from sqlalchemy import func

        query = select(func.count()).where(
            tables.c.host == player, tables.c.status.in_(["waiting", "playing"])
        )
        return int(c.execute(query).scalar_one())

    @staticmethod
    def open_seat_of(c: Connection, player: int) -> str | None:
        """A table waiting or being played where ``player`` sits, if any."""
        rows = c.execute(
            select(tables.c.id, tables.c.seats).where(tables.c.status.in_(["waiting", "playing"]))
        )
        for row in rows:
            if any(isinstance(s, dict) and s.get("player") == player for s in row.seats or []):
                return str(row.id)
        return None

    @staticmethod
    def stale_waiting(c: Connection, before: datetime, limit: int = 500) -> list[str]:
        """Waiting tables that have not changed since ``before`` (the oldest first)."""
        rows = c.execute(
            select(tables.c.id)
            .where(tables.c.status == "waiting", tables.c.updated_at < before)
            .order_by(tables.c.updated_at)
            .limit(limit)
        ).all()
        return [str(r.id) for r in rows]

    def tables_with_status(self, statuses: Iterable[str]) -> list[str]:
        return self.read(lambda c: Store.ids_with_status(c, statuses))

    def listing(
        self,
        statuses: Iterable[str],
        limit: int = 100,
        public_only: bool = True,
        ids: Sequence[str] | None = None,
        player: int | None = None,
    ) -> list[dict[str, Any]]:
        """Tables for the lobby and the replay list, newest first (no logs, no records); with
        ``ids`` only those (the lobby: the tables people are at, chosen before the limit); with
        ``player`` only the finished games that player sat at (private ones too)."""
        cols = [
            tables.c.id,
            tables.c.game,
            tables.c.settings,
            tables.c.public,
            tables.c.status,
            tables.c.seats,
            tables.c.summary,
            tables.c.created_at,
            tables.c.finished_at,
        ]
        query = select(*cols).where(tables.c.status.in_(list(statuses)))
        if ids is not None:
            query = query.where(tables.c.id.in_(list(ids)[:1000]))
        if player is not None:
            query = query.where(
                tables.c.id.in_(select(results.c.table_id).where(results.c.player_id == player))
            )
        elif public_only:
            query = query.where(tables.c.public.is_(True))
        query = query.order_by(tables.c.updated_at.desc()).limit(limit)
        with self.engine.connect() as c:
            return [dict(r) for r in c.execute(query).mappings().all()]


#: The statements of :meth:`Store.append_many`, built once (building them is most of a write's
#: time in Python otherwise); the parameters of an update are its columns' names after ``_``.
_INSERT_LINES = insert(table_log)


@functools.cache
def _update_row(columns: tuple[str, ...]) -> Any:
    values: dict[str, Any] = {name: bindparam(f"_{name}") for name in ("updated_at", *columns)}
    return update(tables).where(tables.c.id == bindparam("_id")).values(values)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL (readers never wait for the writer) with ``synchronous=FULL``: every commit is on the
    disk (fsync of the WAL) before the writer answers, so what a table announced survives a
    power loss too; the writer's group commit pays that fsync once per batch (docs/operators.md,
    Durability)."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
