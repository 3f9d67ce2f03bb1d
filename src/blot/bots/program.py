"""A running bot program and its pipes: JSON objects, one per line, each way, every read and
write bounded by a deadline (docs/bot-protocol.md).

The program's standard error goes to the bot log (:meth:`Pool.log_path`), never to a player:
each line prefixed with the time, the program's command line and its seat, at most
:data:`LOG_PER_MOVE` bytes per decision and :data:`LOG_PER_PROGRAM` in the program's life, then
one line saying that the rest was cut (a program writing 5 MB per move once grew the log by
hundreds of megabytes a minute, issue 22). The log's lines pass through
:func:`blot.printable.printable`, so that reading it on a terminal is safe.

A program runs in a process group (a session) of its own, and the whole group is killed when the
program is stopped, when it does not exit after ``bye`` and after it exits: a program that forks
leaves nothing behind (a child it starts in a session of its own escapes, as from any shell).

Anything that breaks the protocol raises :class:`BotFailed` with one sentence, after which the
caller stops the program. Programs are kept running between games in a :class:`Pool`: starting
one costs far more than a game's messages.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import select
import shlex
import signal
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Final

from blot.errors import BlotError, BotFailed
from blot.printable import printable

#: The protocol version blot speaks.
PROTOCOL: Final = 1
#: How long a program may take to start and answer ``hello``.
HELLO_SECONDS: Final = 10.0
#: How long a program may take to exit after ``bye`` before it is killed.
BYE_SECONDS: Final = 1.0
#: The longest line a program may write.
MAX_LINE: Final = 1 << 20
#: Bytes of standard error the bot log keeps from one program per decision (from one ``act`` to
#: the next) and in the program's whole life; the rest is dropped, with one line saying so.
LOG_PER_MOVE: Final = 16 * 1024
LOG_PER_PROGRAM: Final = 1024 * 1024
#: A longer line of standard error is cut into lines of this many bytes.
LOG_LINE: Final = 1000
LOG_FILE: Final = "bots.log"


def _open_log(path: Path, command: str) -> IO[bytes]:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        log = path.open("ab", buffering=0)
    except OSError as e:
        raise BlotError(f"cannot write the bot log {path}: {e.strerror}") from None
    stamp = time.strftime("%Y-%m-%d %H:%M:%S")
    log.write(f"--- {stamp} start: {printable(command)}\n".encode())
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


class ErrorLog:
    """Copies one program's standard error into the bot log from a thread of its own: each line
    prefixed, and no more than :data:`LOG_PER_MOVE` bytes per decision (:meth:`new_move`) and
    :data:`LOG_PER_PROGRAM` in all. The pipe is read to its end whatever is kept, so that a
    program never blocks on a full pipe."""

    def __init__(self, pipe: IO[bytes], log: IO[bytes], command: str) -> None:
        self._pipe = pipe
        self._log = log
        self._command = printable(command)
        #: The seat the program plays now (None between games); set by its bot.
        self.seat: int | None = None
        self._lock = threading.Lock()
        self._move = 0
        self._life = 0
        self._move_cut = False
        self._life_cut = False
        self._partial = b""
        self._thread = threading.Thread(target=self._run, name="blot-bot-stderr", daemon=True)
        self._thread.start()

    def new_move(self) -> None:
        """A decision starts: its own :data:`LOG_PER_MOVE` bytes."""
        with self._lock:
            self._move = 0
            self._move_cut = False

    def join(self, timeout: float) -> None:
        self._thread.join(timeout)

    def _run(self) -> None:
        try:
            while chunk := os.read(self._pipe.fileno(), 65536):
                self._take(chunk)
        except (OSError, ValueError):
            pass
        finally:
            with self._lock:
                lines = [self._partial] if self._partial else []
                self._partial = b""
                self._write(lines, None)
            for stream in (self._pipe, self._log):
                with contextlib.suppress(OSError):
                    stream.close()

    def _take(self, chunk: bytes) -> None:
        with self._lock:
            room = max(0, min(LOG_PER_MOVE - self._move, LOG_PER_PROGRAM - self._life))
            kept = chunk[:room]
            self._move += len(kept)
            self._life += len(kept)
            *lines, self._partial = (self._partial + kept).split(b"\n")
            while len(self._partial) > LOG_LINE:
                lines.append(self._partial[:LOG_LINE])
                self._partial = self._partial[LOG_LINE:]
            cut = self._cut() if len(kept) < len(chunk) else None
            if cut is not None and self._partial:
                lines.append(self._partial)
                self._partial = b""
            self._write(lines, cut)

    def _cut(self) -> str | None:
        """The line that says output was dropped, the first time it is (per decision, or for
        the rest of the program's life)."""
        if self._life_cut:
            return None
        if self._life >= LOG_PER_PROGRAM:
            self._life_cut = self._move_cut = True
            kib = LOG_PER_PROGRAM // 1024
            return f"… output cut: more than {kib} KiB from this program, the rest is not kept"
        if self._move_cut:
            return None
        self._move_cut = True
        return (
            f"… output cut: more than {LOG_PER_MOVE // 1024} KiB in one decision, the rest of it is not kept"
        )

    def _write(self, lines: list[bytes], cut: str | None) -> None:
        if not lines and cut is None:
            return
        seat = "-" if self.seat is None else str(self.seat)
        head = f"{time.strftime('%Y-%m-%d %H:%M:%S')} [{self._command}] seat {seat}: "
        texts = [printable(line.decode(errors="replace")) for line in lines]
        if cut is not None:
            texts.append(cut)
        with contextlib.suppress(OSError, ValueError):
            self._log.write("".join(f"{head}{text}\n" for text in texts).encode())


@dataclass(frozen=True)
class Hello:
    """What a program says about itself."""

    name: str
    author: str
    games: tuple[str, ...]
    events: bool


class Program:
    """One running bot program."""

    def __init__(self, command: str, log: Path | None = None) -> None:
        self.command = command
        self.label = f"bot program {command!r}"
        argv = command_argv(command)
        log_file = _open_log(log or POOL.log_path(), command)
        try:
            self.process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                close_fds=True,
                start_new_session=True,
            )
        except OSError as e:
            log_file.close()
            raise BotFailed(f"{self.label} cannot start: {e.strerror or e}") from None
        assert self.process.stdin is not None and self.process.stdout is not None
        assert self.process.stderr is not None
        self.errors = ErrorLog(self.process.stderr, log_file, command)
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
        return self._exit_status(0) is None

    def _exit_status(self, timeout: float) -> int | None:
        """The program's exit status (negative: the signal that ended it) once it has exited,
        waiting up to ``timeout`` seconds; None while it runs. The program is not reaped here:
        until :meth:`_close` reaps it, its process id stays its group's, so that the group can
        be killed without any risk of hitting another process."""
        deadline = time.monotonic() + timeout
        while True:
            if self.process.returncode is not None:
                return self.process.returncode
            try:
                info = os.waitid(os.P_PID, self.process.pid, os.WEXITED | os.WNOWAIT | os.WNOHANG)
            except ChildProcessError:
                return self.process.poll()
            if info is not None:
                return info.si_status if info.si_code == os.CLD_EXITED else -info.si_status
            if time.monotonic() >= deadline:
                return None
            time.sleep(0.01)

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
        code = self._exit_status(0.5)
        if code is None:
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
        """Kill the program and its process group (after a fault)."""
        self._close()

    def bye(self) -> None:
        """End the session: ``bye``, then the end of its input; the program and whatever it
        started are killed once it has exited, or after :data:`BYE_SECONDS` if it does not."""
        if self.alive:
            with contextlib.suppress(BotFailed):
                self.send({"type": "bye"}, time.monotonic() + BYE_SECONDS)
            with contextlib.suppress(OSError):
                self.process.stdin.close()  # type: ignore[union-attr]
            self._exit_status(BYE_SECONDS)
        self._close()

    def _close(self) -> None:
        """Kill the process group, reap the program, and let its standard error drain."""
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signal.SIGKILL)
        for stream in (self.process.stdin, self.process.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=BYE_SECONDS)
        self.errors.join(BYE_SECONDS)


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
    gets ``bye`` when blot exits. :attr:`log_folder` is where the bot log goes (``blot serve``
    sets its data directory)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._idle: dict[str, list[Program]] = {}
        self._all: list[Program] = []
        self.log_folder: Path | None = None
        atexit.register(self.close)

    def log_path(self) -> Path:
        """Where the bot programs' standard error goes: ``$BLOT_BOT_LOG``, else ``bots.log`` in
        :attr:`log_folder`, else in the data directory."""
        env = os.environ.get("BLOT_BOT_LOG")
        if env:
            return Path(env)
        if self.log_folder is not None:
            return self.log_folder / LOG_FILE
        from blot.paths import data_dir

        return data_dir() / LOG_FILE

    def take(self, command: str) -> Program:
        with self._lock:
            idle = self._idle.get(command, [])
            ended = []
            found = None
            while idle and found is None:
                program = idle.pop()
                if program.alive:
                    found = program
                else:
                    ended.append(program)
        for program in ended:
            program.stop()
        if found is not None:
            return found
        program = Program(command, self.log_path())
        with self._lock:
            self._all = [p for p in self._all if p.process.returncode is None]
            self._all.append(program)
        return program

    def give(self, program: Program) -> None:
        """Take a program back between games; one that has exited is closed (its group too)."""
        program.errors.seat = None
        if not program.alive:
            program.stop()
            return
        with self._lock:
            self._idle.setdefault(program.command, []).append(program)

    def close(self) -> None:
        with self._lock:
            programs, self._all, self._idle = self._all, [], {}
        for program in programs:
            program.bye()


POOL: Final = Pool()
