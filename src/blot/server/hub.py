"""The hub: the composition of one server's parts, and what they share.

- the store, its writer (every write) and the read threads (:meth:`Hub.read`), the storage's
  health (a full disk: back off), the clock and the settings — :class:`~blot.server.services.Storage`;
- :attr:`Hub.registry`: the tables (:mod:`blot.server.tables`);
- :attr:`Hub.accounts`: guests, sessions and accounts (:mod:`blot.server.accounts`);
- :attr:`Hub.limits`: the limits per address and per account (:mod:`blot.server.limits`);
- :attr:`Hub.analyses`: the analyses of finished games, each in a process of its own;
- :attr:`Hub.tournaments`: League tournaments, "events" in the API (:mod:`blot.server.tournaments`).

It is what each table needs around it (:class:`~blot.server.services.TableServices`). Database
reads run in the hub's own small pool, never in the bots' threads.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from random import Random, SystemRandom
from typing import Any, TypeVar

from sqlalchemy.engine import Connection

from blot import league
from blot.server.accounts import AccountService
from blot.server.analyses import RESUME_SECONDS, Analyses
from blot.server.cluster import Cluster, NotOwner
from blot.server.cluster.claims import AdvisoryClaims, LocalClaims
from blot.server.cluster.heartbeat import Heartbeat
from blot.server.config import ServerConfig
from blot.server.health import StorageHealth, is_storage_failure
from blot.server.limits import Limits
from blot.server.push import Push
from blot.server.referees import Referees
from blot.server.table import Table
from blot.server.tables import Tables
from blot.server.tournaments import Tournaments
from blot.store import Append, LogEntry, Store, Writer

log = logging.getLogger("blot.server")
T = TypeVar("T")


class Hub:
    def __init__(self, config: ServerConfig, store: Store | None = None) -> None:
        self.config = config
        self.store = store or Store.open(config.db_url)
        self.writer = Writer(self.store)
        self.health = StorageHealth()
        #: The threads that read the database (bots think in their own, blot.server.turns).
        self.reads = ThreadPoolExecutor(max_workers=4, thread_name_prefix="blot-db")
        self._seeds = Random(config.seed) if config.seed is not None else None
        self.cluster = Cluster.of(config.broker_url)
        #: How the lines of the tables this process follows reached its sockets (``GET /health``).
        self.follows: Counter[str] = Counter()
        self.limits = Limits(config, getattr(self.cluster.broker, "redis", None))
        self.registry = Tables(self, self.store, self.cluster)
        self.accounts = AccountService(self, self.limits, self.registry)
        #: The analyses of finished games, each in a process of its own (issue 14).
        claims = AdvisoryClaims(self.store.engine) if self.cluster.shared else LocalClaims()
        self.analyses = Analyses(self, config.analysis_workers, learn=config.learn, claims=claims)
        #: League events (issue 25): everything of them is read from the database.
        self.tournaments = Tournaments(self, self.registry)
        self.referees = Referees(self.tournaments)
        #: Web Push (issue 41 item 4): keys, subscriptions, settings, sending.
        self.push = Push(self)
        self._tasks: list[asyncio.Task[None]] = []
        self._claimed = False
        self.heartbeat: Heartbeat | None = None

    @property
    def tables(self) -> dict[str, Table]:
        """The tables in memory by id."""
        return self.registry.live

    # --- storage (blot.server.services.Storage) ----------------------------------------------------

    def now(self) -> datetime:
        """The server's clock (``config.clock``: tests move it) as an aware UTC time."""
        return datetime.fromtimestamp(self.config.clock(), UTC)

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a blocking database read in the hub's own threads."""
        return await asyncio.get_running_loop().run_in_executor(self.reads, fn, *args)

    async def read(self, fn: Callable[[Connection], T]) -> T:
        """Run a read on the database in the hub's read threads."""
        return await self.db(self.store.read, fn)

    async def write(self, fn: Callable[[Connection], T]) -> T:
        """A write through the store's writer; its failures are followed by :attr:`health`."""
        return await self._written(self.writer.run(fn))

    async def _written(self, write: Awaitable[T]) -> T:
        try:
            result = await write
        except Exception as e:
            if is_storage_failure(e):
                self.health.failed(e)
            raise
        self.health.ok()
        return result

    # --- what tables need (blot.server.services.TableServices) ---------------------------------------

    def new_rng(self) -> Random:
        return Random(self._seeds.getrandbits(64)) if self._seeds is not None else SystemRandom()

    async def append(
        self,
        table_id: str,
        entries: list[LogEntry],
        changes: dict[str, Any],
        outcome: league.Outcome | None = None,
        epoch: int = 0,
    ) -> None:
        append = Append(table_id, entries, changes)
        if outcome is None:  # the common case: written with the other tables' appends
            await self._written(self.writer.run_together(self._append_all, (append, epoch)))
            return
        at = self.now()
        ownership = self.cluster.ownership

        def write(c: Connection) -> None:
            if ownership.fenced(c, {table_id: epoch}):
                raise NotOwner(f"table {table_id} has another owner now")
            Store.append_many(c, [append])
            # In the same transaction, but a failure here must not keep the game from ending.
            try:
                with c.begin_nested():
                    league.record_outcome(c, outcome, at)
            except Exception:
                log.exception("table %s: the results of its game could not be stored", table_id)
            from blot.store.daily import ended  # a day's set: when, by the server's clock (issue 45)

            ended(c, table_id, at)

        await self.write(write)
        self.analyses.after_game(outcome)  # accuracy and puzzles (issue 28)

    def _append_all(self, c: Connection, appends: list[tuple[Append, int]]) -> list[NotOwner | None]:
        """The appends of the writer's batch (each with the epoch it was made under), in a few
        statements; those of tables this process no longer owns are refused, the others written."""
        refused = self.cluster.ownership.fenced(c, {a.table_id: epoch for a, epoch in appends})
        Store.append_many(c, [a for a, _ in appends if a.table_id not in refused])
        return [NotOwner(f"table {a.table_id} has another owner now") if a.table_id in refused else None
                for a, _ in appends]  # fmt: skip

    async def read_log(self, table_id: str, since: int = 0) -> list[LogEntry]:
        return await self.read(lambda c: Store.log_of(c, table_id, since))

    @property
    def shared(self) -> bool:
        return self.cluster.shared

    def publish(self, table_id: str, message: dict[str, Any]) -> None:
        self.cluster.broker.publish(table_id, message)

    def tell_owner(self, table: Table) -> None:
        self.registry.ownership.tell_owner(table)

    def lost(self, table: Table) -> None:
        self.registry.ownership.lost(table)

    def backoff(self) -> float:
        return self.health.backoff()

    def notify(self, players: Iterable[int], kind: str, url: str, tag: str, **parts: Any) -> None:
        self.push.notify(players, kind, url, tag, **parts)

    def turn_waits(self, table_id: str, player: int) -> None:
        self.push.turn(table_id, player)

    def idle(self, table_id: str) -> None:
        self.registry.idle(table_id)

    async def check_rated(self, people: list[int], newcomer: int | None = None) -> None:
        await self.accounts.check_rated(people, newcomer)

    async def check_bars(
        self, seats: Mapping[int, int], teams: Sequence[Sequence[int]], newcomer: int | None = None
    ) -> None:
        await self.accounts.check_bars(seats, teams, newcomer)

    async def check_browser(self, player: int, others: Mapping[int, str], device: str | None) -> None:
        await self.accounts.check_browser(player, others, device)

    async def is_guest(self, player: int) -> bool:
        return await self.accounts.is_guest(player)

    # --- life ----------------------------------------------------------------------------------

    async def start(self) -> None:
        """Claim the database (one server per database, or several processes of a cluster:
        :mod:`blot.server.instance`), then resume the tables being played in the background (in
        a cluster: take those whose owner is gone) and start the sweeps."""
        from blot.server import instance

        instance.claim(self.config.db_url, shared=self.cluster.shared)
        self._claimed = True
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self.registry.resume()),
            loop.create_task(self.registry.sweep_forever()),
            loop.create_task(self.accounts.check_sessions_forever()),
            loop.create_task(self.tournaments.sweep.sweep_forever()),
        ]
        if self.cluster.shared:
            await self._beat()
            self.heartbeat = self._heartbeat()
            self.heartbeat.start()
            await self.cluster.start(self.registry.ownership.inbox, self.registry.ownership.broker_status)
            self._tasks += [
                loop.create_task(self.heartbeat.watch(self._fenced)),
                loop.create_task(self.registry.ownership.orphans_forever()),
                loop.create_task(self.registry.ownership.refresh_presence_forever()),
            ]
        # the games that ended unanalysed (issue 28); a cluster's processes claim each game
        self.analyses.resume(RESUME_SECONDS if self.cluster.shared else None)
        if self.config.warm_solver:
            threading.Thread(target=warm_solver, name="blot-warm-solver", daemon=True).start()

    @property
    def resuming(self) -> asyncio.Task[None] | None:
        """The background task that resumes the tables being played after a start."""
        return self._tasks[0] if self._tasks else None

    async def _beat(self) -> None:
        now, ownership, address = self.now(), self.cluster.ownership, self.config.address
        await self.write(lambda c: ownership.beat(c, now, address))

    def _heartbeat(self) -> Heartbeat:
        """This process's heartbeat, written from a thread of its own with its own connection
        (:mod:`blot.server.cluster.heartbeat`): a busy loop does not cost the process its tables."""
        ownership, address = self.cluster.ownership, self.config.address

        def beat() -> None:
            with self.store.engine.begin() as c:
                ownership.beat(c, self.now(), address)

        return Heartbeat(beat)

    def _fenced(self) -> None:
        """The heartbeat could not be written for a while: stop driving every table (another
        process will take them once the heartbeat is old enough)."""
        for table in list(self.registry.live.values()):
            self.registry.ownership.lost(table)

    async def health_report(self) -> tuple[bool, dict[str, Any]]:
        """``GET /health``: this process, the tables it drives, and whether it reaches its
        database and its broker (a load balancer sends no traffic to one that does not)."""
        try:
            await asyncio.wait_for(self.read(lambda c: c.exec_driver_sql("SELECT 1").scalar()), 2.0)
            database = True
        except Exception:
            database = False
        broker = self.cluster.broker.connected
        ping = getattr(self.cluster.broker, "ping", None)
        if ping is not None:
            broker = bool(await ping())
        driven = [t for t in self.registry.live.values() if t.driving]
        report = {
            "node": self.cluster.node,
            "cluster": self.cluster.shared,
            # a private table's id is its link: only public ones are named
            "tables": sorted(t.id for t in driven if t.public),
            "private_tables": sum(1 for t in driven if not t.public),
            "database": "ok" if database else "unreachable",
            "broker": "ok" if broker else "unreachable",
            # lines of followed tables: the owner's frames relayed as they were, or folded here
            "followed": {"relayed": self.follows["relayed"], "folded": self.follows["folded"]},
        }
        return database and broker, report

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        if self.heartbeat is not None:
            await asyncio.to_thread(self.heartbeat.stop)
        if self.cluster.shared:  # give the tables up: another process takes them at once
            ownership, ids = self.cluster.ownership, [t.id for t in self.registry.live.values() if t.driving]
            with contextlib.suppress(Exception):
                await self.write(lambda c: ownership.release(c, ids))
            await self.cluster.stop()
        await self.registry.stop()
        await self.push.close()
        await self.analyses.close()
        await asyncio.to_thread(self.writer.close)
        self.reads.shutdown(wait=False)
        self.store.close()
        if self._claimed:
            from blot.server import instance

            instance.release(self.config.db_url)
            self._claimed = False


def warm_solver() -> None:
    """Compile (or load) the search bots' solver once, so that the first search bot of a table
    does not wait for it (``blot serve``; about 20 s after an install, under a second after).
    The registry says which games have one: those that provide the analysis (its solver's
    ``kernel``) and a ``pimc`` bot, each played one deal so that every kernel is called."""
    from blot.games import SPECS
    from blot.layers import Analyser
    from blot.solver._jit import is_cold

    searching = [s for s in SPECS.values() if s.has(Analyser) and "pimc" in s.bots]
    cold = any(is_cold(s.analysis_module().kernel) for s in searching)
    started = time.monotonic()
    if cold:
        log.warning("compiling the solver once in the background, about 20 s")
    try:
        from blot.bots import make_bot
        from blot.play import deal_over, play

        for game_spec in searching:
            game = game_spec.new_game(rng=Random(1))
            bots = [make_bot(game_spec, "pimc:samples=1", Random(s)) for s in range(game_spec.seats)]
            play(game, bots, until=deal_over)
    except Exception:
        log.exception("warming the solver failed (search bots compile it on first use)")
        return
    if cold:
        log.warning("the solver is ready (%.0f s)", time.monotonic() - started)
