"""Load on ``blot serve``: tables of four people (Bazar Blot), every person a websocket client that
acts as soon as it is its turn, so that the server runs at its saturation.

The servers are real ``blot serve`` processes (the application and uvicorn as ``blot serve`` runs
them, started from here so that the limits per address can be lifted: every client comes from
this machine's address). The clients run in one process of their own (``--client-processes``
for more), never in a server's. Each client sends its action and times it until it receives the
event of that action (``time.monotonic``, client side): the latency a person sees, less the
network. A table has one action in flight at a time, so in this closed loop the throughput is
``tables / (latency + the clients' own time)`` (Little's law): at saturation the latency grows
with the number of tables, and ``--think`` (seconds a person waits before acting) measures the
latency at a load below saturation.

    python benchmarks/server_load.py --clients 500 --seconds 10
    python benchmarks/server_load.py --clients 200 500 1000 --db postgresql+psycopg://…/postgres

Prints, per client count: actions/s, the latency p50/p99/max from send to receipt, and the CPU
the server and the clients used (of one core). With ``--db`` a database of its own is created
on that PostgreSQL server for each run (and dropped after); without, a temporary SQLite file.
With ``--broker redis://…`` and ``--processes N`` the servers are a cluster
(``benchmarks/server_cluster.py`` starts its own redis-server).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import os
import signal
import socket
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: The target of every table's game: it lasts far longer than a measurement.
TARGET = 10_000
CLK_TCK = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds a process used so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


# --- the servers -----------------------------------------------------------------------------------


def _serve(settings: dict[str, Any], port: int, profile: str | None) -> None:
    """One ``blot serve`` (in a process of its own); ``profile``: a file for cProfile's figures
    of its event loop's thread during the measurement, written when it stops."""
    import logging

    from blot.server.app import listen, serve
    from blot.server.config import ServerConfig

    logging.basicConfig(level=logging.WARNING)
    sock = listen("127.0.0.1", port)
    if profile is None:
        with contextlib.suppress(KeyboardInterrupt):  # stopped as Ctrl-C stops it
            serve(ServerConfig(**settings), sock)
        return
    import sys

    # benchmarks/profile.py would hide the standard library's profile module, which cProfile uses
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent.resolve()]
    import cProfile

    # CPU time of the event loop's thread (wall time would blame whatever ran when another
    # process took the core), from SIGUSR1 (the measurement starts) to SIGUSR2 (it ends)
    profiler = cProfile.Profile(time.thread_time)
    signal.signal(signal.SIGUSR1, lambda *_: profiler.enable())
    signal.signal(signal.SIGUSR2, lambda *_: profiler.disable())
    try:
        serve(ServerConfig(**settings), sock)
    except KeyboardInterrupt:
        pass
    finally:
        profiler.dump_stats(profile)


class Servers:
    """``count`` server processes on one database (a cluster with ``broker``)."""

    def __init__(
        self, db: str, count: int = 1, broker: str | None = None, profile: str | None = None
    ) -> None:
        self.profile = profile
        self.settings: dict[str, Any] = {
            "db_url": db,
            "broker_url": broker,
            "trick_pause": 0.0,
            "deal_pause": 0.0,
            "grace": 3600.0,  # a person who is slow to connect is never played for
            "connections_per_address": 1_000_000,
            "guests_per_address": 1_000_000,
            "waiting_per_address": 1_000_000,
        }
        self.context = mp.get_context("spawn")
        self.processes: list[Any] = []
        self.ports: list[int] = []
        for _ in range(count):
            self.start()

    def start(self) -> None:
        import httpx

        port = free_port()
        profile = None if self.profile is None else f"{self.profile}.{len(self.processes)}"
        process = self.context.Process(target=_serve, args=(self.settings, port, profile), daemon=True)
        process.start()
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if not process.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("a server did not start")
            time.sleep(0.1)
        self.processes.append(process)
        self.ports.append(port)

    def kill(self, index: int) -> None:
        """``kill -9`` of one server."""
        process = self.processes[index]
        process.kill()
        process.join()

    def signal(self, number: int) -> None:
        """Send every live server a signal (the profiler's start and end)."""
        if self.profile is not None:
            for process in self.processes:
                if process.is_alive():
                    os.kill(process.pid, number)

    def cpu(self) -> list[float]:
        """Each process's CPU seconds so far (0 for one that is gone)."""
        return [cpu_seconds(p.pid) if p.is_alive() else 0.0 for p in self.processes]

    def stop(self) -> None:
        for process in self.processes:
            if process.is_alive():  # as Ctrl-C: uvicorn stops, then the profile is written
                os.kill(process.pid, signal.SIGINT)
        for process in self.processes:
            process.join(10)
            if process.is_alive():
                process.kill()


