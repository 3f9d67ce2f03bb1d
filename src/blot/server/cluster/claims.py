"""Work that one process of a cluster does for all (issue 24 item 4): the analysis of a finished
game runs once in the cluster, its result stored once.

A process claims a game before it analyses it and holds the claim until the analysis is stored.
On PostgreSQL (:class:`AdvisoryClaims`) the claim is a session advisory lock on a connection of
its own, tried without waiting (``pg_try_advisory_lock``): another process that tries the same
game is told no at once and leaves the game to the holder, and a process that dies releases its
claims with its connections, so the game is claimed again by the next process that looks (the
processes of a cluster look for unanalysed games every few minutes). No table, no expiry to
choose, nothing to clean up. The lock's key is the game's table id hashed into PostgreSQL's
second key (``hashtext``) under a first key of its own: two games whose ids share a hash are
analysed one after the other, never both skipped (the one told no is looked at again later).

One process alone (:class:`LocalClaims`) needs none: its own queue runs each game once.
"""

from __future__ import annotations

import contextlib
from typing import Protocol

from sqlalchemy import Engine, func, select
from sqlalchemy.engine import Connection

#: The first key of the analyses' advisory locks (the second is the table id's hash).
ANALYSIS_LOCKS = 24_0001


class Claim(Protocol):
    def release(self) -> None:
        """Give the claim up (blocking)."""
        ...


class Claims(Protocol):
    def claim(self, table_id: str) -> Claim | None:
        """The claim of ``table_id``'s analysis, or None when another process holds it
        (blocking: run it in a thread)."""
        ...


class _Nothing:
    def release(self) -> None:
        return None


class LocalClaims:
    """One process alone: every claim is granted."""

    def claim(self, table_id: str) -> Claim | None:
        return _Nothing()


class _Lock:
    """A held advisory lock and the connection that holds it."""

    def __init__(self, connection: Connection, table_id: str) -> None:
        self.connection = connection
        self.table_id = table_id

    def release(self) -> None:
        c = self.connection
        try:
            c.execute(select(func.pg_advisory_unlock(ANALYSIS_LOCKS, func.hashtext(self.table_id))))
            c.commit()
        except Exception:
            # the lock must not outlive its work: a connection that cannot say so is dropped
            with contextlib.suppress(Exception):
                c.invalidate()
        finally:
            c.close()


class AdvisoryClaims:
    """The processes of a cluster: claims are PostgreSQL session advisory locks."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def claim(self, table_id: str) -> Claim | None:
        c = self.engine.connect()
        try:
            key = func.hashtext(table_id)
            held = c.execute(select(func.pg_try_advisory_lock(ANALYSIS_LOCKS, key))).scalar()
            c.commit()  # a session lock: it outlives the transaction, which must not stay open
        except Exception:
            c.close()
            raise
        if not held:
            c.close()
            return None
        return _Lock(c, table_id)
