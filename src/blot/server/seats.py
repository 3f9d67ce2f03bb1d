"""Seating and presence at a table: who sits where (people and bots), the start, and who is
connected; a player who drops keeps the seat for a grace period, then a stand-in bot plays it
until the player comes back.

:class:`Seating` works on a table through the narrow :class:`SeatingTable` protocol; every change
it makes is a log line the table commits (``sit``, ``leave``, ``bot``, ``start``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from blot.errors import BlotError
from blot.server.connection import Connection, dumps
from blot.server.errors import Refused

if TYPE_CHECKING:
    from blot.games import GameSpec
    from blot.server.clock import Timer
    from blot.server.services import TableServices

WAITING, PLAYING = "waiting", "playing"
#: Seconds another process's word on its connections holds unless it says it again.
REMOTE_TTL = 6.0


@dataclass
class Seat:
    """A seat: a person (``player``; ``guest`` when it has no account), a bot (``bot``, its
    level) or nobody; plus presence."""

    player: int | None = None
    name: str | None = None
    guest: bool = False
    bot: str | None = None
    connected: int = 0
    away: bool = False
    substitute: bool = False
    #: "Play for me" (issue 41 item 6): the player handed the seat to a bot of this level and
    #: may take it back; it stays handed while they are connected. Presence, not a log line.
    handed: str | None = None

    @property
    def empty(self) -> bool:
        return self.player is None and self.bot is None

    def to_json(self, index: int) -> dict[str, Any]:
        return {
            "seat": index,
            "name": self.name,
            "player": self.player,
            "guest": self.guest,
            "bot": self.bot,
            "connected": self.connected > 0,
            "away": self.away,
            "substitute": self.substitute,
            "handed": self.handed,
        }


class TurnsControl(Protocol):
    """What seating needs of a table's turns (:class:`blot.server.turns.Turns`)."""

    def schedule(self) -> None: ...

    def forget_bot(self, seat: int) -> None: ...


def check_rated_level(game: GameSpec, level: str) -> None:
    """Refuse a bot level that may not sit at a rated table (:data:`blot.bots.RATED_LEVELS`)."""
    from blot.bots import RATED_LEVELS

    allowed = [name for name in RATED_LEVELS if name in game.bots]
    if level not in allowed:
        raise Refused("forbidden", "rated_bots_only", levels=", ".join(allowed), level=level)


class SeatingTable(Protocol):
    """What seating needs of a table."""

    id: str
    spec: GameSpec
    status: str
    settings: dict[str, Any]
    host: int | None
    public: bool
    seats: list[Seat]
    connections: set[Connection]
    turns: TurnsControl

    @property
    def services(self) -> TableServices: ...

    @property
    def driving(self) -> bool:
        """Whether this process drives the table (its owner), rather than following it."""
        ...

    @property
    def stopped(self) -> bool:
        """Whether the table is stopping: nothing joins it any more."""
        ...

    def post(self, fn: Callable[..., Awaitable[Any]], *args: Any) -> None: ...

    async def change(self, kind: str, payload: dict[str, Any], seats: bool = False) -> None: ...

    def snapshot(self, conn: Connection, since: int | None, recent: int = 0) -> dict[str, Any]: ...

    def summary(self) -> dict[str, Any]: ...

    def presence(self) -> None: ...