def backends(db: str) -> list[int]:
    """The PostgreSQL server's processes that serve the database ``db`` (none for SQLite)."""
    if not db.startswith("postgresql"):
        return []
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    engine = create_engine(db)
    try:
        with engine.connect() as c:
            query = text("SELECT pid FROM pg_stat_activity WHERE datname = :name AND pid <> pg_backend_pid()")
            return [int(pid) for pid in c.execute(query, {"name": make_url(db).database}).scalars()]
    finally:
        engine.dispose()


def total_cpu(pids: list[int]) -> float:
    """CPU seconds of the processes still there."""
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError):
            total += cpu_seconds(pid)
    return total


@contextlib.contextmanager
def database(server: str | None) -> Iterator[str]:
    """A fresh database: on the PostgreSQL server ``server`` (dropped after), else SQLite."""
    if server is None:
        yield f"sqlite:///{Path(tempfile.mkdtemp(prefix='blot-load-')) / 'load.sqlite3'}"
        return
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    name = f"blot_load_{uuid.uuid4().hex[:10]}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(server).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as c:
            c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


# --- the tables ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Person:
    """One client: its server's port, its table, its token and its seat (a spectator: no token,
    seat -1; it only listens)."""

    port: int
    table: str
    token: str
    seat: int


#: Where each seat's person speaks (``layout``, ``ports``, the table's index, the seat): the
#: table is made at seat 0's server, its owner.
LAYOUTS: dict[str, Callable[[list[int], int, int], int]] = {
    # as a load balancer without sticky sessions spreads them: seat s of table i at (i + s) % N
    "spread": lambda ports, index, seat: ports[(index + seat) % len(ports)],
    # every table owned by the first process, seats 1 and 3 at the second (issue 40 item 1)
    "follower": lambda ports, index, seat: ports[seat % 2 % len(ports)],
    # every person at the first process: only the spectators (at the last) are elsewhere
    "owner": lambda ports, index, seat: ports[0],
}


async def _table(ports: list[int], index: int, layout: str = "spread", watchers: int = 0) -> list[Person]:
    """A Bazar Blot table made at seat 0's server (:data:`LAYOUTS`; its owner in a cluster),
    with four guests and ``watchers`` spectators (at the last server); started."""
    import httpx

    async def guest(client: httpx.AsyncClient, name: str) -> str:
        answer = await client.post("/api/players", json={"name": name})
        answer.raise_for_status()
        return str(answer.json()["token"])

    def at(seat: int) -> int:
        return LAYOUTS[layout](ports, index, seat)

    clients = {port: httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) for port in ports}
    try:
        tokens = [await guest(clients[at(seat)], f"p{index}s{seat}") for seat in range(4)]

        async def post(seat: int, path: str, body: dict[str, Any]) -> Any:
            headers = {"Authorization": f"Bearer {tokens[seat]}"}
            answer = await clients[at(seat)].post(path, json=body, headers=headers)
            answer.raise_for_status()
            return answer.json()

        made = await post(0, "/api/tables", {"game": "bazar-blot", "options": {"target": TARGET}})
        table = str(made["id"])
        for seat in (1, 2, 3):
            await post(seat, f"/api/tables/{table}/sit", {"seat": seat})
        await post(0, f"/api/tables/{table}/start", {})
        people = [Person(at(seat), table, tokens[seat], seat) for seat in range(4)]
        return people + [Person(ports[-1], table, "", -1) for _ in range(watchers)]
    finally:
        for client in clients.values():
            await client.aclose()


async def make_tables(
    ports: list[int], count: int, layout: str = "spread", watchers: int = 0
) -> list[Person]:
    """``count`` started tables of four people each (20 made at once)."""
    people: list[Person] = []
    for first in range(0, count, 20):
        last = min(count, first + 20)
        made = await asyncio.gather(*(_table(ports, i, layout, watchers) for i in range(first, last)))
        for four in made:
            people.extend(four)
    return people


# --- the clients -----------------------------------------------------------------------------------


def choose(view: dict[str, Any]) -> dict[str, Any]:
    """A legal action: bid once (so that deals are played), else pass, declare the best, or play
    the first legal card."""
    legal = view["legal"]
    if legal["kind"] == "declare":
        return {"declare": "best"}
    if legal["kind"] == "call":
        calls = legal["calls"]
        bids = [c for c in calls if c[0].isdigit()]
        if bids and not any(c["seat"] == view["seat"] for c in view["calls"]):
            return {"action": bids[0]}
        return {"action": "pass" if "pass" in calls else calls[0]}
    return {"action": legal["cards"][0]}


