"""The server's clock and the one scheduler of its game timing (issue 39 item 5).

Every expiry reads the server's clock (``ServerConfig.clock``: wall seconds since the epoch), and
every timer of a game (the turn timer, the pause between deals, a bot's pace, a dropped player's
grace period, the retry of a failed read) is set on it with :meth:`Clock.call_later`. In
production that is the event loop's own timer, so a real game waits the real seconds. In tests
a :class:`ManualClock` stands still: its timers fire only when the test moves it past them
(:meth:`ManualClock.move`), so a test of a timer neither sleeps nor can pass because the machine
happened to be slow.

What stays on the loop's real seconds: the cluster's heartbeats and leases (several processes must
agree on them), a bot's thinking cap (it bounds real computation), the periodic sweeps' cadence
(a sweep reads the clock; tests run it themselves) and network timeouts.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol


class Timer(Protocol):
    """What setting a timer returns: it can be cancelled (an :class:`asyncio.TimerHandle` is one)."""

    def cancel(self) -> None: ...


class Clock:
    """Wall seconds (``read``, :func:`time.time` by default) and timers on the running event loop."""

    def __init__(self, read: Callable[[], float] = time.time) -> None:
        self.read = read

    def __call__(self) -> float:
        return self.read()

    def call_later(self, delay: float, callback: Callable[..., object], *args: Any) -> Timer:
        """Call ``callback(*args)`` on the running loop ``delay`` seconds from now."""
        return asyncio.get_running_loop().call_later(delay, callback, *args)

    def call_at(self, when: float, callback: Callable[..., object], *args: Any) -> Timer:
        """Call ``callback(*args)`` when the clock reads ``when``."""
        return self.call_later(when - self(), callback, *args)

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` of this clock."""
        loop = asyncio.get_running_loop()
        woken: asyncio.Future[None] = loop.create_future()
        timer = self.call_later(seconds, _wake, woken)
        try:
            await woken
        finally:
            timer.cancel()


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


class _Due:
    """A timer of a :class:`ManualClock`: it runs on the loop that set it, once the clock is moved
    past its time, unless cancelled first."""

    def __init__(self, loop: asyncio.AbstractEventLoop, callback: Callable[..., object], args: Any) -> None:
        self.loop = loop
        self.callback = callback
        self.args = args
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True

    def fire(self) -> None:
        if not self.cancelled:
            with contextlib.suppress(RuntimeError):  # the loop has closed (its server stopped)
                self.loop.call_soon_threadsafe(self._run)

    def _run(self) -> None:
        if not self.cancelled:
            self.callback(*self.args)


class ManualClock(Clock):
    """A clock that stands still until it is moved (tests): timers due by then fire, in order of
    their time, on the loop that set them; a timer of no delay runs at once, as on the loop."""

    def __init__(self, start: float = 1_750_000_000.0) -> None:
        super().__init__(self.reading)
        self.now = start
        self._lock = threading.Lock()
        self._order = itertools.count()
        self._due: list[tuple[float, int, _Due]] = []

    def reading(self) -> float:
        return self.now

    def call_later(self, delay: float, callback: Callable[..., object], *args: Any) -> Timer:
        loop = asyncio.get_running_loop()
        if delay <= 0:
            return loop.call_soon(callback, *args)
        due = _Due(loop, callback, args)
        with self._lock:
            heapq.heappush(self._due, (self.now + delay, next(self._order), due))
        return due

    def pending(self) -> list[float]:
        """The times of the timers not yet fired nor cancelled, soonest first."""
        with self._lock:
            return sorted(when for when, _, due in self._due if not due.cancelled)

    def move(self, seconds: float) -> None:
        """Move the clock ``seconds`` on (from any thread) and fire the timers due by then."""
        self._fire_until(lambda now: now + seconds)

    def advance(self) -> bool:
        """Move the clock to the soonest timer and fire it (and any due with it); False when no
        timer is set (a test that follows a game lets its pauses pass so)."""
        pending = self.pending()
        if pending:
            self._fire_until(lambda now: max(now, pending[0]))
        return bool(pending)

    def _fire_until(self, to: Callable[[float], float]) -> None:
        fired = []
        with self._lock:
            self.now = to(self.now)
            while self._due and self._due[0][0] <= self.now:
                fired.append(heapq.heappop(self._due)[2])
        for due in fired:
            due.fire()


def scheduler(clock: Callable[[], float]) -> Clock:
    """The scheduler of a configured clock: the clock itself, or a plain reading function's
    readings with the loop's real timers."""
    return clock if isinstance(clock, Clock) else Clock(clock)
