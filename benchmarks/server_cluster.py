"""A cluster of ``blot serve`` processes on PostgreSQL and Redis (issue 24 item 8): saturation
and latency with one and with two processes, and the time another process takes to drive the
tables of an owner killed with ``kill -9``.

    python benchmarks/server_cluster.py --db postgresql+psycopg://blot_ci:blot_ci@localhost/postgres

Starts a redis-server of its own on a free port (Debian's ``redis-server``), and for each run a
database of its own on the PostgreSQL server given (dropped after). The load is
``benchmarks/server_load.py``'s: tables of four people, every person a websocket client that acts
as soon as it is its turn, the latency timed from the client's send to its receipt of the
action's event. The people of a table are spread over the processes (seat ``s`` of table ``i``
speaks to process ``(i + s) % N``, the table is made at, and so owned by, process ``i % N``), as
a load balancer without sticky sessions spreads them: with two processes half the actions go
through the broker to the table's owner and half the sockets hear the table through it.

Take-over: a process is started, a table is made at it (its owner), and it is killed with
SIGKILL; the time is from the kill until the surviving process lists the table among those it
drives (``GET /health``: its log replayed, its bots and timers running). The default lease
(:data:`blot.server.cluster.leases.NODE_TTL`) bounds it from below.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from server_load import Result, Servers, _table, database, free_port, measure


class Redis:
    """A redis-server of its own (no persistence) on a free port."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise SystemExit("redis-server is needed (Debian: apt-get install redis-server)")
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="blot-redis-")
        args = [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        self.proc = subprocess.Popen([*args, "--dir", self.dir], stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                import socket

                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        raise SystemExit("redis-server did not start")

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)
        shutil.rmtree(self.dir, ignore_errors=True)


def driven(port: int) -> list[str]:
    """The tables a process drives (``GET /health``)."""
    import httpx

    return list(httpx.get(f"http://127.0.0.1:{port}/health", timeout=5).json()["tables"])


def takeovers(db: str, broker: str, times: int) -> list[float]:
    """Seconds from ``kill -9`` of a table's owner until the other process drives it, ``times``
    times (a fresh owner each time, beside one process that survives them all)."""
    servers = Servers(db, 1, broker)
    survivor = servers.ports[0]
    seconds = []
    try:
        for _ in range(times):
            servers.start()
            victim = len(servers.processes) - 1
            people = asyncio.run(_table([servers.ports[victim]], 0))
            table = people[0].table
            assert table in driven(servers.ports[victim]), "the table is not driven by its maker"
            start = time.monotonic()
            servers.kill(victim)
            while table not in driven(survivor):
                if time.monotonic() - start > 60:
                    raise RuntimeError(f"table {table} was not taken over within 60 s")
                time.sleep(0.01)
            seconds.append(time.monotonic() - start)
    finally:
        servers.stop()
    return seconds


def run(
    db_server: str, broker: str, count: int, clients: int, args: argparse.Namespace, layout: str
) -> Result:
    """One measurement on a fresh database of ``count`` processes."""
    with database(db_server) as db:
        servers = Servers(db, count, broker)
        try:
            return measure(
                servers, clients, args.seconds, args.warmup, args.think, layout=layout, watchers=args.watchers
            )
        finally:
            servers.stop()


def main() -> None:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    default_db = os.environ.get("BLOT_TEST_POSTGRES_URL")
    parser.add_argument("--db", default=default_db, required=default_db is None, help="a PostgreSQL server")
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2], help="server processes")
    parser.add_argument("--clients", type=int, nargs="+", default=[200, 500, 1000], help="four per table")
    parser.add_argument("--seconds", type=float, default=8.0, help="how long to measure each")
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds of play before measuring")
    parser.add_argument("--think", type=float, default=0.0, help="seconds a person waits before acting")
    parser.add_argument("--takeovers", type=int, default=10, help="owners killed (0: none)")
    parser.add_argument("--watchers", type=int, default=1, help="spectators a table (at the last process)")
    parser.add_argument(
        "--follower", action="store_true", help="also the follower cost: every table owned by one process"
    )
    args = parser.parse_args()
    redis = Redis()
    try:
        alone: dict[int, float] = {}  # one process's server CPU per action, by clients
        for count in args.processes:
            print(f"{count} process(es), seats spread:", flush=True)
            for clients in args.clients:
                result = run(args.db, redis.url, count, clients, args, "spread")
                if count == 1:
                    alone[clients] = result.server_cpu_ms
                line = "  " + result.line()
                if count > 1 and clients in alone:  # issue 40 item 1
                    line += f"; efficiency {alone[clients] / result.server_cpu_ms:.2f}"
                print(line, flush=True)
        if args.follower:
            print(
                "2 processes, every table owned by the first, seats 1 and 3 and the spectators at the second:"
            )
            for clients in args.clients:
                result = run(args.db, redis.url, 2, clients, args, "follower")
                owner, follower = result.process_cpu_ms
                print(f"  {result.line()}; follower cost {follower / owner:.2f} of the owner's", flush=True)
        if args.takeovers:
            with database(args.db) as db:
                seconds = takeovers(db, redis.url, args.takeovers)
            print(
                f"take-over after kill -9 of the owner ({len(seconds)} times): median "
                f"{statistics.median(seconds):.2f} s, max {max(seconds):.2f} s",
                flush=True,
            )
    finally:
        redis.stop()
    print(f"(PostgreSQL and a redis-server of its own; {os.cpu_count()} cores on this machine)")


if __name__ == "__main__":
    main()
