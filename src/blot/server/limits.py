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

import ipaddress
import logging
import secrets
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from blot.reasons import Reason
from blot.server.config import ServerConfig
from blot.server.errors import RateLimited

log = logging.getLogger("blot.server")

#: Keys kept before quiet ones are swept out.
SWEEP_AT = 10_000
#: Seconds in which one address without a token is answered one attempt at a puzzle (issue 38
#: item 7: else it could try every card, learn the best, then play it with an account, rated).
PUZZLE_WINDOW = 24 * 3600.0


class Limit:
    def __init__(self, limit: int, window: float, clock: Callable[[], float]) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self._hits: dict[str, deque[float]] = {}
        #: Keys to reach before the next sweep: twice those a sweep leaves, so that a window of
        #: many live keys (a day of puzzle attempts) is not swept at every use.
        self._sweep_at = SWEEP_AT

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
        if len(self._hits) > self._sweep_at:
            for old in list(self._hits):
                self._recent(old)
            self._sweep_at = max(SWEEP_AT, 2 * len(self._hits))
        self._hits.setdefault(key, deque()).append(self.clock())

    def clear(self, key: str) -> None:
        self._hits.pop(key, None)


def network(address: str) -> str:
    """The key an address is counted by: an IPv4 address itself, an IPv6 address its /64 (one
    client is given a whole /64, and could otherwise count as billions of addresses; issue 38
    item 7); an IPv4 address written as IPv6 (``::ffff:…``) is the IPv4 one. Anything else
    (``testclient``, ``unknown``) is its own key.

    >>> network("2001:db8:1:2:aaaa::1"), network("2001:DB8:1:2::ffff"), network("::ffff:10.0.0.1")
    ('2001:db8:1:2::/64', '2001:db8:1:2::/64', '10.0.0.1')
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def _minutes(seconds: float) -> Reason:
    """A wait as a part of its own (issue 41 item 8): the page says "12 minutes" in its language."""
    minutes = max(1, round(seconds / 60))
    return Reason("wait_minute") if minutes == 1 else Reason("wait_minutes", n=minutes)


class Window(Protocol):
    """A sliding window of uses per key (:class:`MemoryWindow` or :class:`RedisWindow`)."""

    async def wait(self, key: str) -> float: ...

    async def hit(self, key: str) -> None: ...

    async def clear(self, key: str) -> None: ...


async def _spend(window: Window, key: str, refusal: str) -> None:
    """Count one more for ``key`` in ``window``, or refuse (``refusal``, with the wait) while its
    limit is reached; a refused try does not count."""
    wait = await window.wait(key)
    if wait > 0:
        raise RateLimited(refusal, wait, wait=_minutes(wait))
    await window.hit(key)


class MemoryWindow:
    """A :class:`Limit` in this process's memory (one process alone)."""

    def __init__(self, limit: Limit) -> None:
        self.limit = limit

    async def wait(self, key: str) -> float:
        return self.limit.wait(key)

    async def hit(self, key: str) -> None:
        self.limit.hit(key)

    async def clear(self, key: str) -> None:
        self.limit.clear(key)


