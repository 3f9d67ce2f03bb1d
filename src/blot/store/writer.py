"""The store's writer thread (issue 39 item 3): every write of the server in one thread, group
committed (one transaction for all the writes waiting at that moment)."""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy.engine import Connection

T = TypeVar("T")


if TYPE_CHECKING:
    from blot.store.tables import Store

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
