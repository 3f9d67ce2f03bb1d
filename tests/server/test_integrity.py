"""Issue 22 (integrity): rated games that cannot be farmed or dodged, sessions that end
everywhere, floods and slow clients, trusted addresses and hosts, private games kept private,
and one server per database."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from blot.server import instance


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_serve(db_url: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "blot", "serve", "--db", db_url, "--port", str(free_port()), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


def wait_for_line(proc: subprocess.Popen[str], text: str, seconds: float = 60) -> None:
    assert proc.stdout is not None
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        line = proc.stdout.readline()
        if text in line:
            return
        if not line and proc.poll() is not None:
            break
    raise AssertionError(f"no {text!r} from blot serve (exit {proc.poll()})")


def second_server_is_refused(db_url: str) -> None:
    first = start_serve(db_url)
    try:
        wait_for_line(first, "open http")
        second = start_serve(db_url)
        _, err = second.communicate(timeout=60)
        assert second.returncode == 1
        assert len(err.strip().splitlines()) == 1, "one sentence, no traceback"
        assert "another blot serve is using" in err and "--broker" in err
    finally:
        first.kill()
        first.wait()
    # the claim dies with the process (kill -9): a new server may start at once
    third = start_serve(db_url)
    try:
        wait_for_line(third, "open http")
    finally:
        third.kill()
        third.wait()


def test_item9_a_second_server_on_one_sqlite_database_is_refused(tmp_path: Path) -> None:
    second_server_is_refused(f"sqlite:///{tmp_path / 'blot.sqlite3'}")


def test_item9_a_process_may_claim_its_own_database_twice(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'blot.sqlite3'}"
    instance.claim(url)
    instance.claim(url)
    instance.release(url)
    instance.release(url)
    instance.claim(url)  # free again
    instance.release(url)
