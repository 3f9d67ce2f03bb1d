"""Sliding-window limits (logins per account and per address, new guests per address), in memory.

A key may be used ``limit`` times in any ``window`` seconds; :meth:`Limit.wait` says how long
until it may be used again. The clock is the server's (tests move it). Keys that have gone quiet
are dropped, so memory stays bounded by the recent traffic.

>>> now = [0.0]
>>> limit = Limit(2, 60.0, lambda: now[0])
>>> limit.hit("ani"); limit.hit("ani"); limit.wait("ani")
60.0
>>> now[0] = 61.0; limit.wait("ani")
0.0
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from blot.server.config import ServerConfig
from blot.server.errors import RateLimited

#: Keys kept before quiet ones are swept out.
SWEEP_AT = 10_000


class Limit:
    def __init__(self, limit: int, window: float, clock: Callable[[], float]) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self._hits: dict[str, deque[float]] = {}

    def _recent(self, key: str) -> deque[float]:
        hits = self._hits.get(key)
        if hits is None:
            return deque()
        start = self.clock() - self.window
        while hits and hits[0] <= start:
            hits.popleft()
        if not hits:
            del self._hits[key]
        return hits

    def wait(self, key: str) -> float:
        """Seconds until ``key`` may be used again (0: now)."""
        hits = self._recent(key)
        if len(hits) < self.limit:
            return 0.0
        return max(0.0, hits[0] + self.window - self.clock())

    def hit(self, key: str) -> None:
        if len(self._hits) > SWEEP_AT:
            for old in list(self._hits):
                self._recent(old)
        self._hits.setdefault(key, deque()).append(self.clock())

    def clear(self, key: str) -> None:
        self._hits.pop(key, None)


def _minutes(seconds: float) -> str:
    minutes = max(1, round(seconds / 60))
    return "1 minute" if minutes == 1 else f"{minutes} minutes"


class Limits:
    """The server's limits per address and per account (README: Limits): logins and sign-ups per
    address, failed logins per account, new guests per address. Each gate raises
    :class:`~blot.server.errors.RateLimited` (429, with ``Retry-After``) or counts one use."""

    def __init__(self, config: ServerConfig) -> None:
        clock = config.clock
        self.per_account = Limit(config.account_attempts, config.login_window, clock)
        self.per_address = Limit(config.address_attempts, config.login_window, clock)
        self.guests = Limit(config.guests_per_address, config.guest_window, clock)

    def login(self, address: str) -> None:
        """A login or a sign-up from ``address``."""
        wait = self.per_address.wait(address)
        if wait > 0:
            raise RateLimited(
                f"too many login attempts from this address: try again in {_minutes(wait)}", wait
            )
        self.per_address.hit(address)

    def account(self, key: str) -> None:
        """Refuse a login to an account with too many failed ones (counted by :meth:`failed`)."""
        wait = self.per_account.wait(key)
        if wait > 0:
            raise RateLimited(f"too many failed logins for this account: try again in {_minutes(wait)}", wait)

    def failed(self, key: str) -> None:
        self.per_account.hit(key)

    def succeeded(self, key: str) -> None:
        self.per_account.clear(key)

    def guest(self, address: str) -> None:
        """A new guest from ``address``."""
        wait = self.guests.wait(address)
        if wait > 0:
            raise RateLimited(
                f"too many new players from this address: try again in {_minutes(wait)}, or log in", wait
            )
        self.guests.hit(address)
