"""Bots playing whole games against each other (``blot simulate``): throughput and statistics.

Seats take the bots of the spec list in turn (``random,basic`` puts ``random`` in seats 0 and 2
and ``basic`` in seats 1 and 3 of Bazar Blot). Every game gets its own deals from the seed, so
the same seed and bots give the same games.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from random import Random
from typing import Any

from blot.bots import make_bot
from blot.errors import BlotError
from blot.protocol import Bot

GAMES = ("bazar-blot", "3-5-8")
SEATS = {"bazar-blot": 4, "3-5-8": 3}


@dataclass
class Simulation:
    game: str
    bots: list[str]
    games: int = 0
    deals: int = 0
    seconds: float = 0.0
    counts: Counter[str] = field(default_factory=Counter)

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
        out.update(_derived(self.game, self.counts))
        return out


def _derived(game: str, c: Counter[str]) -> dict[str, Any]:
    if game == "bazar-blot":
        played = max(c["played"], 1)
        return {
            "void_deals": c["void"],
            "contracts_made_percent": round(100 * c["made"] / played, 1),
            "kapoots": c["kapoot"],
            "tars_kapoots": c["tars_kapoot"],
            "contras": c["contra"],
            "redoubles": c["redouble"],
            "wins_by_team": [c["win0"], c["win1"]],
        }
    return _derived_358(c)


def _derived_358(c: Counter[str]) -> dict[str, Any]:
    """3-5-8: how deals went (void, NT, exchanges, targets made) and how games ended."""
    games = max(c["games"], 1)
    counted = max(c["counted"], 1)
    return {
        "void_deals": c["void"],
        "no_trump_deals": c["nt"],
        "exchanges": c["exchanges"],
        "cards_exchanged": c["cards_exchanged"],
        "passes": c["passes"],
        "first_seat_made_percent": round(100 * c["first_made"] / counted, 1),
        "targets_made_percent": round(100 * c["made"] / (3 * counted), 1),
        "average_score_spread": round(c["spread"] / games, 2),
        "average_total_by_seat": [round(c[f"total{s}"] / games, 2) for s in range(3)],
        "tie_breaks": c["tie_breaks"],
        "wins_by_seat": [c["win0"], c["win1"], c["win2"]],
    }


def seat_bots(game: str, specs: list[str], rng: Random) -> list[Bot]:
    """One bot per seat, taking the specs in turn."""
    if game not in SEATS:
        raise BlotError(f"unknown game {game!r}: use bazar-blot or 3-5-8")
    if not specs:
        raise BlotError("name at least one bot")
    seats = SEATS[game]
    if len(specs) > seats:
        raise BlotError(f"{game} has {seats} seats: name at most {seats} bots")
    return [make_bot(game, specs[s % len(specs)], Random(rng.getrandbits(64))) for s in range(seats)]


def new_game(game: str, rng: Random, dealer: int) -> Any:
    if game == "bazar-blot":
        from blot.bazar import Game

        return Game(dealer=dealer, rng=rng)
    from blot.three_five_eight import Game as Game358

    return Game358(dealer=dealer, rng=rng)


def play_game(state: Any, bots: list[Bot]) -> None:
    """Play a game to its end, each seat's bot seeing only its own view."""
    while not state.is_over:
        seat = state.to_act
        state.apply(bots[seat].choose(state.view(seat)))


def count_game(game: str, state: Any, c: Counter[str]) -> int:
    """Add a finished game's statistics to ``c``; the number of deals it had."""
    c[f"win{state.winner}"] += 1
    if game == "bazar-blot":
        for deal in state.deals:
            if deal.void:
                c["void"] += 1
                continue
            c["played"] += 1
            score = deal.score
            c["made"] += bool(score and score.made)
            c["tars_kapoot"] += bool(score and score.tars_kapoot)
            c["kapoot"] += 8 in deal.team_tricks
            multiplier = deal.contract.multiplier if deal.contract else 1
            c["contra"] += multiplier >= 2
            c["redouble"] += multiplier == 4
        return len(state.deals)
    return _count_358(state, c)


def _count_358(game: Any, c: Counter[str]) -> int:
    """3-5-8: a finished game's deals and ending into ``c``; the number of deals, void ones
    included."""
    results = game.results
    c["games"] += 1
    for deal in game.deals:
        c["passes"] += sum(str(call) == "pass" for call in deal.calls)
    for r in results:
        if r.void:
            c["void"] += 1
            continue
        c["counted"] += 1
        c["nt"] += r.trump is not None and r.trump.is_no_trump
        c["exchanges"] += r.exchanged > 0
        c["cards_exchanged"] += r.exchanged
        c["made"] += sum(t >= g for t, g in zip(r.tricks, r.targets, strict=True))
        first = (r.dealer + 1) % 3
        c["first_made"] += r.tricks[first] >= r.targets[first]
    totals = game.totals
    c["spread"] += max(totals) - min(totals)
    for s in range(3):
        c[f"total{s}"] += totals[s]
    c["tie_breaks"] += sorted(totals)[-2] == max(totals)
    return len(results)


def games_played(game: str, games: int, seed: int, specs: list[str], sim: Simulation) -> Iterator[Any]:
    """Play ``games`` games, yielding each finished game after counting it into ``sim``."""
    if games < 1:
        raise BlotError("--games must be at least 1")
    master = Random(seed)
    bots = seat_bots(game, specs, master)
    seats = SEATS[game]
    start = time.perf_counter()
    for i in range(games):
        for bot in bots:
            reset: Callable[[], None] | None = getattr(bot, "reset", None)
            if reset is not None:
                reset()
        state = new_game(game, Random(master.getrandbits(64)), dealer=i % seats)
        play_game(state, bots)
        sim.games += 1
        sim.deals += count_game(game, state, sim.counts)
        sim.seconds = time.perf_counter() - start
        yield state
