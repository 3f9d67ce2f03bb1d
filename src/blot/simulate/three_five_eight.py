"""What ``blot simulate`` counts for 3-5-8: how deals went (void, NT, exchanges, targets made)
and how games ended."""

from __future__ import annotations

from collections import Counter
from typing import Any

from blot.game import AnyGame
from blot.three_five_eight import SEATS, Game


def count(game: AnyGame, c: Counter[str]) -> int:
    """Add a finished game's deals and ending to ``c``; the number of deals, void ones included."""
    assert isinstance(game, Game)
    c[f"win{game.winner}"] += 1
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
        first = (r.dealer + 1) % SEATS
        c["first_made"] += r.tricks[first] >= r.targets[first]
    totals = game.totals
    c["spread"] += max(totals) - min(totals)
    for s in range(SEATS):
        c[f"total{s}"] += totals[s]
    c["tie_breaks"] += sorted(totals)[-2] == max(totals)
    return len(results)


def derived(c: Counter[str]) -> dict[str, Any]:
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
        "average_total_by_seat": [round(c[f"total{s}"] / games, 2) for s in range(SEATS)],
        "tie_breaks": c["tie_breaks"],
        "wins_by_seat": [c["win0"], c["win1"], c["win2"]],
    }
