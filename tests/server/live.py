"""``blot serve`` in a thread of the test's own process, on a real port and its own SQLite file:
for the browser tests and for the server tests that need a real address (a proxy's, a client's)
without a process of their own to start."""

from __future__ import annotations

import socket
import sys
import threading
import time
import traceback
from pathlib import Path
from typing import Any

from server.conftest import fresh_database

#: How long the server's event loop may run nothing before it counts as stuck.
STALL_SECONDS = 3.0


class LiveServer:
    """``blot serve`` in a thread; ``restart`` stops it and starts a new one on the same port
    and database, as a real restart would."""

    def __init__(self, db: Path, **settings: Any) -> None:
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        self.port = probe.getsockname()[1]
        probe.close()
        self.db = db
        self.settings = {
            "bot_delay": 0.0,
            "trick_pause": 0.0,
            "deal_pause": 30.0,
            "seed": 11,
            "password_profile": "CHEAPEST",
            **settings,
        }
        self.url = f"http://127.0.0.1:{self.port}"
        #: Where the server's thread was when its event loop ran nothing for
        #: :data:`STALL_SECONDS` or more: printed beside a failed browser test (tests/web's
        #: conftest), so that a page that waited in vain says whether the server was stuck, and where.
        self.stalls: list[str] = []
        self._start()

    def _watch(self, server: Any, thread: threading.Thread) -> None:
        """Every half second, ask the server's event loop to run a callback; one that has not
        run after :data:`STALL_SECONDS` is a stall: the thread's stack then is kept."""
        while not server.should_exit and thread.is_alive():
            time.sleep(0.5)
            servers = getattr(server, "servers", None)
            if not servers:
                continue
            ran = threading.Event()
            try:
                servers[0].get_loop().call_soon_threadsafe(ran.set)
            except RuntimeError:  # the loop closed: a restart
                continue
            start = time.monotonic()
            if ran.wait(STALL_SECONDS):
                continue
            frame = sys._current_frames().get(thread.ident or 0)
            stack = "".join(traceback.format_stack(frame)[-12:]) if frame is not None else "(no frame)\n"
            ran.wait(120)
            waited = time.monotonic() - start
            self.stalls.append(f"the event loop ran nothing for {waited:.1f} s; its thread was at:\n{stack}")

    def _start(self) -> None:
        import uvicorn

        from blot.server.app import create_app, uvicorn_config
        from blot.server.config import ServerConfig

        fresh_database(self.db)  # the schema migrated once per process (tests/server/conftest.py)
        config = ServerConfig(db_url=f"sqlite:///{self.db}", **self.settings)
        self.app = create_app(config)
        self.server = uvicorn.Server(uvicorn_config(self.app, config, host="127.0.0.1", port=self.port))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        watch = threading.Thread(target=self._watch, args=(self.server, self.thread), daemon=True)
        watch.start()

    def tables(self) -> str:
        """Each live table as the server holds it now, one line each (beside a failed browser
        test: did the server have the card the page sent, whose turn it was, a bot thinking)."""
        lines = []
        for table in list(self.app.state.hub.registry.live.values()):
            game = table._game
            turn = getattr(game, "to_act", None) if game is not None else None
            seats = ", ".join(
                f"{i}: {s.bot or s.name or '-'}{' (' + str(s.connected) + ' sockets)' if s.connected else ''}"
                for i, s in enumerate(table.seats)
            )
            thinking = len(table.turns._thinking)
            lines.append(
                f"{table.id} {table.status} n={table.n} to act: {turn} bots thinking: {thinking}"
                f" queue: {table._queue.qsize()} seats: {seats}"
            )
        return "\n".join(lines) or "no table"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)

    def restart(self) -> None:
        self.stop()
        self._start()
