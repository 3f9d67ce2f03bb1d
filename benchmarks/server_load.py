"""Load on ``blot serve``: K bot-only tables and M websocket clients.

The server (uvicorn with the real app, SQLite in a temporary folder unless ``--db``) runs in
this process; the M clients (the ``websockets`` package) run in a second process by default,
so that parsing their frames does not eat the server's CPU (``--same-process`` runs them on the
server's own event loop instead). Each client watches one table as a spectator; bots move every
``--bot-delay`` seconds at every table. The latency of a frame is the time from the moment its
table accepted the action (before the action is written to the database) to the moment a
client has received and parsed the frame (``time.monotonic``, which both processes share).

    python benchmarks/server_load.py --tables 50 --clients 500 --seconds 20

Prints actions/s, frames/s and the p50/p99/max latency from action to broadcast.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import socket
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

Received = list[tuple[str, int, float]]


def _free_port() -> int:
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port: int = probe.getsockname()[1]
    probe.close()
    return port


async def clients(port: int, table_ids: list[str], count: int, stop: Any, ready: Any) -> Received:
    """``count`` spectators spread over the tables; returns (table, event number, time) of
    every event frame received."""
    import websockets

    received: Received = []
    connected = 0
    sockets = []

    async def one(index: int) -> None:
        nonlocal connected
        table = table_ids[index % len(table_ids)]
        ws = await websockets.connect(
            f"ws://127.0.0.1:{port}/ws/tables/{table}", max_size=2**22, compression=None
        )
        sockets.append(ws)
        await ws.send(json.dumps({"type": "hello", "token": None, "since": None}))
        connected += 1
        try:
            async for raw in ws:
                message = json.loads(raw)
                if message.get("type") == "event":
                    received.append((table, message["n"], time.monotonic()))
        except websockets.ConnectionClosed:
            pass

    tasks = []
    for i in range(count):
        tasks.append(asyncio.create_task(one(i)))
        if i % 50 == 49:
            await asyncio.sleep(0.05)
    while connected < count:
        await asyncio.sleep(0.05)
    ready()
    while not stop():
        await asyncio.sleep(0.1)
    for ws in sockets:
        await ws.close()
    await asyncio.gather(*tasks, return_exceptions=True)
    return received


def _client_process(port: int, table_ids: list[str], count: int, events: Any, out: Any) -> None:
    _loop_run(
        clients(port, table_ids, count, stop=events["stop"].is_set, ready=events["ready"].set),
        then=out.send,
    )


def _loop_run(coro: Any, then: Any = None) -> Any:
    try:
        import uvloop

        result = uvloop.run(coro)
    except ImportError:
        result = asyncio.run(coro)
    if then is not None:
        then(result)
    return result


async def run(args: argparse.Namespace) -> dict[str, Any]:
    import uvicorn

    from blot.server.app import create_app, uvicorn_config
    from blot.server.config import ServerConfig
    from blot.server.hub import Hub

    folder = tempfile.mkdtemp(prefix="blot-load-")
    url = args.db or f"sqlite:///{Path(folder) / 'load.sqlite3'}"
    config = ServerConfig(
        db_url=url,
        bot_delay=args.bot_delay,
        trick_pause=0.0,
        deal_pause=0.5,
        seed=1,
        host_limit=args.tables,  # one player hosts every table here
        # every client comes from this machine's address: the per-address limits would stop them
        connections_per_address=1_000_000,
        guests_per_address=1_000_000,
        waiting_per_address=1_000_000,
    )
    app = create_app(config)
    port = _free_port()
    server = uvicorn.Server(uvicorn_config(app, config, host="127.0.0.1", port=port))
    serving = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    hub: Hub = app.state.hub

    accepted: dict[tuple[str, int], float] = {}
    window = [float("inf"), float("inf")]

    def on_accept(table_id: str, n: int, at: float) -> None:
        accepted[(table_id, n)] = at

    hub.on_accept = on_accept
    host = await hub.accounts.new_guest("load")
    tables = []
    for i in range(args.tables):
        game = args.game if args.game != "mixed" else ("bazar-blot" if i % 2 == 0 else "3-5-8")
        table = await hub.registry.create(host["id"], "load", {"game": game})
        await table.call(table.seating.leave, host["id"])
        await table.call(table.seating.fill_bots, host["id"], args.bot)
        tables.append(table)
    ids = [t.id for t in tables]

    stop_flag = asyncio.Event()
    ready_flag = asyncio.Event()
    if args.same_process:
        task = asyncio.create_task(clients(port, ids, args.clients, stop_flag.is_set, ready_flag.set))
        await ready_flag.wait()
    else:
        ctx = mp.get_context("spawn")
        events = {"stop": ctx.Event(), "ready": ctx.Event()}
        parent, child = ctx.Pipe()
        process = ctx.Process(target=_client_process, args=(port, ids, args.clients, events, child))
        process.start()
        while not events["ready"].is_set():
            await asyncio.sleep(0.05)

    for table in tables:
        await table.call(table.seating.begin, host["id"])
    await asyncio.sleep(args.warmup)
    window[0] = time.monotonic()
    await asyncio.sleep(args.seconds)
    window[1] = time.monotonic()

    if args.same_process:
        stop_flag.set()
        received = await task
    else:
        events["stop"].set()
        received = await asyncio.to_thread(parent.recv)
        process.join()
    server.should_exit = True
    await serving

    start, end = window
    actions = sum(1 for at in accepted.values() if start <= at < end)
    latencies = sorted(
        t - at
        for table, n, t in received
        if (at := accepted.get((table, n))) is not None and start <= at < end
    )

    def pct(p: float) -> float:
        return round(1000 * latencies[min(len(latencies) - 1, int(p * len(latencies)))], 2)

    elapsed = end - start
    return {
        "tables": args.tables,
        "clients": args.clients,
        "clients_in": "server process" if args.same_process else "second process",
        "seconds": round(elapsed, 1),
        "actions_per_s": round(actions / elapsed, 1),
        "frames_per_s": round(len(latencies) / elapsed, 1),
        "latency_ms_p50": pct(0.50) if latencies else None,
        "latency_ms_p99": pct(0.99) if latencies else None,
        "latency_ms_max": pct(1.0) if latencies else None,
        "latency_ms_mean": round(1000 * statistics.fmean(latencies), 2) if latencies else None,
        "database": "sqlite (temporary)" if not args.db else args.db.split("://")[0],
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=50, help="bot-only tables (K)")
    parser.add_argument(
        "--clients", type=int, default=500, help="websocket clients, spread over the tables (M)"
    )
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to measure")
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds before measuring")
    parser.add_argument(
        "--bot-delay", type=float, default=0.25, help="seconds each bot waits before it moves"
    )
    parser.add_argument("--bot", default="basic", help="bot level at every seat")
    parser.add_argument("--game", default="mixed", choices=["bazar-blot", "3-5-8", "mixed"])
    parser.add_argument("--db", default=None, help="database URL (default: a temporary SQLite file)")
    parser.add_argument("--same-process", action="store_true", help="run the clients on the server's loop")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    result = _loop_run(run(args))
    if args.json:
        print(json.dumps(result))
        return
    print(
        f"{result['tables']} tables, {result['clients']} clients ({result['clients_in']}), "
        f"{result['seconds']} s, {result['database']}: {result['actions_per_s']} actions/s, "
        f"{result['frames_per_s']} frames/s; latency action→broadcast p50 {result['latency_ms_p50']} ms, "
        f"p99 {result['latency_ms_p99']} ms, max {result['latency_ms_max']} ms"
    )


if __name__ == "__main__":
    main()
