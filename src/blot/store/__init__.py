"""Persistence of the server (SQLAlchemy Core): players, tables and each table's append-only log
(accounts and sessions: :mod:`blot.store.accounts`; ratings and results: :mod:`blot.store.ratings`;
score sheets: :mod:`blot.store.scoresheets`).

SQLite in the user's data directory by default, PostgreSQL (or any SQLAlchemy URL) by choice.
The schema is created and upgraded by Alembic migrations (:func:`migrate`), run by the server
on every start. All methods here are blocking; the server calls them from worker threads, and
writes go through :class:`Writer`, which commits many tables' appends in one transaction.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import queue
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Engine, bindparam, create_engine, event, insert, select, update
from sqlalchemy.engine import Connection

from blot.errors import BlotError
from blot.paths import data_dir
from blot.store.schema import metadata, results, table_log, tables

T = TypeVar("T")
DB_FILE = "blot.sqlite3"


class StoreError(BlotError):
    """The database cannot be opened or used (a bad URL, a missing driver, a file that cannot be
    created); the message is one sentence for the person who gave the URL or the folder."""


def default_url(directory: Path | None = None) -> str:
    """The SQLite file in the data directory (the directory is created when missing)."""
    folder = directory or data_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise StoreError(f"the data directory {folder} is a file, not a folder") from None
    except OSError as e:
        raise StoreError(f"the data directory {folder} cannot be created: {e.strerror or e}") from None
    if not folder.is_dir():
        raise StoreError(f"the data directory {folder} is a file, not a folder")
    return f"sqlite:///{folder / DB_FILE}"


def _exists(path: Path, dir_: bool = False) -> bool:
    """Whether ``path`` is a folder (``dir_``) or a file; False for a name the system refuses
    (too long, not encodable)."""
    try:
        return path.is_dir() if dir_ else path.is_file()
    except (OSError, ValueError):
        return False


def existing_url(db: str | None, directory: Path | None = None) -> str:
    """The database that already holds blot serve's data: ``db``, else the SQLite file in the
    data directory. For commands that only read or change what is there (``blot admin``), a
    data directory or SQLite file that does not exist is a :class:`StoreError`: a mistyped
    folder must not quietly become an empty database."""
    if db is None:
        folder = directory or data_dir()
        if not _exists(folder, dir_=True):
            raise StoreError(f"the data directory {folder} does not exist (blot serve creates it)")
        db = f"sqlite:///{folder / DB_FILE}"
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        parsed = make_url(db)
    except ArgumentError:
        return db  # Store.open says what is wrong with it
    name = parsed.database
    if parsed.get_backend_name() == "sqlite" and name and name != ":memory:" and not _exists(Path(name)):
        raise StoreError(f"there is no database {name} (blot serve creates it)")
    return db


def safe_url(url: str) -> str:
    """A database URL without its password."""
    head, sep, tail = url.partition("://")
    if "@" in tail and ":" in tail.split("@", 1)[0]:
        user = tail.split("@", 1)[0].split(":", 1)[0]
        tail = f"{user}:***@{tail.split('@', 1)[1]}"
    return head + sep + tail


def _reason(error: BaseException) -> str:
    """The driver's own sentence for a database error, without SQLAlchemy's extras."""
    orig = getattr(error, "orig", None)
    text = str(orig if orig is not None else error)
    return " ".join(text.split("\n")[0].split()) or type(error).__name__


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

        from blot.store.schema import chat_messages

        waiting = exists().where(tables.c.id == table_id, tables.c.status == "waiting")
        c.execute(delete(table_log).where(table_log.c.table_id == table_id, waiting))
        c.execute(delete(chat_messages).where(chat_messages.c.table_id == table_id, waiting))
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


#: The advisory lock that keeps two processes from migrating one PostgreSQL database at once.
MIGRATION_LOCK = 0x626C6F75


def migrate(engine: Engine) -> None:
    """Create or upgrade the schema to the newest Alembic revision.

    On SQLite, a migration that changes a table rebuilds it (Alembic's batch mode), which
    foreign keys would refuse: they are off while the migrations run, and checked after."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    sqlite = engine.dialect.name == "sqlite"
    with engine.connect() as connection:
        if sqlite:
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        try:
            with connection.begin():
                if engine.dialect.name == "postgresql":
                    # processes of a cluster start together: one migrates, the others wait for it
                    connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
                config.attributes["connection"] = connection
                command.upgrade(config, "head")
                if sqlite:
                    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
                    if broken:
                        raise RuntimeError(f"the migrated database breaks its foreign keys: {broken[:5]}")
        finally:
            if sqlite:
                connection.exec_driver_sql("PRAGMA foreign_keys=ON")
                connection.commit()


W = TypeVar("W")
#: Writes of one kind that the writer runs together: ``write_all(c, items)`` writes every item
#: and answers one result per item, in order; a result that is an exception is raised to that
#: item's caller alone (the others commit).
WriteAll = Callable[[Connection, list[Any]], list[Any]]


@dataclass(slots=True)
class _Job:
    """One write waiting for the writer: a function of the connection, or an item of ``together``."""

    write: Any
    together: WriteAll | None
    future: asyncio.Future[Any]
    loop: asyncio.AbstractEventLoop


class Writer:
    """One thread that runs every write, committing all the writes waiting at that moment in one
    transaction (group commit): each caller awaits its own write, which is durable when the
    await returns. Writes of one kind that follow each other in a batch (:meth:`run_together`:
    the tables' appends) are written together, in a few statements for the whole batch rather
    than a few round trips to the database each. A batch that fails is retried write by write,
    so one bad write fails alone."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._queue: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="blot-store-writer", daemon=True)
        self._thread.start()

    async def run(self, write: Callable[[Connection], T]) -> T:
        """Run ``write`` in the next transaction; its result."""
        result: T = await self._submit(write, None)
        return result

    async def run_together(self, write_all: Callable[[Connection, list[W]], list[Any]], item: W) -> Any:
        """Write ``item`` with ``write_all`` together with the other items of ``write_all`` that
        wait at that moment (see :data:`WriteAll`); its result."""
        return await self._submit(item, write_all)

    async def _submit(self, write: Any, together: WriteAll | None) -> Any:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._queue.put(_Job(write, together, future, loop))
        return await future

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=10)

    def _run(self) -> None:
        while True:
            job = self._queue.get()
            if job is None:
                return
            batch = [job]
            stop = False
            while len(batch) < 256:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            self._commit(batch)
            if stop:
                return

    def _commit(self, batch: list[_Job]) -> None:
        try:
            with self.store.engine.begin() as c:
                outcomes = _write(c, batch)
        except Exception as e:
            if len(batch) > 1:
                for one in batch:
                    self._commit([one])
                return
            outcomes = [(None, e)]
        _settle(batch, outcomes)


#: A write's result, or the error its caller gets.
Outcome = tuple[Any, BaseException | None]


def _write(c: Connection, batch: list[_Job]) -> list[Outcome]:
    """Run a batch's writes in order (those of one kind that follow each other together)."""
    outcomes: list[Outcome] = []
    start = 0
    while start < len(batch):
        together = batch[start].together
        if together is None:
            outcomes.append((batch[start].write(c), None))
            start += 1
            continue
        end = start + 1
        while end < len(batch) and batch[end].together == together:
            end += 1
        answers = together(c, [job.write for job in batch[start:end]])
        assert len(answers) == end - start, "a write of several items answers one result per item"
        outcomes += [(None, a) if isinstance(a, BaseException) else (a, None) for a in answers]
        start = end
    return outcomes


def _settle(batch: list[_Job], outcomes: list[Outcome]) -> None:
    """Give each write's caller its outcome, with one wake-up of each event loop for the whole
    batch rather than one per write."""
    by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], Outcome]]] = {}
    for job, outcome in zip(batch, outcomes, strict=True):
        by_loop.setdefault(job.loop, []).append((job.future, outcome))
    for loop, settled in by_loop.items():
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
            loop.call_soon_threadsafe(_settle_in_loop, settled)


def _settle_in_loop(settled: list[tuple[asyncio.Future[Any], Outcome]]) -> None:
    for future, (result, error) in settled:
        if future.done():
            continue
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)


__all__ = [
    "Append",
    "LogEntry",
    "Store",
    "StoreError",
    "Writer",
    "data_dir",
    "default_url",
    "metadata",
    "migrate",
    "safe_url",
]
