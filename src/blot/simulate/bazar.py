"""What ``blot simulate`` counts for Bazar Blot: void deals, contracts made, kapoots, contras and
redoubles, and the games each team won."""

from __future__ import annotations

from collections import Counter
from typing import Any

from blot.bazar import Game
from blot.game import AnyGame


def count(game: AnyGame, c: Counter[str]) -> int:
    """Add a finished game's statistics to ``c``; the number of deals it had."""
    assert isinstance(game, Game)
    c[f"win{game.winner}"] += 1
    for deal in game.deals:
        if deal.is_void:
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
    return len(game.deals)


def derived(c: Counter[str]) -> dict[str, Any]:
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
