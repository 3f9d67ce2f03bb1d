"""What the terminal tables of both games share: the game loop (the person is their seat's
player, the bots the others', all through :func:`blot.play.moves`), reading the person's answers
and checking them with the rules, and leaving."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from random import Random
from typing import Generic, TypeVar, cast

from rich.console import Console

from blot.bots import make_bot, split_bot_specs
from blot.errors import BlotError
from blot.game import Action, AnyGame, DealState, View
from blot.games import spec
from blot.play import Move, Player, finish, moves, when_over

Ask = Callable[[str], str]
QUIT_WORDS = ("quit", "exit", "q")


class Quit(Exception):
    """The person asked to stop (``quit``, or the end of input)."""


class EndOfInput(Quit):
    """The input ended (Ctrl-D, or a closed pipe) before the game did: not a success."""


def read_answer(ask: Ask, prompt: str) -> str:
    """One answer, stripped; ``quit`` and the end of input (Ctrl-D) raise :class:`Quit`."""
    try:
        answer = ask(prompt).strip()
    except EOFError:
        raise EndOfInput from None
    if answer.lower() in QUIT_WORDS:
        raise Quit
    return answer


def run_until_quit(run: Callable[[], None], console: Console) -> None:
    """Run a game; leaving by ``quit`` returns, the end of input exits with status 1 and Ctrl-C
    with status 130, all with no traceback."""
    try:
        run()
    except EndOfInput:
        console.print("Game left: the input ended. Goodbye.")
        raise SystemExit(1) from None
    except Quit:
        console.print("Game left. Goodbye.")
    except KeyboardInterrupt:
        console.print("\nGame left. Goodbye.")
        raise SystemExit(130) from None


def play(
    game_name: str,
    seed: int | None,
    bots: str,
    seat: int,
    *,
    ask: Ask | None = None,
    console: Console | None = None,
) -> None:
    """Play one game to the end (or until the person quits) at ``seat``, the first deal dealt so
    that the person speaks first. ``bots`` names the computer players' bot (``basic``), or one
    per computer player in turn from the seat after the person's (``basic,random``)."""
    game_spec = spec(game_name)
    if seat not in range(game_spec.seats):
        raise BlotError(f"--seat must be 0 to {game_spec.seats - 1}, not {seat}")
    rng = Random(seed)
    others = game_spec.seats - 1
    specs = split_bot_specs(bots) or ["basic"]
    if len(specs) > others:
        count = {2: "two", 3: "three"}.get(others, str(others))
        raise BlotError(f"--bots names at most {count} bots, one per computer player: e.g. basic,random")
    players = {
        (seat + 1 + i) % game_spec.seats: make_bot(
            game_spec, specs[i % len(specs)], Random(rng.getrandbits(64))
        )
        for i in range(others)
    }
    console = console or Console(highlight=False)
    game = game_spec.new_game(dealer=game_spec.first_dealer(seat), rng=Random(rng.getrandbits(64)))
    table: TerminalTable[AnyGame, DealState] = game_spec.cli_module().TABLE(
        seat, players, game, console, ask or console.input
    )
    run_until_quit(table.run, console)


G = TypeVar("G", bound=AnyGame)
D = TypeVar("D", bound=DealState)
A = TypeVar("A", bound=Action)


class TerminalTable(Generic[G, D]):
    """A game in the terminal: prints what happens and asks the person for each of their
    decisions. Each game's table says what to print (the hooks below) and how to ask."""

    def __init__(
        self,
        seat: int,
        bots: Mapping[int, Player],
        game: G,
        console: Console,
        ask: Ask,
        names: Sequence[str],
    ) -> None:
        self.seat = seat
        self.bots = bots
        self.game = game
        self.console = console
        self.ask = ask
        #: A person's word for each seat, counted from their own ("You", "Left", …).
        self.names = list(names)

    def name(self, seat: int) -> str:
        return f"{self.names[seat]} (seat {seat})"

    def run(self) -> None:
        """Play the game to its end, printing it deal by deal."""
        game = self.game
        self._start_game()
        players: list[Player] = [self.bots.get(s, self) for s in range(len(self.names))]
        try:
            while not game.is_over:
                deal = cast(D, game.deal)
                self._start_deal(deal)
                for move in moves(game, players, until=when_over(deal)):
                    self._announce(deal, move)
                self._end_deal(deal)
        finally:
            finish(game, players)  # bot programs hear that the game is over (or was left)
        self._end_game()

    # --- what each game prints -------------------------------------------------------------------

    def _start_game(self) -> None: ...

    def _start_deal(self, deal: D) -> None: ...

    def _announce(self, deal: D, move: Move) -> None: ...

    def _end_deal(self, deal: D) -> None: ...

    def _end_game(self) -> None: ...

    def choose(self, view: View) -> Action:
        """The person's decision at their turn (the table is their seat's player)."""
        raise NotImplementedError

    # --- asking ----------------------------------------------------------------------------------

    def _read(self, prompt: str) -> str:
        return read_answer(self.ask, prompt)

    def _refuse(self, reason: object) -> None:
        self.console.print(f"[red]{reason}[/]")

    def _ask_legal(self, legal: Sequence[A], prompt: str) -> A:
        """Ask until the answer is an action the rules allow now (``legal``); say why they
        refuse any other, in the rules' own words."""
        game = self.game
        while True:
            answer = self._read(prompt)
            try:
                action = game.parse_action(answer)
            except BlotError as e:
                self._refuse(e)
                continue
            if action in legal:
                return legal[legal.index(action)]
            self._refuse(game.refusal(action))
