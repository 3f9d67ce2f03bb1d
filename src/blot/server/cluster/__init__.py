"""Several ``blot serve`` processes on one PostgreSQL database and a Redis broker (docs/operators.md:
"Running several processes"), and the same code for one process alone.

- Each table is driven by one process at a time, its owner (:mod:`.leases`); only the owner runs
  its actor's commands, its bots, its timers and its grace periods.
- Any process serves any request and any websocket: a process that does not own a table follows
  it (it folds what the owner publishes into its own copy and tells its sockets the same frames,
  :meth:`blot.server.table.Table.follow`) and sends the players' commands to the owner
  (:meth:`Cluster.call`), whose answer comes back through the broker (:mod:`.broker`).
- The table's log in the database is the truth; a broker message is a hint, and a follower that
  missed one reads the log.

One process alone is the same code with :class:`~.leases.SoleOwnership` (it owns every table) and
:class:`~.broker.LocalBroker` (nobody follows its tables).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from typing import Any

from blot.server.cluster.broker import Broker, BrokerAway, Handler, LocalBroker, RedisBroker, StatusHandler
from blot.server.cluster.leases import NotOwner, Ownership, SharedOwnership, SoleOwnership, new_node_id
from blot.server.errors import Refused

#: How long a process waits for the owner's answer to a command.
CALL_SECONDS = 5.0


class OwnerSilent(Exception):
    """The owner of a table did not answer in time (it may be dead: its table may be taken)."""


class Cluster:
    """This process's place in the cluster: its node id, who owns which table, and the broker."""

    def __init__(self, ownership: Ownership, broker: Broker) -> None:
        self.node = ownership.node
        self.ownership = ownership
        self.broker = broker
        self._calls = itertools.count(1)
        self._pending: dict[int, asyncio.Future[dict[str, Any]]] = {}

    @classmethod
    def of(cls, broker_url: str | None) -> Cluster:
        """One process alone, or a process of a cluster with the broker at ``broker_url``."""
        node = new_node_id()
        if broker_url is None:
            return cls(SoleOwnership(node), LocalBroker(node))
        return cls(SharedOwnership(node), RedisBroker(broker_url, node))

    @property
    def shared(self) -> bool:
        """Whether other processes may serve this database's tables."""
        return self.ownership.shared

    async def start(self, inbox: Handler, status: StatusHandler) -> None:
        async def receive(message: dict[str, Any]) -> None:
            if message.get("kind") == "reply":
                future = self._pending.pop(int(message.get("id", 0)), None)
                if future is not None and not future.done():
                    future.set_result(message)
                return
            await inbox(message)

        await self.broker.start(receive, status)

    async def stop(self) -> None:
        for future in self._pending.values():
            future.cancel()
        await self.broker.stop()

    async def call(self, node: str, message: dict[str, Any]) -> dict[str, Any]:
        """Send ``message`` to ``node``'s inbox and wait for its reply (:meth:`reply`);
        :class:`OwnerSilent` when none comes in :data:`CALL_SECONDS`, :class:`BrokerAway` when
        the broker cannot be reached."""
        number = next(self._calls)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[number] = future
        try:
            await self.broker.send(node, {**message, "reply_to": self.node, "id": number})
            return await asyncio.wait_for(future, CALL_SECONDS)
        except TimeoutError:
            raise OwnerSilent(node) from None
        finally:
            self._pending.pop(number, None)

    async def reply(self, request: dict[str, Any], answer: dict[str, Any]) -> None:
        """Answer a :meth:`call` (lost when the broker is away: the caller times out)."""
        node = request.get("reply_to")
        if isinstance(node, str):
            with contextlib.suppress(BrokerAway):
                await self.broker.send(node, {**answer, "kind": "reply", "id": request.get("id")})


def refusal_of(answer: dict[str, Any]) -> Refused | None:
    """The refusal an owner's answer carries, if any."""
    error = answer.get("error")
    if not isinstance(error, dict):
        return None
    refused = Refused(str(error.get("code", "server")), str(error.get("message", "")), error.get("field"))
    if isinstance(error.get("reason"), str):  # the owner's key and parts, as it raised them
        refused.reason, refused.params = error["reason"], dict(error.get("params") or {})
    return refused


__all__ = [
    "Broker",
    "BrokerAway",
    "Cluster",
    "LocalBroker",
    "NotOwner",
    "OwnerSilent",
    "Ownership",
    "RedisBroker",
    "SharedOwnership",
    "SoleOwnership",
    "refusal_of",
]
