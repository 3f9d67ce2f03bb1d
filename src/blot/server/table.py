"""One table: an actor that handles its commands strictly in order (after lichess's game actor).

Every change of a table is a line of its log (:class:`blot.store.LogEntry`): the table's creation,
seats taken and left, bots seated, the start, the cards of each deal, and every action. The line
is written to the database before anybody hears of it; its number is the event number. The
table's state is the fold of its log: :meth:`Table.rebuild` replays the log through the rules
engine after a restart, and there is no other copy of the game's state.

The table is split by job: this module is the actor (its queue, the log, committing, rebuilding,
what each connection is sent); :mod:`blot.server.seats` seats people and bots and follows who is
connected; :mod:`blot.server.turns` moves the game on (dealing, bots, the turn timer, automatic
moves); :mod:`blot.server.endings` ends it (agreement, forfeit, fixed deals, a referee's
pause) and says what its end writes; :mod:`blot.server.replica` publishes and follows it in a
cluster. The table reaches the rest of the server only through
:class:`~blot.server.services.TableServices`.

Each connection sees the table through one seat (or as a spectator): views are cut for it by the
game's wire module (:mod:`blot.wire`) from the engine's ``view(seat)``, which holds only what
that seat may know.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

from blot.errors import BlotError
from blot.game import Action, AnyGame
from blot.games import GameSpec, spec
from blot.server import rematches
from blot.server.connection import Connection, dumps
from blot.server.endings import AGREEMENT as AGREEMENT
from blot.server.endings import BOARDS_PLAYED as BOARDS_PLAYED
from blot.server.endings import FINISHED as FINISHED
from blot.server.endings import FORFEIT as FORFEIT
from blot.server.endings import PLAYING as PLAYING
from blot.server.endings import RESIGNED as RESIGNED
from blot.server.endings import WAITING as WAITING
from blot.server.endings import Endings
from blot.server.errors import Refused
from blot.server.frames import build as build_frames
from blot.server.replica import Replica
from blot.server.seats import Seat, Seating
from blot.server.services import TableServices
from blot.server.turns import Turns
from blot.store import LogEntry
from blot.wire import Event

log = logging.getLogger("blot.server")

#: The turn timer of a rated table that did not choose one, in seconds (a rated table always has
#: one: a player who never acts would otherwise freeze the game).
RATED_TIMER = 60
#: A reconnecting client gets the events it missed when there are at most this many.
MAX_CATCH_UP = 1000
#: The most recent events a client may ask for on connecting (``hello``'s ``recent``).
MAX_RECENT = 200


Command = tuple[Callable[..., Awaitable[Any]], tuple[Any, ...], "asyncio.Future[Any] | None"]
#: The last command of a stopped actor; and how long a stop waits for the command in progress.
_STOP: Any = object()
STOP_SECONDS = 5.0


class Table:
    """The actor of one table. Use :meth:`call` for anything that reads or changes it.

    In a cluster (:mod:`blot.server.cluster`) one process *drives* the table (its owner: it
    commits changes, runs the bots, the timers and the grace periods, and publishes what it
    committed, with the frames the other processes' sockets are sent); every other process with a
    socket of the table *follows* it (:class:`~blot.server.replica.Replica`): it relays those
    frames to its sockets and folds the lines into the same state when something reads it.
    Commands go to the owner (:mod:`blot.server.tables`)."""

    def __init__(
        self, services: TableServices, table_id: str, game_spec: GameSpec, driving: bool = True
    ) -> None:
        self.services = services
        #: Whether this process drives the table (see above); its epoch of ownership when it does.
        self.driving = driving
        self.epoch = 0
        #: The process that drives it (followers send it their presence and commands).
        self.owner: str | None = None
        self.id = table_id
        self.spec = game_spec
        self.wire = game_spec.wire_module()
        self.settings: dict[str, Any] = {}
        self.public = True
        self.host: int | None = None
        #: The address the table was made from (the per-address limit on waiting tables); not
        #: stored: a table loaded from the database has none.
        self.address: str | None = None
        self.status = WAITING
        self.ended: str | None = None
        #: The seats whose players agreed to end the game now (League §7: every person must).
        self.end_votes: set[int] = set()
        self.rematch: str | None = None  # the table of this game's rematch, once there is one
        #: The seats whose players asked for a rematch (it starts when every person has), and the
        #: server clock's end of the others' time to decide (:mod:`blot.server.rematches`).
        self.rematch_asks: set[int] = set()
        self.rematch_until: float | None = None
        #: A duplicate round's deals (issue 25), dealt in this order instead of shuffled cards:
        #: from the table's creation line, never sent to anybody.
        self.boards: list[dict[str, Any]] | None = None
        #: The seats that lost by forfeit (an event's entrant who did not come).
        self.forfeited: set[int] = set()
        #: A game ended by agreement is unfinished (League §7, L-2): the seats whose players asked
        #: to continue it, and the table where it goes on once every person has.
        self.resume_asks: set[int] = set()
        self.resumed: str | None = None
        #: An event table's referee paused the game (issue 38 item 4): no clock, no bot, no play.
        self.paused = False
        self.seats = [Seat() for _ in range(game_spec.seats)]
        self._game: AnyGame | None = None
        self.n = 0  # the number of the last event (= the log's last seq)
        self.events: list[Event] = []
        self.last_event: dict[str, Any] = {}
        self.connections: set[Connection] = set()
        self.seating = Seating(self)
        self.turns = Turns(self, services.config, services.new_rng(), services.backoff)
        self.replica = Replica(self)
        self.endings = Endings(self)
        self._queue: asyncio.Queue[Command] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._stopped = False
        #: The state is ahead of the database (a write failed and the log could not be read
        #: back yet): every command is refused until a reload succeeds.
        self._stale = False

    @property
    def game(self) -> AnyGame:
        """The game (it exists from the table's first log line on)."""
        assert self._game is not None, "a table's game exists from its creation on"
        return self._game

    @property
    def running(self) -> bool:
        return self._task is not None

    # --- the actor -------------------------------------------------------------------------------

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"table-{self.id}")
        if self.driving:
            self.turns.schedule()
            if self.status == PLAYING:
                self.seating.mark_absent()

    @property
    def stopped(self) -> bool:
        return self._stopped

    def halt(self) -> None:
        """Refuse every later command at once (the registry let go; :meth:`stop` follows in a
        task): a join queued meanwhile joins the table loaded again, not one that then closes."""
        self._stopped = True

    async def stop(self) -> None:
        """Stop the actor (the hub unloads or closes the table) once the command it is running
        is done (a command that unloads its own table finishes first); commands still queued and
        any later :meth:`call` are refused, so that nobody waits for an answer that never comes."""
        self._stopped = True
        self.turns.cancel()
        self.seating.cancel()
        if self._task is not None:
            self._queue.put_nowait(_STOP)
            try:
                await asyncio.wait_for(asyncio.shield(self._task), STOP_SECONDS)
            except TimeoutError:
                self._task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._task
        while not self._queue.empty():
            command = self._queue.get_nowait()
            if command is not _STOP and command[2] is not None and not command[2].done():
                command[2].set_exception(_gone())
        for conn in list(self.connections):
            conn.stop()

    async def call(self, fn: Callable[..., Awaitable[Any]], *args: Any) -> Any:
        """Run ``fn(*args)`` inside the actor, after every command before it; return its result."""
        if self._stopped:
            raise _gone()
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((fn, args, future))
        return await future

    def post(self, fn: Callable[..., Awaitable[Any]], *args: Any) -> None:
        """Queue ``fn(*args)`` without waiting for it."""
        if not self._stopped:
            self._queue.put_nowait((fn, args, None))

    async def _run(self) -> None:
        while True:
            command = await self._queue.get()
            if command is _STOP:
                return
            fn, args, future = command
            if self.replica.pending and fn != self.replica.follow:
                self.replica.settle()  # a follower's relayed lines, folded before anything reads
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
            game = self.game
            before = game.phase
            action = self.wire.action_from_json(game, p["action"])
            game.apply(action)
            public, private = self.wire.event(game, seat, action, before)
            public["by"] = p.get("by", "player")
            if game.is_over:
                self.status = FINISHED
            return public, private
        if kind == "deal":
            deal = self.game.start_deal(self.spec.cards_from_json(p))
            return {"kind": "deal", "dealer": deal.dealer, "deal_number": len(self.game.deals)}, {}
        if kind == "create":
            self.settings = dict(p["settings"])
            self.public = bool(p["public"])
            self.host = p.get("host")
            self.boards = p.get("boards")
            rules = self.spec.rules(self.settings.get("ruleset"), self.settings.get("options"))
            self._game = self.spec.new_game(rules)
            return {"kind": "create"}, {}
        if kind in ("sit", "leave", "bot"):
            return self.seating.fold(kind, p)
        if kind == "start":
            self.status = PLAYING
            return {"kind": "start"}, {}
        if kind == "end":
            return self._fold_end(int(p["seat"]), bool(p["agree"]), bool(p.get("resign")))
        if kind in ("boards_over", "forfeit"):
            self.status = FINISHED
            self.ended = BOARDS_PLAYED if kind == "boards_over" else FORFEIT
            self.forfeited = {int(s) for s in p.get("seats", [])}
            return {"kind": kind, "seats": sorted(self.forfeited)}, {}
        if kind == "pause":
            self.paused = bool(p["paused"])
            return {"kind": "pause", "paused": self.paused}, {}
        if kind == "resume_ask":
            self.resume_asks.add(int(p["seat"]))
            return {"kind": "resume_ask", "seat": int(p["seat"])}, {}
        if kind == "resumed":
            self.resumed = str(p["table"])
            return {"kind": "resumed", "table": self.resumed if self.public else None}, (
                {} if self.public else {i: {"table": self.resumed} for i in range(self.spec.seats)}
            )
        if kind in rematches.KINDS:
            return rematches.fold(self, kind, p)
        raise BlotError(f"unknown log entry {kind!r}")

    def _fold_end(self, seat: int, agree: bool, resign: bool) -> Event:
        """A vote to end the game by agreement; the game ends when every person seated agrees
        (``resign``: as a resignation of the sides with persons, :meth:`end_is_resignation`)."""
        if agree:
            self.end_votes.add(seat)
        else:
            self.end_votes.clear()
        people = {i for i, s in enumerate(self.seats) if s.player is not None}
        ended = agree and people <= self.end_votes
        if ended:
            self.status = FINISHED
            self.ended = RESIGNED if resign else AGREEMENT
        return {"kind": "end", "seat": seat, "agree": agree, "ended": ended}, {}

    def timer(self) -> float:
        """The turn timer in seconds (0: none); a rated table always has one."""
        chosen = float(self.settings.get("timer") or 0)
        return chosen or (RATED_TIMER if self.settings.get("rated") else 0.0)

    @classmethod
    def rebuild(
        cls, services: TableServices, table_id: str, game: str, entries: list[LogEntry], driving: bool = True
    ) -> Table:
        """The table as its log leaves it (a restart replays every action through the engine)."""
        table = cls(services, table_id, spec(game), driving)
        for entry in entries:
            table.events.append(table.fold(entry))
            table.n = entry.seq
        return table

    async def _reload(self) -> None:
        """Throw the state away and fold the stored log again (after a failed write). When the
        log cannot be read either, the table refuses every command and tries again later."""
        try:
            entries = await self.services.read_log(self.id)
        except Exception:
            self._stale = True
            self.turns.cancel()
            delay = max(1.0, self.services.backoff())
            self.services.config.timers.call_later(delay, self.post, self._reload)
            return
        self._stale = False
        fresh = Table.rebuild(self.services, self.id, self.spec.name, entries)
        connected = [s.connected for s in self.seats]
        self.settings, self.public, self.host, self.status, self.ended, self.end_votes = (
            fresh.settings,
            fresh.public,
            fresh.host,
            fresh.status,
            fresh.ended,
            fresh.end_votes,
        )
        self.seats, self._game, self.n, self.events = fresh.seats, fresh._game, fresh.n, fresh.events
        self.rematch, self.rematch_asks, self.rematch_until = (
            fresh.rematch,
            fresh.rematch_asks,
            fresh.rematch_until,
        )
        self.boards, self.forfeited = fresh.boards, fresh.forfeited
        self.resume_asks, self.resumed = fresh.resume_asks, fresh.resumed
        self.paused = fresh.paused
        for s, count in zip(self.seats, connected, strict=True):
            s.connected = count
        self.turns.forget_bots()
        for conn in list(self.connections):
            conn.push(dumps(self.snapshot(conn, None)))
        self.turns.schedule()

    async def reload(self) -> None:
        """Fold the stored log again (its stored names changed: a deleted account)."""
        await self._reload()

    # --- JSON for clients -----------------------------------------------------------------------

    def at_table(self, player: int | None) -> bool:
        """Whether ``player`` sits at the table or hosts it."""
        return player is not None and (player == self.host or self.seating.seat_of(player) is not None)

    def summary(self, at_table: bool = True) -> dict[str, Any]:
        """The table for clients; a private table's rematch (a link) only for those ``at_table``."""
        return {
            "id": self.id,
            "game": self.spec.name,
            "settings": self.settings,
            "public": self.public,
            "status": self.status,
            "host": self.host,
            "seats": [s.to_json(i) for i, s in enumerate(self.seats)],
            "deadline": None if self.turns.deadline is None else int(self.turns.deadline * 1000),
            "end_votes": sorted(self.end_votes),
            "end_is_resignation": self.endings.end_is_resignation(),
            "ended": self.ended,
            "rematch": self.rematch if at_table or self.public else None,
            "rematch_asks": sorted(self.rematch_asks),
            "rematch_until": None if self.rematch_until is None else int(self.rematch_until * 1000),
            "resume_asks": sorted(self.resume_asks),
            "resumed": self.resumed if at_table or self.public else None,
            "paused": self.paused,
        }

    def view_json(self, seat: int | None) -> dict[str, Any] | None:
        """``seat``'s view, or for ``None`` (spectators) the public view, which the engine builds
        from the public state alone."""
        if seat is None:
            return self.wire.public_json(self.game.public_view())
        return self.wire.view_json(self.game.view(seat))

    def event_for(self, n: int, seat: int | None) -> dict[str, Any]:
        public, private = self.events[n - 1]
        event = {**public, **private[seat]} if seat is not None and seat in private else dict(public)
        event["n"] = n
        return event

    def snapshot(self, conn: Connection, since: int | None, recent: int = 0) -> dict[str, Any]:
        """What a connection gets on (re)connecting: the events after ``since`` when it has seen
        that far and not too long ago, else (``reset``) the last ``recent`` events (for the
        table's log; at most :data:`MAX_RECENT`), plus its view now."""
        catch_up = since is not None and 0 <= since <= self.n and self.n - since <= MAX_CATCH_UP
        first = since + 1 if catch_up and since is not None else self.n + 1 - min(recent, MAX_RECENT, self.n)
        events = [self.event_for(n, conn.seat) for n in range(max(1, first), self.n + 1)]
        return {
            "type": "snapshot",
            "n": self.n,
            "reset": not catch_up,
            "events": events,
            "you": {"player": conn.player, "seat": conn.seat},
            "view": self.view_json(conn.seat),
            "table": self.summary(self.at_table(conn.player)),
        }

    def frame_key(self, conn: Connection) -> str:
        """Which of an event's frames ``conn`` is sent: its seat's (``"0"``, ``"1"``, …), or a
        spectator's: ``"h"`` at a private table it hosts (it may see the table's links), else
        ``"s"``."""
        if conn.seat is not None:
            return str(conn.seat)
        return "h" if not self.public and self.at_table(conn.player) else "s"

    def frames(self, n: int, keys: Iterable[str]) -> dict[str, str]:
        """Event ``n``'s message text for each frame key (:func:`blot.server.frames.build`)."""
        return build_frames(self, n, keys)

    def broadcast(self, n: int, also: Iterable[str] = ()) -> dict[str, str]:
        """Tell every connection event ``n`` (one text per frame key, built once); ``also``:
        the keys other processes' sockets want (their owner publishes them). The texts built."""
        told = [(conn, self.frame_key(conn)) for conn in self.connections]
        if not told and not also:
            return {}
        texts = self.frames(n, {key for _, key in told} | set(also))
        for conn, key in told:
            conn.push(texts[key])
        return texts

    def presence(self, relay: bool = True) -> None:
        """Tell every connection who is seated and connected (not an event: not stored), and with
        ``relay`` the other processes: the owner its volatile state to the followers, a follower
        its sockets' counts to the owner."""
        texts = {
            at: dumps({"type": "presence", "n": self.n, "table": self.summary(at)}) for at in (True, False)
        }
        for conn in list(self.connections):
            conn.push(texts[conn.seat is not None or self.at_table(conn.player)])
        if not relay:
            return
        if self.driving and self.services.shared:  # with the texts: the followers relay them
            texts_by = {"at": texts[True], "away": texts[False]}
            self.services.publish(
                self.id, {"n": self.n, "state": self.replica.volatile(), "presence": texts_by}
            )
        elif not self.driving:
            self.services.tell_owner(self)

    # --- committing changes --------------------------------------------------------------------

    def players(self) -> list[str]:
        return [s.name or f"seat {i}" for i, s in enumerate(self.seats)]

    async def _commit(
        self, entry: LogEntry, event: Event, seats: bool = False, finishing: bool = False
    ) -> None:
        """Write ``entry`` (already folded into the state, ``event`` its description), then tell
        everybody. When the write fails, the state is rebuilt from the database. ``finishing``:
        the line ends the game, and writes its end (summary, record, ratings) with it, never again
        by a later line of the finished table (a rematch)."""
        self.n = entry.seq
        outcome = self.endings.outcome() if finishing else None
        try:
            await self.services.append(
                self.id, [entry], self.endings.changes(seats, finishing), outcome, self.epoch
            )
        except Exception as e:
            from blot.server.cluster.leases import NotOwner
            from blot.server.health import is_storage_failure

            if isinstance(e, NotOwner):  # another process drives the table now: follow it
                await self._reload()
                self.services.lost(self)
                raise Moved() from None
            if not is_storage_failure(e):  # storage failures are logged once per burst
                log.exception("table %s: the log could not be written; reloading it", self.id)
            await self._reload()
            raise Refused("server", "save_failed") from None
        self.events.append(event)
        self.last_event = event[0]
        wanted = self.replica.wanted()
        texts = self.broadcast(entry.seq, wanted)
        self.turns.schedule()
        self.replica.replicate([entry], {key: texts[key] for key in wanted})
        if self.status == FINISHED and not self.connections:
            self.services.idle(self.id)

    def _check_fresh(self) -> None:
        if self._stale:
            raise Refused("server", "save_failed_last")

    async def change(self, kind: str, payload: dict[str, Any], seats: bool = False) -> None:
        """Append a non-game change, checked by the caller: fold it, write it, tell everybody."""
        self._check_fresh()
        entry = LogEntry(self.n + 1, kind, payload)
        before = self.status
        event = self.fold(entry)
        await self._commit(entry, event, seats, finishing=before != FINISHED and self.status == FINISHED)

    async def accept(self, seat: int, action: Action, by: str) -> None:
        """Apply an action for ``seat`` (refused: nothing changes), store it, announce it."""
        self._check_fresh()
        game = self.game
        before = game.phase
        stored = self.wire.action_json(action)
        try:
            game.apply(action)
        except BlotError as e:
            raise Refused.of(e) from None
        public, private = self.wire.event(game, seat, action, before)
        public["by"] = by
        if game.is_over:
            self.status = FINISHED
        entry = LogEntry(self.n + 1, "act", {"seat": seat, "action": stored, "by": by})
        await self._commit(entry, (public, private), finishing=game.is_over)

    # --- commands --------------------------------------------------------------------------------

    async def command(self, name: str, args: Mapping[str, Any]) -> dict[str, Any] | None:
        """A command of a player (the table's owner runs it; any process may have received it):
        ``act``, ``sit``, ``leave``, ``bot``, ``fill_bots``, ``start``, ``end``, ``summary``; and
        ``forfeit`` from an event's sweep (no client can send it: the routes name their commands). The
        answer is the table's summary (or nothing for ``act``); a refusal raises :class:`Refused`."""
        player = args.get("player")
        seating = self.seating
        if name == "act":
            await self.act(player, args.get("message") or {})
            return None
        if name == "summary":
            return self.summary(self.at_table(player))
        if name == "forfeit":  # the events' sweep (blot.server.tournaments), never a client
            return {"forfeited": await self.endings.forfeit([int(s) for s in args.get("seats", [])])}
        if name == "pause":  # an event table's referee (blot.server.referees), never a socket
            return await self.endings.pause(bool(args.get("paused")))
        if not isinstance(player, int):
            raise Refused("forbidden", "token_needed_create")
        if name == "sit":
            return await seating.sit(player, str(args.get("name")), args.get("seat"), args.get("device"))
        if name == "leave":
            return await seating.leave(player)
        if name == "bot":
            return await seating.set_bot(player, args.get("seat"), args.get("level"))
        if name == "fill_bots":
            return await seating.fill_bots(player, args.get("level", "basic"))
        if name == "start":
            return await seating.begin(player)
        if name == "end":
            return await self.endings.vote_end(player, args.get("agree"))
        if name == "play_for_me":  # issue 41 item 6
            return await seating.play_for_me(player, args.get("on"), args.get("level"))
        raise Refused("malformed", f"unknown table command {name!r}")

    async def act(self, player: int | None, message: Mapping[str, Any]) -> None:
        """A player's action from a message: parsed, checked by the rules, stored, announced."""
        seat = self.seating.seat_of(player)
        if seat is None:
            raise Refused("not_seated", "spectators_cannot_play")
        if self.status != PLAYING:
            raise Refused("conflict", "game_not_playing" if self.status == WAITING else "game_over")
        if self.paused:
            raise Refused("conflict", "table_paused")
        if self.game.to_act != seat:
            raise Refused("not_your_turn", "not_your_turn")
        if self.seats[seat].handed is not None:  # "play for me" (issue 41 item 6): the bot's turn
            raise Refused("conflict", "seat_handed")
        try:
            action = self.wire.action_from_message(self.game, message)
        except BlotError as e:
            raise Refused.of(e) from None
        await self.accept(seat, action, "player")

    async def close_waiting(self) -> bool:
        """Delete the table from the database when it is still waiting with nobody connected
        (the hub's expiry); True when it was deleted."""
        if self.status != WAITING or self.connections:
            return False
        table_id = self.id

        def delete(c: Any) -> None:
            from blot.store import Store

            Store.delete_waiting_table(c, table_id)

        await self.services.write(delete)
        return True

    async def read(self, fn: Callable[[Table], Any]) -> Any:
        """Run a read-only ``fn(table)`` in the actor, so that it sees a state between commands."""
        return fn(self)


class Moved(Refused):
    """The table has another owner now (this process lost it): the command is sent there."""

    def __init__(self) -> None:
        super().__init__("server", "table_moved")


def _gone() -> Refused:
    return Refused("not_found", "table_closed")
