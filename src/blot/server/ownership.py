"""The cluster's side of the tables registry (issue 39 item 3; :mod:`blot.server.cluster`): the
commands and presence other processes send this one, a follower's presence told to the owner,
taking over the tables whose owner is gone, and following one that another process took."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import OrderedDict
from typing import Any, Protocol

from sqlalchemy.engine import Connection

from blot.server.cluster import BrokerAway
from blot.server.connection import dumps
from blot.server.errors import Refused
from blot.server.openings import Openings, RegistryParts
from blot.server.periodic import every
from blot.server.table import Moved, Table
from blot.store import Store


class OwnershipRegistry(RegistryParts, Protocol):
    """What ownership needs of the tables registry besides :class:`RegistryParts`."""

    openings: Openings

    async def load(self, table_id: str) -> Table | None: ...

    async def _say_present(self) -> None: ...

    async def follow(self, table: Table) -> None: ...

    def _background(self, work: Any) -> None: ...


#: How many forwarded commands' answers an owner keeps for their retries.
ANSWERS_KEPT = 4096

log = logging.getLogger("blot.server")


class Ownership:
    """Which process drives each table, seen from this one (one per registry)."""

    def __init__(self, tables: OwnershipRegistry) -> None:
        self.tables = tables
        #: The answers to the latest commands other processes forwarded here, by the key the
        #: sender keeps across its retries: a command sent again because the answer came late is
        #: answered again, never run twice.
        self._answered: OrderedDict[str, asyncio.Future[dict[str, Any]]] = OrderedDict()

    async def inbox(self, message: dict[str, Any]) -> None:
        """What another process sends this one: a command for a table it drives, or its
        presence at one."""
        kind = message.get("kind")
        table_id = message.get("table")
        if not isinstance(table_id, str):
            return
        if kind == "presence":
            table = self.tables.live.get(table_id)
            counts = message.get("counts")
            if table is not None and table.driving and isinstance(counts, list):
                node, watchers = str(message.get("node")), int(message.get("watchers") or 0)
                table.post(table.replica.remote_presence, node, [int(n) for n in counts], watchers)
            elif table is None or not table.driving:
                await self.tables.cluster.reply(message, {"moved": True})
            return
        if kind != "command":
            return
        table = await self.tables.load(table_id)
        if table is None or not table.driving:
            await self.tables.cluster.reply(
                message, {"moved": True, "owner": None if table is None else table.owner}
            )
            return
        key = message.get("key")
        if not isinstance(key, str):
            key = secrets.token_hex(8)
        answered = self._answered.get(key)
        if answered is None:
            answered = asyncio.get_running_loop().create_future()
            self._answered[key] = answered
            while len(self._answered) > ANSWERS_KEPT:
                self._answered.popitem(last=False)
            try:
                answered.set_result(await self._run_forwarded(table, table_id, message))
            except BaseException:
                self._answered.pop(key, None)
                answered.cancel()
                raise
        answer = await asyncio.shield(answered)
        if answer.get("moved"):  # the sender asks the next owner; this answer is not kept
            self._answered.pop(key, None)
        await self.tables.cluster.reply(message, answer)

    async def _run_forwarded(self, table: Table, table_id: str, message: dict[str, Any]) -> dict[str, Any]:
        """The answer to a command another process forwarded (its result, a refusal, or moved)."""
        name, args = str(message.get("name")), message.get("args") or {}
        try:
            if name == "rematch":
                result: Any = await self.tables.openings.rematch(int(args.get("player", 0)), table_id)
            elif name == "resume":
                result = await self.tables.openings.continue_game(int(args.get("player", 0)), table_id)
            else:
                result = await table.call(table.command, name, args)
        except Moved:
            return {"moved": True}
        except Refused as e:
            return {"error": e.to_json()}
        except Exception:
            log.exception("table %s: the command %s failed", table_id, name)
            return {"error": Refused("server", "server_failed").to_json()}
        return {"result": result}

    def tell_owner(self, table: Table) -> None:
        """A follower tells the owner how many of its sockets sit in each seat."""
        owner = table.owner
        if owner is None or table.driving:
            return
        message = {
            "kind": "presence",
            "table": table.id,
            "node": self.tables.cluster.node,
            "counts": table.seating.local_counts(),
            "watchers": table.seating.local_watchers(),
        }

        async def send() -> None:
            with contextlib.suppress(BrokerAway):
                await self.tables.cluster.broker.send(owner, message)

        self.tables._background(send())

    async def take_or_find_owner(self, table: Table) -> bool:
        """After a command found no owner to answer it: take the table if its owner is dead
        (True), else learn from the leases who owns it now (the next try asks that owner)."""
        if await self.take(table.id):
            return True
        now = self.tables.services.now()
        ownership = self.tables.cluster.ownership
        table.owner = await self.tables.services.read(lambda c: ownership.owner(c, table.id, now))
        return False

    async def take(self, table_id: str) -> bool:
        """Take a table whose owner is gone: claim it, fold its log and drive it (a table this
        process followed keeps its sockets). False when someone alive owns it."""
        now = self.tables.services.now()
        ownership = self.tables.cluster.ownership
        epoch = await self.tables.services.write(lambda c: ownership.claim(c, table_id, now))
        if epoch is None:
            return False
        old = self.tables.live.get(table_id)
        if old is not None and old.driving and old.epoch == epoch:
            return True
        row = await self.tables.services.read(lambda c: Store.table_row(c, table_id))
        if row is None:
            return False
        entries = await self.tables.services.read(lambda c: Store.log_of(c, table_id))
        table = Table.rebuild(self.tables.services, table_id, str(row["game"]), entries)
        table.epoch, table.owner = epoch, self.tables.cluster.node
        if old is not None:
            await self.tables.cluster.broker.unfollow(table_id)
            table.connections = old.connections
            for conn in table.connections:
                conn.seat = table.seating.seat_of(conn.player)
            old.connections = set()
            await old.stop()
        self.tables.live[table_id] = table
        self.tables._quiet[table_id] = self.tables.config.clock()
        table.seating.recount()
        table.start()
        if old is not None:  # lines the dead owner committed but never published: tell them now
            for n in range(old.replica.told + 1, table.n + 1):
                table.broadcast(n)
        table.presence()  # the followers hear who drives it now, and tell it their presence
        log.info("table %s taken over (epoch %d)", table_id, epoch)
        return True

    def lost(self, table: Table) -> None:
        """This process no longer owns a table it drove (another took it): it follows it."""
        if not table.driving:
            return
        table.driving = False
        table.owner = None
        table.turns.cancel()
        table.turns.forget_bots()
        table.seating.cancel()
        log.warning("table %s: another process drives it now", table.id)
        self.tables._background(self.tables.follow(table))

    async def orphans_forever(self) -> None:
        """Take the tables being played whose owner is gone (a few at a time, in a random order,
        so that the live processes share them)."""
        ownership = self.tables.cluster.ownership

        def orphans(c: Connection) -> list[str]:
            return ownership.orphans(c, self.tables.services.now(), 20)

        async def take_orphans() -> None:
            for table_id in await self.tables.services.read(orphans):
                await self.take(table_id)

        failed = "looking for tables without an owner failed"
        await every(1.0, take_orphans, failed, logging.DEBUG)

    async def refresh_presence_forever(self) -> None:
        """Followers say their presence again every few seconds (an owner that took a table over
        learns it, and one that missed a word hears it again)."""
        while True:
            await asyncio.sleep(2.0)
            for table in list(self.tables.live.values()):
                if not table.driving and table.connections:
                    self.tell_owner(table)
            with contextlib.suppress(Exception):
                await self.tables._say_present()

    async def broker_status(self, up: bool) -> None:
        """The broker went away (followers' sockets hear that they are reconnecting) or came
        back (followers read what they missed from the log)."""
        for table in list(self.tables.live.values()):
            if table.driving:
                continue
            if up:
                table.post(table.replica.catch_up)
                self.tell_owner(table)
            for conn in list(table.connections):
                conn.push(dumps({"type": "status", "state": "connected" if up else "reconnecting"}))
