"""One client connection of a table (a websocket, or any transport): messages are queued and
sent in order by a task of their own, so that a slow client never holds a table up."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

import orjson

#: A connection whose unsent messages pile up beyond this is closed (it reconnects later).
MAX_QUEUE = 2000


def dumps(obj: Any) -> str:
    """A message as compact JSON text (orjson: the server encodes a frame per seat of every
    event, and the standard library's encoder took about a tenth of its time per action)."""
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()


class Connection:
    """``player`` is who connected (``None``: anonymous), ``session`` the hash of the token it
    connected with (the hub closes the connection when that session ends); ``seat`` is set by
    the table."""

    def __init__(
        self, send: Callable[[str], Awaitable[None]], player: int | None, close: Callable[[], Awaitable[None]]
    ):
        self.player = player
        self.session: str | None = None
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