class Seating:
    """The seat commands of one table, run inside its actor."""

    def __init__(self, table: SeatingTable) -> None:
        self.table = table
        self._grace: dict[int, Timer] = {}
        #: Other processes' connections to each seat, their spectators' connections, and when they
        #: said so (the server's clock).
        self._remote: dict[str, tuple[list[int], int, float]] = {}

    # --- the log ---------------------------------------------------------------------------------

    def fold(self, kind: str, p: dict[str, Any]) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
        """Apply a ``sit``, ``leave`` or ``bot`` log line; its event."""
        seats = self.table.seats
        if kind == "sit":
            s = seats[int(p["seat"])]
            # "guest" came with issue 22: a sit line written before it reads as an account's
            s.player, s.name, s.guest, s.bot = int(p["player"]), str(p["name"]), p.get("guest") is True, None
            return {"kind": "sit", "seat": p["seat"], "name": p["name"], "guest": s.guest}, {}
        if kind == "leave":
            seats[int(p["seat"])] = Seat()
            return {"kind": "leave", "seat": p["seat"]}, {}
        s = seats[int(p["seat"])]
        level = p.get("level")
        s.player, s.name, s.guest, s.bot = None, None if level is None else f"bot ({level})", False, level
        self.table.turns.forget_bot(int(p["seat"]))
        event = {"kind": "bot", "seat": p["seat"], "level": level}
        if "reason" in p:  # a built-in bot took the seat of a failed bot program
            event["reason"] = p["reason"]
        return event, {}

    # --- checks ----------------------------------------------------------------------------------

    def seat_of(self, player: int | None) -> int | None:
        if player is None:
            return None
        for i, s in enumerate(self.table.seats):
            if s.player == player:
                return i
        return None

    def people(self) -> list[int]:
        """The persons seated (not bots)."""
        return [s.player for s in self.table.seats if s.player is not None]

    def _may_manage(self, player: int) -> None:
        if player != self.table.host and self.seat_of(player) is None:
            raise Refused("forbidden", "manage_host_or_seated")

    def _check_seat(self, seat: Any) -> int:
        count = self.table.spec.seats
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in range(count):
            raise Refused("malformed", "seat_number", last=count - 1)
        return seat

    def _check_level(self, level: Any) -> str:
        """A bot level from a client: a listed bot, its settings within the web tables' ranges
        (:mod:`blot.bots.settings`); at a rated table one of the rated levels as they are."""
        if not isinstance(level, str) or not level.strip():
            raise Refused("malformed", "bot_level_name")
        from blot.bots import EXTERNAL, check_bot

        config = self.table.services.config
        name: str = level.strip()
        if self.table.settings.get("rated"):
            check_rated_level(self.table.spec, name)
        if name.partition(":")[0] == EXTERNAL:
            raise Refused("malformed", "bot_programs_by_serve")
        if name in config.bots:
            if name not in config.levels(self.table.spec.name):
                raise Refused("malformed", "bot_not_this_game", bot=name, game=self.table.spec.name)
            return name
        try:
            check_bot(self.table.spec, level, web=True)
        except BlotError as e:
            raise Refused.from_error("malformed", e) from None
        return level.strip()

    def barred_here(self) -> bool:
        """Whether the League's bars hold at this table (L-3, L-10): a public or a rated one;
        a private unrated table among friends is left to them."""
        return self.table.public or bool(self.table.settings.get("rated"))

    async def check_bars(self, newcomer: int | None = None, seat: int | None = None) -> None:
        """Refuse a seating a bar forbids (``newcomer`` taking ``seat``: only that person's bars)."""
        if not self.barred_here():
            return
        seats = {i: s.player for i, s in enumerate(self.table.seats) if s.player is not None}
        if newcomer is not None and seat is not None:
            seats = {i: p for i, p in seats.items() if p != newcomer}
            seats[seat] = newcomer
        await self.table.services.check_bars(seats, self.table.spec.teams, newcomer)

    def check_rated_bots(self) -> None:
        """Refuse to start a rated table with a bot that may not play rated games."""
        for s in self.table.seats:
            if s.bot is not None:
                check_rated_level(self.table.spec, s.bot)

    def _before_start(self, what: str) -> None:
        if self.table.status != WAITING:
            raise Refused("conflict", "game_started", what=what)

    # --- commands --------------------------------------------------------------------------------

    async def sit(self, player: int, name: str, seat: Any, device: str | None = None) -> dict[str, Any]:
        seat = self._check_seat(seat)
        self._before_start("seats can no longer be taken")
        table = self.table
        target = table.seats[seat]
        if target.player == player:
            return table.summary()
        if target.player is not None:
            raise Refused("conflict", "seat_taken", seat=seat)
        if table.settings.get("rated"):
            await table.services.check_rated([*self.people(), player], player)
        await self.check_bars(player, seat)
        others = {s.player: s.name or "" for s in table.seats if s.player is not None and s.player != player}
        await table.services.check_browser(player, others, device)
        old = self.seat_of(player)
        if old is not None:
            await table.change("leave", {"seat": old}, seats=True)
        guest = await table.services.is_guest(player)
        await table.change("sit", {"seat": seat, "player": player, "name": name, "guest": guest}, seats=True)
        table.seats[seat].connected = sum(1 for c in table.connections if c.player == player)
        self._reseat_connections()
        return table.summary()

    async def leave(self, player: int) -> dict[str, Any]:
        seat = self.seat_of(player)
        if seat is None:
            raise Refused("not_seated", "no_seat")
        self._before_start("a seat is kept until the game ends")
        await self.table.change("leave", {"seat": seat}, seats=True)
        self._reseat_connections()
        return self.table.summary()

    async def set_bot(self, player: int, seat: Any, level: Any) -> dict[str, Any]:
        seat = self._check_seat(seat)
        self._may_manage(player)
        self._before_start("seats can no longer change")
        if self.table.seats[seat].player is not None:
            raise Refused("conflict", "seat_taken_by_player", seat=seat)
        checked = None if level is None else self._check_level(level)
        await self.table.change("bot", {"seat": seat, "level": checked}, seats=True)
        return self.table.summary()

    async def fill_bots(self, player: int, level: Any) -> dict[str, Any]:
        self._may_manage(player)
        self._before_start("seats can no longer change")
        checked = self._check_level(level)
        for seat, s in enumerate(self.table.seats):
            if s.empty:
                await self.table.change("bot", {"seat": seat, "level": checked}, seats=True)
        return self.table.summary()

    async def begin(self, player: int) -> dict[str, Any]:
        self._may_manage(player)
        if self.table.status != WAITING:
            raise Refused("conflict", "game_already_started")
        if any(s.empty for s in self.table.seats):
            raise Refused("conflict", "seats_empty")
        if self.table.settings.get("rated"):
            self.check_rated_bots()
            await self.table.services.check_rated(self.people())
        await self.check_bars()
        await self.table.change("start", {}, seats=True)
        self.mark_absent()
        return self.table.summary()

    def _reseat_connections(self) -> None:
        for conn in self.table.connections:
            conn.seat = self.seat_of(conn.player)

    # --- presence --------------------------------------------------------------------------------

    async def connect(self, conn: Connection, since: int | None, recent: int = 0) -> None:
        table = self.table
        if table.stopped:  # queued before the registry let go of the table: join it loaded again
            raise Refused("not_found", "table_closed")
        conn.seat = self.seat_of(conn.player)
        table.connections.add(conn)
        self.recount()
        conn.push(dumps(table.snapshot(conn, since, recent)))
        table.presence()

    async def disconnect(self, conn: Connection) -> None:
        table = self.table
        if conn not in table.connections:
            return
        table.connections.discard(conn)
        conn.stop()
        self.recount()
        table.presence()
        table.services.idle(table.id)

    def local_counts(self) -> list[int]:
        """The connections of this process to each seat."""
        counts = [0] * len(self.table.seats)
        for conn in self.table.connections:
            if conn.seat is not None:
                counts[conn.seat] += 1
        return counts

    def local_watchers(self) -> int:
        """The connections of this process that sit in no seat (spectators, a host)."""
        return sum(conn.seat is None for conn in self.table.connections)

    def remote(self, node: str, counts: list[int], watchers: int = 0) -> bool:
        """Another process's connections to each seat and its spectators' (several processes:
        each says so when they change and every few seconds; a process not heard of for
        :data:`REMOTE_TTL` has none). Whether anything changed."""
        if len(counts) != len(self.table.seats):
            return False
        before = self._remote.get(node), [s.connected for s in self.table.seats]
        self._remote[node] = (counts, watchers, self.table.services.config.clock())
        self.recount()
        return (
            before[0] is None
            or before[0][:2] != (counts, watchers)
            or before[1] != [s.connected for s in self.table.seats]
        )

    def remote_frames(self) -> set[str]:
        """The frame keys (:meth:`Table.frame_key`) other processes' connections are sent."""
        keys: set[str] = set()
        for counts, watchers in self._heard().values():  # nothing is built for a process gone quiet
            keys.update(str(seat) for seat, count in enumerate(counts) if count)
            if watchers:
                keys.update(("s",) if self.table.public else ("s", "h"))
        return keys

    def _heard(self) -> dict[str, tuple[list[int], int]]:
        """The other processes' connections and spectators, of those heard of within
        :data:`REMOTE_TTL`."""
        now = self.table.services.config.clock()
        return {node: (c, w) for node, (c, w, at) in self._remote.items() if now - at <= REMOTE_TTL}

    def recount(self) -> None:
        """Each seat's connections, here and in the other processes. On the table's owner, a
        player whose last connection closed is away (a bot plays after the grace period) and one
        who connects again is back; elsewhere the owner's word (``presence`` it publishes) rules."""
        table = self.table
        if not table.driving:
            return
        totals = self.local_counts()
        heard = self._heard()
        self._remote = {node: self._remote[node] for node in heard}  # the quiet ones are forgotten
        for counts, _ in heard.values():
            totals = [a + b for a, b in zip(totals, counts, strict=True)]
        for index, s in enumerate(table.seats):
            before, s.connected = s.connected, totals[index]
            if s.player is None:
                continue
            if s.connected > 0:
                handle = self._grace.pop(index, None)
                if handle is not None:
                    handle.cancel()
                if s.away or (s.substitute and s.handed is None):
                    s.away = False
                    s.substitute = s.handed is not None
                    table.turns.schedule()
            elif s.connected == 0 and before > 0 and table.status == PLAYING:
                self._went_away(index)

    def mark_absent(self) -> None:
        """At the start and after a restart: every seated player not connected has gone away
        (a player who sat but never opens the table is played for after the grace period)."""
        for index, seat in enumerate(self.table.seats):
            if seat.player is not None and seat.connected == 0:
                self._went_away(index)

    def _went_away(self, seat: int) -> None:
        """A player with no connection left keeps the seat for the grace period; then a bot
        plays it until the player comes back."""
        self.table.seats[seat].away = True
        old = self._grace.pop(seat, None)
        if old is not None:
            old.cancel()
        if self.table.settings.get("daily"):  # a day's set waits for its player (issue 45)
            return
        config = self.table.services.config
        self._grace[seat] = config.timers.call_later(config.grace, self.table.post, self._grace_over, seat)

    async def _grace_over(self, seat: int) -> None:
        self._grace.pop(seat, None)
        table = self.table
        s = table.seats[seat]
        if s.connected == 0 and s.player is not None and table.status == PLAYING:
            s.substitute = True
            table.presence()
            table.turns.schedule()

    async def play_for_me(self, player: int, on: Any, level: Any) -> dict[str, Any]:
        """A casual game's player steps away: a bot of ``level`` (the table's stand-in level by
        default) plays the seat until they take it back (``on`` false). A rated table keeps its
        turn timer, and at an event's table or a day's deals everybody plays their own cards."""
        table = self.table
        seat = self.seat_of(player)
        if seat is None:
            raise Refused("not_seated", "no_seat")
        if not isinstance(on, bool):
            raise Refused("malformed", "play_for_me_flag", "on")
        if table.settings.get("rated"):
            raise Refused("forbidden", "play_for_me_rated")
        if table.settings.get("event") or table.settings.get("daily"):
            raise Refused("forbidden", "play_for_me_not_here")
        if table.status != PLAYING:
            raise Refused("conflict", "game_not_playing")
        s = table.seats[seat]
        if on:
            chosen = level if level is not None else table.settings.get("substitute") or "basic"
            s.handed, s.substitute = self._check_level(chosen), True
        else:
            s.handed = None
            s.substitute = s.away and seat not in self._grace  # still played for once the grace is over
        table.turns.forget_bot(seat)
        table.presence()
        table.turns.schedule()
        return table.summary()

    def cancel(self) -> None:
        for handle in self._grace.values():
            handle.cancel()
        self._grace.clear()
