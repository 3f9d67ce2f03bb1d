"""Analyses of finished games in the server's background (issue 14; docs/protocol.md,
*Analysis*): ``POST /api/tables/{id}/analysis`` starts one, ``GET`` says how far it is, then
answers it.

Each analysis runs in a process of its own (``python -m blot.server.analysis_worker``, at a
lower priority): the solver holds the GIL for long stretches and a whole game takes seconds to a
minute, which must stall neither the event loop nor the bots' threads. A thread per running
analysis reads its output. At most one analysis runs per game and at most ``workers`` at once;
the others queue, at most :data:`QUEUE_LIMIT` in all (beyond that the answer is 429), and each
has :data:`ANALYSIS_SECONDS` before it is stopped.

Only the finished analysis is stored (:mod:`blot.store.analyses`), once per game: nothing about
one in flight is, so a restart cannot leave a game "running" (asking again starts it again).
Only a finished table's game is analysed, from its stored record, which holds only its finished
deals: no card of a deal still being played, or never finished, is ever valued.

With ``learn`` (issue 28; ``blot serve`` turns it on) every game played out to its end with a
person seated is also analysed as it ends (:meth:`Analyses.after_game`, by the process that ended
it), and when a process starts those of the last :data:`RESUME` such games that have none
(:meth:`Analyses.resume`; the processes of a cluster look again every :data:`RESUME_SECONDS`, for
the games of a process that died before it analysed them): the analyses somebody asks for go
first. On a cluster each game is analysed by one process, once: a process claims a game before
it analyses it (:mod:`blot.server.cluster.claims`) and leaves it to the process that holds it. With
the analysis are stored each seat's accuracy (:mod:`blot.store.accuracies`) and, for a public
table's game that is over, the puzzles the worker mined from it (:mod:`blot.store.puzzles`): a
private table's game is never mined.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import subprocess
import sys
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, TypeVar

from sqlalchemy.engine import Connection

from blot.league import Outcome
from blot.puzzles import Puzzle
from blot.server import secrecy
from blot.server.cluster.claims import Claim, Claims, LocalClaims
from blot.server.errors import RateLimited, Refused
from blot.store import accuracies, puzzles
from blot.store import analyses as store

log = logging.getLogger("blot.server")
T = TypeVar("T")

#: The version of the stored document (``blot.server.analysis_worker.document``); a stored
#: analysis of another version is computed again.
FORMAT = 2
#: Analyses queued or running at once, in all; one more is refused (429) until one ends.
QUEUE_LIMIT = 8
#: The longest one analysis may run; then its process is stopped and it failed.
ANALYSIS_SECONDS = 900.0
#: Seconds a refused client is asked to wait (``Retry-After``).
RETRY_SECONDS = 30
#: Finished games waiting for their automatic analysis at most (the oldest are dropped).
BACKLOG = 1000
#: At a start, the finished games without an analysis analysed (the most recent ones).
RESUME = 200
#: How often the processes of a cluster look for finished games without an analysis.
RESUME_SECONDS = 300.0
#: How often an analysis somebody asked for, which another process of a cluster is computing,
#: looks whether it is stored (or whether that process died).
CLAIM_SECONDS = 2.0
NOT_FINISHED = "no_finished_game"

#: The command of an analysis process (:mod:`blot.server.analysis_worker`).
WORKER = (sys.executable, "-m", "blot.server.analysis_worker")


class AnalysisServices(Protocol):
    """What analyses need of the server (the hub provides it)."""

    async def read(self, fn: Callable[[Connection], T]) -> T: ...

    async def write(self, fn: Callable[[Connection], T]) -> T: ...

    def now(self) -> datetime: ...


class Failed(Exception):
    """An analysis that did not end with its document: why, in one sentence."""


@dataclass(eq=False)
class Job:
    """One analysis queued or running; ``done`` and ``total`` count deals (set by its thread)."""

    table_id: str
    game: str
    #: None for an automatic analysis until it starts (read from the database then).
    record: dict[str, Any] | None
    total: int
    #: A public table's game: its puzzles may be mined.
    public: bool = False
    done: int = 0
    running: bool = False
    stopped: bool = False
    process: subprocess.Popen[str] | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    def state(self) -> dict[str, Any]:
        return {"status": "running" if self.running else "queued", "done": self.done, "total": self.total}

    def stop(self) -> None:
        """Stop its process (from any thread); a process not started yet stops as it starts."""
        self.stopped = True
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()


class Analyses:
    """The server's analyses: :meth:`start`, :meth:`state`, :meth:`close`."""

    def __init__(
        self,
        services: AnalysisServices,
        workers: int = 1,
        command: Sequence[str] = WORKER,
        learn: bool = False,
        claims: Claims | None = None,
    ) -> None:
        self.services = services
        #: Which process of a cluster analyses a game (one process alone: this one).
        self.claims: Claims = claims or LocalClaims()
        self.workers = max(1, workers)
        self.command = list(command)
        self.learn = learn
        self.jobs: dict[str, Job] = {}
        self._waiting: deque[Job] = deque()
        #: Finished games to analyse when no analysis somebody asked for waits (``learn``).
        self._backlog: deque[str] = deque(maxlen=BACKLOG)
        self._resuming: asyncio.Task[None] | None = None
        self._active = 0
        self._failed: dict[str, str] = {}
        #: Finished tables of a duplicate round still being played elsewhere: analysed once a
        #: later game ends (the round's last) or at the next start (:meth:`resume`).
        self._held: set[str] = set()
        self._threads = ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="blot-analysis")
        self._closed = False
        #: Analysis processes started so far (a stored analysis is never computed again).
        self.started = 0

    async def state(self, table_id: str) -> dict[str, Any]:
        """``{"status": "queued" | "running", "done", "total"}``, ``{"status": "done",
        "analysis"}``, ``{"status": "failed", "message"}`` or ``{"status": "none"}`` (not asked
        for yet, or asked before a restart); 404 unless the table's game is finished."""
        if await self.services.read(lambda c: store.finished_game(c, table_id)) is None:
            raise Refused("not_found", NOT_FINISHED)
        known = await self._known(table_id)
        if known is not None:
            return known
        if table_id in self._failed:
            return {"status": "failed", "message": self._failed[table_id]}
        return {"status": "none"}

    async def start(self, table_id: str) -> dict[str, Any]:
        """Start the analysis of a finished table's game unless it is stored, queued or running;
        answers as :meth:`state`."""
        game = await self.services.read(lambda c: store.finished_game(c, table_id, with_record=True))
        if game is None or game.record is None:
            raise Refused("not_found", NOT_FINISHED)
        if not _analysable(game.game):  # the registry says the game has none (issue 39 item 4)
            raise Refused("not_found", "no_analysis", game=game.game)
        known = await self._known(table_id)
        if known is not None:
            return known
        if await self._secret(table_id, asked=True):
            raise secrecy.refused()
        if self._closed:
            raise Refused("server", "server_stopping")
        if len(self.jobs) >= QUEUE_LIMIT:
            raise RateLimited("analyses_busy", RETRY_SECONDS, n=len(self.jobs))
        self._failed.pop(table_id, None)
        job = Job(table_id, game.game, game.record, len(game.record.get("deals", [])), game.public)
        self.jobs[table_id] = job
        self._waiting.append(job)
        self._launch()
        return job.state()

    async def _known(self, table_id: str) -> dict[str, Any] | None:
        """The state of the game's analysis when it is queued, running or stored, else ``None``."""
        job = self.jobs.get(table_id)
        if job is not None:
            return job.state()
        document = await self.services.read(lambda c: store.stored(c, table_id, FORMAT))
        if document is not None:
            return {"status": "done", "analysis": document}
        job = self.jobs.get(table_id)  # started while the database was read: one analysis
        return None if job is None else job.state()

    def after_game(self, outcome: Outcome) -> None:
        """A table's game just ended: with ``learn``, a game played out to its end with a person
        seated is analysed when no analysis somebody asked for waits."""
        played_out = outcome.places is not None and not any(s.resigned for s in outcome.seats)
        if not self.learn or self._closed:
            return
        held, self._held = self._held, set()
        self._backlog.extend(held)  # the round of a held table may be over now (any game ended)
        if played_out and any(s.player is not None for s in outcome.seats) and _analysable(outcome.game):
            self._backlog.append(outcome.table_id)
        elif not held:
            return
        self._launch()

    async def backfill(self, table_ids: Sequence[str]) -> int:
        """With ``learn``: queue in the background, after what people asked for, the games of
        ``table_ids`` that learning analyses anyway (played out to the end with a person
        seated) and that have no analysis yet; how many of ``table_ids`` are being analysed
        now (queued by this call or before, or running). The fair-play view asks
        for them (issue 43 item 5): its next figures over those games read their card losses
        instead of solving them. Only those games, and only with ``learn``: an analysis that
        appeared for any other game would tell its players that it was looked at."""
        if not self.learn or self._closed or not table_ids:
            return 0
        found = await self.services.read(lambda c: store.unanalysed(c, FORMAT, len(table_ids), table_ids))
        known = set(self._backlog) | set(self.jobs) | set(self._failed)
        self._backlog.extend(t for t in found if t not in known)
        self._launch()
        pending = set(self._backlog) | set(self.jobs)
        return sum(t in pending for t in table_ids)

    async def _secret(self, table_id: str, asked: bool = False) -> bool:
        """Whether the table's deals are still secret to somebody (a duplicate round that every
        table has not played out, issue 38 item 1): it is not analysed yet, so that neither its
        accuracies nor puzzles mined from it tell its deals."""
        found = await self.services.read(lambda c: secrecy.of_table(c, table_id))
        if asked and found is not None and found.known:
            # a day's table (issue 45), asked for by someone who may see it all (the route checked):
            # a private table gives no puzzles, and its accuracies show only to who may see it
            return False
        return found is not None and not found.over

    def resume(self, every: float | None = None) -> None:
        """At a start, with ``learn``: analyse the last :data:`RESUME` finished games played out
        with a person seated that have no analysis yet (they ended while the server was down,
        or before it stopped); with ``every``, look again every so many seconds (a cluster:
        the games of a process that died before it analysed them)."""
        if not self.learn:
            return

        async def resume() -> None:
            while True:
                try:
                    found = await self.services.read(lambda c: store.unanalysed(c, FORMAT, RESUME))
                except Exception:
                    log.exception("the finished games without an analysis could not be read")
                    found = []
                known = set(self._backlog) | set(self.jobs) | set(self._failed)
                self._backlog.extend(t for t in found if t not in known)
                self._launch()
                if every is None:
                    return
                await asyncio.sleep(every)

        self._resuming = asyncio.get_running_loop().create_task(resume(), name="analyses-resume")

    async def close(self) -> None:
        """Stop every analysis (the server stops); none of them is stored."""
        self._closed = True
        if self._resuming is not None:
            self._resuming.cancel()
        self._waiting.clear()
        self._backlog.clear()
        tasks = []
        for job in list(self.jobs.values()):
            job.stop()
            if job.task is not None:
                job.task.cancel()
                tasks.append(job.task)
        await asyncio.gather(*tasks, return_exceptions=True)
        self.jobs.clear()
        self._threads.shutdown(wait=False)

    # --- running ---------------------------------------------------------------------------------

    def _launch(self) -> None:
        loop = asyncio.get_running_loop()
        while self._active < self.workers and not self._closed:
            if self._waiting:
                job = self._waiting.popleft()
            elif self._backlog:
                table_id = self._backlog.popleft()
                if table_id in self.jobs:
                    continue
                job = self.jobs[table_id] = Job(table_id, "", None, 0)
            else:
                break
            job.running = True
            self._active += 1
            job.task = loop.create_task(self._run(job), name=f"analysis-{job.table_id}")

    async def _run(self, job: Job) -> None:
        table_id = job.table_id
        claim: Claim | None = None
        try:
            claim = await self._claim(job)
            if claim is None:  # another process analyses it, and stores it once
                return
            # stored by an analysis that ended while this one was being asked for (or elsewhere)
            known = await self.services.read(lambda c: store.stored(c, table_id, FORMAT))
            if known is None and await self._secret(table_id):
                self._held.add(table_id)
            elif known is None and await self._ready(job):
                loop = asyncio.get_running_loop()
                self.started += 1
                watching = loop.run_in_executor(self._threads, self._watch, job)
                try:
                    document, seconds, found = await asyncio.wait_for(watching, ANALYSIS_SECONDS)
                except TimeoutError:
                    job.stop()
                    raise Failed(f"the analysis took longer than {ANALYSIS_SECONDS:.0f} s") from None
                at = self.services.now()
                record = job.record
                assert record is not None

                def save(c: Connection) -> int:
                    store.save(c, table_id, FORMAT, document, seconds, at)
                    if document.get("accuracy"):
                        accuracies.save(c, table_id, job.game, document["accuracy"])
                    return puzzles.add(c, record, found, at, table_id) if job.public else 0

                mined = await self.services.write(save)
                log.info("table %s: analysed in %.1f s (%d new puzzles)", table_id, seconds, mined)
        except asyncio.CancelledError:
            job.stop()
            raise
        except Failed as e:
            log.warning("table %s: the analysis failed: %s", table_id, e)
            self._failed[table_id] = str(e)
        except Exception:
            log.exception("table %s: the analysis could not be stored", table_id)
            self._failed[table_id] = "the analysis could not be stored"
        finally:
            if claim is not None:  # after the write: the next to claim it finds it stored
                with contextlib.suppress(Exception):
                    claim.release()
            # after the write: a reader sees the analysis running or stored, never neither
            if self.jobs.get(table_id) is job:
                del self.jobs[table_id]
            self._active -= 1
            if not self._closed:
                self._launch()

    async def _claim(self, job: Job) -> Claim | None:
        """The claim of the job's game; None when another process of the cluster holds it: an
        automatic job leaves the game to it, one somebody asked for waits (queued) until the
        game is stored, or claims it when that process gave it up (it died, or failed)."""
        automatic = job.record is None
        while True:
            claim = await asyncio.to_thread(self.claims.claim, job.table_id)
            if claim is not None or automatic:
                return claim
            job.running = False
            await asyncio.sleep(CLAIM_SECONDS)
            stored = await self.services.read(lambda c: store.stored(c, job.table_id, FORMAT))
            if stored is not None:
                return None
            job.running = True

    async def _ready(self, job: Job) -> bool:
        """An automatic job's game from the database (False: the table is no finished game)."""
        if job.record is not None:
            return True
        game = await self.services.read(lambda c: store.finished_game(c, job.table_id, with_record=True))
        if game is None or game.record is None:
            return False
        job.game, job.record, job.public = game.game, game.record, game.public
        job.total = len(game.record.get("deals", []))
        return True

    def _watch(self, job: Job) -> tuple[dict[str, Any], float, list[Puzzle]]:
        """In a thread of its own: start the job's process and follow its output to the end."""
        if job.stopped:
            raise Failed("the server stopped")
        process = subprocess.Popen(
            self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8"
        )
        job.process = process
        assert process.stdin is not None and process.stdout is not None
        try:
            if job.stopped:  # stopped while it started
                process.terminate()
            with contextlib.suppress(OSError):  # a process that ended at once: its output says why
                request = {"game": job.game, "record": job.record, "mine": job.public}
                process.stdin.write(json.dumps(request) + "\n")
                process.stdin.close()
            for line in process.stdout:
                try:
                    message = json.loads(line)
                    if "progress" in message:
                        # read by the event loop's thread: plain int assignments
                        job.done, job.total = (int(x) for x in message["progress"])
                    elif "done" in message:
                        found = [Puzzle.from_json(p) for p in message.get("puzzles", [])]
                        return dict(message["done"]), float(message["seconds"]), found
                    else:
                        raise Failed(str(message["failed"]))
                except (ValueError, TypeError, KeyError):
                    raise Failed("the analysis process wrote something that is not its protocol") from None
            raise Failed("the analysis stopped before its end")
        finally:
            if process.poll() is None:
                process.terminate()
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            process.stdout.close()


def _analysable(game: str) -> bool:
    """Whether the registry says the game has a double-dummy analysis (a game may not)."""
    from blot.games import SPECS
    from blot.layers import Analyser

    found = SPECS.get(game)
    return found is not None and found.has(Analyser)
