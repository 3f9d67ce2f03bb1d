"""Helpers of the cluster tests: real ``blot serve`` processes on PostgreSQL and a Redis server of
their own (``redis-server``, started and stopped by the tests), HTTP clients and websocket clients
that check every frame."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from .frames import check_shape
from .postgres import fresh_database

__all__ = ["Person", "Process", "Redis", "Socket", "fresh_database", "over", "skip_without_services"]

POSTGRES = os.environ.get("BLOT_TEST_POSTGRES_URL")
REDIS_SERVER = shutil.which("redis-server")
#: Quick tables; and no solver loaded at start (seconds of CPU a process: the cluster's tables
#: seat no search bot, and a process of these tests lives for seconds).
FAST = ["--bot-delay", "0", "--trick-pause", "0", "--deal-pause", "0.3", "--grace", "30", "--no-warm-solver"]


def skip_without_services() -> None:
    """The cluster tests need a PostgreSQL server and Debian's redis-server (.ci/run has both)."""
    missing = [
        name for name, there in (("PostgreSQL", POSTGRES), ("redis-server", REDIS_SERVER)) if not there
    ]
    if missing:
        if os.environ.get("BLOT_REQUIRE_POSTGRES"):
            raise RuntimeError(f"the cluster tests need {' and '.join(missing)}")
        pytest.skip(f"no {' and '.join(missing)} (.ci/run installs them)", allow_module_level=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def listens(pid: int, port: int) -> bool:
    """Whether process ``pid`` itself listens on ``port``: a port picked free can be picked by
    another test's server too (the second one to bind stops, but a health check may first be
    answered by the other one). Read from /proc where there is one; elsewhere assumed."""
    if not Path("/proc/net/tcp").exists():
        return True
    try:
        links = [os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")]
    except OSError:
        return False
    sockets = {link[len("socket:[") : -1] for link in links if link.startswith("socket:[")}
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, state, inode = fields[1], fields[3], fields[9]
        if state == "0A" and int(local.split(":")[1], 16) == port and inode in sockets:  # 0A: LISTEN
            return True
    return False


class Redis:
    """A redis-server of the test's own, on a port of its own (stopped and started again at will)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.folder = tempfile.mkdtemp(prefix="blot-redis-")
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        assert REDIS_SERVER is not None
        settings = ["--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", self.folder]
        self.proc = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), *settings],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        raise AssertionError("redis-server did not start")

    def commands(self) -> int:
        """The commands the server has run so far (``INFO stats``, over RESP by hand)."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=5) as s:
            s.sendall(b"INFO stats\r\n")
            data = b""
            while b"total_commands_processed:" not in data or not data.endswith(b"\r\n"):
                data += s.recv(65536)
        line = data.split(b"total_commands_processed:")[1].split(b"\r\n")[0]
        return int(line)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def close(self) -> None:
        """Stopped for good, its folder removed."""
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


class Process:
    """One ``blot serve`` of the cluster."""

    def __init__(self, db: str, broker: str | None, *extra: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        args = [sys.executable, "-m", "blot", "serve", "--db", db, "--port", str(self.port), *FAST, *extra]
        if broker is not None:
            args += ["--broker", broker]
        self.log = tempfile.NamedTemporaryFile(prefix="blot-serve-", suffix=".log", delete=False)  # noqa: SIM115
        self.proc = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT, env={**os.environ})
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"blot serve stopped: {Path(self.log.name).read_text()}")
            try:
                if httpx.get(self.url + "/health", timeout=1).status_code == 200 and listens(
                    self.proc.pid, self.port
                ):
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        else:
            raise AssertionError("blot serve did not answer")
        self.http = httpx.Client(base_url=self.url, timeout=20)

    def kill(self) -> None:
        """``kill -9``."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self, drain: float = 10) -> None:
        """``SIGTERM``, then ``kill -9`` if the process has not drained and exited in ``drain`` s."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(drain)
            except subprocess.TimeoutExpired:
                self.kill()
        self.http.close()
        self.log.close()
        Path(self.log.name).unlink(missing_ok=True)

    def health(self) -> dict[str, Any]:
        answer: dict[str, Any] = self.http.get("/health").json()
        return answer


class Person:
    """A guest or an account, speaking to one process."""

    def __init__(self, process: Process, name: str, account: bool = False) -> None:
        self.process = process
        if account:
            made = process.http.post(
                "/api/accounts", json={"username": name, "password": "correct horse battery"}
            )
        else:
            made = process.http.post("/api/players", json={"name": name})
        assert made.status_code == 200, made.text
        self.id = int(made.json()["id"])
        self.token = str(made.json()["token"])

    def post(self, path: str, body: Any = None, status: int = 200, via: Process | None = None) -> Any:
        http = (via or self.process).http
        answer = http.post(path, json=body or {}, headers={"Authorization": f"Bearer {self.token}"})
        assert answer.status_code == status, answer.text
        return answer.json()


class Socket:
    """A websocket of one table at one process; it checks the shape of every frame and that the
    event numbers it sees have no gap and no repetition."""

    def __init__(self, process: Process, table: str, token: str | None, since: int | None = None) -> None:
        from websockets.sync.client import connect

        self.process = process
        self.table = table
        self.token = token
        address = f"ws://127.0.0.1:{process.port}/ws/tables/{table}"
        # no keepalive pings: a loaded machine may be slow to answer them; the tests time out anyway
        self.ws = connect(address, open_timeout=20, ping_interval=None).__enter__()  # closed by close()
        self.ws.send(json.dumps({"type": "hello", "token": token, "since": since}))
        self.n = since or 0
        self.events: list[dict[str, Any]] = []  # every event, by number, as first received
        self.view: dict[str, Any] | None = None
        self.statuses: list[str] = []

    def _take(self, message: dict[str, Any]) -> None:
        if message["type"] == "status":
            self.statuses.append(message["state"])
            return
        check_shape(message)
        if message["type"] == "snapshot":
            if message["reset"]:
                self.n = message["n"]
            for event in message["events"]:
                self._event(event)
            assert self.n == message["n"], (self.n, message["n"])
        elif message["type"] == "event":
            self._event(message["event"])
        if "view" in message:
            self.view = message["view"]

    def _event(self, event: dict[str, Any]) -> None:
        assert event["n"] == self.n + 1, f"event {event['n']} after {self.n}: a gap or a repetition"
        self.n = event["n"]
        self.events.append(event)

    def receive(self, timeout: float = 30) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self._take(message)
        return message

    def until(self, done: Callable[[dict[str, Any]], bool], timeout: float = 60) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            message = self.receive(max(0.1, end - time.monotonic()))
            if done(message):
                return message
            assert time.monotonic() < end, "the expected message never came"

    def act(self, action: dict[str, Any]) -> None:
        self.ws.send(json.dumps({"type": "action", **action}))

    def close(self) -> None:
        self.ws.close()


def over(view: dict[str, Any] | None) -> bool:
    return view is not None and view["game_over"] is not None
