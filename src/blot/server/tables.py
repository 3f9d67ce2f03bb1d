"""The tables of one server: those in memory, loading them from the database, creating them,
their rematches, and their lifetimes.

A table is loaded when somebody asks for it, and on start the tables being played are resumed in
the background by replaying their logs through the rules (:meth:`blot.server.table.Table.rebuild`);
waiting tables load when somebody opens them. A finished table leaves memory as soon as nobody
watches it (it stays in the database); a waiting table nobody has been connected to for
``waiting_expiry`` seconds is closed (deleted: its link answers 404). One player may host at most
``host_limit`` open tables (counted in the database) and one address may have
``waiting_per_address`` tables waiting for players (an IPv6 address counted by its /64:
:func:`blot.server.limits.network`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Iterator, Mapping
from datetime import timedelta
from typing import Any

from sqlalchemy.engine import Connection

from blot.server.cluster import BrokerAway, Cluster, OwnerSilent, refusal_of
from blot.server.connection import Connection as Socket
from blot.server.errors import Refused
from blot.server.openings import Openings
from blot.server.ownership import Ownership
from blot.server.periodic import every
from blot.server.services import TableServices
from blot.server.table import FINISHED, PLAYING, WAITING, Moved, Table
from blot.store import Store

log = logging.getLogger("blot.server")


class Tables:
    """The tables of one server (the hub owns it); ``live`` holds those in memory by id, those it
    drives and, in a cluster, those it follows (:mod:`blot.server.cluster`)."""

    def __init__(self, services: TableServices, store: Store, cluster: Cluster) -> None:
        self.services = services
        self.config = services.config
        self.store = store
        self.cluster = cluster
        self.live: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Future[Table | None]] = {}
        #: The server's clock (``config.clock``) when each table in memory last had nobody connected.
        self._quiet: dict[str, float] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        #: The cluster's side: forwarded commands, presence, taking tables over
        #: (:mod:`blot.server.ownership`).
        self.ownership = Ownership(self)
        #: New tables, rematches and continuations (:mod:`blot.server.openings`).
        self.openings = Openings(self)

    def sockets(self) -> Iterator[Socket]:
        """Every open connection of every table in memory."""
        for table in list(self.live.values()):
            yield from list(table.connections)

    def idle(self, table_id: str) -> None:
        """Nobody is connected to the table any more, or its game just ended: a finished table
        leaves memory at once (it stays in the database); a waiting one starts its expiry."""
        table = self.live.get(table_id)
        if table is None or table.connections:
            return
        self._quiet[table_id] = self.config.clock()
        if table.status == FINISHED:
            self._unload(table)

    def _unload(self, table: Table) -> None:
        if self.live.get(table.id) is table:
            del self.live[table.id]
            self._quiet.pop(table.id, None)
            table.halt()
            asyncio.get_running_loop().create_task(table.stop())
            if not table.driving:
                self._background(self.cluster.broker.unfollow(table.id))

    async def sweep(self) -> None:
        """Close waiting tables nobody has been connected to for ``waiting_expiry`` seconds and
        unload finished tables nobody watches."""
        now = self.config.clock()  # the server's clock: tests move it past the expiry
        for table in list(self.live.values()):
            if table.connections:
                continue
            if not table.driving:  # a follower nobody here watches stops following
                self._unload(table)
                continue
            if any(s.connected for s in table.seats):  # people at it through other processes
                continue
            quiet = self._quiet.setdefault(table.id, now)
            if table.status == FINISHED:
                self._unload(table)
            elif table.status == WAITING and now - quiet >= self.config.waiting_expiry:
                with contextlib.suppress(Exception):  # a failed write: tried again next sweep
                    if await table.call(table.close_waiting):
                        self._unload(table)
                        log.info("table %s closed: waiting with nobody there", table.id)
        # waiting tables that are not in memory (nobody opened them since a restart)
        before = self.services.now() - timedelta(seconds=self.config.waiting_expiry)
        ownership = self.cluster.ownership
        at = self.services.now()

        def stale_unowned(c: Connection) -> list[str]:
            found = Store.stale_waiting(c, before)
            return [t for t in found if not ownership.shared or ownership.owner(c, t, at) is None]

        stale = await self.services.read(stale_unowned)
        gone = [t for t in stale if t not in self.live and t not in self._loading]
        if gone:

            def delete(c: Connection) -> None:
                for table_id in gone:
                    Store.delete_waiting_table(c, table_id)

            await self.services.write(delete)
            log.info("%d waiting tables closed: nobody opened them for too long", len(gone))

    async def resume(self) -> None:
        """Resume the tables being played, in the background: the server answers at once (a
        table asked for before its turn is loaded then). Waiting tables have nothing to drive:
        they are loaded when somebody opens them, and expire in the database (:meth:`sweep`)."""
        if self.cluster.shared:
            return  # the processes of a cluster take the tables whose owner is gone (orphans)
        ids = await self.services.read(lambda c: Store.ids_with_status(c, [PLAYING]))
        past = await self._past_days()
        ids = [t for t in ids if t not in past]
        for table_id in ids:
            try:
                await self.load(table_id)
            except Exception:
                log.exception("table %s could not be resumed", table_id)
            await asyncio.sleep(0)
        if ids:
            log.info("resumed %d tables", len(ids))

    async def _past_days(self) -> set[str]:
        """The tables of a day's set left unplayed when its day ended (issue 45): they no longer
        count, and load only when somebody opens them."""
        from blot.server.daily.deals import day_of
        from blot.store.daily import left_unplayed

        today = day_of(self.config.clock(), self.config.daily_zone).isoformat()
        return await self.services.read(lambda c: left_unplayed(c, today))

    async def unfinished_seat(self, player: int) -> str | None:
        """A table whose game is not over where ``player`` sits, if any (from the database: the
        table may be driven by another process, or by nobody since a restart)."""
        return await self.services.read(lambda c: Store.open_seat_of(c, player))

    async def reload(self, ids: list[str]) -> None:
        """Tables whose stored log changed under them (a deleted account's name): those in memory
        fold their log again; finished ones simply leave memory."""
        for table_id in ids:
            table = self.live.get(table_id)
            if table is None:
                continue
            if table.status == FINISHED:
                del self.live[table_id]
                await table.stop()
            else:
                await table.call(table.reload)

    async def create(
        self, player: int, name: str, body: Mapping[str, Any], address: str = "unknown"
    ) -> Table:
        """A new table (:meth:`blot.server.openings.Openings.create`)."""
        return await self.openings.create(player, name, body, address)

    def present(self, table_id: str) -> bool:
        """Whether a seated person is at the table now (its page open): the lobby lists only
        such tables, so that tables everybody left leave the lobby."""
        table = self.live.get(table_id)
        return table is not None and any(s.player is not None and s.connected > 0 for s in table.seats)

    async def present_ids(self) -> list[str]:
        """The public tables people are at (the lobby's list): those in memory here, or in a
        cluster those their owners say (a set in the broker that every owner keeps up)."""
        if self.cluster.shared:
            return await self.cluster.broker.present()
        return [t.id for t in self.live.values() if t.public and self.present(t.id)]

    async def _say_present(self) -> None:
        """An owner tells the broker which of its public tables people are at."""
        driven = [t for t in self.live.values() if t.driving and t.public]
        present = [t.id for t in driven if self.present(t.id)]
        absent = [t.id for t in driven if not self.present(t.id)]
        await self.cluster.broker.mark_present(present, absent)

    async def load(self, table_id: str) -> Table | None:
        """The table in memory, loaded from the database (and resumed) when it is not yet."""
        table = self.live.get(table_id)
        if table is not None:
            return table
        if not isinstance(table_id, str) or len(table_id) > 24:
            return None
        pending = self._loading.get(table_id)
        if pending is not None:
            return await pending
        future: asyncio.Future[Table | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            row = await self.services.read(lambda c: Store.table_row(c, table_id))
            if row is None:
                table = None
            else:
                table = await self._load(table_id, str(row["game"]))
            future.set_result(table)
            return table
        except asyncio.CancelledError:
            future.cancel()
            raise
        except BaseException as e:
            future.set_exception(e)
            raise
        finally:
            del self._loading[table_id]

    async def _load(self, table_id: str, game: str, claim: bool = True) -> Table:
        """Fold the table's log and run it: driving it when this process may claim it (nobody
        alive owns it), else following its owner."""
        now = self.services.now()
        ownership = self.cluster.ownership
        epoch = await self.services.write(lambda c: ownership.claim(c, table_id, now)) if claim else None
        owner = (
            self.cluster.node
            if epoch
            else await self.services.read(lambda c: ownership.owner(c, table_id, now))
        )
        entries = await self.services.read(lambda c: Store.log_of(c, table_id))
        table = Table.rebuild(self.services, table_id, game, entries, driving=epoch is not None)
        table.epoch, table.owner = epoch or 0, owner
        self.live[table_id] = table
        self._quiet[table_id] = self.config.clock()
        table.start()
        if not table.driving:
            await self.follow(table)
            if owner is not None:
                self.ownership.tell_owner(table)
        return table

    async def follow(self, table: Table) -> None:
        """Hear what the table's owner publishes, then read the log past what was folded: a line
        published between reading the log and subscribing would otherwise be missed until the
        next one, and the next one may be waiting for this process's own player."""
        await self.cluster.broker.follow(table.id, self._follower(table.id))
        table.post(table.replica.catch_up)

    def _follower(self, table_id: str) -> Any:
        async def heard(message: dict[str, Any]) -> None:
            table = self.live.get(table_id)
            if table is not None and not table.driving:
                table.post(table.replica.follow, message)

        return heard

    # --- several processes: commands go to the table's owner (the rest: blot.server.ownership) -------

    async def command(self, table_id: str, name: str, args: dict[str, Any]) -> Any:
        """Run a player's command on the table's owner, here or in another process (its answer;
        a refusal raises :class:`Refused`). When the owner does not answer it may be dead: its
        table is taken over once its heartbeat says so, and the command runs here. Every retry of
        one command carries one key, so an owner that answered late runs it once."""
        key = f"{self.cluster.node}:{secrets.token_hex(8)}"
        for _ in range(4):
            table = await self.table(table_id)
            if table.driving:
                try:
                    if name == "rematch":
                        return await self.openings.rematch(int(args["player"]), table_id)
                    if name == "resume":
                        return await self.openings.continue_game(int(args["player"]), table_id)
                    return await table.call(table.command, name, args)
                except Moved:
                    continue
            owner = table.owner
            if owner is None or owner == self.cluster.node:
                if not await self.ownership.take_or_find_owner(table):
                    await asyncio.sleep(0.5)
                continue
            try:
                answer = await self.cluster.call(
                    owner, {"kind": "command", "table": table_id, "name": name, "args": args, "key": key}
                )
            except (OwnerSilent, BrokerAway):
                if not await self.ownership.take_or_find_owner(table):
                    await asyncio.sleep(0.5)
                continue
            if answer.get("moved"):
                table.owner = answer.get("owner") or None
                continue
            refused = refusal_of(answer)
            if refused is not None:
                raise refused
            return answer.get("result")
        raise Refused("server", "owner_silent")

    def _background(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def disconnect(self, table_id: str, conn: Socket) -> None:
        """A socket of the table closed (the table holding it now: one taken over keeps its
        sockets)."""
        table = self.live.get(table_id)
        if table is not None and conn in table.connections:
            with contextlib.suppress(Refused):  # the table was closed meanwhile
                await table.call(table.seating.disconnect, conn)

    async def table(self, table_id: str) -> Table:
        table = await self.load(table_id)
        if table is None:
            raise Refused("not_found", "no_such_table")
        return table

    async def sweep_forever(self) -> None:
        await every(self.config.sweep_seconds, self.sweep, "the sweep of idle tables failed")

    async def stop(self) -> None:
        for table in list(self.live.values()):
            await table.stop()
        self.live.clear()
