"""The one play loop: players (bots, or a person at the terminal behind the same protocol) take
their turns in a game, each choosing from its own seat's view only.

``blot simulate``, ``blot arena`` and the terminal tables run games through :func:`moves`;
the server's tables move bots one turn at a time through the same :class:`~blot.game.Bot`
protocol and the same views (:mod:`blot.server.turns`).

>>> from random import Random
>>> from blot.bots import make_bot
>>> from blot.games import spec
>>> game = spec("3-5-8").new_game(rng=Random(1))
>>> players = [make_bot("3-5-8", "random", Random(s)) for s in range(3)]
>>> play(game, players)
>>> game.is_over, sum(game.result.to_json()["totals"])
(True, 0)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum

from blot.errors import BlotError
from blot.game import Action, AnyGame, Bot, DealState, View

Player = Bot[View, Action]


@dataclass(frozen=True, slots=True)
class Move:
    """One turn taken: who, what, and the game's phase before it (the phase says what a card
    meant: a 3-5-8 card is a gift, a discard or a play)."""

    seat: int
    action: Action
    before: Enum


def game_over(game: AnyGame) -> bool:
    return game.is_over


def deal_over(game: AnyGame) -> bool:
    """Stop when the deal in progress is over (duplicate deals in the arena)."""
    deal = game.deal
    return deal is not None and deal.is_over


def when_over(deal: DealState) -> Callable[[AnyGame], bool]:
    """Stop when ``deal`` is over, even in a game that deals its next deal at once."""
    return lambda _game: deal.is_over


def moves(
    game: AnyGame, players: Sequence[Player], until: Callable[[AnyGame], bool] = game_over
) -> Iterator[Move]:
    """Let the seat to act choose from its own view and apply its choice, until ``until(game)``;
    yield each move after it is applied. A player's illegal choice raises ``IllegalAction``."""
    while not until(game):
        seat = game.to_act
        if seat is None:
            raise BlotError("nobody is to act: the game waits for the next deal's cards")
        action = players[seat].choose(game.view(seat))
        before = game.phase
        game.apply(action)
        yield Move(seat, action, before)


def play(game: AnyGame, players: Sequence[Player], until: Callable[[AnyGame], bool] = game_over) -> None:
    """Play on until ``until(game)`` (by default, the end of the game)."""
    for _ in moves(game, players, until):
        pass


def reset(players: Sequence[object]) -> None:
    """Call each player's ``reset()``, where it has one (before a new game or duplicate deal)."""
    for player in players:
        method = getattr(player, "reset", None)
        if callable(method):
            method()
