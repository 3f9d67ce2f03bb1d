"""Opening tables (issue 39 item 3: the registry's collaborator for new tables): a new table
within the host's and the address's limits, a League tournament's table, a rematch and the
continuation of a game left unfinished. Every one is a new log in the database first, then a
table in the registry (:class:`blot.server.tables.Tables`)."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Set
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from sqlalchemy.engine import Connection

from blot.errors import BlotError
from blot.games import spec
from blot.server import rematches
from blot.server.errors import Refused
from blot.server.limits import network
from blot.server.table import FINISHED, RATED_TIMER, WAITING, Table
from blot.store import LogEntry, Store

if TYPE_CHECKING:
    from blot.server.cluster import Cluster
    from blot.server.config import ServerConfig
    from blot.server.services import TableServices


class RegistryParts(Protocol):
    """What every collaborator of the tables registry (:class:`blot.server.tables.Tables`) needs
    of it: its services, configuration, cluster, the tables this process drives and when each
    last moved."""

    services: TableServices
    config: ServerConfig
    cluster: Cluster
    live: dict[str, Table]
    _quiet: dict[str, float]


class OpeningsRegistry(RegistryParts, Protocol):
    """What openings need of the tables registry besides :class:`RegistryParts`."""

    async def table(self, table_id: str) -> Table: ...


#: The turn timer's choices, in seconds (0: no timer).
TIMER_LIMIT = 600
#: The longest pause a table may choose after a complete trick, in seconds.
TRICK_PAUSE_LIMIT = 5
#: The bots' paces a host may choose (issue 41 item 6): each a multiple of the server's
#: ``bot_delay`` (``normal``), kept in the table's settings as its own ``bot_delay``.
PACES = {"slow": 2.0, "normal": 1.0, "fast": 0.25}
K = TypeVar("K")


class _Linked(Exception):
    """The tournament's table was opened by someone else first: this one is not made."""


def _decrement(counts: dict[K, int], key: K) -> None:
    counts[key] -= 1
    if not counts[key]:
        del counts[key]


