"""Sliding-window limits on login attempts (per account and per address), in memory.

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
