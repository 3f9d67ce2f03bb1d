"""The ``blot`` command. Each command imports what it needs when it runs, so that every command
starts fast; errors are one plain line on standard error, never a traceback."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from blot.errors import BlotError

app = typer.Typer(
    name="blot",
    help="Bazar Blot and 3-5-8: play, replay and simulate.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

GAME_NAMES = ("bazar-blot", "3-5-8")


def fail(message: str, code: int = 1) -> NoReturn:
    """Print ``error: message`` on standard error and exit."""
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(code)


def check_game(game: str) -> str:
    if game not in GAME_NAMES:
        fail(f"unknown game {game!r}: use bazar-blot or 3-5-8", 2)
    return game


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A game record (FORMAT.md).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Replay and check a game record, then print its result."""
    from blot.records import replay_file

    result = replay_file(file)
    if as_json:
        print(json.dumps(result.to_json()))
        return
    from blot.cli.render import print_replay

    print_replay(result)


@app.command()
def simulate(
    game: Annotated[str, typer.Option("--game", help="bazar-blot or 3-5-8.")] = "bazar-blot",
    games: Annotated[int, typer.Option("--games", help="How many full games.")] = 100,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the deals and the bots.")] = 0,
    bots: Annotated[str, typer.Option("--bots", help="Bots by seat in turn, e.g. random,basic.")] = "basic",
    records: Annotated[
        Path | None, typer.Option("--records", help="Write one record per line (JSON Lines) here.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Play full games between bots and report speed and statistics."""
    from blot.cli.simulate import run

    run(check_game(game), games, seed, [b for b in bots.split(",") if b.strip()], records, as_json)


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="bazar-blot or 3-5-8.")],
    seed: Annotated[int | None, typer.Option("--seed", help="Seed of the deals and the bots.")] = None,
    bots: Annotated[str, typer.Option("--bots", help="The computer players' bot.")] = "basic",
    seat: Annotated[int, typer.Option("--seat", help="Your seat (0 is first to act after dealer 3).")] = 0,
) -> None:
    """Play a whole game in the terminal against bots."""
    check_game(game)
    if game == "bazar-blot":
        from blot.cli.play_bazar import play_bazar

        play_bazar(seed, bots, seat)
    else:
        from blot.cli.play_358 import play_358

        play_358(seed, bots, seat)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``blot`` console script."""
    command = typer.main.get_command(app)
    try:
        command.main(args=argv, prog_name="blot", standalone_mode=False)
    except BlotError as e:
        fail(str(e), 1)
    except (KeyboardInterrupt, typer.Abort):
        print(file=sys.stderr)
        raise SystemExit(130) from None
    except BrokenPipeError:
        raise SystemExit(1) from None
    except Exception as e:
        # Click's errors (typer vendors click in recent releases, so they are recognised by
        # their shape): a usage error exits 2, any other 1, each as one line.
        code = getattr(e, "exit_code", None)
        if not isinstance(code, int) or not hasattr(e, "format_message"):
            raise
        if type(e).__name__ == "NoArgsIsHelpError":
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
