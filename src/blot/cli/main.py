"""The ``blot`` command. Each command imports what it needs when it runs, so that every command
starts fast; errors are one plain line on standard error, never a traceback."""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from blot.cli.admin_commands import admin
from blot.cli.common import (
    BAD_INPUT,
    BAD_USAGE,
    DEFAULT_GAME,
    DEFAULT_SERVER,
    GAMES_HELP,
    INTERRUPTED,
    BadUsage,
    DataDirOption,
    DbOption,
    GameOption,
    JsonOption,
    KanachOption,
    RecordOption,
    RulesetOption,
    SeedOption,
    ServerOption,
    TokenOption,
    check_bots,
    check_game,
    database,
    existing_database,
    fail,
)
from blot.cli.serve import serve
from blot.errors import BlotError

app = typer.Typer(
    name="blot",
    help="Bazar Blot and 3-5-8: play, replay and simulate.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        print(f"blot {version('blot')}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option("--version", help="Print blot's version and exit.", callback=_version, is_eager=True),
    ] = False,
) -> None:
    """Bazar Blot and 3-5-8: play, replay and simulate."""


@app.command()
def replay(
    file: Annotated[
        str,
        typer.Argument(
            help="A game record (docs/format.md), or a file of one record per line; - reads standard input."
        ),
    ],
    record: RecordOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object per record.")] = False,
) -> None:
    """Replay and check game records, then print their results."""
    from blot.cli.replay import run

    run(file, record, as_json)


