"""The day's deals (issue 45): every day (in the server's zone, ``ServerConfig.daily_zone``), for
each game and ruleset offered, a set of deals dealt from a seed the server makes once, keeps in
the database and publishes only when the day is over. A person plays the set once that day, from
the day's seat, the other seats bots of the day's level (the same for everybody, so only the person
differs), at a private, unrated table whose bots move quickly; the table is the person's record.

Each deal is then scored against the field (:mod:`blot.server.daily.results`): everybody else who
played it from that seat, and the bots' own result from that seat (the *par*). Until a person has
finished a deal, nothing tells it them (:mod:`blot.server.secrecy`: the tables of a day's set are
a group whose deal k a person may see once they finished their own deal k, everybody once the day
is over).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Mapping
from datetime import date
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import Connection

from blot.errors import BlotError
from blot.games import GameSpec, spec
from blot.server.daily import deals
from blot.server.errors import Refused
from blot.store import daily as rows

if TYPE_CHECKING:
    from blot.server.hub import Hub

#: Seconds a bot waits before it moves at a daily table (at most the server's own ``bot_delay``).
BOT_DELAY = 0.3


class Daily:
    """The day's deals of one server (the routes make it once per app)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.config = hub.config
        #: The par of a set being computed, so that it is computed once per process.
        self._par: dict[tuple[str, str, str], asyncio.Task[list[dict[str, Any]]]] = {}

    # --- what is offered -------------------------------------------------------------------------

    def offered(self) -> list[tuple[GameSpec, str]]:
        """The games and rulesets offered (``daily_games``: ``game`` or ``game/ruleset``; every
        game's first ruleset when empty)."""
        from blot.games import SPECS

        chosen = self.config.daily_games or tuple(SPECS)
        out = []
        for item in chosen:
            name, _, ruleset = item.partition("/")
            game = spec(name)
            out.append((game, ruleset or game.rulesets[0]))
        return out

    def choose(self, game: str, ruleset: Any) -> tuple[GameSpec, str]:
        """The set a request names: its game and ruleset (the game's first offered when none)."""
        for g, r in self.offered():
            if g.name == game and (ruleset in (None, "") or ruleset == r):
                return g, r
        raise Refused("not_found", "daily_not_offered", game=str(game)[:40])

    def today(self) -> date:
        return deals.day_of(self.config.clock(), self.config.daily_zone)

    def is_over(self, day: str) -> bool:
        """Whether ``day`` (``YYYY-MM-DD``) is over in the server's zone."""
        return day < self.today().isoformat()

    def size(self, game: GameSpec) -> int:
        """How many deals a set of ``game`` has (``daily_deals``; at most a game's counted deals)."""
        default = game.counted_deals() or 8
        n = int(self.config.daily_deals.get(game.name, default))
        counted = game.counted_deals()
        return max(1, min(n, counted) if counted else n)

    async def the_set(self, day: str, game: GameSpec, ruleset: str) -> dict[str, Any]:
        """The day's set, made (its secret seed drawn) by the first request that needs it; read,
        not written, by every later one (the lobby asks for it on each visit)."""
        found = await self.hub.read(lambda c: rows.the_set(c, day, game.name, ruleset))
        if found is not None:
            return found
        seed = secrets.token_hex(16)
        row = {
            "day": day,
            "game": game.name,
            "ruleset": ruleset,
            "seed": seed,
            "seat": deals.seat_of(game, seed, ruleset),
            "deals": self.size(game),
            "bots": self.config.daily_bots,
            "created_at": self.hub.now(),
        }
        return await self.hub.write(lambda c: rows.make_set(c, row))

    # --- playing ---------------------------------------------------------------------------------

    async def start(
        self, player: int, name: str, game_name: str, body: Mapping[str, Any], device: str | None
    ) -> dict[str, Any]:
        """Start (or resume) the person's play of today's set: ``{"table", "seat"}``."""
        game, ruleset = self.choose(game_name, body.get("ruleset"))
        day = self.today().isoformat()
        the_set = await self.the_set(day, game, ruleset)
        from blot.server.daily.results import settle

        await settle(self, day, game, ruleset)
        mine = await self.hub.read(lambda c: rows.play_of(c, day, game.name, ruleset, player))
        if mine is not None:
            if mine["finished"]:
                raise Refused("conflict", "daily_played", day=day)
            return {"table": mine["table_id"], "seat": int(the_set["seat"])}
        shared = await self.hub.read(lambda c: rows.same_device(c, day, game.name, ruleset, player, device))
        if shared:
            raise Refused("forbidden", "daily_same_device")
        guest = await self.hub.is_guest(player)
        table_id = await self._open(the_set, game, player, name, guest, device)
        return {"table": table_id, "seat": int(the_set["seat"])}

    async def _open(
        self,
        the_set: Mapping[str, Any],
        game: GameSpec,
        player: int,
        name: str,
        guest: bool,
        device: str | None,
    ) -> str:
        """The person's daily table, started at once; its play is written with it."""
        from blot.server.tournaments.state import DUPLICATE_TARGET

        day, ruleset, n, seat = (
            str(the_set["day"]),
            str(the_set["ruleset"]),
            int(the_set["deals"]),
            int(the_set["seat"]),
        )
        try:
            rules = game.rules(ruleset, None)
        except BlotError as e:
            raise Refused.of(e) from None
        options = rules.options()
        if game.counted_deals() is None:  # a game to a target: it ends when its deals are played
            options["target"] = DUPLICATE_TARGET
        settings: dict[str, Any] = {
            "ruleset": ruleset,
            "options": options,
            "trick_pause": self.config.trick_pause,
            "bot_delay": min(self.config.bot_delay, BOT_DELAY),
            "rated": False,
            "timer": 0,
            "daily": {
                "day": day,
                "game": game.name,
                "ruleset": ruleset,
                "deals": n,
                "spares": deals.spares(game),
                "ends": deals.ends(date.fromisoformat(day), self.config.daily_zone).timestamp(),
            },
        }
        seats: list[dict[str, Any]] = [
            {"seat": s, "level": str(the_set["bots"])}
            if s != seat
            else {"seat": s, "player": player, "name": name, "guest": guest}
            for s in range(game.seats)
        ]
        table_boards = deals.boards(game, str(the_set["seed"]), ruleset, n)
        at = self.hub.now()

        def link(c: Connection, table_id: str) -> bool:
            from blot.store.accounts import see_device

            if device is not None:
                see_device(c, player, device, at)
            play = {
                "day": day,
                "game": game.name,
                "ruleset": ruleset,
                "player_id": player,
                "name": name,
                "guest": guest,
                "device": device,
                "table_id": table_id,
                "started_at": at,
            }
            return rows.insert_play(c, play)

        openings = self.hub.registry.openings
        table = await openings.open_for_event(game.name, settings, False, seats, table_boards, link)
        if table is not None:
            return table.id
        found = await self.hub.read(lambda c: rows.play_of(c, day, game.name, ruleset, player))
        if found is None:
            raise Refused("conflict", "daily_played", day=day)
        return str(found["table_id"])

    # --- the par line ----------------------------------------------------------------------------

    async def par(self, the_set: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The bots' own result from the day's seat, deal by deal (``score``, ``result``): computed
        once (at the first request that needs it) and kept with the set."""
        if the_set.get("par") is not None:
            return list(the_set["par"])
        key = (str(the_set["day"]), str(the_set["game"]), str(the_set["ruleset"]))
        task = self._par.get(key)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._compute_par(dict(the_set)))
            self._par[key] = task
            task.add_done_callback(lambda _t: self._par.pop(key, None))
        return await asyncio.shield(task)

    async def _compute_par(self, the_set: dict[str, Any]) -> list[dict[str, Any]]:
        game = spec(str(the_set["game"]))
        day, ruleset, n = str(the_set["day"]), str(the_set["ruleset"]), int(the_set["deals"])
        seed = str(the_set["seed"])
        rules = game.rules(ruleset, None)
        table_boards = deals.boards(game, seed, ruleset, n)
        level = self.config.bot_spec(str(the_set["bots"]))

        def compute() -> list[dict[str, Any]]:
            results = deals.par(game, rules, table_boards, n, level, seed)
            return deals.deal_scores(game, results, int(the_set["seat"]), n)

        found = await asyncio.to_thread(compute)
        await self.hub.write(lambda c: rows.set_par(c, day, game.name, ruleset, found))
        return found
