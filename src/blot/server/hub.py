"""The hub: every table in memory, the store and its writer, the players' tokens, the settings.

On start it resumes every table that was waiting or being played when the server stopped, by
replaying its log through the rules engine (:meth:`blot.server.table.Table.rebuild`).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
from collections.abc import Callable, Mapping
from random import Random, SystemRandom
from typing import Any

from blot.errors import BlotError
from blot.games import spec
from blot.server.config import ServerConfig
from blot.server.errors import Refused
from blot.server.table import FINISHED, PLAYING, WAITING, Table
from blot.store import LogEntry, Store, Writer

log = logging.getLogger("blot.server")

#: The turn timer's choices, in seconds (0: no timer).
TIMER_LIMIT = 600
NAME_LIMIT = 40


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
        self._players: dict[str, tuple[int, str]] = {}
        self._seeds = Random(config.seed) if config.seed is not None else None
        #: Set by benchmarks: called with (table id, event number, time.monotonic() at acceptance).
        self.on_accept: Callable[[str, int, float], None] | None = None

    def new_rng(self) -> Random:
        return Random(self._seeds.getrandbits(64)) if self._seeds is not None else SystemRandom()

    # --- what tables need (blot.server.table.TableServices) ---------------------------------------

    def accepted(self, table_id: str, n: int, at: float) -> None:
        if self.on_accept is not None:
            self.on_accept(table_id, n, at)

    async def append(self, table_id: str, entries: list[LogEntry], changes: dict[str, Any]) -> None:
        await self.writer.run(lambda c: Store.append(c, table_id, entries, changes))

    async def read_log(self, table_id: str) -> list[LogEntry]:
        return await asyncio.to_thread(self.store.log, table_id)

    def idle(self, table_id: str) -> None:
        """Finished tables leave memory when their last viewer leaves (they stay in the database)."""
        table = self.tables.get(table_id)
        if table is not None and table.status == FINISHED and not table.connections:
            del self.tables[table_id]
            asyncio.get_running_loop().create_task(table.stop())

    # --- life ----------------------------------------------------------------------------------

    async def start(self) -> None:
        """Resume every table that was not finished (restart safety)."""
        ids = await asyncio.to_thread(self.store.tables_with_status, [WAITING, PLAYING])
        for table_id in ids:
            try:
                await self.load(table_id)
            except Exception:
                log.exception("table %s could not be resumed", table_id)
        if ids:
            log.info("resumed %d tables", len(ids))

    async def stop(self) -> None:
        for table in list(self.tables.values()):
            await table.stop()
        self.tables.clear()
        await asyncio.to_thread(self.writer.close)
        self.store.close()

    # --- players -------------------------------------------------------------------------------

    async def new_player(self, name: Any) -> dict[str, Any]:
        checked = clean_name(name)
        token = secrets.token_urlsafe(24)
        player = await asyncio.to_thread(self.store.create_player, checked, token_hash(token))
        self._players[token_hash(token)] = (player, checked)
        return {"id": player, "name": checked, "token": token}

    async def player(self, token: str | None) -> tuple[int, str] | None:
        if not token or len(token) > 200:
            return None
        key = token_hash(token)
        found = self._players.get(key)
        if found is None:
            found = await asyncio.to_thread(self.store.player_by_token, key)
            if found is not None:
                self._players[key] = found
        return found

    async def rename(self, token: str, name: Any) -> dict[str, Any]:
        me = await self.player(token)
        if me is None:
            raise Refused("forbidden", "unknown player token")
        checked = clean_name(name)
        await asyncio.to_thread(self.store.rename_player, me[0], checked)
        self._players[token_hash(token)] = (me[0], checked)
        return {"id": me[0], "name": checked}

    # --- tables --------------------------------------------------------------------------------

    async def create_table(self, player: int, name: str, body: Mapping[str, Any]) -> Table:
        try:
            game = spec(body.get("game", ""))
            rules = game.rules(body.get("ruleset"), body.get("options") or None)
        except BlotError as e:
            raise Refused.of(e) from None
        settings: dict[str, Any] = {"ruleset": rules.ruleset, "options": rules.options()}
        timer = body.get("timer", 0)
        if not isinstance(timer, int) or isinstance(timer, bool) or not 0 <= timer <= TIMER_LIMIT:
            raise Refused(
                "malformed", f"the turn timer is a number of seconds from 0 (none) to {TIMER_LIMIT}"
            )
        settings["timer"] = timer
        public = body.get("public", True)
        if not isinstance(public, bool):
            raise Refused("malformed", "public is true or false")
        table_id = secrets.token_urlsafe(9)
        entries = [
            LogEntry(1, "create", {"settings": settings, "public": public, "host": player}),
            LogEntry(2, "sit", {"seat": 0, "player": player, "name": name}),
        ]
        table = Table.rebuild(self, table_id, game.name, entries)
        row = {
            "id": table_id,
            "game": game.name,
            "settings": settings,
            "public": public,
            "status": WAITING,
            "host": player,
            "seats": [s.to_json(i) for i, s in enumerate(table.seats)],
            "last_seq": len(entries),
        }

        def write(c: Any) -> None:
            Store.insert_table(c, row)
            Store.append(c, table_id, entries, {})

        await self.writer.run(write)
        self.tables[table_id] = table
        table.start()
        return table

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
            row = await asyncio.to_thread(self.store.table, table_id)
            if row is None:
                table = None
            else:
                entries = await asyncio.to_thread(self.store.log, table_id)
                table = Table.rebuild(self, table_id, row["game"], entries)
                self.tables[table_id] = table
                table.start()
            future.set_result(table)
            return table
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