class RedisWindow:
    """The same window shared by the processes of a cluster: a sorted set per key in Redis (the
    time of each use), trimmed to the window at each look. While Redis cannot be reached the
    limit lets everybody through (it never locks everyone out) and says so once in the log."""

    def __init__(self, redis: Any, name: str, limit: int, window: float, clock: Callable[[], float]) -> None:
        self.redis = redis
        self.name = name
        self.limit = limit
        self.window = window
        self.clock = clock
        self._warned = False

    def _key(self, key: str) -> str:
        return f"blot:limit:{self.name}:{key}"

    def _away(self) -> None:
        if not self._warned:
            self._warned = True
            log.warning("the shared limits cannot reach the broker: nobody is limited until it is back")

    async def wait(self, key: str) -> float:
        now = self.clock()
        try:
            pipe = self.redis.pipeline()
            pipe.zremrangebyscore(self._key(key), 0, now - self.window)
            pipe.zrange(self._key(key), 0, 0, withscores=True)
            pipe.zcard(self._key(key))
            _, oldest, count = await pipe.execute()
        except Exception:
            self._away()
            return 0.0
        self._warned = False
        if count < self.limit or not oldest:
            return 0.0
        return max(0.0, float(oldest[0][1]) + self.window - now)

    async def hit(self, key: str) -> None:
        now = self.clock()
        try:
            pipe = self.redis.pipeline()
            pipe.zadd(self._key(key), {f"{now}:{secrets.token_hex(4)}": now})
            pipe.expire(self._key(key), int(self.window) + 1)
            await pipe.execute()
        except Exception:
            self._away()

    async def clear(self, key: str) -> None:
        try:
            await self.redis.delete(self._key(key))
        except Exception:
            self._away()


class Limits:
    """The server's limits per address and per account (docs/operators.md: Limits): logins and sign-ups per
    address, failed logins per account, new guests per address (an IPv6 address counted by its /64,
    :func:`network`). Each gate raises
    :class:`~blot.server.errors.RateLimited` (429, with ``Retry-After``) or counts one use. One
    process alone counts in its memory; the processes of a cluster together, in Redis."""

    def __init__(self, config: ServerConfig, redis: Any = None) -> None:
        clock = config.clock
        windows = {
            "account": (config.account_attempts, config.login_window),
            "address": (config.address_attempts, config.login_window),
            "failures": (config.address_failures, config.login_window),
            "guests": (config.guests_per_address, config.guest_window),
            "puzzles": (1, PUZZLE_WINDOW),
        }
        made: dict[str, Window] = {
            name: RedisWindow(redis, name, limit, window, clock)
            if redis is not None
            else MemoryWindow(Limit(limit, window, clock))
            for name, (limit, window) in windows.items()
        }
        self.per_account, self.per_address, self.guests = made["account"], made["address"], made["guests"]
        self.failures = made["failures"]
        self.puzzles = made["puzzles"]

    async def login(self, address: str) -> None:
        """A login or a sign-up from ``address``: refused while the address has too many failed
        logins (a brute force across accounts), else counted against its ceiling of attempts
        (``address_attempts``, high enough for a club night behind one address)."""
        await self.guessing(address)
        await _spend(self.per_address, network(address), "login_limit_address")

    async def guessing(self, address: str) -> None:
        """Refuse a join code's use from an address with too many failed logins or wrong codes."""
        wait = await self.failures.wait(network(address))
        if wait > 0:
            raise RateLimited("login_limit_address", wait, wait=_minutes(wait))

    async def missed(self, address: str) -> None:
        """A code typed that nobody made: counted as a failed login of ``address``."""
        await self.failures.hit(network(address))

    async def account(self, key: str) -> None:
        """Refuse a login to an account with too many failed ones (counted by :meth:`failed`)."""
        wait = await self.per_account.wait(key)
        if wait > 0:
            raise RateLimited("login_limit_account", wait, wait=_minutes(wait))

    async def failed(self, key: str, address: str | None = None) -> None:
        """A failed login to account ``key``, from ``address`` when known (counted for both)."""
        await self.per_account.hit(key)
        if address is not None:
            await self.failures.hit(network(address))

    async def succeeded(self, key: str) -> None:
        await self.per_account.clear(key)

    async def guest(self, address: str) -> None:
        """A new guest from ``address``."""
        await _spend(self.guests, network(address), "guest_limit")

    async def puzzle(self, address: str, puzzle: int) -> bool:
        """Whether an attempt without a token at ``puzzle`` from ``address`` is answered: the
        first in :data:`PUZZLE_WINDOW` seconds is (and counts), later ones are not."""
        key = f"{network(address)}:{puzzle}"
        if await self.puzzles.wait(key) > 0:
            return False
        await self.puzzles.hit(key)
        return True
