"""What the terminal tables of both games share: reading the person's answers and leaving."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console

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