@dataclass
class Tally:
    """What the clients of one process saw: (time sent, latency) of each action, errors by code
    (and one sentence of each), frames whose number did not follow the one before."""

    sent: list[tuple[float, float]]
    errors: dict[str, int] = field(default_factory=dict)
    examples: dict[str, str] = field(default_factory=dict)
    disorder: int = 0
    closed: int = 0
    finished: int = 0


async def _person(who: Person, tally: Tally, think: float, connected: list[int]) -> None:
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    address = f"ws://127.0.0.1:{who.port}/ws/tables/{who.table}"
    async with connect(address, max_size=2**22, compression=None, ping_interval=None, open_timeout=120) as ws:
        await ws.send(json.dumps({"type": "hello", "token": who.token or None, "since": None}))
        connected[0] += 1
        waiting: tuple[int, float] | None = None  # (the number of my action's event, when sent)
        acted = -1
        last_n: int | None = None
        try:
            async for raw in ws:
                message = json.loads(raw)
                kind = message["type"]
                if kind == "error":
                    code = str(message.get("code"))
                    tally.errors[code] = tally.errors.get(code, 0) + 1
                    tally.examples.setdefault(code, str(message.get("message")))
                    waiting, acted = None, -1
                    continue
                view = message.get("view")
                if view is None:
                    continue
                n = message["n"]
                if kind == "event" and last_n is not None and n != last_n + 1:
                    tally.disorder += 1
                last_n = n
                if waiting is not None and n >= waiting[0]:
                    tally.sent.append((waiting[1], time.monotonic() - waiting[1]))
                    waiting = None
                if view["game_over"] is not None:
                    tally.finished += 1
                    return
                if view["to_act"] != who.seat or view["legal"] is None or acted == n:
                    continue
                acted = n
                if think:
                    await asyncio.sleep(think)
                action = json.dumps({"type": "action", **choose(view)})
                waiting = (n + 1, time.monotonic())
                await ws.send(action)
        except ConnectionClosed:
            tally.closed += 1


async def _drive(people: list[Person], think: float, signals: dict[str, Any]) -> Tally:
    tally = Tally([])
    connected = [0]
    tasks = []
    for i, who in enumerate(people):
        tasks.append(asyncio.create_task(_person(who, tally, think, connected)))
        if i % 100 == 99:
            await asyncio.sleep(0.05)
    while connected[0] < len(people):
        await asyncio.sleep(0.05)
    signals["ready"].set()
    while not signals["stop"].is_set():
        await asyncio.sleep(0.1)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return tally


def _client_process(people: list[Person], think: float, signals: dict[str, Any], out: Any) -> None:
    import uvloop

    from blot.server.app import quiet_collector

    quiet_collector()  # the clients' own collector pauses would count as the server's latency
    tally = uvloop.run(_drive(people, think, signals))
    out.send(tally)


@dataclass
class Result:
    """One measurement; CPU in milliseconds per action (what a free core would do: 1000 / ms)."""

    clients: int
    tables: int
    seconds: float
    actions_per_s: float
    p50_ms: float
    p99_ms: float
    max_ms: float
    server_cpu_ms: float
    database_cpu_ms: float
    client_cpu_ms: float
    server_cores: float  # the server's CPU per second of the measurement (1.0: one core)
    process_cpu_ms: list[float]  # each server process's share of server_cpu_ms
    errors: dict[str, int]
    examples: dict[str, str]
    disorder: int

    def line(self) -> str:
        return (
            f"{self.clients:5d} clients {self.tables:4d} tables: {self.actions_per_s:6.0f} actions/s, "
            f"p50 {self.p50_ms:6.1f} ms p99 {self.p99_ms:6.1f} ms max {self.max_ms:6.1f} ms; CPU ms/action: "
            f"server {self.server_cpu_ms:.2f} database {self.database_cpu_ms:.2f} "
            f"clients {self.client_cpu_ms:.2f}; server {self.server_cores:.2f} cores"
            + (
                f" (each: {', '.join(f'{ms:.2f}' for ms in self.process_cpu_ms)})"
                if len(self.process_cpu_ms) > 1
                else ""
            )
            + (
                "; errors: "
                + ", ".join(f"{n} {code} ({self.examples.get(code)})" for code, n in self.errors.items())
                if self.errors
                else ""
            )
            + (f"; {self.disorder} frames out of order" if self.disorder else "")
        )


