"""What the contract suite needs to drive any game of the registry without knowing which: the
cases (every game and every ruleset), random legal play, and a deep snapshot of a state."""

from __future__ import annotations

import enum
import random
from collections.abc import Callable, Sequence
from random import Random
from typing import Any

from blot.cards import Notation
from blot.game import Action, AnyGame
from blot.games import names, spec, spec_of
from toygame import SPEC as TOY

#: Every game of the registry, then the tests' toy game (tests/toygame: registered for each test
#: by conftest.py), which provides no optional layer.
GAMES = [*names(), *([] if TOY.name in names() else [TOY.name])]
#: Every one of them with every one of its rulesets: (game, ruleset).
CASES = [(name, ruleset) for name in GAMES for ruleset in (TOY if name == TOY.name else spec(name)).rulesets]
CASE_IDS = [f"{name}-{ruleset}" for name, ruleset in CASES]
#: A bound on the actions of one game: a random game that runs past it does not end.
MAX_ACTIONS = 20_000


def new_game(name: str, ruleset: str, seed: int, *, own_cards: bool = True) -> AnyGame:
    """A game of ``name`` under ``ruleset`` with a seeded first dealer; with ``own_cards`` it
    deals its own cards from the seed, else it waits for each deal's cards (:func:`deal`)."""
    s = spec(name)
    rng = Random(seed)
    dealer = rng.randrange(s.seats)
    return s.new_game(s.rules(ruleset), dealer=dealer, rng=Random(rng.getrandbits(64)) if own_cards else None)


def deal(game: AnyGame, rng: Random) -> None:
    """Give a game that waits for cards its next deal, shuffled from ``rng``."""
    game.start_deal(spec_of(game).random_deal(rng))


def choose(legal: Sequence[Action], rng: Random, pass_rate: float) -> Action:
    """A random legal action; ``pass`` (when legal) with probability ``pass_rate``, so that a
    game with bidding reaches contracts of every level."""
    if rng.random() < pass_rate:
        for action in legal:
            if str(action) == "pass":
                return action
    return legal[rng.randrange(len(legal))]


def play(
    game: AnyGame,
    rng: Random,
    visit: Callable[[AnyGame], None] | None = None,
    *,
    pass_rate: float = 0.5,
    stop: int | None = None,
) -> list[Action]:
    """Random legal actions until the game is over (or ``stop`` actions), dealing cards to a game
    that waits for them; ``visit(game)`` sees every state on the way (waiting for cards too),
    the last one included. Returns the actions taken."""
    done: list[Action] = []
    while True:
        if visit is not None:
            visit(game)
        if game.is_over or (stop is not None and len(done) >= stop):
            return done
        if game.needs_cards:
            deal(game, rng)
            continue
        assert len(done) < MAX_ACTIONS, "the game does not end"
        legal = game.legal_actions()
        assert legal, f"nobody can act in phase {game.phase.value} of a game that is not over"
        action = choose(legal, rng, pass_rate)
        game.apply(action)
        done.append(action)


# --- a deep, comparable snapshot of any state --------------------------------------------------


def snapshot(obj: Any) -> Any:
    """A nested tuple of plain values equal for two states exactly when every field of them
    (slots and ``__dict__``, recursively) is equal. Notation values (cards, calls) are reduced to
    their text so that the snapshot does not depend on identity."""
    return _freeze(obj, 0)


def _freeze(obj: Any, depth: int) -> Any:
    assert depth < 40, "snapshot too deep"
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    if isinstance(obj, enum.Enum):
        return ("enum", type(obj).__name__, obj.name)
    if isinstance(obj, Notation):
        return (type(obj).__name__, obj.text)
    if isinstance(obj, (list, tuple)):
        return (type(obj).__name__, tuple(_freeze(x, depth + 1) for x in obj))
    if isinstance(obj, dict):
        return ("dict", tuple(sorted((repr(k), _freeze(v, depth + 1)) for k, v in obj.items())))
    if isinstance(obj, (set, frozenset)):
        return ("set", tuple(sorted(repr(_freeze(x, depth + 1)) for x in obj)))
    if isinstance(obj, random.Random):
        return ("random", obj.getstate())
    fields: list[tuple[str, Any]] = []
    caches = getattr(type(obj), "CACHES", ())  # what a state keeps only to answer faster
    for klass in type(obj).__mro__:
        for name in getattr(klass, "__slots__", ()):
            if hasattr(obj, name) and name not in caches:
                fields.append((name, _freeze(getattr(obj, name), depth + 1)))
    if hasattr(obj, "__dict__"):
        for name, value in sorted(vars(obj).items()):
            fields.append((name, _freeze(value, depth + 1)))
    return (type(obj).__name__, tuple(fields))
