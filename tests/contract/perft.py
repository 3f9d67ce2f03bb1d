"""Perft (after chess engines' move-path enumeration): the number of legal action sequences of
each length from a position, counted through the one game interface. Pinned in
``data/perft.json`` for positions of seeded games of every game and ruleset, so that a change of
any rule's effect on what is legal changes a number.

A position is a game of the registry (``helpers.new_game``: seeded first dealer and deals) after
``steps`` actions, each drawn by a seeded generator from the legal actions sorted by their text
(so the positions do not depend on the order in which an engine lists its actions).
"""

from __future__ import annotations

from random import Random

from blot.game import AnyGame

from .helpers import new_game


def position(name: str, ruleset: str, seed: int, steps: int) -> AnyGame:
    """The game ``name`` under ``ruleset`` from ``seed`` after ``steps`` seeded actions."""
    game = new_game(name, ruleset, seed)
    rng = Random(seed)
    for _ in range(steps):
        legal = sorted(game.legal_actions(), key=str)
        assert legal, "the position lies past the end of the game"
        game.apply(legal[rng.randrange(len(legal))])
    return game


def perft(game: AnyGame, depth: int) -> list[int]:
    """The number of legal action sequences of length 1 … ``depth`` from ``game`` (a sequence
    that reaches the end of the game sooner counts for no longer length)."""
    counts = [0] * depth
    _count(game, depth, counts, 0)
    return counts


def _count(game: AnyGame, depth: int, counts: list[int], level: int) -> None:
    legal = game.legal_actions()
    counts[level] += len(legal)
    if level + 1 == depth:
        return
    for action in legal:
        child = game.copy()
        child.apply(action)
        _count(child, depth, counts, level + 1)
