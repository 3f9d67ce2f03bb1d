"""The one play loop: players (bots, or a person at the terminal behind the same protocol) take
their turns in a game, each choosing from its own seat's view only.

``blot simulate``, ``blot arena`` and the terminal tables run games through :func:`moves`;
the server's tables move bots one turn at a time through the same :class:`~blot.game.Bot`
protocol and the same views (:mod:`blot.server.turns`).

A bot program that breaks the bot protocol (:class:`~blot.errors.BotFailed`) does not stop the
game: the documented automatic move (the game's ``auto_action``, as the server's turn
timer makes it) is played in its place and the move says why (``Move.fault``). Players may also
have ``hear(view, event)`` (with ``listens`` true: the events of the game, cut for their seat)
and ``end(view)`` (:func:`finish`: the game is over for them).

>>> from random import Random
>>> from blot.bots import make_bot
>>> from blot.games import names, spec
>>> tfe = spec(names()[1])  # 3-5-8
>>> game = tfe.new_game(rng=Random(1))
>>> players = [make_bot(tfe, "random", Random(s)) for s in range(3)]
>>> play(game, players)  # the automatic moves made for failed bot programs: none
[]
>>> game.is_over, sum(game.result.to_json()["totals"])
(True, 0)
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from blot.errors import BlotError, BotFailed, BotStopped
from blot.game import Action, AnyGame, Bot, DealState, View

if TYPE_CHECKING:
    from blot.wire import Wire

Player = Bot[View, Action]
log = logging.getLogger("blot.bots")


@dataclass(frozen=True, slots=True)
class Move:
    """One turn taken: who, what, and the game's phase before it (the phase says what a card
    meant: a 3-5-8 card is a gift, a discard or a play)."""

    seat: int
    action: Action
    before: Enum
    #: Why the seat's bot program failed, when this is the automatic move made in its place.
    fault: BotFailed | None = None


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
    yield each move after it is applied. A player's illegal choice raises ``IllegalAction``; a bot
    program's failure makes the automatic move instead."""
    listeners = [s for s, p in enumerate(players) if getattr(p, "listens", False)]
    wire = _wire(game) if listeners else None
    while not until(game):
        seat = game.to_act
        if seat is None:
            raise BlotError("nobody is to act: the game waits for the next deal's cards")
        fault = None
        see = getattr(players[seat], "see", None)
        if see is not None:  # the fair-play tests' cheat only (blot.bots.cheat): arena and simulate
            see(game, seat)
        try:
            action = players[seat].choose(game.view(seat))
        except BotFailed as e:
            if not isinstance(e, BotStopped):
                log.warning("seat %d: %s; it was stopped and the automatic move was made", seat, e)
            fault = e
            wire = wire or _wire(game)
            action = game.auto_action()
        before = game.phase
        game.apply(action)
        if listeners and wire is not None:
            public, private = wire.event(game, seat, action, before)
            for s in listeners:
                players[s].hear(game.view(s), public | private.get(s, {}))  # type: ignore[attr-defined]
        yield Move(seat, action, before, fault)


def _wire(game: AnyGame) -> Wire:
    from blot.games import spec_of

    return spec_of(game).wire_module()


def play(
    game: AnyGame, players: Sequence[Player], until: Callable[[AnyGame], bool] = game_over
) -> list[Move]:
    """Play on until ``until(game)`` (by default, the end of the game); the automatic moves made
    for failed bot programs."""
    return [move for move in moves(game, players, until) if move.fault is not None]


def finish(game: AnyGame, players: Sequence[object]) -> None:
    """Tell each player that has ``end(view)`` that the game is over for it (finished, or
    stopped here: a duplicate deal played, a person quit), with its seat's last view."""
    for seat, player in enumerate(players):
        method = getattr(player, "end", None)
        if callable(method):
            method(game.view(seat))


def reset(players: Sequence[object]) -> None:
    """Call each player's ``reset()``, where it has one (before a new game or duplicate deal)."""
    for player in players:
        method = getattr(player, "reset", None)
        if callable(method):
            method()
