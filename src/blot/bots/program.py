"""A running bot program and its pipes: JSON objects, one per line, each way, every read and
write bounded by a deadline (docs/bot-protocol.md).

The program's standard error goes to the bot log (:func:`log_path`), never to a player. Anything
that breaks the protocol raises :class:`BotFailed` with one sentence, after which the caller stops
the program. Programs are kept running between games in a :class:`Pool`: starting one costs far
more than a game's messages.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import select
import shlex
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Final

from blot.errors import BlotError, BotFailed

#: The protocol version blot speaks.
PROTOCOL: Final = 1
#: How long a program may take to start and answer ``hello``.
HELLO_SECONDS: Final = 10.0
#: How long a program may take to exit after ``bye`` before it is killed.
BYE_SECONDS: Final = 1.0
#: The longest line a program may write.
MAX_LINE: Final = 1 << 20


def log_path() -> Path:
    """Where the bot programs' standard error goes: ``$BLOT_BOT_LOG``, else ``bots.log`` in the
    data directory."""
    env = os.environ.get("BLOT_BOT_LOG")
    if env:
        return Path(env)
    from blot.paths import data_dir

    return data_dir() / "bots.log"


def _open_log(command: str) -> IO[bytes]:
    path = log_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        log = path.open("ab")
    except OSError as e:
        raise BlotError(f"cannot write the bot log {path}: {e.strerror}") from None
    stamp = time.strftime("%Y-%m-%d %H:%M:%S")
    log.write(f"--- {stamp} start: {command}\n".encode())
    log.flush()
    return log


def command_argv(command: str) -> list[str]:
    """The program and its arguments, split as a shell would (without a shell); a
    :class:`BlotError` when there are none or the quotes do not close."""
    try:
        argv = shlex.split(command)
    except ValueError as e:
        raise BlotError(f"cannot read the command line {command!r}: {e}") from None
    if not argv:
        raise BlotError("cmd: needs a command line, e.g. cmd:python3 examples/bots/random_bot.py")
    return argv


@dataclass(frozen=True)
class Hello:
    """What a program says about itself."""

    name: str
    author: str
    games: tuple[str, ...]
    events: bool


class Program:
    """One running bot program."""

    def __init__(self, command: str) -> None:
        self.command = command
        self.label = f"bot program {command!r}"
        argv = command_argv(command)
        log = _open_log(command)
        try:
            self.process = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, close_fds=True
            )
        except OSError as e:
            raise BotFailed(f"{self.label} cannot start: {e.strerror or e}") from None
        finally:
            log.close()
        assert self.process.stdin is not None and self.process.stdout is not None
        self._in = self.process.stdin.fileno()
        self._out = self.process.stdout.fileno()
        os.set_blocking(self._in, False)
        self._buffer = bytearray()
        self._ids = 0
        self.hello = self._handshake()
        self.label = f"bot {self.hello.name!r} ({command})"

    def next_id(self) -> int:
        self._ids += 1
        return self._ids

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    # --- messages ---------------------------------------------------------------------------------

    def send(self, message: dict[str, Any], deadline: float) -> None:
        """Write one line; a program that stops reading until the deadline has hung."""
        data = memoryview((json.dumps(message, separators=(",", ":")) + "\n").encode())
        while data:
            try:
                written = os.write(self._in, data)
            except BlockingIOError:
                written = 0
            except (BrokenPipeError, OSError):
                raise BotFailed(self._ended()) from None
            data = data[written:]
            if data and not select.select([], [self._in], [], max(0.0, deadline - time.monotonic()))[1]:
                raise BotFailed(f"{self.label} stopped reading its input")

    def receive(self, deadline: float, waiting_for: str) -> dict[str, Any]:
        """Read one line and return it as a JSON object."""
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._out], [], [], left)[0]:
                raise BotFailed(f"{self.label} did not answer {waiting_for} in time")
            chunk = os.read(self._out, 65536)
            if not chunk:
                raise BotFailed(self._ended())
            self._buffer += chunk
            if len(self._buffer) > MAX_LINE and b"\n" not in self._buffer:
                raise BotFailed(f"{self.label} wrote a line longer than {MAX_LINE} bytes")
        end = self._buffer.index(b"\n")
        line = bytes(self._buffer[:end])
        del self._buffer[: end + 1]
        try:
            message = json.loads(line)
        except ValueError:
            message = None
        if not isinstance(message, dict):
            shown = line[:60].decode(errors="replace")
            raise BotFailed(f"{self.label} wrote {shown!r}, which is not a JSON object")
        return message

    def _ended(self) -> str:
        try:
            code = self.process.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            return f"{self.label} closed its output"
        return f"{self.label} exited (status {code})"

    def _handshake(self) -> Hello:
        deadline = time.monotonic() + HELLO_SECONDS
        try:
            self.send({"type": "hello", "protocol": PROTOCOL}, deadline)
            answer = self.receive(deadline, "hello")
            return _read_hello(self.label, answer)
        except BlotError:
            self.stop()
            raise

    # --- ending -----------------------------------------------------------------------------------

    def stop(self) -> None:
        """Kill the program (after a fault)."""
        if self.alive:
            self.process.kill()
        self._close()

    def bye(self) -> None:
        """End the session: ``bye``, then the end of its input; killed if it does not exit."""
        if self.alive:
            with contextlib.suppress(BotFailed):
                self.send({"type": "bye"}, time.monotonic() + BYE_SECONDS)
            try:
                self.process.stdin.close()  # type: ignore[union-attr]
                self.process.wait(timeout=BYE_SECONDS)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
        self._close()

    def _close(self) -> None:
        for stream in (self.process.stdin, self.process.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=BYE_SECONDS)


def _read_hello(label: str, answer: dict[str, Any]) -> Hello:
    if answer.get("type") != "hello":
        raise BotFailed(f"{label} answered {answer.get('type')!r} instead of hello")
    if answer.get("protocol") != PROTOCOL:
        raise BotFailed(f"{label} speaks protocol {answer.get('protocol')!r}; blot speaks {PROTOCOL}")
    name, author, games = answer.get("name"), answer.get("author", ""), answer.get("games")
    if not isinstance(name, str) or not name.strip() or not isinstance(author, str):
        raise BotFailed(f"{label} must give its name (and author) as text in hello")
    if not isinstance(games, list) or not all(isinstance(g, str) for g in games):
        raise BotFailed(f"{label} must list the games it plays in hello")
    return Hello(name.strip()[:60], author[:60], tuple(games), answer.get("events") is True)


class Pool:
    """Running programs that are between games, by command line; every program still running
    gets ``bye`` when blot exits."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._idle: dict[str, list[Program]] = {}
        self._all: list[Program] = []
        atexit.register(self.close)

    def take(self, command: str) -> Program:
        with self._lock:
            idle = self._idle.get(command, [])
            while idle:
                program = idle.pop()
                if program.alive:
                    return program
        program = Program(command)
        with self._lock:
            self._all = [p for p in self._all if p.alive]
            self._all.append(program)
        return program

    def give(self, program: Program) -> None:
        if program.alive:
            with self._lock:
                self._idle.setdefault(program.command, []).append(program)

    def close(self) -> None:
        with self._lock:
            programs, self._all, self._idle = self._all, [], {}
        for program in programs:
            program.bye()


POOL: Final = Pool()
