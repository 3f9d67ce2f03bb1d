"""One table: an actor that handles its commands strictly in order (after lichess's game actor).

Every change of a table is a line of its log (:class:`blot.store.LogEntry`): the table's creation,
seats taken and left, bots seated, the start, the cards of each deal, and every action. The line
is written to the database before anybody hears of it; its number is the event number. The
table's state is the fold of its log: :meth:`Table.rebuild` replays the log through the rules
engine after a restart, and there is no other copy of the game's state.

Each connection sees the table through one seat (or as a spectator): events and views are cut
for it by :class:`blot.server.games.GameKind`, which asks the engine for that seat's view only.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from random import Random
from typing import TYPE_CHECKING, Any

from blot.errors import BlotError
from blot.server.errors import Refused
from blot.server.games import GameKind, kind_of
from blot.store import LogEntry, Store

if TYPE_CHECKING:
    from blot.server.hub import Hub

log = logging.getLogger("blot.server")

WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"
#: Cheap bots choose on the event loop; any other runs in a worker thread.
_INLINE_BOTS = ("random", "basic")
#: A reconnecting client gets the events it missed when there are at most this many.
MAX_CATCH_UP = 1000
#: A connection whose unsent messages pile up beyond this is closed (it reconnects later).
MAX_QUEUE = 2000


def _dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


@dataclass
class Seat:
    """A seat: a person (``player``), a bot (``bot``, its level) or nobody; plus presence."""

    player: int | None = None
    name: str | None = None
    bot: str | None = None
    connected: int = 0
    away: bool = False
    substitute: bool = False

    @property
    def empty(self) -> bool:
        return self.player is None and self.bot is None

    def to_json(self, index: int) -> dict[str, Any]:
        return {
            "seat": index,
            "name": self.name,
            "player": self.player,
            "bot": self.bot,
            "connected": self.connected > 0,
            "away": self.away,
            "substitute": self.substitute,
        }


class Connection:
    """One websocket (or any transport): messages are queued and sent in order by a task."""

    def __init__(
        self, send: Callable[[str], Awaitable[None]], player: int | None, close: Callable[[], Awaitable[None]]
    ):
        self.player = player
        self.seat: int | None = None
        self._send = send
        self._close = close
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._task = asyncio.get_running_loop().create_task(self._pump())
        self.closed = False

    def push(self, text: str) -> None:
        if self.closed:
            return
        if self._queue.qsize() > MAX_QUEUE:
            self.closed = True
            self._queue.put_nowait(None)
            return
        self._queue.put_nowait(text)

    async def _pump(self) -> None:
        try:
            while True:
                text = await self._queue.get()
                if text is None:
                    break
                await self._send(text)
        except Exception:  # the peer went away; the websocket handler notices and cleans up
            pass
        finally:
            self.closed = True
            with contextlib.suppress(Exception):
                await self._close()

    def stop(self) -> None:
        self.closed = True
        self._queue.put_nowait(None)


Event = tuple[dict[str, Any], dict[int, dict[str, Any]]]


class Table:
    """The actor of one table. Use :meth:`call` for anything that reads or changes it."""

    def __init__(self, hub: Hub, table_id: str, kind: GameKind) -> None:
        self.hub = hub
        self.id = table_id
        self.kind = kind
        self.settings: dict[str, Any] = {}
        self.public = True
        self.host: int | None = None
        self.status = WAITING
        self.seats = [Seat() for _ in range(kind.seats)]
        self.game: Any = None
        self.n = 0  # the number of the last event (= the log's last seq)
        self.events: list[Event] = []
        self.connections: set[Connection] = set()
        self.bots: dict[int, Any] = {}
        self.deadline: float | None = None  # wall-clock end of the turn timer, for clients
        self._queue: asyncio.Queue[
            tuple[Callable[..., Awaitable[Any]], tuple[Any, ...], asyncio.Future[Any] | None]
        ]
        self._queue = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._epoch = 0
        self._timer: asyncio.TimerHandle | None = None
        self._grace: dict[int, asyncio.TimerHandle] = {}
        self._last_event: dict[str, Any] = {}
        self._thinking: set[asyncio.Task[None]] = set()
        self.rng: Random = hub.new_rng()

    # --- the actor -------------------------------------------------------------------------------

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"table-{self.id}")
        self._schedule()
        if self.status == PLAYING:
            for index, seat in enumerate(self.seats):
                if seat.player is not None and seat.connected == 0:
                    self._went_away(index)

    async def stop(self) -> None:
        self._cancel_timers()
        for handle in self._grace.values():
            handle.cancel()
        self._grace.clear()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for conn in list(self.connections):
            conn.stop()

    async def call(self, fn: Callable[..., Awaitable[Any]], *args: Any) -> Any:
        """Run ``fn(*args)`` inside the actor, after every command before it; return its result."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((fn, args, future))
        return await future

    def post(self, fn: Callable[..., Awaitable[Any]], *args: Any) -> None:
        """Queue ``fn(*args)`` without waiting for it."""
        self._queue.put_nowait((fn, args, None))

    async def _run(self) -> None:
        while True:
            fn, args, future = await self._queue.get()
            try:
                result = await fn(*args)
            except Exception as e:
                if not isinstance(e, Refused):
                    log.exception("table %s: %s failed", self.id, getattr(fn, "__name__", fn))
                if future is not None and not future.done():
                    future.set_exception(e)
            else:
                if future is not None and not future.done():
                    future.set_result(result)

    # --- building the state from the log ----------------------------------------------------------

    def fold(self, entry: LogEntry) -> Event:
        """Apply one log line to the state and return its event (public part, private parts)."""
        p = entry.payload
        kind = entry.kind
        if kind == "act":
            seat = int(p["seat"])
            before = self.kind.phase(self.game)
            action = self.kind.decode(self.game, seat, p["action"])
            self.game.apply(action)
            public, private = self.kind.describe(self.game, seat, action, before)
            public["by"] = p.get("by", "player")
            if self.game.is_over:
                self.status = FINISHED
            return public, private
        if kind == "deal":
            self.kind.start_deal(self.game, p)
            return {"kind": "deal", "dealer": self.game.deal.dealer, "deal_number": len(self.game.deals)}, {}
        if kind == "create":
            self.settings = dict(p["settings"])
            self.public = bool(p["public"])
            self.host = p.get("host")
            self.game = self.kind.new_game(self.settings)
            return {"kind": "create"}, {}
        if kind == "sit":
            s = self.seats[int(p["seat"])]
            s.player, s.name, s.bot = int(p["player"]), str(p["name"]), None
            return {"kind": "sit", "seat": p["seat"], "name": p["name"]}, {}
        if kind == "leave":
            self.seats[int(p["seat"])] = Seat()
            return {"kind": "leave", "seat": p["seat"]}, {}
        if kind == "bot":
            s = self.seats[int(p["seat"])]
            level = p.get("level")
            s.player, s.name, s.bot = None, None if level is None else f"bot ({level})", level
            self.bots.pop(int(p["seat"]), None)
            return {"kind": "bot", "seat": p["seat"], "level": level}, {}
        if kind == "start":
            self.status = PLAYING
            return {"kind": "start"}, {}
        raise BlotError(f"unknown log entry {kind!r}")

    @classmethod
    def rebuild(cls, hub: Hub, table_id: str, game: str, entries: list[LogEntry]) -> Table:
        """The table as its log leaves it (a restart replays every action through the engine)."""
        table = cls(hub, table_id, kind_of(game))
        for entry in entries:
            table.events.append(table.fold(entry))
            table.n = entry.seq
        return table

    # --- JSON for clients -----------------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.kind.name,
            "settings": self.settings,
            "public": self.public,
            "status": self.status,
            "host": self.host,
            "seats": [s.to_json(i) for i, s in enumerate(self.seats)],
            "deadline": None if self.deadline is None else int(self.deadline * 1000),
        }

    def _event_for(self, n: int, seat: int | None) -> dict[str, Any]:
        public, private = self.events[n - 1]
        event = {**public, **private[seat]} if seat is not None and seat in private else dict(public)
        event["n"] = n
        return event

    def snapshot(self, conn: Connection, since: int | None) -> dict[str, Any]:
        """What a connection gets on (re)connecting: the events after ``since`` when it has seen
        that far and not too long ago, else none (``reset``), plus its view now."""
        catch_up = since is not None and 0 <= since <= self.n and self.n - since <= MAX_CATCH_UP
        events = []
        if catch_up and since is not None:
            events = [self._event_for(n, conn.seat) for n in range(since + 1, self.n + 1)]
        assert since is not None or not catch_up
        return {
            "type": "snapshot",
            "n": self.n,
            "reset": not catch_up,
            "events": events,
            "you": {"player": conn.player, "seat": conn.seat},
            "view": self.kind.view(self.game, conn.seat),
            "table": self.summary(),
        }

    def _broadcast(self, n: int) -> None:
        if not self.connections:
            return
        table = self.summary()
        texts: dict[int | None, str] = {}
        for conn in list(self.connections):
            text = texts.get(conn.seat)
            if text is None:
                message = {
                    "type": "event",
                    "n": n,
                    "event": self._event_for(n, conn.seat),
                    "view": self.kind.view(self.game, conn.seat),
                    "table": table,
                }
                text = texts[conn.seat] = _dumps(message)
            conn.push(text)

    def _presence(self) -> None:
        text = _dumps({"type": "presence", "n": self.n, "table": self.summary()})
        for conn in list(self.connections):
            conn.push(text)

    # --- committing changes --------------------------------------------------------------------

    def _changes(self, seats: bool = False) -> dict[str, Any]:
        changes: dict[str, Any] = {"last_seq": self.n, "status": self.status}
        if seats:
            changes["seats"] = [s.to_json(i) for i, s in enumerate(self.seats)]
        if self.status == FINISHED:
            from blot.store import now

            changes["summary"] = self.kind.summary(self.game)
            changes["record"] = self.kind.record(self.game, self.players())
            changes["finished_at"] = now()
        return changes

    def players(self) -> list[str]:
        return [s.name or f"seat {i}" for i, s in enumerate(self.seats)]

    async def _commit(self, entry: LogEntry, event: Event | None, seats: bool = False) -> None:
        """Write ``entry`` (already folded into the state, ``event`` its description), then tell
        everybody. When the write fails, the state is rebuilt from the database."""
        self.n = entry.seq
        changes = self._changes(seats)
        table_id = self.id
        try:
            await self.hub.writer.run(lambda c: Store.append(c, table_id, [entry], changes))
        except Exception:
            log.exception("table %s: the log could not be written; reloading it", self.id)
            await self._reload()
            raise Refused("server", "the server could not save that; please try again") from None
        assert event is not None
        self.events.append(event)
        self._last_event = event[0]
        self._broadcast(entry.seq)
        self._schedule()

    async def _change(self, kind: str, payload: dict[str, Any], seats: bool = False) -> None:
        """Append a non-game change, checked by the caller: fold it, write it, tell everybody."""
        entry = LogEntry(self.n + 1, kind, payload)
        event = self.fold(entry)
        await self._commit(entry, event, seats)

    async def _reload(self) -> None:
        entries = await asyncio.to_thread(self.hub.store.log, self.id)
        fresh = Table.rebuild(self.hub, self.id, self.kind.name, entries)
        connected = [s.connected for s in self.seats]
        self.settings, self.public, self.host, self.status = (
            fresh.settings,
            fresh.public,
            fresh.host,
            fresh.status,
        )
        self.seats, self.game, self.n, self.events = fresh.seats, fresh.game, fresh.n, fresh.events
        for s, count in zip(self.seats, connected, strict=True):
            s.connected = count
        self.bots.clear()
        for conn in list(self.connections):
            conn.push(_dumps(self.snapshot(conn, None)))
        self._schedule()

    # --- commands: seats and start ---------------------------------------------------------------

    def seat_of(self, player: int | None) -> int | None:
        if player is None:
            return None
        for i, s in enumerate(self.seats):
            if s.player == player:
                return i
        return None

    def _may_manage(self, player: int) -> None:
        if player != self.host and self.seat_of(player) is None:
            raise Refused("forbidden", "only the table's host or a seated player may do that")

    def _check_seat(self, seat: Any) -> int:
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in range(self.kind.seats):
            raise Refused("malformed", f"a seat is a number from 0 to {self.kind.seats - 1}")
        return seat

    def _check_level(self, level: Any) -> str:
        if not isinstance(level, str) or not level.strip():
            raise Refused("malformed", "a bot level is a name such as basic or random")
        from blot.bots import make_bot

        try:
            make_bot(self.kind.name, level, Random(0))
        except BlotError as e:
            raise Refused("malformed", str(e)) from None
        except Exception:
            raise Refused("malformed", f"the bot {level!r} cannot be made here") from None
        return level.strip()

    async def sit(self, player: int, name: str, seat: Any) -> dict[str, Any]:
        seat = self._check_seat(seat)
        if self.status != WAITING:
            raise Refused("conflict", "the game has started: seats can no longer be taken")
        target = self.seats[seat]
        if target.player == player:
            return self.summary()
        if target.player is not None:
            raise Refused("conflict", f"seat {seat} is taken")
        old = self.seat_of(player)
        if old is not None:
            await self._change("leave", {"seat": old}, seats=True)
        await self._change("sit", {"seat": seat, "player": player, "name": name}, seats=True)
        self.seats[seat].connected = sum(1 for c in self.connections if c.player == player)
        self._reseat_connections()
        return self.summary()

    async def leave(self, player: int) -> dict[str, Any]:
        seat = self.seat_of(player)
        if seat is None:
            raise Refused("not_seated", "you have no seat at this table")
        if self.status != WAITING:
            raise Refused("conflict", "the game has started: a seat is kept until the game ends")
        await self._change("leave", {"seat": seat}, seats=True)
        self._reseat_connections()
        return self.summary()

    async def set_bot(self, player: int, seat: Any, level: Any) -> dict[str, Any]:
        seat = self._check_seat(seat)
        self._may_manage(player)
        if self.status != WAITING:
            raise Refused("conflict", "the game has started: seats can no longer change")
        if self.seats[seat].player is not None:
            raise Refused("conflict", f"seat {seat} is taken by a player")
        checked = None if level is None else self._check_level(level)
        await self._change("bot", {"seat": seat, "level": checked}, seats=True)
        return self.summary()

    async def fill_bots(self, player: int, level: Any) -> dict[str, Any]:
        self._may_manage(player)
        if self.status != WAITING:
            raise Refused("conflict", "the game has started: seats can no longer change")
        checked = self._check_level(level)
        for seat, s in enumerate(self.seats):
            if s.empty:
                await self._change("bot", {"seat": seat, "level": checked}, seats=True)
        return self.summary()

    async def begin(self, player: int) -> dict[str, Any]:
        self._may_manage(player)
        if self.status != WAITING:
            raise Refused("conflict", "the game has already started")
        if any(s.empty for s in self.seats):
            raise Refused("conflict", "every seat needs a player or a bot before the start")
        await self._change("start", {}, seats=True)
        return self.summary()

    def _reseat_connections(self) -> None:
        for conn in self.connections:
            conn.seat = self.seat_of(conn.player)

    # --- commands: connections ------------------------------------------------------------------

    async def connect(self, conn: Connection, since: int | None) -> None:
        conn.seat = self.seat_of(conn.player)
        self.connections.add(conn)
        if conn.seat is not None:
            s = self.seats[conn.seat]
            s.connected += 1
            handle = self._grace.pop(conn.seat, None)
            if handle is not None:
                handle.cancel()
            if s.away or s.substitute:
                s.away = s.substitute = False
                self._schedule()
        conn.push(_dumps(self.snapshot(conn, since)))
        self._presence()

    async def disconnect(self, conn: Connection) -> None:
        if conn not in self.connections:
            return
        self.connections.discard(conn)
        conn.stop()
        if conn.seat is not None:
            s = self.seats[conn.seat]
            s.connected = max(0, s.connected - 1)
            if s.connected == 0 and s.player is not None and self.status == PLAYING:
                self._went_away(conn.seat)
        self._presence()
        self.hub.maybe_unload(self)

    def _went_away(self, seat: int) -> None:
        """A player with no connection left keeps the seat for the grace period; then a bot
        plays it until the player comes back."""
        s = self.seats[seat]
        s.away = True
        old = self._grace.pop(seat, None)
        if old is not None:
            old.cancel()
        loop = asyncio.get_running_loop()
        self._grace[seat] = loop.call_later(self.hub.config.grace, self.post, self._grace_over, seat)

    async def _grace_over(self, seat: int) -> None:
        self._grace.pop(seat, None)
        s = self.seats[seat]
        if s.connected == 0 and s.player is not None and self.status == PLAYING:
            s.substitute = True
            self._presence()
            self._schedule()

    # --- commands: the game -----------------------------------------------------------------------

    async def act(self, conn: Connection, message: Mapping[str, Any]) -> None:
        """A player's action from a message: parsed, checked by the rules, stored, announced."""
        seat = conn.seat
        if seat is None:
            raise Refused("not_seated", "spectators cannot play")
        if self.status != PLAYING:
            raise Refused(
                "conflict", "the game is not being played" if self.status == WAITING else "the game is over"
            )
        game = self.game
        if game.to_act != seat:
            raise Refused("not_your_turn", "it is not your turn")
        action = self.kind.parse(game, seat, message)
        await self._accept(seat, action, "player")

    async def _accept(self, seat: int, action: Any, by: str) -> None:
        game = self.game
        before = self.kind.phase(game)
        stored = self.kind.encode(game, seat, action)
        try:
            game.apply(action)
        except BlotError as e:
            raise Refused("illegal", str(e)) from None
        accepted = time.monotonic()
        self.hub.accepted(self.id, self.n + 1, accepted)
        public, private = self.kind.describe(game, seat, action, before)
        public["by"] = by
        if game.is_over:
            self.status = FINISHED
        entry = LogEntry(self.n + 1, "act", {"seat": seat, "action": stored, "by": by})
        await self._commit(entry, (public, private))

    async def _deal(self, epoch: int) -> None:
        if epoch != self._epoch or self.status != PLAYING or not self.kind.needs_deal(self.game):
            return
        await self._change("deal", self.kind.deal_payload(self.rng))

    def _schedule(self) -> None:
        """After any change: deal the next deal, let a bot move, or start the turn timer."""
        self._cancel_timers()
        self._epoch += 1
        if self.status != PLAYING or self._task is None:
            return
        config = self.hub.config
        game = self.game
        loop = asyncio.get_running_loop()
        epoch = self._epoch
        if self.kind.needs_deal(game):
            delay = 0.0 if game.deal is None else config.deal_pause
            self._timer = loop.call_later(delay, self.post, self._deal, epoch)
            return
        seat = game.to_act
        if seat is None:
            return
        s = self.seats[seat]
        if s.bot is not None or s.substitute:
            delay = config.bot_delay
            if "trick_winner" in self._last_event:
                delay += config.trick_pause
            self._timer = loop.call_later(delay, self.post, self._bot_turn, epoch)
        elif self.settings.get("timer"):
            seconds = float(self.settings["timer"])
            self.deadline = time.time() + seconds
            self._timer = loop.call_later(seconds, self.post, self._timeout, epoch)

    def _cancel_timers(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.deadline = None

    def _bot_for(self, seat: int) -> tuple[Any, str]:
        s = self.seats[seat]
        level = s.bot or self.settings.get("substitute") or "basic"
        bot = self.bots.get(seat)
        if bot is None:
            from blot.bots import make_bot

            try:
                bot = make_bot(self.kind.name, level, Random(self.rng.getrandbits(64)))
            except BlotError:
                level = "random"
                bot = make_bot(self.kind.name, level, Random(self.rng.getrandbits(64)))
            self.bots[seat] = bot
        return bot, level

    async def _bot_turn(self, epoch: int) -> None:
        if epoch != self._epoch or self.status != PLAYING:
            return
        seat = self.game.to_act
        if seat is None:
            return
        bot, level = self._bot_for(seat)
        view = self.game.view(seat)
        name = level.partition(":")[0]
        if name in _INLINE_BOTS:
            await self._bot_move(epoch, seat, self._choose(bot, view))
        else:
            loop = asyncio.get_running_loop()

            async def think() -> None:
                action = await asyncio.to_thread(self._choose, bot, view)
                self.post(self._bot_move, epoch, seat, action)

            task = loop.create_task(think())
            self._thinking.add(task)
            task.add_done_callback(self._thinking.discard)

    def _choose(self, bot: Any, view: Any) -> Any:
        try:
            return bot.choose(view)
        except Exception:
            log.exception("table %s: a bot failed to choose", self.id)
            return None

    async def _bot_move(self, epoch: int, seat: int, action: Any) -> None:
        if epoch != self._epoch or self.status != PLAYING or self.game.to_act != seat:
            return
        if action is None:
            action = self.kind.auto_action(self.game)
        try:
            await self._accept(seat, action, "bot")
        except Refused as e:
            if e.code != "illegal":
                raise
            log.warning("table %s: bot move %s refused (%s); moving automatically", self.id, action, e)
            await self._accept(seat, self.kind.auto_action(self.game), "bot")

    async def _timeout(self, epoch: int) -> None:
        if epoch != self._epoch or self.status != PLAYING or self.game.to_act is None:
            return
        await self._accept(self.game.to_act, self.kind.auto_action(self.game), "timer")

    # --- reading -------------------------------------------------------------------------------

    async def read(self, fn: Callable[[Table], Any]) -> Any:
        """Run a read-only ``fn(table)`` in the actor, so that it sees a state between commands."""
        return fn(self)
