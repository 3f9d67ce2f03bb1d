"""``blot serve`` in a thread of the test's own process, on a real port and its own SQLite file:
for the browser tests and for the server tests that need a real address (a proxy's, a client's)
without a process of their own to start."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path
from typing import Any

from server.conftest import fresh_database


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
        self._start()

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

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)

    def restart(self) -> None:
        self.stop()
        self._start()
