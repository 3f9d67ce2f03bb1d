"""Issue 11, item 15: arbitrary arguments at every command of ``blot`` (read from the command
group itself, so a new command or option is fuzzed without anyone adding it here). Every run
ends with status 0, 1 or 2, a failure is exactly one ``error:`` line on standard error, and no
output holds a traceback.

Commands run in this process with empty standard input (``blot play`` and ``blot scoresheet``
end at once). What would run for long or reach outside (``simulate`` and ``arena`` after their
checks, ``serve`` after its checks, any bot program) is replaced by a stand-in: the fuzz is
about reading the command line, and the stand-ins are reached only once every check passed.
250 examples."""

from __future__ import annotations

import contextlib
import io
import json
import sys
from collections.abc import Iterator
from random import Random
from typing import Any

import pytest
import typer
from hypothesis import given, settings
from hypothesis import strategies as st

from blot.bots import make_bot
from blot.cli.main import app, main
from blot.games import spec
from blot.play import play

from .strategies import FUZZ, TEXT, examples


def _commands() -> dict[tuple[str, ...], list[Any]]:
    """Every command's path (``("admin", "list")``) and its parameters."""
    found: dict[tuple[str, ...], list[Any]] = {}

    def walk(command: Any, path: tuple[str, ...]) -> None:
        subs = getattr(command, "commands", None)
        if subs:
            for name, sub in subs.items():
                walk(sub, (*path, name))
        else:
            found[path] = list(command.params)

    walk(typer.main.get_command(app), ())
    return found


COMMANDS = _commands()


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """Files the commands may be given, a data directory of their own, and the stand-ins."""
    folder = tmp_path_factory.mktemp("fuzz-cli")
    game_spec = spec("bazar-blot")
    game = game_spec.new_game(rng=Random(3))
    play(game, [make_bot(game_spec, "random", Random(s)) for s in range(4)])
    record = json.dumps(game_spec.record_of(game))
    paths = {
        "record": folder / "game.json",
        "records": folder / "games.jsonl",
        "broken": folder / "broken.json",
        "deep": folder / "deep.json",
        "text": folder / "notes.txt",
    }
    paths["record"].write_text(record)
    paths["records"].write_text(record + "\n" + record + "\n")
    paths["broken"].write_text(record.replace('"deals"', '"deal"'))
    paths["deep"].write_text("[" * 3000 + "]" * 3000)
    paths["text"].write_text("not json")
    out = {k: str(v) for k, v in paths.items()}
    out["folder"] = str(folder)
    out["missing"] = str(folder / "missing" / "x.json")
    out["db"] = f"sqlite:///{folder / 'fuzz.sqlite3'}"
    with pytest.MonkeyPatch.context() as mp:
        import blot.bots.program
        import blot.cli.arena
        import blot.cli.simulate
        import blot.server.app

        mp.setenv("BLOT_DATA_DIR", str(folder / "data"))
        mp.chdir(folder)  # relative paths the fuzz names (--data-dir x) are made here
        mp.setattr(blot.cli.simulate, "run", lambda *args: None)
        mp.setattr(blot.cli.arena, "arena", lambda *args: None)
        mp.setattr(blot.server.app, "listen", lambda host, port: None)
        mp.setattr(blot.server.app, "serve", lambda config, sock: None)

        def no_programs(*args: Any, **kwargs: Any) -> Any:
            raise OSError("no bot programs in the fuzz")

        mp.setattr(blot.bots.program.subprocess, "Popen", no_programs)
        yield out


def _values(files: dict[str, str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(
            [
                *files.values(), "-", "0", "1", "2", "3", "5", "-1", "99999", "1e3", "1.5", "nan", "inf",
                "bazar-blot", "3-5-8", "chess", "basic", "random", "pimc:samples=2", "heuristic:boldness=abc",
                "basic,random,basic,random,basic", "10H", "25S", "98,", "98,64", "0,0", "misdeal", "league",
                "classic", "A,B", "Ani", "sqlite://", "bogus://x", "127.0.0.1", "x=cmd", "cmd:true",
            ]
        ),
        TEXT.filter(lambda t: "\x00" not in t),
    )  # fmt: skip


@st.composite
def command_lines(draw: st.DrawFn, files: dict[str, str]) -> list[str]:
    path = draw(st.sampled_from(sorted(COMMANDS)))
    params = COMMANDS[path]
    options = [o for p in params if p.param_type_name == "option" for o in p.opts]
    arguments = [p for p in params if p.param_type_name == "argument"]
    values = _values(files)
    argv = list(path)
    for _ in arguments:
        if draw(st.integers(0, 5)):
            argv.append(draw(values))
    for _ in range(draw(st.integers(0, 4))):
        argv.append(draw(st.sampled_from([*options, "--nope", "-h", "--"])) if options else "--nope")
        if draw(st.integers(0, 4)):
            argv.append(draw(values))
    return argv


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code: Any = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        stdin, sys.stdin = sys.stdin, io.StringIO("")
        try:
            main(argv)
        except SystemExit as e:
            code = e.code
        finally:
            sys.stdin = stdin
    return (0 if code is None else code), out.getvalue(), err.getvalue()


@settings(FUZZ, max_examples=examples(250))
@given(data=st.data())
def test_item15_any_command_line_ends_in_one_line_or_success(files: dict[str, str], data: Any) -> None:
    argv = data.draw(command_lines(files))
    code, out, err = run(argv)
    assert code in (0, 1, 2), (argv, code, err)
    assert "Traceback" not in out and "Traceback" not in err, (argv, err)
    if code != 0:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), (argv, err)


def test_item15_every_command_is_fuzzed() -> None:
    names = {" ".join(path) for path in COMMANDS}
    assert {"replay", "simulate", "play", "solve", "arena", "serve", "scoresheet", "score-deal"} <= names
    assert "admin list" in names
