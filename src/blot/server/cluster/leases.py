"""Who drives each table: one process at a time, its *owner*.

Every process of a cluster has a node id and writes a heartbeat into ``nodes`` every
:data:`HEARTBEAT_SECONDS`; a node is alive while its heartbeat is younger than
:data:`NODE_TTL`. A table's owner is the row of ``table_owners`` (node and an *epoch* counted up
at each change of owner). A process may claim a table when nobody owns it or its owner is no
longer alive, in one conditional ``INSERT … ON CONFLICT DO UPDATE … WHERE`` (two processes that
race for it: one wins). This is a lease by heartbeat rather than a lease row per table with its
own expiry: one cheap write per process per second keeps every table it owns, however many.

Fencing: a process that cannot write its heartbeat for :data:`FENCE_SECONDS` (less than the TTL)
stops driving every table it owns before anybody else may take them (:class:`Heartbeat`); and
every write of a table checks, in its transaction, that the writer still owns it under the same
epoch (:meth:`SharedOwnership.fenced`), so a stale owner's write is refused and the table's log
(its ``(table, n)`` key) can never hold two different lines n.

One process alone (``blot serve`` without ``--broker``) uses :class:`SoleOwnership`: it owns
every table, always.
"""

from __future__ import annotations

import secrets
import socket
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from typing import Protocol

from sqlalchemy import and_, delete, insert, select, text, update
from sqlalchemy.engine import Connection

from blot.store.schema import nodes, table_owners, tables

#: How often a process writes its heartbeat.
HEARTBEAT_SECONDS = 1.0
#: A node whose heartbeat is older than this is dead: its tables may be taken.
NODE_TTL = 3.0
#: A process whose heartbeat has not been written for this long stops driving its tables
#: (before :data:`NODE_TTL` lets another take them).
FENCE_SECONDS = 2.0


def new_node_id() -> str:
    """A process's id: the machine's name and a random part (``blot-1.a3f9c2``)."""
    return f"{socket.gethostname()[:20]}.{secrets.token_hex(3)}"


class NotOwner(Exception):
    """This process no longer owns the table it tried to write (another took it)."""


class Ownership(Protocol):
    """Who owns which table (see the module's docstring)."""

    node: str
    shared: bool

    def claim(self, c: Connection, table_id: str, now: datetime) -> int | None:
        """Take the table when nobody alive owns it: the new epoch, or None (someone does)."""
        ...

    def owner(self, c: Connection, table_id: str, now: datetime) -> str | None:
        """The live owner of the table, or None."""
        ...

    def fenced(self, c: Connection, epochs: Mapping[str, int]) -> set[str]:
        """In a write's transaction, for the tables it writes (table id: epoch): those this node
        no longer owns under that epoch (their writes are refused, :class:`NotOwner`); the others'
        ownership rows stay locked until the transaction ends."""
        ...

    def release(self, c: Connection, table_ids: Iterable[str]) -> None:
        """Give tables up (this node stops driving them)."""
        ...

    def orphans(self, c: Connection, now: datetime, limit: int) -> list[str]:
        """Tables being played whose owner is dead or missing (to be taken over)."""
        ...

    def beat(self, c: Connection, now: datetime, address: str) -> None:
        """Write this node's heartbeat."""
        ...


class SoleOwnership:
    """One process alone owns every table: nothing is stored."""

    shared = False

    def __init__(self, node: str | None = None) -> None:
        self.node = node or new_node_id()

    def claim(self, c: Connection, table_id: str, now: datetime) -> int | None:
        return 1

    def owner(self, c: Connection, table_id: str, now: datetime) -> str | None:
        return self.node

    def fenced(self, c: Connection, epochs: Mapping[str, int]) -> set[str]:
        return set()

    def release(self, c: Connection, table_ids: Iterable[str]) -> None:
        return None

    def orphans(self, c: Connection, now: datetime, limit: int) -> list[str]:
        return []

    def beat(self, c: Connection, now: datetime, address: str) -> None:
        return None


class SharedOwnership:
    """Owners in PostgreSQL, for several processes (see the module's docstring)."""

    shared = True

    def __init__(self, node: str | None = None) -> None:
        self.node = node or new_node_id()

    @staticmethod
    def _alive(now: datetime) -> object:
        return select(nodes.c.id).where(nodes.c.heartbeat_at > now - timedelta(seconds=NODE_TTL))

    def claim(self, c: Connection, table_id: str, now: datetime) -> int | None:
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        current = table_owners.c
        statement = (
            pg_insert(table_owners)
            .values(table_id=table_id, node=self.node, epoch=1, since=now)
            .on_conflict_do_update(
                index_elements=[current.table_id],
                set_={"node": self.node, "epoch": current.epoch + 1, "since": now},
                where=current.node.not_in(self._alive(now)),  # type: ignore[arg-type]
            )
            .returning(current.epoch)
        )
        epoch = c.execute(statement).scalar()
        if epoch is not None:
            return int(epoch)
        # nobody alive took it from us: ours already?
        row = c.execute(select(current.node, current.epoch).where(current.table_id == table_id)).first()
        return int(row.epoch) if row is not None and row.node == self.node else None

    def owner(self, c: Connection, table_id: str, now: datetime) -> str | None:
        row = c.execute(
            select(table_owners.c.node).where(
                table_owners.c.table_id == table_id,
                table_owners.c.node.in_(self._alive(now)),  # type: ignore[arg-type]
            )
        ).first()
        return None if row is None else str(row.node)

    def fenced(self, c: Connection, epochs: Mapping[str, int]) -> set[str]:
        rows = c.execute(
            select(table_owners.c.table_id, table_owners.c.epoch)
            .where(table_owners.c.table_id.in_(list(epochs)), table_owners.c.node == self.node)
            .order_by(table_owners.c.table_id)  # one order of locking rows: no deadlock with a claim
            .with_for_update()
        ).all()
        held = {str(r.table_id): int(r.epoch) for r in rows}
        return {table_id for table_id, epoch in epochs.items() if held.get(table_id) != epoch}

    def release(self, c: Connection, table_ids: Iterable[str]) -> None:
        ids = list(table_ids)
        if ids:
            c.execute(
                delete(table_owners).where(table_owners.c.table_id.in_(ids), table_owners.c.node == self.node)
            )

    def orphans(self, c: Connection, now: datetime, limit: int) -> list[str]:
        owned_alive = select(table_owners.c.table_id).where(
            table_owners.c.node.in_(self._alive(now))  # type: ignore[arg-type]
        )
        rows = c.execute(
            select(tables.c.id)
            .where(tables.c.status == "playing", tables.c.id.not_in(owned_alive))
            .order_by(text("random()"))
            .limit(limit)
        ).all()
        return [str(r.id) for r in rows]

    def beat(self, c: Connection, now: datetime, address: str) -> None:
        done = c.execute(
            update(nodes).where(nodes.c.id == self.node).values(heartbeat_at=now, address=address)
        ).rowcount
        if not done:
            c.execute(insert(nodes).values(id=self.node, address=address, started_at=now, heartbeat_at=now))
        # nodes dead for a day leave the table (their owners' rows are taken over long before)
        c.execute(delete(nodes).where(and_(nodes.c.heartbeat_at < now - timedelta(days=1))))
