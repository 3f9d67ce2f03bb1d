"""Bots that are programs: ``cmd:COMMAND LINE`` names a program in any language that speaks the
bot protocol (docs/bot-protocol.md), and it plays wherever a bot plays.

To blot it is one more :class:`~blot.game.Bot`: ``choose(view)`` sends the program its own seat's
view exactly as the websocket gives it (:mod:`blot.wire`) and every legal action as a JSON value,
and the program answers one of them, echoed. A program that crashes, hangs past its time, writes
anything else or answers an action that was not offered is stopped, and :class:`BotFailed` is
raised: the play loop then makes the documented automatic move (:func:`blot.play.moves`), and the
next game starts a fresh program::

    from blot.three_five_eight import GAME_NAME
    game = spec(GAME_NAME).new_game(rng=Random(1))
    bot = make_bot(GAME_NAME, "cmd:python3 examples/bots/random_bot.py", Random(2))
    bot.choose(game.view(game.to_act)) in game.legal_actions()   # True
"""

from __future__ import annotations

import os
import time
import weakref
from random import Random
from typing import TYPE_CHECKING, Any, Final

from blot.bots.program import POOL, Program
from blot.errors import BlotError, BotFailed, BotStopped, SetupError
from blot.game import Action, View
from blot.numbers import whole_number

if TYPE_CHECKING:
    from blot.games import GameSpec

#: Milliseconds a program may think about one decision, unless ``$BLOT_BOT_TIME_MS`` says more.
DEFAULT_TIME_MS: Final = 5000


def time_ms() -> int:
    """The time per decision: ``$BLOT_BOT_TIME_MS``, else :data:`DEFAULT_TIME_MS`."""
    text = os.environ.get("BLOT_BOT_TIME_MS", "").strip()
    if not text:
        return DEFAULT_TIME_MS
    ms = whole_number(text)
    if ms is None or not 0 < ms <= 3_600_000:
        raise BlotError(f"BLOT_BOT_TIME_MS must be a number of milliseconds, not {text!r}")
    return ms


class _Lease:
    """The program a bot holds during a game; given back to the pool when the game ends (or when
    the bot is dropped mid-game)."""

    def __init__(self) -> None:
        self.program: Program | None = None
        self.in_game = False

    def end(self, view: dict[str, Any] | None, finished: bool) -> None:
        program, self.program = self.program, None
        if program is None:
            return
        try:
            if self.in_game:
                message = {"type": "end_game", "finished": finished, "view": view}
                program.send(message, time.monotonic() + 1.0)
        except BotFailed:
            program.stop()
            return
        finally:
            self.in_game = False
        POOL.give(program)

    def stop(self) -> None:
        program, self.program, self.in_game = self.program, None, False
        if program is not None:
            program.stop()


class ExternalBot:
    """A bot program behind the :class:`~blot.game.Bot` protocol."""

    def __init__(self, game: GameSpec, command: str, rng: Random | None = None) -> None:
        self.spec = game
        self.wire = game.wire_module()
        self.command = command
        self.rng = rng or Random()
        self.time_ms = time_ms()
        self._lease = _Lease()
        self._finalizer = weakref.finalize(self, self._lease.end, None, False)
        self._failed: str | None = None
        program = self._program()  # a program that cannot start or does not play the game fails here
        self.name = program.hello.name
        #: Whether the program asked for the events between its decisions (``hear``).
        self.listens = program.hello.events
        self._lease.end(None, False)

    # --- the Bot protocol -------------------------------------------------------------------------

    def choose(self, view: View) -> Action:
        program = self._start(view)
        try:
            legal = [self.wire.action_json(a) for a in view.legal]
            number = program.next_id()
            message = {
                "type": "act",
                "id": number,
                "view": self.wire.view_json(view),
                "legal": legal,
                "time_ms": self.time_ms,
            }
            deadline = time.monotonic() + self.time_ms / 1000
            program.errors.new_move()
            program.send(message, deadline)
            answer = program.receive(deadline, f"act {number}")
            if answer.get("type") != "action" or answer.get("id") != number or "action" not in answer:
                shown = {k: answer[k] for k in ("type", "id") if k in answer}
                raise BotFailed(f"{program.label} answered {shown} instead of an action with id {number}")
            chosen = answer["action"]
            for value, action in zip(legal, view.legal, strict=True):
                if value == chosen and type(value) is type(chosen):
                    return action
            shown_action = str(chosen)[:60]
            raise BotFailed(f"{program.label} answered {shown_action!r}, which is not in legal")
        except BotFailed as e:
            self._fail(str(e))
            raise

    def hear(self, view: View, event: dict[str, Any]) -> None:
        """An event of the game, cut for this seat (only for programs that asked for events)."""
        if self._failed is not None or not self.listens:
            return
        try:
            program = self._start(view)
            program.send({"type": "event", "event": event}, time.monotonic() + self.time_ms / 1000)
        except BotFailed as e:
            self._fail(str(e))

    def end(self, view: View) -> None:
        """The game is over for this bot (finished, or stopped by blot); the program is given the
        seat's last view and goes back to the pool."""
        self._lease.end(self.wire.view_json(view), view_finished(view))
        self._failed = None

    def reset(self) -> None:
        """Before a new game: end one still in progress; a failed program is replaced."""
        self._lease.end(None, False)
        self._failed = None

    close = reset

    # --- helpers ----------------------------------------------------------------------------------

    def _program(self) -> Program:
        lease = self._lease
        if lease.program is None:
            program = POOL.take(self.command)
            if self.spec.name not in program.hello.games:
                POOL.give(program)
                games = ", ".join(program.hello.games) or "none"
                raise SetupError(
                    f"{program.label} does not play {self.spec.name} (its games: {games})", "bot"
                )
            lease.program = program
        return lease.program

    def _start(self, view: View) -> Program:
        """The program, told about the game at the seat's first decision (or event) in it."""
        if self._failed is not None:
            raise BotStopped(f"{self._failed} (stopped for the rest of the game)")
        try:
            program = self._program()
            if not self._lease.in_game:
                rules = view.rules
                message = {
                    "type": "new_game",
                    "game": self.spec.name,
                    "ruleset": rules.ruleset,
                    "options": rules.options(),
                    "seat": view.seat,
                    "seats": self.spec.seats,
                    "teams": [list(team) for team in self.spec.teams],
                    "seed": self.rng.getrandbits(31),
                }
                program.errors.seat = view.seat
                program.send(message, time.monotonic() + self.time_ms / 1000)
                self._lease.in_game = True
        except BotFailed as e:
            self._fail(str(e))
            raise
        except BlotError as e:
            self._fail(str(e))
            raise BotFailed(str(e)) from None
        return program

    def _fail(self, reason: str) -> None:
        self._failed = reason
        self._lease.stop()


def view_finished(view: View) -> bool:
    """Whether the view is of a finished game."""
    return bool(getattr(view, "finished", False))