def measure(
    servers: Servers,
    clients: int,
    seconds: float,
    warmup: float,
    think: float = 0.0,
    processes: int = 1,
    layout: str = "spread",
    watchers: int = 0,
) -> Result:
    """Make ``clients / 4`` tables (seats placed by ``layout``, with ``watchers`` spectators
    each), connect their people (in ``processes`` client processes), let them play for
    ``warmup`` seconds and measure ``seconds``."""
    tables = max(1, clients // 4)
    people = asyncio.run(make_tables(servers.ports, tables, layout, watchers))
    context = mp.get_context("spawn")
    runs = []
    for k in range(processes):
        signals = {"ready": context.Event(), "stop": context.Event()}
        parent, child = context.Pipe()
        share = people[k::processes]
        process = context.Process(target=_client_process, args=(share, think, signals, child), daemon=True)
        process.start()
        runs.append((process, signals, parent))
    for _, signals, _ in runs:
        while not signals["ready"].wait(0.1):
            pass
    time.sleep(warmup)
    database_pids = backends(servers.settings["db_url"])
    client_pids = [p.pid for p, _, _ in runs]
    servers.signal(signal.SIGUSR1)
    start = time.monotonic()
    before = servers.cpu(), total_cpu(database_pids), total_cpu(client_pids)
    time.sleep(seconds)
    end = time.monotonic()
    after = servers.cpu(), total_cpu(database_pids), total_cpu(client_pids)
    servers.signal(signal.SIGUSR2)
    sent: list[tuple[float, float]] = []
    errors: dict[str, int] = {}
    examples: dict[str, str] = {}
    disorder = 0
    for process, signals, parent in runs:
        signals["stop"].set()
        tally: Tally = parent.recv()
        process.join()
        sent.extend(tally.sent)
        for code, n in tally.errors.items():
            errors[code] = errors.get(code, 0) + n
        examples = tally.examples | examples
        disorder += tally.disorder
    latencies = sorted(latency for at, latency in sent if start <= at < end)

    def pct(p: float) -> float:
        if not latencies:
            return float("nan")
        return round(1000 * latencies[min(len(latencies) - 1, int(p * len(latencies)))], 1)

    elapsed = end - start
    actions = max(1, len(latencies))
    each = [round(1000 * (b - a) / actions, 3) for a, b in zip(before[0], after[0], strict=True)]
    server = round(sum(each), 3)
    base, client = (round(1000 * (b - a) / actions, 3) for a, b in zip(before[1:], after[1:], strict=True))
    return Result(
        clients=tables * 4,
        tables=tables,
        seconds=round(elapsed, 1),
        actions_per_s=round(len(latencies) / elapsed, 1),
        p50_ms=pct(0.5),
        p99_ms=pct(0.99),
        max_ms=pct(1.0),
        server_cpu_ms=server,
        database_cpu_ms=base,
        client_cpu_ms=client,
        server_cores=round((sum(after[0]) - sum(before[0])) / elapsed, 2),
        process_cpu_ms=each,
        errors=errors,
        examples=examples,
        disorder=disorder,
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--clients", type=int, nargs="+", default=[500], help="people, four per table")
    parser.add_argument("--seconds", type=float, default=10.0, help="how long to measure")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds of play before measuring")
    parser.add_argument("--think", type=float, default=0.0, help="seconds a person waits before acting")
    parser.add_argument("--db", default=None, help="a PostgreSQL server's URL (default: SQLite)")
    parser.add_argument("--broker", default=None, help="a Redis URL: the servers are a cluster")
    parser.add_argument("--processes", type=int, default=1, help="server processes (with --broker)")
    parser.add_argument("--client-processes", type=int, default=1, help="processes of the clients")
    parser.add_argument("--profile", default=None, help="cProfile each server's event loop into FILE.N")
    parser.add_argument("--layout", choices=sorted(LAYOUTS), default="spread", help="where each seat speaks")
    parser.add_argument("--watchers", type=int, default=0, help="spectators a table (at the last server)")
    parser.add_argument("--json", action="store_true", help="print one JSON object per line")
    args = parser.parse_args()
    if args.processes > 1 and args.broker is None:
        parser.error("several processes need --broker")
    for clients in args.clients:
        with database(args.db) as db:
            servers = Servers(db, args.processes, args.broker, args.profile)
            try:
                result = measure(
                    servers,
                    clients,
                    args.seconds,
                    args.warmup,
                    args.think,
                    args.client_processes,
                    args.layout,
                    args.watchers,
                )
            finally:
                servers.stop()
        print(json.dumps(result.__dict__) if args.json else result.line(), flush=True)
    if not args.json:
        kind = "PostgreSQL" if args.db else "SQLite"
        print(
            f"({args.processes} server process(es), {kind}, think {args.think} s; the clients in "
            f"{args.client_processes} process(es) of their own)"
        )


if __name__ == "__main__":
    main()
