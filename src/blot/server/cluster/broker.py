"""Messages between the processes of a cluster: a table's owner tells the other processes what it
committed, and a process sends a command to the owner of a table (and gets its answer back).

Two channels kinds, each message a JSON object:

- ``blot:t:{table}``: what a table's owner publishes after each commit (the log's new lines,
  the table's volatile state: who is connected, the turn's deadline; and the frames of the other
  processes' sockets, :mod:`blot.server.replica`). Every process with a socket of that table
  follows it. Frames carry a seat's cards as the deal's log line does: Redis is as private as
  the database.
- ``blot:n:{node}``: a process's inbox: commands for the tables it owns, their answers, and the
  other processes' presence at its tables.

A broker message is a hint, never the record: a process that misses a line (Redis pub/sub drops
messages while a subscriber reconnects) reads it from the table's log in the database.

:class:`LocalBroker` is the broker of a process alone (nobody follows its tables; its inbox is
itself); :class:`RedisBroker` uses redis-py's asyncio client.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

import orjson

log = logging.getLogger("blot.server")

Handler = Callable[[dict[str, Any]], Coroutine[Any, Any, None]]
StatusHandler = Callable[[bool], Coroutine[Any, Any, None]]


#: The lobby's sorted set of tables people are at (score: when the owner last said so).
PRESENT = "blot:present"
#: An owner says it again every few seconds; a table not said for this long is not listed.
PRESENT_SECONDS = 10.0
#: Connections to Redis a process holds at most (its subscriptions' one included).
MAX_CONNECTIONS = 64


def _encoded(message: dict[str, Any]) -> bytes:
    """A message's JSON (orjson: a table's message carries its followers' frames, several KiB)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS)


def table_channel(table_id: str) -> str:
    return f"blot:t:{table_id}"


def node_channel(node: str) -> str:
    return f"blot:n:{node}"


class Broker(Protocol):
    """See the module's docstring."""

    @property
    def connected(self) -> bool:
        """Whether messages get through now."""
        ...

    async def start(self, inbox: Handler, status: StatusHandler) -> None:
        """Listen to this process's inbox (``inbox`` gets each message); ``status`` hears when
        the broker goes away (False) and comes back (True)."""
        ...

    async def stop(self) -> None: ...

    def publish(self, table_id: str, message: dict[str, Any]) -> None:
        """To every process that follows the table, in the order published (sent in the
        background; lost when the broker is away)."""
        ...

    async def follow(self, table_id: str, handler: Handler) -> None: ...

    async def unfollow(self, table_id: str) -> None: ...

    async def send(self, node: str, message: dict[str, Any]) -> None:
        """To one process's inbox (:class:`BrokerAway` when the broker is away)."""
        ...

    async def mark_present(self, present: list[str], absent: list[str]) -> None:
        """The lobby's list of tables people are at: these are, those are not (the owner says)."""
        ...

    async def present(self) -> list[str]:
        """The tables people are at, as the tables' owners said in the last seconds."""
        ...


class BrokerAway(Exception):
    """The broker cannot be reached."""


class LocalBroker:
    """One process alone: it follows nobody and is its only correspondent."""

    def __init__(self, node: str) -> None:
        self.node = node
        self._inbox: Handler | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def connected(self) -> bool:
        return True

    async def start(self, inbox: Handler, status: StatusHandler) -> None:
        self._inbox = inbox

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()

    def publish(self, table_id: str, message: dict[str, Any]) -> None:
        return None

    async def follow(self, table_id: str, handler: Handler) -> None:
        return None

    async def unfollow(self, table_id: str) -> None:
        return None

    async def mark_present(self, present: list[str], absent: list[str]) -> None:
        return None

    async def present(self) -> list[str]:
        return []

    async def send(self, node: str, message: dict[str, Any]) -> None:
        if node != self.node or self._inbox is None:
            raise BrokerAway(f"no process {node} here")
        task = asyncio.get_running_loop().create_task(self._inbox(message))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


