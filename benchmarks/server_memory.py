"""Memory of ``blot serve`` under the attacks of issue 11: a 200 MB request body (with a
``Content-Length``, then streamed without one), then 200 bot-only tables played to the end.

The server runs as its own process (``python -m blot serve``, a temporary data directory); its
resident memory (RSS) and peak (VmHWM) are read from ``/proc`` (Linux).

    python benchmarks/server_memory.py            # prints one line per step
    python benchmarks/server_memory.py --json

``--tables 0`` measures the request only.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from typing import Any

MB = 1024 * 1024


def _free_port() -> int:
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port: int = probe.getsockname()[1]
    probe.close()
    return port


def _memory(pid: int) -> tuple[float, float]:
    """(RSS, peak RSS) of a process, in MB."""
    fields = {}
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def _request(port: int, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
    response = conn.getresponse()
    data = json.loads(response.read() or b"null")
    conn.close()
    return data


def big_body(port: int, size: int, declared: bool) -> tuple[int | None, float, int]:
    """POST ``size`` bytes to /api/players; (status, seconds to the answer, bytes sent)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    conn.putrequest("POST", "/api/players")
    conn.putheader("Content-Type", "application/json")
    if declared:
        conn.putheader("Content-Length", str(size))
    else:
        conn.putheader("Transfer-Encoding", "chunked")
    conn.endheaders()
    chunk = b"x" * MB
    sent = 0
    started = time.monotonic()
    try:
        while sent < size:
            piece = chunk if declared else b"%x\r\n%s\r\n" % (len(chunk), chunk)
            conn.sock.sendall(piece)
            sent += len(chunk)
        if not declared:
            conn.sock.sendall(b"0\r\n\r\n")
    except OSError:
        pass  # the server answered and closed before the whole body was sent
    try:
        response = conn.getresponse()
        status: int | None = response.status
        response.read()
    except (OSError, http.client.HTTPException):
        status = None
    conn.close()
    return status, time.monotonic() - started, sent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--megabytes", type=int, default=200)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=1, help="play the tables this many times")
    parser.add_argument(
        "--server-args",
        default="--bot-delay 0 --deal-pause 0 --trick-pause 0",
        help="options of blot serve (an older blot may lack some)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="blot-memory-")
    port = _free_port()
    command = [sys.executable, "-m", "blot", "serve", "--port", str(port), "--data-dir", folder]
    command += args.server_args.split()
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    out: dict[str, Any] = {}
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                _request(port, "GET", "/api/games")
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)
        time.sleep(1.0)
        out["rss_start_mb"] = round(_memory(server.pid)[0], 1)
        for declared in (True, False):
            status, seconds, sent = big_body(port, args.megabytes * MB, declared)
            rss, peak = _memory(server.pid)
            key = "declared" if declared else "streamed"
            out[f"{key}_status"] = status
            out[f"{key}_seconds"] = round(seconds, 2)
            out[f"{key}_sent_mb"] = round(sent / MB, 1)
            out[f"{key}_rss_after_mb"] = round(rss, 1)
            out[f"{key}_peak_mb"] = round(peak, 1)
        for round_ in range(1, args.rounds + 1 if args.tables else 1):
            tables = []
            for i in range(args.tables):
                if i % 10 == 0:  # a player hosts at most 10 open tables
                    name = f"host {round_}.{i // 10}"
                    token = _request(port, "POST", "/api/players", {"name": name})["token"]
                game = "bazar-blot" if i % 2 else "3-5-8"
                table = _request(port, "POST", "/api/tables", {"game": game}, token)["id"]
                _request(port, "POST", f"/api/tables/{table}/leave", {}, token)
                _request(port, "POST", f"/api/tables/{table}/fill-bots", {"level": "random"}, token)
                _request(port, "POST", f"/api/tables/{table}/start", {}, token)
                tables.append(table)
            out[f"round{round_}_rss_tables_started_mb"] = round(_memory(server.pid)[0], 1)
            started = time.monotonic()
            left = set(tables)
            while left:
                time.sleep(2.0)
                left = {t for t in left if _request(port, "GET", f"/api/tables/{t}")["status"] != "finished"}
            out[f"round{round_}_seconds_to_finish"] = round(time.monotonic() - started, 1)
            time.sleep(3.0)
            rss, peak = _memory(server.pid)
            out[f"round{round_}_rss_tables_finished_mb"] = round(rss, 1)
            out[f"round{round_}_peak_mb"] = round(peak, 1)
        if args.tables:
            time.sleep(60.0)  # one sweep of idle tables later
            out["rss_a_minute_later_mb"] = round(_memory(server.pid)[0], 1)
    finally:
        server.terminate()
        server.wait(timeout=30)
    if args.json:
        print(json.dumps(out))
    else:
        for key, value in out.items():
            print(f"{key:28} {value}")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
