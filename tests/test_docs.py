"""Issue 23, item 7: every command the documentation shows is a real command with real options.

The README and every guide under ``docs/`` are read; each ``blot …`` they show (in code spans, in
``sh`` blocks, on ``$`` lines of ``text`` blocks) must name commands that ``blot`` has, and each
``--option`` it writes must be an option of one of the commands it names. The options of
``blot serve`` listed in a table (a row starting with ``| `--…``) are checked the same way. The
examples that can run are run by ``tests/test_readme.py``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import typer

from blot.cli.main import app

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
ROOT_COMMAND: Any = typer.main.get_command(app)


def _shown(text: str) -> list[str]:
    """Every ``blot …`` command line the text shows."""
    spans = re.findall(r"`(blot(?: [^`]*)?)`", text)
    for language, body in re.findall(r"```(\w*)\n(.*?)```", text, re.S):
        for line in body.splitlines():
            line = line.removeprefix("$ ").strip()
            if language in ("sh", "text", "") and (line.startswith("blot ") or line == "blot"):
                spans.append(line.partition("   #")[0])
    return spans


def _is_group(command: Any) -> bool:
    """Typer's groups are click groups of the click typer ships with: known by their commands."""
    return isinstance(getattr(command, "commands", None), dict)


def _options(command: Any) -> set[str]:
    return {name for p in command.params for name in (*p.opts, *p.secondary_opts)} | {"--help"}


def _resolve(line: str) -> tuple[list[Any], str]:
    """The commands a line names (a group's alternatives ``a | b`` name several) and what is wrong,
    if anything: a word where a command of a group is due (after the group, or after `` | ``) must
    be one of its commands, and each option one of the named commands' options."""
    # ``a | b`` (spaced) are alternative commands; ``sages|conduct`` alternative values of one word
    words = [w for w in re.split(r"[\s\[\]]+", line.replace("\\|", "|")) if w]
    assert words[0] == "blot"
    command: Any = ROOT_COMMAND
    named: list[Any] = [command]
    due = True  # a command of ``command`` comes next
    for word in words[1:]:
        if word == "|":
            due = _is_group(command)
            continue
        if word.startswith("-") or not due or not _is_group(command):
            due = False
            continue
        if word not in command.commands:
            where = "" if command is ROOT_COMMAND else f" of {command.name}"
            return named, f"no command {word!r}{where}"
        inner = command.commands[word]
        if _is_group(inner):
            command, named = inner, [inner]
        else:
            named = [c for c in named if c is not command] + [inner]
            due = False
    options = set().union(*(_options(c) for c in named))
    for word in words:
        for option in re.findall(r"^(--?[a-z][a-z0-9-]*)", word.replace("/", " ").split()[0]):
            if option not in options and option != "--version":
                return named, f"no option {option} of {' / '.join(c.name or 'blot' for c in named)}"
        for alternative in re.findall(r"/(--[a-z][a-z0-9-]*)", word):
            if alternative not in options:
                return named, f"no option {alternative}"
    return named, ""


def _leaves(command: Any, path: tuple[str, ...] = ()) -> list[tuple[str, Any]]:
    """Every command ``blot --help`` leads to, as typed (``admin chat``), with its command."""
    if not _is_group(command):
        return [(" ".join(path), command)]
    return [leaf for name, inner in command.commands.items() for leaf in _leaves(inner, (*path, name))]


CASES = [(doc.relative_to(ROOT).as_posix(), line) for doc in DOCS for line in _shown(doc.read_text("utf-8"))]


def test_the_docs_show_many_commands() -> None:
    assert len(CASES) >= 50
    assert {doc for doc, _ in CASES} >= {"README.md"}


@pytest.mark.parametrize(("doc", "line"), CASES, ids=[f"{d}: {line}" for d, line in CASES])
def test_a_documented_command_is_real(doc: str, line: str) -> None:
    _, wrong = _resolve(line)
    assert not wrong, f"{doc}: `{line}`: {wrong}"


def test_every_command_of_blot_help_is_documented() -> None:
    """Issue 39, item 6: the docs are checked both ways. Every command and subcommand that
    ``blot --help`` leads to is shown (``blot …``) in the README or a guide under docs/, and
    every command of ``blot --help`` in the README (its table), the other way round from
    :func:`test_a_documented_command_is_real`; ``blot event`` and ``blot admin organizer | court |
    decision`` were in no table."""
    shown = {id(c) for _, line in CASES for c in _resolve(line)[0]}
    missing = [path for path, command in _leaves(ROOT_COMMAND) if id(command) not in shown]
    assert not missing, f"commands no doc shows: {missing}"
    readme = {id(c) for doc, line in CASES if doc == "README.md" for c in _resolve(line)[0]}
    top = {path.split()[0] for path, command in _leaves(ROOT_COMMAND) if id(command) in readme}
    assert top == set(ROOT_COMMAND.commands), set(ROOT_COMMAND.commands) - top


def test_every_serve_option_in_a_table_is_real() -> None:
    serve = ROOT_COMMAND.commands["serve"]
    listed = {
        option
        for doc in DOCS
        for option in re.findall(r"^\| `(--[a-z][a-z0-9-]*)", doc.read_text("utf-8"), re.M)
    }
    assert listed, "no table of blot serve's options"
    assert listed <= _options(serve), listed - _options(serve)


@pytest.mark.parametrize(
    ("line", "wrong"),
    [
        ("blot serve --no-such-option", "no option --no-such-option of serve"),
        ("blot fly", "no command 'fly'"),
        ("blot admin fly NAME", "no command 'fly' of admin"),
        ("blot admin list \\| fly NAME", "no command 'fly' of admin"),
        ("blot event standings FILE | fly", "no command 'fly' of event"),
        ("blot admin list --seed 3", "no option --seed of list"),
        ("blot arena --a/--c", "no option --c"),
    ],
)
def test_the_check_finds_what_is_wrong(line: str, wrong: str) -> None:
    assert _resolve(line)[1] == wrong
