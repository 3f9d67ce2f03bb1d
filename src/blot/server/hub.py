"""The hub: every table in memory, the store and its writer, the players' tokens, the settings.

On start it resumes every table that was waiting or being played when the server stopped, by
replaying its log through the rules engine (:meth:`blot.server.table.Table.rebuild`).

Table lifetimes: a finished table leaves memory as soon as nobody watches it (it stays in the
database); a waiting table nobody has been connected to for ``waiting_expiry`` seconds is closed
(deleted: its link answers 404); one player may host at most ``host_limit`` open tables.
Database reads run in the hub's own small pool (:attr:`Hub.reads`), never in the bots' one;
analyses of finished games run in processes of their own (:attr:`Hub.analyses`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from random import Random, SystemRandom
from typing import Any, TypeVar

from sqlalchemy.engine import Connection

from blot import league
from blot.errors import BlotError
from blot.games import spec
from blot.server.analyses import Analyses
from blot.server.config import ServerConfig
from blot.server.errors import RateLimited, Refused
from blot.server.health import StorageHealth, is_storage_failure
from blot.server.limits import Limit
from blot.server.table import FINISHED, PLAYING, RATED_TIMER, WAITING, Table
from blot.store import LogEntry, Store, Writer, accounts
from blot.store.accounts import Who

log = logging.getLogger("blot.server")

#: The turn timer's choices, in seconds (0: no timer).
TIMER_LIMIT = 600
#: The longest pause a table may choose after a complete trick, in seconds.
TRICK_PAUSE_LIMIT = 5
NAME_LIMIT = 40
#: Seconds a token's player is remembered without asking the database.
CACHE_SECONDS = 5.0
#: The message a connection gets when its session ends (logout, new password, disabled or
#: deleted account) before it is closed.
SESSION_ENDED = {"type": "error", "code": "unauthorized", "message": "your session has ended: log in again"}
CACHE_LIMIT = 50_000
T = TypeVar("T")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def clean_name(name: Any) -> str:
    if not isinstance(name, str) or not name.strip():
        raise Refused("malformed", "a name is needed")
    text = " ".join(name.split())
    if len(text) > NAME_LIMIT:
        raise Refused("malformed", f"a name has at most {NAME_LIMIT} characters")
    return text


class Hub:
    def __init__(self, config: ServerConfig, store: Store | None = None) -> None:
        self.config = config
        self.store = store or Store.open(config.db_url)
        self.writer = Writer(self.store)
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Future[Table | None]] = {}
        self._players: dict[str, tuple[Who, float]] = {}
        self._seeds = Random(config.seed) if config.seed is not None else None
        from blot.server.accounts import AccountService

        self.accounts = AccountService(self)
        self.guests = Limit(config.guests_per_address, config.guest_window, config.clock)
        #: Set by benchmarks: called with (table id, event number, time.monotonic() at acceptance).
        self.on_accept: Callable[[str, int, float], None] | None = None
        self.health = StorageHealth()
        #: The threads that read the database (bots think in their own, blot.server.turns).
        self.reads = ThreadPoolExecutor(max_workers=4, thread_name_prefix="blot-db")
        #: time.monotonic() when each table in memory last had nobody connected.
        self._quiet: dict[str, float] = {}
        #: Tables being created per host and per address, not yet in ``tables``.
        self._creating: dict[int, int] = {}
        self._creating_at: dict[str, int] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._session_checks: asyncio.Task[None] | None = None
        self._resuming: asyncio.Task[None] | None = None
        self._background: set[asyncio.Task[None]] = set()
        self._claimed = False
        #: The analyses of finished games, each in a process of its own (issue 14).
        self.analyses = Analyses(self, config.analysis_workers)

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a blocking database read in the hub's own threads."""
        return await asyncio.get_running_loop().run_in_executor(self.reads, fn, *args)

    def new_rng(self) -> Random:
        return Random(self._seeds.getrandbits(64)) if self._seeds is not None else SystemRandom()

    # --- what tables need (blot.server.table.TableServices) ---------------------------------------

    def accepted(self, table_id: str, n: int, at: float) -> None:
        if self.on_accept is not None:
            self.on_accept(table_id, n, at)

    async def append(
        self,
        table_id: str,
        entries: list[LogEntry],
        changes: dict[str, Any],
        outcome: league.Outcome | None = None,
    ) -> None:
        at = self.now()

        def write(c: Connection) -> None:
            Store.append(c, table_id, entries, changes)
            if outcome is not None:
                # In the same transaction, but a failure here must not keep the game from ending.
                try:
                    with c.begin_nested():
                        league.record_outcome(c, outcome, at)
                except Exception:
                    log.exception("table %s: the results of its game could not be stored", table_id)

        await self.write(write)

    async def write(self, fn: Callable[[Connection], T]) -> T:
        """A write through the store's writer; its failures are followed by :attr:`health`."""
        try:
            result = await self.writer.run(fn)
        except Exception as e:
            if is_storage_failure(e):
                self.health.failed(e)
            raise
        self.health.ok()
        return result

    def backoff(self) -> float:
        return self.health.backoff()

    async def read_log(self, table_id: str) -> list[LogEntry]:
        return await self.db(self.store.log, table_id)

    def idle(self, table_id: str) -> None:
        """Nobody is connected to the table any more, or its game just ended: a finished table
        leaves memory at once (it stays in the database); a waiting one starts its expiry."""
        table = self.tables.get(table_id)
        if table is None or table.connections:
            return
        self._quiet[table_id] = time.monotonic()
        if table.status == FINISHED:
            self._unload(table)

    def _unload(self, table: Table) -> None:
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
            self._quiet.pop(table.id, None)
            asyncio.get_running_loop().create_task(table.stop())

    async def sweep(self) -> None:
        """Close waiting tables nobody has been connected to for ``waiting_expiry`` seconds and
        unload finished tables nobody watches."""
        now = time.monotonic()
        for table in list(self.tables.values()):
            if table.connections:
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
        before = self.now() - timedelta(seconds=self.config.waiting_expiry)
        stale = await self.read(lambda c: Store.stale_waiting(c, before))
        gone = [t for t in stale if t not in self.tables and t not in self._loading]
        if gone:

            def delete(c: Connection) -> None:
                for table_id in gone:
                    Store.delete_waiting_table(c, table_id)

            await self.write(delete)
            log.info("%d waiting tables closed: nobody opened them for too long", len(gone))

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.config.sweep_seconds)
            try:
                await self.sweep()
            except Exception:
                log.exception("the sweep of idle tables failed")

    async def check_sessions(self) -> None:
        """Close every connection whose session has ended, here or in another process
        (``blot admin disable``): within ``session_check_seconds`` of the end."""
        open_sockets = [c for t in self.tables.values() for c in t.connections if c.session is not None]
        if not open_sockets:
            return
        keys = {s.session for s in open_sockets if s.session is not None}
        live = await self.read(lambda c: accounts.live_sessions(c, keys))
        ended = [conn for conn in open_sockets if conn.session not in live]
        if not ended:
            return
        from blot.server.connection import dumps

        text = dumps(SESSION_ENDED)
        for conn in ended:
            self._players.pop(conn.session or "", None)
            conn.push(text)
            conn.stop()

    async def _check_sessions_forever(self) -> None:
        while True:
            await asyncio.sleep(self.config.session_check_seconds)
            try:
                await self.check_sessions()
            except Exception:
                log.debug("the check of open sessions failed; tried again soon", exc_info=True)

    async def check_host_limit(self, player: int, address: str | None = None) -> None:
        """Refuse one more open table to a player who hosts ``host_limit`` of them already (counted
        in the database: tables not in memory count too), or to an address whose players have
        ``waiting_per_address`` tables waiting for players."""
        limit = self.config.host_limit
        stored = await self.read(lambda c: Store.hosted(c, player))
        if stored + self._creating.get(player, 0) >= limit:
            raise Refused(
                "conflict",
                f"you already host {limit} open {'table' if limit == 1 else 'tables'}: play or leave one, "
                "or let a waiting one expire",
            )

        if address is not None:
            waiting = self._creating_at.get(address, 0) + sum(
                1 for t in self.tables.values() if t.address == address and t.status == WAITING
            )
            if waiting >= self.config.waiting_per_address:
                raise Refused(
                    "conflict",
                    f"{waiting} tables made from this address are waiting for players: start or leave one "
                    "first, or let a waiting one expire",
                )

    # --- life ----------------------------------------------------------------------------------

    async def start(self) -> None:
        """Claim the database (one server per database: :mod:`blot.server.instance`), then resume
        every table that was not finished (restart safety)."""
        from blot.server import instance

        instance.claim(self.config.db_url)
        self._claimed = True
        self._resuming = asyncio.get_running_loop().create_task(self._resume())
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())
        self._session_checks = asyncio.get_running_loop().create_task(self._check_sessions_forever())
        if self.config.warm_solver:
            threading.Thread(target=warm_solver, name="blot-warm-solver", daemon=True).start()

    async def _resume(self) -> None:
        """Resume the tables being played, in the background: the server answers at once (a
        table asked for before its turn is loaded then). Waiting tables have nothing to drive:
        they are loaded when somebody opens them, and expire in the database (:meth:`sweep`)."""
        ids = await self.db(self.store.tables_with_status, [PLAYING])
        for table_id in ids:
            try:
                await self.load(table_id)
            except Exception:
                log.exception("table %s could not be resumed", table_id)
            await asyncio.sleep(0)
        if ids:
            log.info("resumed %d tables", len(ids))

    async def stop(self) -> None:
        for task in (self._resuming, self._sweeper, self._session_checks):
            if task is not None:
                task.cancel()
        for table in list(self.tables.values()):
            await table.stop()
        self.tables.clear()
        await self.analyses.close()
        await asyncio.to_thread(self.writer.close)
        self.reads.shutdown(wait=False)
        self.store.close()
        if self._claimed:
            from blot.server import instance

            instance.release(self.config.db_url)
            self._claimed = False

    # --- players ---------------------------------------------------------------------------------

    def now(self) -> datetime:
        """The server's clock (``config.clock``: tests move it) as an aware UTC time."""
        return datetime.fromtimestamp(self.config.clock(), UTC)

    async def read(self, fn: Callable[[Connection], T]) -> T:
        """Run a read on the database in the hub's read threads."""
        return await self.db(self.store.read, fn)

    async def new_player(
        self, name: Any, address: str = "unknown", device: str | None = None
    ) -> dict[str, Any]:
        """A guest: a name and a token (kept by the browser); one address may make
        ``guests_per_address`` of them in ``guest_window`` seconds."""
        checked = clean_name(name)
        wait = self.guests.wait(address)
        if wait > 0:
            raise RateLimited(
                "too many new players from this address: try again in "
                f"{max(1, round(wait / 60))} minutes, or log in",
                wait,
            )
        self.guests.hit(address)
        token = secrets.token_urlsafe(24)
        key, at = token_hash(token), self.now()

        def write(c: Connection) -> int:
            player = accounts.new_guest(c, checked, key, at)
            if device is not None:
                accounts.see_device(c, player, device, at)
            return player

        player = await self.write(write)
        self._players[key] = (Who(player, checked), self.config.clock())
        return {"id": player, "name": checked, "token": token}

    async def who(self, token: str | None) -> Who | None:
        """The player of a token (a guest or an account), or None. Answers are cached for a few
        seconds: a session ended by another process (``blot admin``) stops working within
        :data:`CACHE_SECONDS`."""
        if not token or len(token) > 200:
            return None
        key = token_hash(token)
        cached = self._players.get(key)
        if cached is not None and 0 <= self.config.clock() - cached[1] < CACHE_SECONDS:
            return cached[0]
        found = await self.read(lambda c: accounts.who(c, key))
        if found is None:
            self._players.pop(key, None)
        else:
            if len(self._players) > CACHE_LIMIT:
                self._players.clear()
            self._players[key] = (found, self.config.clock())
        return found

    async def player(self, token: str | None) -> tuple[int, str] | None:
        found = await self.who(token)
        return None if found is None else (found.id, found.name)

    def forget(self, player: int) -> None:
        """Drop the cached sessions of ``player`` (after a logout, a new password, a deletion)
        and close at once the connections whose session ended with it."""
        for key in [k for k, (w, _) in self._players.items() if w.id == player]:
            del self._players[key]
        task = asyncio.get_running_loop().create_task(self.check_sessions())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def rename(self, token: str, name: Any) -> dict[str, Any]:
        me = await self.who(token)
        if me is None:
            raise Refused("forbidden", "unknown player token")
        if me.username is not None:
            raise Refused("conflict", "an account plays under its username")
        checked = clean_name(name)
        await self.write(lambda c: accounts.rename(c, me.id, checked))
        self.forget(me.id)
        return {"id": me.id, "name": checked}

    async def me(self, token: str | None) -> dict[str, Any]:
        """Who a token is: ``{"id", "name", "username", "bars"}`` (bars: the League bars in force
        that name this account, with ``--league``)."""
        me = await self.who(token)
        if me is None:
            raise Refused("forbidden", "unknown player token")
        bars: list[dict[str, Any]] = []
        if me.username is not None and self.config.league:
            now = self.now()
            bars = [b.to_json() for b in await self.read(lambda c: league.bars_of(c, me.id, now))]
        return {"id": me.id, "name": me.name, "username": me.username, "bars": bars}

    def unfinished_seat(self, player: int) -> str | None:
        """A table whose game is not over where ``player`` sits, if any."""
        for table in self.tables.values():
            if table.status != FINISHED and any(s.player == player for s in table.seats):
                return table.id
        return None

    async def reload_tables(self, ids: list[str]) -> None:
        """Tables whose stored log changed under them (a deleted account's name): those in memory
        fold their log again; finished ones simply leave memory."""
        for table_id in ids:
            table = self.tables.get(table_id)
            if table is None:
                continue
            if table.status == FINISHED:
                del self.tables[table_id]
                await table.stop()
            else:
                await table.call(table.reload)

    # --- rated tables ----------------------------------------------------------------------------

    async def check_browser(self, player: int, others: Mapping[int, str], device: str | None) -> None:
        """Refuse to seat ``player`` at a table where one of ``others`` (player -> name) used a
        browser that ``player`` used too (``device``, the browser of this request, is remembered
        first): two accounts of one person, or two players of one browser, at one table."""
        at = self.now()

        def check(c: Connection) -> int | None:
            if device is not None:
                accounts.see_device(c, player, device, at)
            return accounts.sharing_browser(c, player, others)

        clash = await self.write(check)
        if clash is not None:
            raise Refused(
                "forbidden",
                f"{others[clash]} at this table plays from the same browser as you: two players of one "
                "browser may not sit at one table",
            )

    async def check_rated(self, people: list[int], newcomer: int | None = None) -> None:
        """Refuse a rated table's seating: every person must have an account, and with
        ``--league`` no pair of them may be barred by a tars kapoot (``newcomer``: only the
        bars that name this person)."""
        ids = sorted(set(people))
        now = self.now()

        def check(c: Connection) -> tuple[set[int], list[league.Bar]]:
            found = {a.id for a in (accounts.by_id(c, i) for i in ids) if a is not None and not a.disabled}
            barred = league.bars(c, ids, now, involving=newcomer) if self.config.league else []
            return found, barred

        found, barred = await self.read(check)
        if set(ids) - found:
            raise Refused("forbidden", "rated tables are for players with an account: sign up or log in")
        if barred:
            raise Refused("forbidden", barred[0].sentence())

    # --- tables --------------------------------------------------------------------------------

    async def create_table(
        self, player: int, name: str, body: Mapping[str, Any], address: str = "unknown"
    ) -> Table:
        await self.check_host_limit(player, address)
        self._creating[player] = self._creating.get(player, 0) + 1
        self._creating_at[address] = self._creating_at.get(address, 0) + 1
        try:
            table = await self._create_table(player, name, body)
            table.address = address
            return table
        finally:
            _decrement(self._creating, player)
            _decrement(self._creating_at, address)

    async def _create_table(self, player: int, name: str, body: Mapping[str, Any]) -> Table:
        options = body.get("options")
        if options is not None and not isinstance(options, dict):
            raise Refused("malformed", "options is an object of the game's options, or null", "options")
        try:
            game = spec(body.get("game", ""))
            rules = game.rules(body.get("ruleset"), options or None)
        except BlotError as e:
            raise Refused.of(e) from None
        settings: dict[str, Any] = {"ruleset": rules.ruleset, "options": rules.options()}
        timer = body.get("timer", 0)
        if not isinstance(timer, int) or isinstance(timer, bool) or not 0 <= timer <= TIMER_LIMIT:
            raise Refused(
                "malformed", f"the turn timer is a number of seconds from 0 (none) to {TIMER_LIMIT}"
            )
        pause = body.get("trick_pause", self.config.trick_pause)
        if (
            not isinstance(pause, int | float)
            or isinstance(pause, bool)
            or not 0 <= pause <= TRICK_PAUSE_LIMIT
        ):
            raise Refused(
                "malformed",
                f"the trick pause is a number of seconds from 0 to {TRICK_PAUSE_LIMIT}",
            )
        settings["trick_pause"] = pause
        public = body.get("public", True)
        if not isinstance(public, bool):
            raise Refused("malformed", "public is true or false")
        rated = body.get("rated", False)
        if not isinstance(rated, bool):
            raise Refused("malformed", "rated is true or false")
        if rated:
            await self.check_rated([player], player)
        settings["rated"] = rated
        # a rated table always has a turn timer (a player who never acts would freeze it)
        settings["timer"] = timer or (RATED_TIMER if rated else 0)
        return await self._open(
            game.name, settings, public, player, [{"seat": 0, "player": player, "name": name}]
        )

    async def rematch(self, player: int, table_id: str) -> dict[str, Any]:
        """The rematch of a finished game: a new table with the same settings and the same
        seats (people and bots), started at once; asking again gives the same table. A rated
        game's rematch starts only once every person of the old table has asked for it: until
        then the answer is the old table, with the seats that asked (``rematch_asks``). Answers
        the summary of the table."""
        old = await self.table(table_id)
        new_id: str | dict[str, Any] = await old.call(self._rematch, old, player)
        if isinstance(new_id, dict):
            return new_id
        table = await self.table(new_id)
        summary: dict[str, Any] = await table.call(table.read, lambda t: t.summary())
        return summary

    async def _rematch(self, old: Table, player: int) -> str | dict[str, Any]:
        if old.status != FINISHED:
            raise Refused("conflict", "a rematch is possible once the game is over")
        seat = old.seating.seat_of(player)
        if old.settings.get("rated"):
            if seat is None:
                raise Refused("forbidden", "only the players of a rated game may ask for its rematch")
        elif player != old.host and seat is None:
            raise Refused("forbidden", "only the players of a game may start its rematch")
        if old.rematch is not None:
            return old.rematch
        if old.settings.get("rated"):
            assert seat is not None
            if seat not in old.rematch_asks:
                await old.change("rematch_ask", {"seat": seat})
            people = {i for i, s in enumerate(old.seats) if s.player is not None}
            if not people <= old.rematch_asks:
                return old.summary()  # every person of a rated game must accept its rematch
        await self.check_host_limit(player)
        if old.settings.get("rated"):
            old.seating.check_rated_bots()
            await self.check_rated([s.player for s in old.seats if s.player is not None])
        seats: list[dict[str, Any]] = []
        for i, s in enumerate(old.seats):
            if s.player is not None:
                seats.append({"seat": i, "player": s.player, "name": s.name})
            elif s.bot is not None:
                seats.append({"seat": i, "level": s.bot})
        table = await self._open(old.spec.name, dict(old.settings), old.public, player, seats, start=True)
        await old.change("rematch", {"table": table.id})
        return table.id

    async def _open(
        self,
        game: str,
        settings: dict[str, Any],
        public: bool,
        host: int,
        seats: list[dict[str, Any]],
        start: bool = False,
    ) -> Table:
        """Write a new table (its creation, the seats given, optionally its start) and run it."""
        table_id = secrets.token_urlsafe(9)
        entries = [LogEntry(1, "create", {"settings": settings, "public": public, "host": host})]
        for seat in seats:
            entries.append(LogEntry(len(entries) + 1, "bot" if "level" in seat else "sit", seat))
        if start:
            entries.append(LogEntry(len(entries) + 1, "start", {}))
        table = Table.rebuild(self, table_id, game, entries)
        row = {
            "id": table_id,
            "game": game,
            "settings": settings,
            "public": public,
            "status": table.status,
            "host": host,
            "seats": [s.to_json(i) for i, s in enumerate(table.seats)],
            "last_seq": len(entries),
        }

        def write(c: Any) -> None:
            Store.insert_table(c, row)
            Store.append(c, table_id, entries, {})

        await self.write(write)
        self.tables[table_id] = table
        self._quiet[table_id] = time.monotonic()
        table.start()
        return table

    def present(self, table_id: str) -> bool:
        """Whether a seated person is at the table now (its page open): the lobby lists only
        such tables, so that tables everybody left leave the lobby."""
        table = self.tables.get(table_id)
        return table is not None and any(s.player is not None and s.connected > 0 for s in table.seats)

    async def load(self, table_id: str) -> Table | None:
        """The table in memory, loaded from the database (and resumed) when it is not yet."""
        table = self.tables.get(table_id)
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
            row = await self.db(self.store.table, table_id)
            if row is None:
                table = None
            else:
                entries = await self.db(self.store.log, table_id)
                table = Table.rebuild(self, table_id, row["game"], entries)
                self.tables[table_id] = table
                self._quiet[table_id] = time.monotonic()
                table.start()
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

    async def table(self, table_id: str) -> Table:
        table = await self.load(table_id)
        if table is None:
            raise Refused("not_found", "no such table")
        return table


K = TypeVar("K")


def _decrement(counts: dict[K, int], key: K) -> None:
    counts[key] -= 1
    if not counts[key]:
        del counts[key]


def warm_solver() -> None:
    """Compile (or load) the search bots' solver once, so that the first search bot of a table
    does not wait for it (``blot serve``; about 20 s after an install, under a second after)."""
    from blot.solver import bazar_kernel, tfe_kernel
    from blot.solver._jit import is_cold

    cold = is_cold(bazar_kernel) or is_cold(tfe_kernel)
    started = time.monotonic()
    if cold:
        log.warning("compiling the solver once in the background, about 20 s")
    try:
        from blot.bots import make_bot
        from blot.games import SPECS
        from blot.play import deal_over, play

        for game_spec in SPECS.values():  # one deal of each game: every kernel is called
            game = game_spec.new_game(rng=Random(1))
            bots = [make_bot(game_spec, "pimc:samples=1", Random(s)) for s in range(game_spec.seats)]
            play(game, bots, until=deal_over)
    except Exception:
        log.exception("warming the solver failed (search bots compile it on first use)")
        return
    if cold:
        log.warning("the solver is ready (%.0f s)", time.monotonic() - started)
