"""The server's periodic tasks (the sweeps, the check of open sessions) share one loop: a failure
of one turn is logged and the task goes on at the next, so that one bad turn never stops it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger("blot.server")


async def every(
    seconds: float, work: Callable[[], Awaitable[object]], failed: str, level: int = logging.ERROR
) -> None:
    """Run ``work`` every ``seconds`` until cancelled; a turn that fails is logged as ``failed``
    (with its traceback, at ``level``) and the next turn runs as usual."""
    while True:
        await asyncio.sleep(seconds)
        try:
            await work()
        except Exception:
            log.log(level, failed, exc_info=True)