class RedisBroker:
    """Redis pub/sub (see the module's docstring); it reconnects by itself with a growing pause,
    subscribing again to everything it followed."""

    def __init__(self, url: str, node: str) -> None:
        self.url = url
        self.node = node
        self._handlers: dict[str, Handler] = {}
        self._inbox: Handler | None = None
        self._status: StatusHandler | None = None
        self._connected = False
        self._reader: asyncio.Task[None] | None = None
        import redis.asyncio as redis

        # a blocking pool: at saturation a publish waits for a free connection (up to the
        # socket timeout) where the default pool refuses the 101st at once (MaxConnectionsError)
        pool = redis.BlockingConnectionPool.from_url(
            url, max_connections=MAX_CONNECTIONS, timeout=2, socket_timeout=2, socket_connect_timeout=2
        )
        self._client: Any = redis.Redis(connection_pool=pool)
        self._pubsub: Any = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._outbox: list[tuple[str, bytes]] = []  # (channel, message) to publish, in order
        self._wake = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None

    @property
    def connected(self) -> bool:
        return self._connected

    async def start(self, inbox: Handler, status: StatusHandler) -> None:
        self._inbox = inbox
        self._status = status
        self._handlers[node_channel(self.node)] = inbox
        await self._connect()
        self._reader = asyncio.get_running_loop().create_task(self._read_forever())
        self._writer = asyncio.get_running_loop().create_task(self._write_forever())

    async def _connect(self) -> None:
        self._pubsub = self._client.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(*self._handlers)
        self._connected = True

    async def stop(self) -> None:
        for task in (self._reader, self._writer):
            if task is not None:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(Exception):
            if self._pubsub is not None:
                await self._pubsub.aclose()
        with contextlib.suppress(Exception):
            await self._client.aclose(close_connection_pool=True)

    async def _read_forever(self) -> None:
        pause = 0.2
        while True:
            try:
                message = await self._pubsub.get_message(timeout=1.0)
                pause = 0.2
            except asyncio.CancelledError:
                raise
            except Exception:
                await self._lost()
                while True:
                    await asyncio.sleep(pause)
                    pause = min(pause * 2, 5.0)
                    try:
                        await self._connect()
                        break
                    except Exception:
                        continue
                log.warning("the broker is back")
                await self._tell_status(True)
                continue
            if message is None or message.get("type") != "message":
                continue
            channel = message["channel"]
            channel = channel.decode() if isinstance(channel, bytes) else channel
            handler = self._handlers.get(channel)
            if handler is None:
                continue
            try:
                data = orjson.loads(message["data"])
            except ValueError:
                continue
            task = asyncio.get_running_loop().create_task(handler(data))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _lost(self) -> None:
        if self._connected:
            self._connected = False
            log.warning("the broker cannot be reached; reconnecting")
            await self._tell_status(False)
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()

    async def _tell_status(self, up: bool) -> None:
        if self._status is not None:
            try:
                await self._status(up)
            except Exception:
                log.exception("a broker status handler failed")

    def publish(self, table_id: str, message: dict[str, Any]) -> None:
        if self._connected:  # else the followers catch up from the log
            self._outbox.append((table_channel(table_id), _encoded(message)))
            self._wake.set()

    async def _write_forever(self) -> None:
        """Publish what :meth:`publish` queued: by one task, so in order (a message per
        publish on the pool's connections could overtake the one before: the follower then
        read the log for it), and all that waits in one round trip."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._outbox = self._outbox, []
            if not batch:
                continue
            try:
                pipe = self._client.pipeline(transaction=False)
                for channel, text in batch:
                    pipe.publish(channel, text)
                await pipe.execute()
            except asyncio.CancelledError:
                raise
            except Exception:  # the broker is away: the followers catch up from the log
                continue

    async def follow(self, table_id: str, handler: Handler) -> None:
        channel = table_channel(table_id)
        self._handlers[channel] = handler
        if self._connected:
            with contextlib.suppress(Exception):  # subscribed again after a reconnection
                await self._pubsub.subscribe(channel)

    async def unfollow(self, table_id: str) -> None:
        channel = table_channel(table_id)
        if self._handlers.pop(channel, None) is not None and self._connected:
            with contextlib.suppress(Exception):
                await self._pubsub.unsubscribe(channel)

    async def send(self, node: str, message: dict[str, Any]) -> None:
        """Queued with the tables' messages, published in the same round trips (one publish and
        its answer each cost a process more than relaying an action's frames)."""
        if not self._connected:
            raise BrokerAway("the broker cannot be reached")
        self._outbox.append((node_channel(node), _encoded(message)))
        self._wake.set()

    @property
    def redis(self) -> Any:
        """The Redis client (shared limits use it)."""
        return self._client

    async def mark_present(self, present: list[str], absent: list[str]) -> None:
        if not self._connected:
            return
        now = time.time()
        with contextlib.suppress(Exception):
            pipe = self._client.pipeline()
            if present:
                pipe.zadd(PRESENT, dict.fromkeys(present, now))
            if absent:
                pipe.zrem(PRESENT, *absent)
            pipe.zremrangebyscore(PRESENT, 0, now - PRESENT_SECONDS)
            await pipe.execute()

    async def present(self) -> list[str]:
        try:
            found = await self._client.zrangebyscore(PRESENT, time.time() - PRESENT_SECONDS, "+inf")
        except Exception:
            return []
        return [t.decode() if isinstance(t, bytes) else str(t) for t in found]

    async def ping(self) -> bool:
        """Whether Redis answers now (``/health``)."""
        try:
            return bool(await asyncio.wait_for(self._client.ping(), 2.0))
        except Exception:
            return False
