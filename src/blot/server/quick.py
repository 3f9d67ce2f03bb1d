"""A quick game (issue 41 item 3): "Find a game" for a game, a ruleset, rated or not. People who
wait for the same thing are seated together as they come, the longest waiting first; a person
who waited may fill the empty seats with bots of a chosen level instead (only on request); two
people who used one browser are never seated together.

The queue is a table of the database (:mod:`blot.store.quick`), not a process's dictionary, so
that any process of a cluster may answer any request and match from the same queue; the
people's places are taken in the same transaction that writes the new table, so two processes
that chose the same people make one table. A waiting page asks again every few seconds (``GET
/api/quick``); a person not heard of for :data:`DROP_SECONDS` of the server's clock (a closed
page, a lost network) is dropped, and ``DELETE /api/quick`` cancels at once.

A quick table is public, started at once and hosted by the person whose request opened it (it
counts among the tables they may host, ``--host-limit``); it follows the rules of any
table of its kind: a rated one seats accounts only, rated bot levels only, and the League's
bars (L-3, L-10) hold; every quick table has a turn timer (strangers: nobody freezes a game)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import Connection

from blot.errors import BlotError
from blot.games import GameSpec, spec
from blot.server.errors import Refused
from blot.store import quick as rows

if TYPE_CHECKING:
    from blot.server.hub import Hub

#: Seconds of the server's clock a waiting person may go unheard of before the wait is dropped
#: (the page asks every 2 s).
DROP_SECONDS = 15.0
#: Seconds of waiting after which the page offers to fill the empty seats with bots.
BOTS_AFTER = 10.0
#: A quick table's turn timer, in seconds.
QUICK_TIMER = 60
#: Tries to seat a full group when another request seated one of its people first.
_TRIES = 3


class Quick:
    """The quick game of one server (the routes make it once per app)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.config = hub.config

    # --- asking ----------------------------------------------------------------------------------

    async def ask(
        self, player: int, name: str, body: Mapping[str, Any], device: str | None
    ) -> dict[str, Any]:
        """Wait for a game (``game``, ``ruleset``, ``rated``), seated at once when enough people
        wait for the same thing; the answer is :meth:`state`'s."""
        game, ruleset, rated = self._wanted(body)
        if rated:
            await self.hub.check_rated([player], player)
        await self.hub.check_bars({0: player}, game.teams, player)  # a public table (L-10)
        guest = await self.hub.is_guest(player)
        now = self.hub.now()
        row = {
            "player_id": player,
            "name": name,
            "guest": guest,
            "game": game.name,
            "ruleset": ruleset,
            "rated": rated,
            "device": device,
            "since": now,
            "seen": now,
        }

        def write(c: Connection) -> dict[str, Any]:
            from blot.store.accounts import see_device

            if device is not None:
                see_device(c, player, device, now)
            rows.drop_stale(c, self._cutoff(now))
            return rows.wait(c, row)

        mine = await self.hub.write(write)
        return await self._match(mine, game)

    async def poll(self, player: int) -> dict[str, Any]:
        """The person's wait as it stands (and they are still here): seated, or still waiting."""
        now = self.hub.now()
        mine = await self.hub.write(lambda c: rows.seen(c, player, now, self._cutoff(now)))
        if mine is None:
            return {"status": "none"}
        if mine["table_id"] is not None:
            return self._state(mine, [])
        return await self._match(mine, spec(mine["game"]))

    async def cancel(self, player: int) -> dict[str, Any]:
        """Stop waiting (a table already made stays made)."""
        await self.hub.write(lambda c: rows.cancel(c, player))
        return {"status": "none"}

    async def bots(self, player: int, body: Mapping[str, Any]) -> dict[str, Any]:
        """Seat the person now with whoever waits for the same thing, bots of ``level`` in the
        seats left empty."""
        now = self.hub.now()
        mine = await self.hub.read(lambda c: rows.wait_of(c, player))
        if mine is None or mine["table_id"] is not None or _aware(mine["seen"]) < self._cutoff(now):
            raise Refused("conflict", "quick_not_waiting")
        game = spec(mine["game"])
        level = self._level(game, body.get("level", "basic"), bool(mine["rated"]))
        for _ in range(_TRIES):
            group = await self._group(mine, game)
            seated = await self._open(game, mine, group, level)
            if seated is not None:
                return seated
        raise Refused("conflict", "quick_not_waiting")

    # --- matching --------------------------------------------------------------------------------

    async def _match(self, mine: dict[str, Any], game: GameSpec) -> dict[str, Any]:
        for _ in range(_TRIES):
            group = await self._group(mine, game)
            if len(group) < game.seats:
                return self._state(mine, group)
            seated = await self._open(game, mine, group, None)
            if seated is not None:
                return seated
        return self._state(mine, await self._group(mine, game))

    async def _group(self, mine: dict[str, Any], game: GameSpec) -> list[dict[str, Any]]:
        """The people to seat with ``mine``: those who wait for the same thing, the longest
        waiting first, each kept out when they used a browser someone already chosen used, or
        when a bar keeps them from that seat; at most the game's seats."""
        from blot import league
        from blot.store.accounts import sharing_browser

        now = self.hub.now()
        tars = self.config.league
        cutoff = self._cutoff(now)

        def read(c: Connection) -> list[dict[str, Any]]:
            others = rows.waiting(c, mine["game"], mine["ruleset"], bool(mine["rated"]), cutoff)
            group = [mine]
            for other in others:
                if len(group) == game.seats:
                    break
                if other["player_id"] == mine["player_id"]:
                    continue
                ids = [int(g["player_id"]) for g in group]
                if sharing_browser(c, int(other["player_id"]), ids) is not None:
                    continue
                seats = {i: int(g["player_id"]) for i, g in enumerate([*group, other])}
                if league.seating_bar(c, seats, game.teams, now, tars=tars) is not None:
                    continue
                group.append(other)
            return group

        return await self.hub.read(read)

    async def _open(
        self, game: GameSpec, mine: dict[str, Any], group: list[dict[str, Any]], level: str | None
    ) -> dict[str, Any] | None:
        """The group's table, bots of ``level`` in the seats left; None when one of the group
        was seated elsewhere (or left) meanwhile."""
        from blot.server.table import RATED_TIMER

        rules = game.rules(mine["ruleset"], None)
        rated = bool(mine["rated"])
        settings: dict[str, Any] = {
            "ruleset": rules.ruleset,
            "options": rules.options(),
            "trick_pause": self.config.trick_pause,
            "rated": rated,
            "timer": max(QUICK_TIMER, RATED_TIMER if rated else 0),
            "quick": True,
        }
        seats: list[dict[str, Any]] = [
            {"seat": i, "player": int(g["player_id"]), "name": g["name"], "guest": bool(g["guest"])}
            for i, g in enumerate(group)
        ]
        seats += [{"seat": i, "level": level} for i in range(len(group), game.seats)]
        pairs = [(int(g["player_id"]), i) for i, g in enumerate(group)]
        cutoff = self._cutoff(self.hub.now())

        def link(c: Connection, table_id: str) -> bool:
            return rows.seat(c, table_id, pairs, cutoff)

        openings = self.hub.registry.openings
        host = int(mine["player_id"])
        await openings.check_host_limit(host)  # the asker's open tables, as when they make one
        table = await openings.open_for_event(game.name, settings, True, seats, None, link, host)
        if table is None:
            return None
        return self._state({**mine, "table_id": table.id, "seat": 0}, group)

    # --- answers ---------------------------------------------------------------------------------

    def _state(self, mine: Mapping[str, Any], group: list[dict[str, Any]]) -> dict[str, Any]:
        """``waiting`` (how long by the server's clock, how many are in the group so far, when
        bots are offered) or ``seated`` (the table and seat)."""
        game = spec(mine["game"])
        base = {"game": game.name, "ruleset": mine["ruleset"], "rated": bool(mine["rated"])}
        if mine["table_id"] is not None:
            return {"status": "seated", "table": mine["table_id"], "seat": mine["seat"], **base}
        waited = (self.hub.now() - _aware(mine["since"])).total_seconds()
        return {
            "status": "waiting",
            **base,
            "waited": round(max(0.0, waited), 1),
            "people": len(group),
            "seats": game.seats,
            "bots_after": BOTS_AFTER,
        }

    def _cutoff(self, now: datetime) -> datetime:
        return now - timedelta(seconds=DROP_SECONDS)

    def _wanted(self, body: Mapping[str, Any]) -> tuple[GameSpec, str, bool]:
        """The game, ruleset and ratedness a request asks for (refused when it names none)."""
        options = body.get("options")
        if options is not None:
            raise Refused("malformed", "quick_no_options", "options")
        try:
            game = spec(body.get("game", ""))
            rules = game.rules(body.get("ruleset"), None)
        except BlotError as e:
            raise Refused.of(e) from None
        rated = body.get("rated", False)
        if not isinstance(rated, bool):
            raise Refused("malformed", "rated_flag")
        return game, rules.ruleset, rated

    def _level(self, game: GameSpec, level: Any, rated: bool) -> str:
        """A bot level for the empty seats: a web table's level, a rated one at a rated table."""
        from blot.bots import check_bot
        from blot.server.seats import check_rated_level

        if not isinstance(level, str) or not level.strip():
            raise Refused("malformed", "bot_level_name")
        name: str = level.strip()
        if rated:
            check_rated_level(game, name)
        if name in self.config.bots:
            if name not in self.config.levels(game.name):
                raise Refused("malformed", "bot_not_this_game", bot=name, game=game.name)
            return name
        try:
            check_bot(game, name, web=True)
        except BlotError as e:
            raise Refused.from_error("malformed", e) from None
        return name


def _aware(when: datetime) -> datetime:
    """A stored time as an aware UTC time (SQLite gives it back naive)."""
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)