class Openings:
    """New tables of one server: creating, a tournament's, rematches and continuations."""

    def __init__(self, tables: OpeningsRegistry) -> None:
        self.tables = tables
        self.services = tables.services
        self.config = tables.config
        #: Tables being created per host and per address, not yet in the registry's ``live``.
        self._creating: dict[int, int] = {}
        self._creating_at: dict[str, int] = {}

    async def check_host_limit(self, player: int, address: str | None = None) -> None:
        """Refuse one more open table to a player who hosts ``host_limit`` of them already (counted
        in the database: tables not in memory count too), or to an address whose players have
        ``waiting_per_address`` tables waiting for players."""
        limit = self.config.host_limit
        stored = await self.services.read(lambda c: Store.hosted(c, player))
        if stored + self._creating.get(player, 0) >= limit:
            raise Refused("conflict", "host_limit", n=limit, tables="table" if limit == 1 else "tables")

        if address is not None:
            waiting = self._creating_at.get(address, 0) + sum(
                1 for t in self.tables.live.values() if t.address == address and t.status == WAITING
            )
            if waiting >= self.config.waiting_per_address:
                raise Refused("conflict", "waiting_limit", n=waiting)

    async def create(
        self, player: int, name: str, body: Mapping[str, Any], address: str = "unknown"
    ) -> Table:
        address = network(address)  # an IPv6 client's whole /64 is one address (issue 38 item 7)
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
            raise Refused("malformed", "options_object", "options")
        try:
            game = spec(body.get("game", ""))
            rules = game.rules(body.get("ruleset"), options or None)
        except BlotError as e:
            raise Refused.of(e) from None
        settings: dict[str, Any] = {"ruleset": rules.ruleset, "options": rules.options()}
        timer = body.get("timer", 0)
        if not isinstance(timer, int) or isinstance(timer, bool) or not 0 <= timer <= TIMER_LIMIT:
            raise Refused("malformed", "timer_range", high=TIMER_LIMIT)
        pause = body.get("trick_pause", self.config.trick_pause)
        if (
            not isinstance(pause, int | float)
            or isinstance(pause, bool)
            or not 0 <= pause <= TRICK_PAUSE_LIMIT
        ):
            raise Refused("malformed", "trick_pause_range", high=TRICK_PAUSE_LIMIT)
        settings["trick_pause"] = pause
        if "pace" in body:
            settings.update(self._pace(body["pace"]))
        public = body.get("public", True)
        if not isinstance(public, bool):
            raise Refused("malformed", "public_flag")
        rated = body.get("rated", False)
        if not isinstance(rated, bool):
            raise Refused("malformed", "rated_flag")
        if rated:
            await self.services.check_rated([player], player)
        if public or rated:  # an account barred by a dishonour opens no public table (L-10)
            await self.services.check_bars({0: player}, game.teams, player)
        settings["rated"] = rated
        # a rated table always has a turn timer (a player who never acts would freeze it)
        settings["timer"] = timer or (RATED_TIMER if rated else 0)
        guest = await self.services.is_guest(player)
        return await self._open(
            game.name, settings, public, player, [{"seat": 0, "player": player, "name": name, "guest": guest}]
        )

    def _pace(self, pace: Any) -> dict[str, Any]:
        """The bots' pace a host chose: its name and its seconds on the server's clock."""
        if not isinstance(pace, str) or pace not in PACES:
            raise Refused("malformed", "pace_name", "pace")
        return {"pace": pace, "bot_delay": round(self.config.bot_delay * PACES[pace], 3)}

    async def rematch(self, player: int, table_id: str) -> dict[str, Any]:
        """The rematch of a finished game: a new table with the same settings and the same
        seats (people and bots), started at once; asking again gives the same table. A rated
        game's rematch starts only once every person of the old table has asked for it: until
        then the answer is the old table, with the seats that asked (``rematch_asks``). Answers
        the summary of the table."""
        old = await self.tables.table(table_id)
        return await self._summary_of(await old.call(self._rematch, old, player))

    async def _summary_of(self, found: str | dict[str, Any]) -> dict[str, Any]:
        """The new table's summary (``found`` its id), or the old table's answer as it is."""
        if isinstance(found, dict):
            return found
        table = await self.tables.table(found)
        summary: dict[str, Any] = await table.call(table.read, lambda t: t.summary())
        return summary

    async def _rematch(self, old: Table, player: int) -> str | dict[str, Any]:
        if old.status != FINISHED:
            raise Refused("conflict", "rematch_after_game")
        seat = old.seating.seat_of(player)
        if old.settings.get("rated"):
            if seat is None:
                raise Refused("forbidden", "rematch_rated_players")
        elif player != old.host and seat is None:
            raise Refused("forbidden", "rematch_players")
        if old.rematch is not None:
            return old.rematch
        if seat is not None:  # every person of the game decides, in time (issue 41 item 8)
            if seat not in old.rematch_asks:
                await self._ask_rematch(old, seat)
                self._tell_rematch(old, player, f"/table/{old.id}")
            if rematches.deciding(old):
                return old.summary()
        return await self._open_rematch(old, player)

    async def _ask_rematch(self, old: Table, seat: int) -> None:
        """A person asks for the rematch; the first ask starts the others' time to decide (again
        when an earlier wait ran out while the table was out of memory: those asks lapsed)."""
        if old.rematch_until is not None and self.config.clock() >= old.rematch_until:
            await old.change("rematch_lapsed", {})
        if old.rematch_asks:
            await old.change("rematch_ask", {"seat": seat})
            return
        until = self.config.clock() + rematches.REMATCH_WAIT
        await old.change("rematch_ask", {"seat": seat, "until": until})
        self.config.timers.call_at(until, old.post, self._rematch_due, old, until)

    async def _rematch_due(self, old: Table, until: float) -> None:
        """The time to decide ran out: a casual rematch is filled with bots and dealt while one who
        asked is still at the table; otherwise (rated, or nobody there) the asks lapse."""
        if old.rematch is not None or old.rematch_until != until or not old.driving:
            return
        present = [s for s in sorted(old.rematch_asks) if old.seats[s].connected]
        if old.settings.get("rated") or not present:
            await old.change("rematch_lapsed", {})
            return
        asker = old.seats[present[0]].player
        assert asker is not None
        try:
            await self._open_rematch(old, asker, set(rematches.deciding(old)))
        except Refused:  # the host limit, a bar made since: no rematch
            await old.change("rematch_lapsed", {})

    async def _open_rematch(self, old: Table, player: int, to_bots: Set[int] = frozenset()) -> str:
        """The rematch's table, dealt: the same settings and seats (``to_bots``: people who did
        not come back, their seats played by bots of the table's level)."""
        await self.check_host_limit(player)
        if old.settings.get("rated"):
            old.seating.check_rated_bots()
            await self.services.check_rated([s.player for s in old.seats if s.player is not None])
        await old.seating.check_bars()  # a bar made since (L-3, L-10) holds for the rematch
        seats: list[dict[str, Any]] = []
        for i, s in enumerate(old.seats):
            if i in to_bots:
                seats.append({"seat": i, "level": rematches.fill_level(old)})
            elif s.player is not None:
                seats.append({"seat": i, "player": s.player, "name": s.name, "guest": s.guest})
            elif s.bot is not None:
                seats.append({"seat": i, "level": s.bot})
        table = await self._open(old.spec.name, dict(old.settings), old.public, player, seats, start=True)
        await old.change("rematch", {"table": table.id})
        if old.seating.seat_of(player) is None:  # a host not seated opened it: else told as each asked
            self._tell_rematch(old, player, f"/table/{table.id}")
        return table.id

    def _tell_rematch(self, old: Table, player: int, url: str) -> None:
        """Web Push (issue 41 item 4): the other people of a finished game who are no longer at
        its table hear that ``player`` asks for (or made) its rematch."""
        asker = next((s.name for s in old.seats if s.player == player), None) or "?"
        away = [
            s.player for s in old.seats if s.player is not None and s.player != player and not s.connected
        ]
        self.services.notify(away, "rematch", url, f"rematch-{old.id}", who=asker)

    async def open_for_event(
        self,
        game: str,
        settings: dict[str, Any],
        public: bool,
        seats: list[dict[str, Any]],
        boards: list[dict[str, Any]] | None,
        link: Callable[[Connection, str], bool],
        host: int | None = None,
    ) -> Table | None:
        """A table of an event's round (issue 25), started at once and hosted by nobody (a quick
        game's by ``host``, who asked for it: issue 41); ``link(c, table_id)`` ties it to its
        place in the round in the same transaction, and the table is not made when it answers
        False (another request or process opened it first)."""
        try:
            return await self._open(game, settings, public, host, seats, start=True, boards=boards, link=link)
        except _Linked:
            return None

    async def _open(
        self,
        game: str,
        settings: dict[str, Any],
        public: bool,
        host: int | None,
        seats: list[dict[str, Any]],
        start: bool = False,
        boards: list[dict[str, Any]] | None = None,
        link: Callable[[Connection, str], bool] | None = None,
    ) -> Table:
        """Write a new table (its creation, the seats given, optionally its start) and run it."""
        created: dict[str, Any] = {"settings": settings, "public": public, "host": host}
        if boards is not None:
            created["boards"] = boards
        entries = [LogEntry(1, "create", created)]
        for seat in seats:
            entries.append(LogEntry(len(entries) + 1, "bot" if "level" in seat else "sit", seat))
        if start:
            entries.append(LogEntry(len(entries) + 1, "start", {}))
        return await self._open_log(game, entries, link)

    async def _open_log(
        self, game: str, entries: list[LogEntry], link: Callable[[Connection, str], bool] | None = None
    ) -> Table:
        """Write a new table whose log is ``entries`` and run it (``link``: see
        :meth:`open_for_event`, in the same transaction)."""
        table_id = secrets.token_urlsafe(9)
        table = Table.rebuild(self.services, table_id, game, entries)
        row = {
            "id": table_id,
            "game": game,
            "settings": table.settings,
            "public": table.public,
            "status": table.status,
            "host": table.host,
            "seats": [s.to_json(i) for i, s in enumerate(table.seats)],
            "last_seq": len(entries),
        }

        now = self.services.now()

        def write(c: Connection) -> int | None:
            Store.insert_table(c, row)
            Store.append(c, table_id, entries, {})
            if link is not None and not link(c, table_id):
                raise _Linked()
            return self.tables.cluster.ownership.claim(c, table_id, now)

        epoch: int | None = await self.services.write(write)
        table.epoch, table.owner = epoch or 0, self.tables.cluster.node
        self.tables.live[table_id] = table
        self.tables._quiet[table_id] = self.tables.config.clock()
        table.start()
        return table

    async def continue_game(self, player: int, table_id: str) -> dict[str, Any]:
        """Continue an unfinished game (ended by agreement, League §7, L-2) at a new table: the
        same seats, the same deals and every action of the old log, from where it was left. It
        starts once every person of the game has asked (until then the answer is the old table,
        with ``resume_asks``); an event's round follows the game to its new table."""
        old = await self.tables.table(table_id)
        return await self._summary_of(await old.call(self._continue, old, player))

    async def _continue(self, old: Table, player: int) -> str | dict[str, Any]:
        from blot.server.table import AGREEMENT

        if old.status != FINISHED or old.ended != AGREEMENT:
            raise Refused("conflict", "continue_unfinished_only")
        seat = old.seating.seat_of(player)
        if seat is None:
            raise Refused("forbidden", "continue_players_only")
        if old.resumed is not None:
            return old.resumed
        if seat not in old.resume_asks:
            await old.change("resume_ask", {"seat": seat})
        people = {i for i, s in enumerate(old.seats) if s.player is not None}
        if not people <= old.resume_asks:
            return old.summary()
        await old.seating.check_bars()  # a pair barred since (L-3, L-10) does not go on in public
        log_lines = await self.services.read_log(old.id)
        kept = [e for e in log_lines if e.kind in ("create", "sit", "leave", "bot", "start", "deal", "act")]
        entries = [LogEntry(n, e.kind, e.payload) for n, e in enumerate(kept, 1)]
        old_id = old.id

        def link(c: Connection, new_id: str) -> bool:
            from blot.store.tournaments import relink_table

            relink_table(c, old_id, new_id)
            return True

        table = await self._open_log(old.spec.name, entries, link)
        await old.change("resumed", {"table": table.id})
        return table.id
