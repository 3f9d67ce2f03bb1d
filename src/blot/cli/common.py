"""What the commands of ``blot`` share: the options several of them take, the one-line errors
and their exit statuses, the checks of a game and of bot specs. Imported when ``blot`` starts, so
it imports nothing heavy."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from blot.errors import BlotError
from blot.games import names

if TYPE_CHECKING:
    from blot.games import GameSpec

#: The games, as the help names them, and the one commands play when none is named.
GAMES_HELP = " or ".join(names()) + "."
DEFAULT_GAME = names()[0]

# Options that several commands share, each with one help text.
GameOption = Annotated[str, typer.Option("--game", help=GAMES_HELP)]
SeedOption = Annotated[int, typer.Option("--seed", help="Seed of the deals and the bots.")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]
DbOption = Annotated[str | None, typer.Option("--db", help="Database URL (default: the one of blot serve).")]
RecordOption = Annotated[
    int | None,
    typer.Option("--record", min=1, help="In a file of one record per line: only this record (from 1)."),
]
DataDirOption = Annotated[
    Path | None, typer.Option("--data-dir", help="Folder of the default SQLite file (or $BLOT_DATA_DIR).")
]
# The real-table scoring's rules (blot score-deal, and a new sheet of blot scoresheet).
RulesetOption = Annotated[
    str | None,
    typer.Option(
        "--ruleset", help="The ruleset of the deal or of a new sheet (default: the game's first, league)."
    ),
]
KanachOption = Annotated[
    bool, typer.Option("--kanach", help="Allow the 30 (kanach) bid (in the deal or a new sheet).")
]
# The commands that are a running server's clients (blot daily, blot event trf).
DEFAULT_SERVER = "http://127.0.0.1:8000"
ServerOption = Annotated[str, typer.Option("--server", help="The blot server's address.")]
TokenOption = Annotated[
    str | None,
    typer.Option(
        "--token",
        envvar="BLOT_TOKEN",
        help="Your token (an account's or a guest's; a private event asks it).",
    ),
]

#: Exit statuses (README: Command line): bad input (a record, a file, a database) 1, a bad command line 2,
#: interrupted (Ctrl-C) 130.
BAD_INPUT, BAD_USAGE, INTERRUPTED = 1, 2, 130


class BadUsage(BlotError):
    """A bad command line found while a command runs (an argument that cannot be used): ``blot``
    prints the sentence and exits 2, as click does for what it checks itself."""


class BadOption(BadUsage):
    """A value of the command line that cannot be used, named as it was typed (``--contract``):
    ``blot`` prints ``error: --contract: …`` and exits 2, wherever in the command it was found."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(f"{option}: {message}")
        self.option = option


def fail(message: str, code: int = 1) -> NoReturn:
    """Print ``error: message`` on standard error and exit. The message is kept on one line:
    a control character (a new line in a file name, an escape code in a record) is written as
    its escape (:func:`blot.printable.printable`)."""
    from blot.printable import printable

    print(f"error: {printable(message)}", file=sys.stderr)
    raise SystemExit(code)


def check_game(game: str) -> GameSpec:
    """The game named on the command line (a bad name is a bad command line: exit 2)."""
    from blot.games import spec

    try:
        return spec(game)
    except BlotError as e:
        fail(str(e), BAD_USAGE)


def check_bots(
    game: GameSpec,
    text: str,
    option: str,
    most: int,
    each: str = "one per computer player",
    *,
    testing: bool = False,
) -> list[str]:
    """The bot specs of an option, each checked against its bot's settings (exit 2 when one is
    unknown or out of range, before anything is played); ``testing``: the fair-play tests'
    ``cheat`` too (``blot arena`` and ``blot simulate`` only)."""
    from blot.bots import check_bot, split_bot_specs

    try:
        specs = split_bot_specs(text)
    except BlotError as e:
        fail(f"{option}: {e}", BAD_USAGE)
    if not specs:
        fail(f"{option} names at least one bot, e.g. basic", BAD_USAGE)
    if len(specs) > most == 1:
        fail(f"{option} names one bot, e.g. heuristic or pimc:samples=20", BAD_USAGE)
    if len(specs) > most:
        fail(f"{option} names at most {most} bots in {game.title}, {each}: e.g. basic,random", BAD_USAGE)
    for one in specs:
        try:
            check_bot(game, one, testing=testing)
        except BlotError as e:
            fail(f"{option}: {e}", BAD_USAGE)
    return specs


def seconds(value: float) -> float:
    """A duration option: a finite number of seconds, 0 or more."""
    import math

    if not math.isfinite(value) or value < 0:
        raise typer.BadParameter(f"a number of seconds, 0 or more, not {value}")
    return value


def database(db: str | None, data_dir: Path | None) -> str:
    """The database a command uses: ``--db``, else the SQLite file of the data directory."""
    from blot.store import default_url

    return db or default_url(data_dir)


def existing_database(db: str | None, data_dir: Path | None) -> str:
    """As :func:`database`, for commands that only read or change what is there: a database that
    does not exist is refused, never created."""
    from blot.store import existing_url

    return existing_url(db, data_dir)
