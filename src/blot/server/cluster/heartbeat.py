"""This process's heartbeat, written from a thread of its own (issue 40 item 2).

The heartbeat is what keeps a process's tables (:mod:`.leases`). Written by a task of the event
loop, it waited behind whatever the loop was doing: on a starved machine a live process lost its
own tables because its loop was busy for a few seconds. Here a thread with its own database
connection writes it every :data:`~.leases.HEARTBEAT_SECONDS`, whatever the loop is doing.

But a loop that is stuck for good must not keep its tables for ever: the loop *ticks* (a task
stamps the time every quarter of a heartbeat), and the thread writes only while the last tick is
younger than :data:`LOOP_STALL_SECONDS`. A loop blocked for 2 s keeps every table; one blocked for
longer lets its heartbeat lapse, another process takes its tables once the heartbeat is older than
:data:`~.leases.NODE_TTL`, and the loop, when it runs again, finds its heartbeat older than
:data:`~.leases.FENCE_SECONDS` and stops driving them before it ticks (each write of a table is
fenced by its epoch besides).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable

from blot.server.cluster.leases import FENCE_SECONDS, HEARTBEAT_SECONDS

#: The longest the event loop may go without ticking and still have its heartbeat written.
LOOP_STALL_SECONDS = 2.5

log = logging.getLogger("blot.server")


class Heartbeat:
    """Writes ``beat()`` (one short transaction of its own) from a thread while the loop ticks."""

    def __init__(
        self,
        beat: Callable[[], None],
        every: float = HEARTBEAT_SECONDS,
        stall: float = LOOP_STALL_SECONDS,
        fence: float = FENCE_SECONDS,
    ) -> None:
        self.beat, self.every, self.stall, self.fence = beat, every, stall, fence
        self.written = self.ticked = time.monotonic()
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="blot-heartbeat", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopped.set()
        if self._thread.is_alive():
            self._thread.join(self.every + 5)

    def stale(self) -> bool:
        """Whether the heartbeat was last written :attr:`fence` seconds ago or more."""
        return time.monotonic() - self.written >= self.fence

    def _run(self) -> None:
        while not self._stopped.wait(self.every):
            if time.monotonic() - self.ticked > self.stall:
                continue  # the loop is stuck: the lease lapses
            try:
                self.beat()
            except Exception as e:  # the database is away: fenced once it stays away
                log.debug("heartbeat not written: %s", e)
            else:
                self.written = time.monotonic()

    async def watch(self, fenced: Callable[[], None]) -> None:
        """The loop's side, for ever: stop driving every table (``fenced``) when the heartbeat
        is stale, then tick."""
        while True:
            await asyncio.sleep(self.every / 4)
            if self.stale():
                fenced()
            self.ticked = time.monotonic()
