"""Bots playing whole games against each other (``blot simulate``): throughput and statistics.

Seats take the bots of the spec list in turn (``random,basic`` puts ``random`` in seats 0 and 2
and ``basic`` in seats 1 and 3 of Bazar Blot). Every game gets its own deals from the seed, so
the same seed and bots give the same games. What is counted for each game is the module its spec
names (:mod:`blot.simulate.bazar`, :mod:`blot.simulate.three_five_eight`).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from random import Random
from typing import Any

from blot.bots import make_bot
from blot.errors import BlotError, BotStopped
from blot.game import AnyGame
from blot.games import GameSpec, spec
from blot.play import Player, finish, play, reset


@dataclass
class Simulation:
    game: str
    bots: list[str]
    games: int = 0
    deals: int = 0
    seconds: float = 0.0
    counts: Counter[str] = field(default_factory=Counter)
    #: Bot programs stopped for breaking the protocol, and the automatic moves made for them.
    stopped: int = 0
    automatic_moves: int = 0

    def to_json(self) -> dict[str, Any]:
        seconds = max(self.seconds, 1e-9)
        out: dict[str, Any] = {
            "game": self.game,
            "bots": self.bots,
            "games": self.games,
            "deals": self.deals,
            "seconds": round(self.seconds, 3),
            "deals_per_second": round(self.deals / seconds, 1),
            "games_per_second": round(self.games / seconds, 2),
            "deals_per_game": round(self.deals / max(self.games, 1), 2),
        }
        out.update(spec(self.game).stats_module().derived(self.counts))
        if self.automatic_moves:
            out["bot_faults"] = {"stopped": self.stopped, "automatic_moves": self.automatic_moves}
        return out


def seat_bots(game: GameSpec, specs: list[str], rng: Random) -> list[Player]:
    """One bot per seat, taking the specs in turn."""
    if not specs:
        raise BlotError("name at least one bot")
    if len(specs) > game.seats:
        raise BlotError(f"{game.name} has {game.seats} seats: name at most {game.seats} bots")
    return [
        make_bot(game, specs[s % len(specs)], Random(rng.getrandbits(64)), testing=True)
        for s in range(game.seats)
    ]


def games_played(game: str, games: int, seed: int, specs: list[str], sim: Simulation) -> Iterator[AnyGame]:
    """Play ``games`` games, yielding each finished game after counting it into ``sim``."""
    game_spec = spec(game)
    if games < 1:
        raise BlotError("--games must be at least 1")
    stats = game_spec.stats_module()
    master = Random(seed)
    bots = seat_bots(game_spec, specs, master)
    start = time.perf_counter()
    for i in range(games):
        reset(bots)
        state = game_spec.new_game(dealer=i % game_spec.seats, rng=Random(master.getrandbits(64)))
        automatic = play(state, bots)
        finish(state, bots)
        sim.automatic_moves += len(automatic)
        sim.stopped += sum(not isinstance(move.fault, BotStopped) for move in automatic)
        sim.games += 1
        sim.deals += stats.count(state, sim.counts)
        sim.seconds = time.perf_counter() - start
        yield state
