"""What the terminal tables of both games share: reading the person's answers and leaving."""

from __future__ import annotations

from collections.abc import Callable
from random import Random

from rich.console import Console

from blot.bots import make_bot, split_bot_specs
from blot.errors import BlotError
from blot.games import spec
from blot.play import Player

Ask = Callable[[str], str]
QUIT_WORDS = ("quit", "exit", "q")


class Quit(Exception):
    """The person asked to stop (``quit``, or the end of input)."""


def read_answer(ask: Ask, prompt: str) -> str:
    """One answer, stripped; ``quit`` and the end of input (Ctrl-D) raise :class:`Quit`."""
    try:
        answer = ask(prompt).strip()
    except EOFError:
        raise Quit from None
    if answer.lower() in QUIT_WORDS:
        raise Quit
    return answer


def run_until_quit(run: Callable[[], None], console: Console) -> None:
    """Run a game; leaving by ``quit`` returns, Ctrl-C exits with status 130, both with no
    traceback."""
    try:
        run()
    except Quit:
        console.print("Game left. Goodbye.")
    except KeyboardInterrupt:
        console.print("\nGame left. Goodbye.")
        raise SystemExit(130) from None


def seat_bots(game: str, bots: str, seat: int, rng: Random) -> dict[int, Player]:
    """The computer players of a terminal game: ``bots`` names one bot for all of them
    (``basic``) or one per computer player in turn from the seat after the person's
    (``basic,random``)."""
    game_spec = spec(game)
    others = game_spec.seats - 1
    specs = split_bot_specs(bots) or ["basic"]
    if len(specs) > others:
        count = {2: "two", 3: "three"}.get(others, str(others))
        raise BlotError(f"--bots names at most {count} bots, one per computer player: e.g. basic,random")
    return {
        (seat + 1 + i) % game_spec.seats: make_bot(
            game_spec, specs[i % len(specs)], Random(rng.getrandbits(64))
        )
        for i in range(others)
    }