@app.command()
def simulate(
    game: GameOption = DEFAULT_GAME,
    games: Annotated[int, typer.Option("--games", min=1, help="How many full games.")] = 100,
    seed: SeedOption = 0,
    bots: Annotated[str, typer.Option("--bots", help="Bots by seat in turn, e.g. random,basic.")] = "basic",
    records: Annotated[
        Path | None, typer.Option("--records", help="Write one record per line (JSON Lines) here.")
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Play full games between bots and report speed and statistics."""
    from blot.cli.simulate import run

    game_spec = check_game(game)
    specs = check_bots(game_spec, bots, "--bots", game_spec.seats, "one per seat in turn", testing=True)
    run(game_spec.name, games, seed, specs, records, as_json)


@app.command()
def play(
    game: Annotated[str, typer.Argument(help=GAMES_HELP)],
    seed: Annotated[int | None, typer.Option("--seed", help="Seed of the deals and the bots.")] = None,
    bots: Annotated[str, typer.Option("--bots", help="The computer players' bot.")] = "basic",
    seat: Annotated[
        int, typer.Option("--seat", help="Your seat; the first deal is dealt so that you call first.")
    ] = 0,
) -> None:
    """Play a whole game in the terminal against bots."""
    game_spec = check_game(game)
    if seat not in range(game_spec.seats):
        fail(f"--seat is a seat from 0 to {game_spec.seats - 1} in {game_spec.title}, not {seat}", BAD_USAGE)
    check_bots(game_spec, bots, "--bots", game_spec.seats - 1)
    from blot.cli.terminal import play as play_in_terminal

    play_in_terminal(game_spec.name, seed, bots, seat)


@app.command()
def daily(
    server: ServerOption = DEFAULT_SERVER,
    game: Annotated[
        str | None,
        typer.Option("--game", help="The game of the day's set (default: the first not finished)."),
    ] = None,
    ruleset: Annotated[
        str | None, typer.Option("--ruleset", help="Its ruleset, where it offers several.")
    ] = None,
    name: Annotated[str, typer.Option("--name", help="Your name as a guest (without --token).")] = "Terminal",
    token: TokenOption = None,
) -> None:
    """Play the day's deals of a running server in the terminal, then see the day's results."""
    from rich.console import Console

    from blot.cli.daily import run as run_daily
    from blot.cli.terminal import run_until_quit

    run_until_quit(lambda: run_daily(server, game, ruleset, name, token), Console())


@app.command("score-deal")
def score_deal(
    contract: Annotated[str | None, typer.Option("--contract", help="The bid, e.g. 10H, 12NT, 25S.")] = None,
    team: Annotated[
        int | None, typer.Option("--team", help="The contracting team (or the team at fault).")
    ] = None,
    contra: Annotated[bool, typer.Option("--contra", help="The bid was contra'd (x2).")] = False,
    redouble: Annotated[bool, typer.Option("--redouble", help="The contra was redoubled (x4).")] = False,
    card_points: Annotated[
        str | None, typer.Option("--card-points", help="Team 0,team 1 card points; one may be left out: 98,")
    ] = None,
    kapoot: Annotated[int | None, typer.Option("--kapoot", help="The team that took every trick.")] = None,
    alone: Annotated[
        bool, typer.Option("--alone", help="Kanach: the declarer took every trick himself.")
    ] = False,
    declarations: Annotated[
        str | None, typer.Option("--declarations", help="Counting declaration points, team 0,team 1.")
    ] = None,
    belote: Annotated[int | None, typer.Option("--belote", help="The team holding belote-rebelote.")] = None,
    void: Annotated[bool, typer.Option("--void", help="A void deal (all passed, four sevens).")] = False,
    penalty: Annotated[
        str | None, typer.Option("--penalty", help="misdeal or misplay (B-72), with --team.")
    ] = None,
    ruleset: RulesetOption = None,
    kanach: KanachOption = False,
    as_json: JsonOption = False,
) -> None:
    """Score one deal of a real-table game (the score sheet's rules, B-50 … B-55, B-72)."""
    from blot.cli.score_deal import entry_from_flags, rules_from_flags, run

    rules = rules_from_flags(ruleset, kanach)
    entry = entry_from_flags(
        void=void,
        penalty=penalty,
        contract=contract,
        team=team,
        multiplier=4 if redouble else 2 if contra else 1,
        card_points=card_points,
        kapoot=kapoot,
        alone=alone,
        declarations=declarations,
        belote=belote,
    )
    run(entry, rules, as_json)


@app.command("scoresheet")
def scoresheet(
    db: DbOption = None,
    data_dir: DataDirOption = None,
    sheet: Annotated[str | None, typer.Option("--sheet", help="Open this sheet (its id).")] = None,
    new: Annotated[bool, typer.Option("--new", help="Start a new sheet.")] = False,
    teams: Annotated[
        str | None, typer.Option("--teams", help="A new sheet's team names: 'Team A,Team B'.")
    ] = None,
    ruleset: RulesetOption = None,
    kanach: KanachOption = False,
    target: Annotated[int, typer.Option("--target", help="A new sheet's game target.")] = 301,
    by: Annotated[
        str | None, typer.Option("--by", help="Your name in the sheet's history (default: terminal).")
    ] = None,
) -> None:
    """Keep the score sheet (Davtar) of a game played with real cards, in blot serve's database."""
    from blot.cli.scoresheet import checked_options
    from blot.cli.scoresheet import scoresheet as keep_sheet

    checked_options(teams, ruleset, kanach, target, by)  # before the data directory is made
    keep_sheet(
        database(db, data_dir),
        sheet_id=sheet,
        new=new,
        teams=teams,
        ruleset=ruleset,
        kanach=kanach,
        target=target,
        by=by,
    )


event = typer.Typer(
    help="League events: standings of an exported event or a TRF, an event's TRF.", no_args_is_help=True
)
app.add_typer(event, name="event")


@event.command("standings")
def event_standings(
    file: Annotated[
        Path, typer.Argument(help="An exported event: the JSON of GET /api/events/ID, or its TRF (.trf).")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print the standings as JSON.")] = False,
) -> None:
    """Print the standings of an exported event or a TRF, recomputed from its rounds (match
    points, then the tie-breaks of its format; a duplicate event's percent)."""
    from blot.cli.event import print_standings

    print_standings(file, as_json)


@event.command("trf")
def event_trf(
    event_id: Annotated[str, typer.Argument(metavar="EVENT", help="The event's id.")],
    server: ServerOption = DEFAULT_SERVER,
    token: TokenOption = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write the TRF to this file.")] = None,
) -> None:
    """Print an event's TRF (FIDE's tournament report) from a server; `blot event standings
    FILE.trf` reads it back."""
    from blot.cli.event import fetch_trf

    fetch_trf(event_id, server, token, out)


app.add_typer(admin, name="admin")
app.command()(serve)


@app.command()
def solve(
    file: Annotated[
        str,
        typer.Argument(
            help="A Bazar Blot record (docs/format.md), or a file of one record per line; "
            "- reads standard input."
        ),
    ],
    deal: Annotated[int, typer.Option("--deal", min=1, help="Which deal, counting from 1.")] = 1,
    after: Annotated[
        int, typer.Option("--after", min=0, help="Solve after this many cards of its play.")
    ] = 0,
    record: RecordOption = None,
    as_json: JsonOption = False,
) -> None:
    """Double-dummy value of each legal card of the seat to act in a recorded deal."""
    from blot.cli.solve import run

    run(file, deal, after, as_json, record)


@app.command()
def analyse(
    file: Annotated[
        str,
        typer.Argument(
            help="A game record (docs/format.md), or a file of one record per line, analysed record "
            "by record; - reads standard input."
        ),
    ],
    deal: Annotated[
        int | None, typer.Option("--deal", min=1, help="Only this deal, counting from 1.")
    ] = None,
    record: RecordOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object per record.")] = False,
) -> None:
    """Value every card of a recorded game by double-dummy: each card's loss, the dd table."""
    from blot.cli.analyse import run

    run(file, deal, as_json, record)


def _pair(value: str | None) -> str | None:
    """``--pair`` checked as it is read: a bad value is a usage error (exit status 2)."""
    if value is not None:
        from blot.cli.fairplay import parse_pair

        try:
            parse_pair(value)
        except BlotError as e:
            raise typer.BadParameter(str(e)) from None
    return value


@app.command()
def fairplay(
    files: Annotated[
        list[str],
        typer.Argument(
            help="Game records (docs/format.md) of one game, or files of one record per line; "
            "- reads standard input."
        ),
    ],
    pair: Annotated[
        str | None,
        typer.Option("--pair", help="Only this pair of partners and its two accounts: A,B.", callback=_pair),
    ] = None,
    samples: Annotated[
        int, typer.Option("--samples", min=2, help="Deals of the hidden cards sampled per decision.")
    ] = 16,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the sampled deals.")] = 0,
    bidding: Annotated[
        bool, typer.Option("--bidding/--no-bidding", help="Also each call against par (Bazar Blot).")
    ] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Fair-play figures for the Court of Conduct: accuracies and the test of information (L-9)."""
    from blot.cli.fairplay import run

    run(files, pair, as_json, samples, seed, bidding)


puzzles = typer.Typer(
    help="Puzzles mined from finished games: mine them from records into blot serve's database, "
    "export them as JSON lines.",
    no_args_is_help=True,
)
app.add_typer(puzzles, name="puzzles")


@puzzles.command("mine")
def puzzles_mine(
    files: Annotated[
        list[str],
        typer.Argument(
            help="Game records (docs/format.md), or files of one record per line; - reads standard input."
        ),
    ],
    db: DbOption = None,
    data_dir: DataDirOption = None,
) -> None:
    """Analyse every finished game of the files and keep its puzzles in the database."""
    from blot.cli.puzzles import mine

    mine(files, database(db, data_dir))


@puzzles.command("export")
def puzzles_export(
    game: Annotated[str | None, typer.Option("--game", help="Only this game's puzzles.")] = None,
    db: DbOption = None,
    data_dir: DataDirOption = None,
) -> None:
    """Write every puzzle as one JSON object per line (docs/protocol.md, "Puzzle lines")."""
    from blot.cli.puzzles import export

    export(existing_database(db, data_dir), None if game is None else check_game(game).name)


@app.command()
def arena(
    game: GameOption = DEFAULT_GAME,
    a: Annotated[str, typer.Option("--a", help="Bot A, NAME[:key=value,...].")] = "heuristic",
    b: Annotated[str, typer.Option("--b", help="Bot B, NAME[:key=value,...].")] = "basic",
    deals: Annotated[int, typer.Option("--deals", min=1, help="Duplicate deals to play.")] = 100,
    seed: SeedOption = 0,
    games: Annotated[
        int,
        typer.Option("--games", min=0, help="Play this many full games instead and report A's win rate."),
    ] = 0,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs",
            min=1,
            help="Worker processes, at most the machine's cores (the result does not change).",
        ),
    ] = 1,
    dd_loss: Annotated[
        bool,
        typer.Option("--dd-loss", help="Also value every card by double-dummy: each side's loss per deal."),
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Bot A against bot B on duplicate deals: mean margin per deal with a 95% interval."""
    import os

    from blot.cli.arena import arena as run_arena

    game_spec = check_game(game)
    (a_spec,) = check_bots(game_spec, a, "--a", 1, "bot A", testing=True)
    (b_spec,) = check_bots(game_spec, b, "--b", 1, "bot B", testing=True)
    if dd_loss and games:
        fail("--dd-loss measures duplicate deals: leave out --games", 2)
    jobs = min(jobs, os.cpu_count() or 1)
    run_arena(game_spec.name, a_spec, b_spec, deals, seed, games, jobs, as_json, dd_loss)


def _notice(text: str) -> None:
    print(f"blot: {text}", file=sys.stderr, flush=True)


@functools.cache
def _command() -> Any:  # typer's vendored click.Command
    """The click command of :data:`app`, built once per process: typer builds it by inspecting
    every command's signature (about 50 ms), which a process that calls :func:`main` many times
    (the CLI's fuzz test: 250 command lines) paid on every call."""
    return typer.main.get_command(app)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``blot`` console script."""
    from blot import notice

    notice.hook = _notice
    command = _command()
    try:
        command.main(args=argv, prog_name="blot", standalone_mode=False)
    except BadUsage as e:
        fail(str(e), BAD_USAGE)
    except BlotError as e:
        fail(str(e), BAD_INPUT)
    except (KeyboardInterrupt, typer.Abort):
        print(file=sys.stderr)
        raise SystemExit(INTERRUPTED) from None
    except BrokenPipeError:
        raise SystemExit(BAD_INPUT) from None
    except RecursionError:
        fail("the input is nested too deeply to be read", BAD_INPUT)
    except Exception as e:
        # Click's errors (typer vendors click in recent releases, so they are recognised by
        # their shape): a usage error exits 2, any other 1, each as one line.
        code = getattr(e, "exit_code", None)
        if not isinstance(code, int) or not hasattr(e, "format_message"):
            raise
        if type(e).__name__ == "NoArgsIsHelpError":  # ``blot``, ``blot admin``: their help
            print(e.format_message())
            raise SystemExit(0) from None
        fail(_usage_message(e), code)


def _usage_message(e: Exception) -> str:
    message = " ".join(e.format_message().split())  # type: ignore[attr-defined]
    ctx = getattr(e, "ctx", None)
    if ctx is None:
        return message
    return f"{message} (see '{ctx.command_path} --help')"


if __name__ == "__main__":
    main()
