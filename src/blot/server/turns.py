"""Turns at a table: after every change, deal the next deal, let a bot move, or start the turn
timer; and the automatic move when a timer runs out or a bot fails.

Bots see only their seat's view (the same ``view(seat)`` every player gets) and think in a small
executor of their own, never on the event loop and never in the pool the database reads use.
A bot that has not chosen within ``bot_move_seconds`` (counted from when its move was asked
for; real seconds, as it bounds real computation) gets the automatic move instead. Every other
wait here (the deals' and tricks' pauses, a bot's pace, the turn timer) is a timer on the server's
clock (:mod:`blot.server.clock`), so tests move the clock instead of sleeping. Every move they
make goes through the table like a person's (:meth:`TurnsTable.accept`). While the database
refuses writes, every automatic step (a deal, a bot's move, a timer's move) waits the hub's
growing back-off first.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from random import Random
from typing import TYPE_CHECKING, Any, Protocol

from blot.errors import BlotError, BotFailed
from blot.game import Action, Bot, View
from blot.server.config import SWAP_LEVEL
from blot.server.table_core import TableCore

if TYPE_CHECKING:
    from blot.server.clock import Timer
    from blot.server.config import ServerConfig
    from blot.server.endings import Endings
    from blot.server.services import TableServices

log = logging.getLogger("blot.server")

PLAYING = "playing"
#: Cheap bots choose on the event loop; any other thinks in :data:`BOT_THREADS`.
INLINE_BOTS = ("random", "basic")
#: The bots' own threads: search bots hold the GIL only part of the time (the solver runs
#: compiled), and a few threads keep many tables moving without starving the server.
BOT_THREADS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="blot-bot")
#: What a bot's thread answers when the move's time was up before it could start thinking.
_LATE = object()


def _no_backoff() -> float:
    return 0.0


class TurnsTable(TableCore, Protocol):
    """What turns need of a table besides its core."""

    last_event: dict[str, Any]

    @property
    def running(self) -> bool: ...

    def timer(self) -> float: ...

    def post(self, fn: Callable[..., Awaitable[Any]], *args: Any) -> None: ...

    async def change(self, kind: str, payload: dict[str, Any], seats: bool = False) -> None: ...

    async def accept(self, seat: int, action: Action, by: str) -> None: ...

    #: How its game ends (:mod:`blot.server.endings`): a duplicate round's ``boards_over``.
    endings: Endings
    #: The server around it (a person away from the table hears of their turn by Web Push).
    services: TableServices
    #: Whether this process drives the table (only the owner tells a person of their turn).
    driving: bool


class Turns:
    """The clock of one table: at most one timer runs; any change cancels it (an *epoch*
    number makes a timer or a bot's late answer that belongs to an older state do nothing)."""

    def __init__(
        self, table: TurnsTable, config: ServerConfig, rng: Random, backoff: Callable[[], float] | None = None
    ) -> None:
        self.table = table
        self.config = config
        self.rng = rng
        self.backoff = backoff or _no_backoff
        self.deadline: float | None = None  # the server clock's end of the turn timer, for clients
        self._bots: dict[int, Bot[View, Action]] = {}
        #: One decision at a time per bot: a late decision may still run in its thread when the
        #: seat's next turn comes, and a bot's own state (its random source, its caches) is not
        #: shared between threads.
        self._deciding: dict[int, threading.Lock] = {}
        self._timer: Timer | None = None
        self._epoch = 0
        self._thinking: set[asyncio.Task[None]] = set()

    def forget_bot(self, seat: int) -> None:
        _close(self._bots.pop(seat, None))

    def forget_bots(self) -> None:
        for bot in self._bots.values():
            _close(bot)
        self._bots.clear()

    def _finish_bots(self) -> None:
        """The game is over: bot programs hear it with their seat's last view."""
        from blot.play import finish

        game = self.table.game
        bots = self._bots
        finish(game, [bots.get(seat) for seat in range(self.table.spec.seats)])
        self._bots = {}

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.deadline = None

    def schedule(self) -> None:
        """After any change: deal the next deal, let a bot move, or start the turn timer."""
        self.cancel()
        self._epoch += 1
        table = self.table
        if table.status != PLAYING or not table.running:
            if self._bots and table.game.is_over:
                self._finish_bots()
            return
        if table.paused:  # the referee paused the table: nothing moves until he resumes it
            return
        game = table.game
        clock = self.config.timers  # the server's clock: tests move it past a timer
        epoch = self._epoch
        pause = self.trick_pause()
        wait = self.backoff()  # 0 unless the database refuses writes
        if game.needs_cards:
            # the first deal at once; after a deal: its last trick, then its result (both games)
            delay = 0.0 if game.deal is None else pause + self.config.deal_pause
            boards = table.boards
            step = self._deal if boards is None or self.board() is not None else self._boards_over
            self._timer = clock.call_later(max(delay, wait), table.post, step, epoch)
            return
        seat = game.to_act
        if seat is None:
            return
        s = table.seats[seat]
        if s.player is not None and not s.connected and not s.substitute and table.driving:
            table.services.turn_waits(table.id, s.player)  # issue 41 item 4: Web Push
        if s.bot is not None or s.substitute:
            delay = self.bot_delay()
            if "trick_winner" in table.last_event:
                delay += pause
            self._timer = clock.call_later(max(delay, wait), table.post, self._bot_turn, epoch)
        elif table.timer():
            seconds = max(table.timer(), wait)
            self.deadline = clock() + seconds
            self._timer = clock.call_at(self.deadline, table.post, self._timeout, epoch)

    def board(self) -> int | None:
        """The preset board the table deals next (a duplicate round's, a day's set's: issues 25
        and 45), or None once they are all played."""
        boards = self.table.boards
        if boards is None:
            return None
        daily = self.table.settings.get("daily")
        if isinstance(daily, dict):  # a day's set: a passed-out counted deal has a spare
            from blot.server.daily.deals import board_index

            voids = [bool(r.void) for r in self.table.game.result.deals]
            return board_index(voids, int(daily["deals"]), bool(daily.get("spares")))
        dealt = len(self.table.game.deals)
        return dealt if dealt < len(boards) else None

    def bot_delay(self) -> float:
        """Seconds a bot waits before it moves: the table's own pace (a day's table is quick),
        else the server's."""
        chosen = self.table.settings.get("bot_delay")
        return self.config.bot_delay if chosen is None else float(chosen)

    def trick_pause(self) -> float:
        """Seconds a complete trick stays on the table: the table's own choice, else the server's."""
        chosen = self.table.settings.get("trick_pause")
        return self.config.trick_pause if chosen is None else float(chosen)

    def _current(self, epoch: int) -> bool:
        return epoch == self._epoch and self.table.status == PLAYING and not self.table.paused

    async def _deal(self, epoch: int) -> None:
        table = self.table
        if not self._current(epoch) or not table.game.needs_cards:
            return
        boards = table.boards
        index = self.board()
        if boards is not None and index is not None:  # the same cards at every table (issues 25, 45)
            await table.change("deal", boards[index])
            return
        await table.change("deal", table.spec.random_deal(self.rng).to_json())

    async def _boards_over(self, epoch: int) -> None:
        if self._current(epoch) and self.table.game.needs_cards:
            await self.table.endings.boards_over()

    def _bot_for(self, seat: int) -> tuple[Bot[View, Action], str]:
        table = self.table
        s = table.seats[seat]
        level = s.bot or s.handed or table.settings.get("substitute") or "basic"
        bot = self._bots.get(seat)
        if bot is None:
            from blot.bots import make_bot

            try:
                bot = make_bot(
                    table.spec, self.config.bot_spec(level), Random(self.rng.getrandbits(64)), web=True
                )
            except BlotError:  # a level stored before web tables were bounded
                level = "basic"
                bot = make_bot(table.spec, level, Random(self.rng.getrandbits(64)))
            self._bots[seat] = bot
        return bot, level

    async def _bot_turn(self, epoch: int) -> None:
        game = self.table.game
        seat = game.to_act
        if not self._current(epoch) or seat is None:
            return
        bot, level = self._bot_for(seat)
        view = game.view(seat)
        if level.partition(":")[0] in INLINE_BOTS:
            await self._bot_move(epoch, seat, self._choose(bot, view))
            return
        loop = asyncio.get_running_loop()
        cap = self.config.bot_move_seconds
        deadline = time.monotonic() + cap

        deciding = self._deciding.setdefault(seat, threading.Lock())

        def choose() -> Any:
            # waited for a thread, or for the bot's previous decision, the whole time
            if not deciding.acquire(timeout=max(0.0, deadline - time.monotonic())):
                return _LATE
            try:
                if time.monotonic() > deadline:
                    return _LATE
                return self._choose(bot, view)
            finally:
                deciding.release()

        async def think() -> None:
            try:
                action = await asyncio.wait_for(loop.run_in_executor(BOT_THREADS, choose), cap)
            except TimeoutError:
                action = _LATE
            if action is _LATE:
                log.warning(
                    "table %s: the bot at seat %d had no move after %.0f s; moving automatically",
                    self.table.id,
                    seat,
                    cap,
                )
                action = None
            self.table.post(self._bot_move, epoch, seat, action)

        task = loop.create_task(think())
        self._thinking.add(task)
        task.add_done_callback(self._thinking.discard)

    def _choose(self, bot: Bot[View, Action], view: View) -> Action | BotFailed | None:
        try:
            return bot.choose(view)
        except BotFailed as e:
            log.warning("table %s, seat %d: %s; a built-in bot takes the seat", self.table.id, view.seat, e)
            return e
        except Exception:
            log.exception("table %s: a bot failed to choose", self.table.id)
            return None

    async def _bot_move(self, epoch: int, seat: int, action: Action | BotFailed | None) -> None:
        table = self.table
        if not self._current(epoch) or table.game.to_act != seat:
            return
        if isinstance(action, BotFailed):
            await self._swap(seat, str(action))
            action = None
        if action is None:
            action = table.game.auto_action()
        reason = table.game.refusal(action)
        if reason is not None:
            log.warning("table %s: bot move %s refused (%s); moving automatically", table.id, action, reason)
            action = table.game.auto_action()
        await table.accept(seat, action, "bot")

    async def _swap(self, seat: int, reason: str) -> None:
        """A bot program failed (docs/bot-protocol.md): a built-in bot takes the seat for the rest
        of the game, and the table says so (a ``bot`` event with the reason); a program playing
        for an absent player is replaced in memory only (the seat stays the player's)."""
        from blot.bots import make_bot

        if self.table.seats[seat].bot is not None:
            await self.table.change("bot", {"seat": seat, "level": SWAP_LEVEL, "reason": reason}, seats=True)
        else:
            _close(self._bots.get(seat))
            self._bots[seat] = make_bot(self.table.spec, SWAP_LEVEL, Random(self.rng.getrandbits(64)))

    async def _timeout(self, epoch: int) -> None:
        table = self.table
        seat = table.game.to_act
        if not self._current(epoch) or seat is None:
            return
        await table.accept(seat, table.game.auto_action(), "timer")


def _close(bot: object) -> None:
    """Give a bot program back (the game goes on without it); other bots have nothing to close."""
    close = getattr(bot, "close", None)
    if callable(close):
        close()
