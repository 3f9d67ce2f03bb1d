"""One ``blot serve`` per database, unless a broker joins several (docs/operators.md "Running several
processes"): a process alone keeps its tables in its memory, so a second process on the same
database would load the same tables and write the same logs (two writers, frozen tables for their
clients). A process alone claims the database for as long as it runs and a second one is refused
at start with one sentence; the processes of a cluster share the claim (and refuse a process
alone).

The claim is held by the operating system or the database server for the process, so a process
that dies (``kill -9``, a lost machine) releases it at once:

- PostgreSQL: a session-level advisory lock (``pg_try_advisory_lock``, or its ``_shared`` form
  for a cluster's processes) on a connection of its own, kept open while the server runs; the
  lock ends with the connection.
- SQLite: an exclusive ``flock`` on a file beside the database (``blot.sqlite3.serving``).

A process may claim the same database more than once (``blot serve`` checks before it starts the
server, and the server claims again on start); the claim ends with the last release.
"""

from __future__ import annotations

import contextlib
import os
import threading
from dataclasses import dataclass, field
from typing import Any

from blot.errors import BlotError

#: The advisory lock's key: "blot" in ASCII, the same for every blot database.
PG_KEY = 0x626C6F74

_lock = threading.Lock()
_held: dict[str, _Claim] = {}


class DatabaseBusy(BlotError):
    """Another ``blot serve`` is using the database."""


@dataclass
class _Claim:
    release: Any
    count: int = field(default=0)


def _message(where: str) -> str:
    return (
        f"another blot serve is using {where}: stop it first, or run several processes with "
        "--broker (docs/operators.md: Running several processes)"
    )


def _sqlite_file(url: str) -> str | None:
    path = url.partition(":///")[2].split("?", 1)[0]
    return None if not path or path == ":memory:" else path


def _claim_sqlite(url: str, path: str) -> Any:
    import fcntl

    marker = f"{path}.serving"
    fd = os.open(marker, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise DatabaseBusy(_message(f"the database {path}")) from None

    def release() -> None:
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)

    return release


def _claim_postgres(url: str, shared: bool) -> Any:
    from sqlalchemy import create_engine, text
    from sqlalchemy.pool import NullPool

    from blot.store import safe_url

    engine = create_engine(url, poolclass=NullPool)
    connection = engine.connect()
    try:
        function = "pg_try_advisory_lock_shared" if shared else "pg_try_advisory_lock"
        got = connection.execute(text(f"SELECT {function}(:key)"), {"key": PG_KEY}).scalar()
        connection.commit()
    except Exception:
        connection.close()
        engine.dispose()
        raise
    if not got:
        connection.close()
        engine.dispose()
        if shared:
            raise DatabaseBusy(
                f"a blot serve without --broker is using the database {safe_url(url)}: stop it first"
            )
        raise DatabaseBusy(_message(f"the database {safe_url(url)}"))

    def release() -> None:
        with contextlib.suppress(Exception):
            connection.close()
        engine.dispose()

    return release


def claim(url: str, shared: bool = False) -> None:
    """Claim the database at ``url`` for this process, or :class:`DatabaseBusy` in one sentence.
    ``shared``: a process of a cluster (``--broker``), which shares the database with the other
    processes of the cluster, and with no process alone."""
    with _lock:
        held = _held.get(url)
        if held is None:
            if url.startswith("postgresql"):
                release = _claim_postgres(url, shared)
            elif url.startswith("sqlite") and (path := _sqlite_file(url)) is not None:
                release = _claim_sqlite(url, path)
            else:
                release = None
            held = _held[url] = _Claim(release)
        held.count += 1


def release(url: str) -> None:
    """Give back one claim of ``url``; the database is free when the last one is given back."""
    with _lock:
        held = _held.get(url)
        if held is None:
            return
        held.count -= 1
        if held.count <= 0:
            del _held[url]
            if held.release is not None:
                held.release()
