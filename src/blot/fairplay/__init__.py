"""Fair play by the numbers (issue 43, L-9): statistics over finished games that find a player
or a pair whose cards are better than their own information can justify — partners who see each
other's hands — for the Court of Conduct, never in public (``blot fairplay``; docs/fairplay.md
says what the figures are, how the test is built and calibrated, and what it does not prove).

For each account and each pair (Bazar Blot's partners): card accuracy, opening-lead accuracy,
accuracy as declarer side and in defence, bidding against par, and the **test of information**
(:func:`blot.fairplay.figures.score`) with its p-value. Each game's decisions come from its
module (:mod:`blot.fairplay.bazar`, :mod:`blot.fairplay.three_five_eight`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from blot.errors import BlotError
from blot.fairplay.figures import CallLoss, Decision, Figures, Test, score
from blot.fairplay.sampling import Settings
from blot.game import AnyGame

__all__ = [
    "CallLoss",
    "Decision",
    "Figures",
    "Report",
    "Settings",
    "Test",
    "game_decisions",
    "report",
    "score",
]


def game_decisions(
    game: AnyGame,
    number: int,
    settings: Settings,
    seats: frozenset[int] | None = None,
    stored: Mapping[str, Any] | None = None,
) -> Iterable[Decision | CallLoss]:
    """The decisions (and calls) of ``seats`` in a finished game's deals, from its game's module;
    ``stored``: the game's analysis (``blot analyse --json``, as the server keeps it), whose card
    losses and bidding review are read instead of solved again (the same figures, cheaper)."""
    from blot.bazar import Game as BazarGame

    known = stored_deals(stored)
    if isinstance(game, BazarGame):
        from blot.fairplay import bazar

        return bazar.decisions(game, number, settings, seats, known)
    from blot.fairplay import three_five_eight

    return three_five_eight.decisions(game, number, settings, seats, known)


def stored_deals(stored: Mapping[str, Any] | None) -> dict[int, Mapping[str, Any]]:
    """A stored analysis's deals by their number (from 1); none without one."""
    if not stored:
        return {}
    return {int(d["number"]): d for d in stored.get("deals", []) if isinstance(d, Mapping) and "number" in d}


def card_value(game: str) -> float:
    from blot.games import spec

    return float(spec(game).analysis_module().card_value)


@dataclass
class Report:
    """The figures of every account and pair over the games read."""

    game: str
    accounts: dict[str, Figures] = field(default_factory=dict)
    pairs: dict[str, Figures] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "accounts": [f.to_json() for f in self.accounts.values()],
            "pairs": [f.to_json() for f in self.pairs.values()],
        }


def pair_name(a: str, b: str) -> str:
    """A pair's name: its two accounts in order, so that ``A,B`` and ``B,A`` are one pair."""
    return " & ".join(sorted((a, b)))


def report(
    games: Sequence[tuple[AnyGame, list[str] | None]],
    settings: Settings,
    pair: tuple[str, str] | None = None,
    stored: Sequence[Mapping[str, Any] | None] = (),
) -> Report:
    """The figures of ``games`` (each with its players' names; seats ``seat N`` without them);
    with ``pair`` only that pair's two accounts and the pair itself (BlotError when it never
    sat together); ``stored``: each game's stored analysis, or None (:func:`game_decisions`)."""
    from blot.games import spec_of

    if not games:
        raise BlotError("no games to read")
    kinds = {spec_of(g).name for g, _ in games}
    if len(kinds) > 1:
        raise BlotError("the records are of different games: read one game's records at a time")
    kind = kinds.pop()
    game_spec = spec_of(games[0][0])
    value = card_value(kind)
    out = Report(kind)
    for number, (game, players) in enumerate(games, 1):
        names = players or [f"seat {s}" for s in range(game_spec.seats)]
        partners = [team for team in game_spec.teams if len(team) == 2]
        seats: frozenset[int] | None = None
        if pair is not None:
            together = [t for t in partners if {names[t[0]], names[t[1]]} == set(pair)]
            if not together:
                continue
            seats = frozenset(together[0])
        analysis = stored[number - 1] if number <= len(stored) else None
        for item in game_decisions(game, number, settings, seats, analysis):
            name = names[item.seat]
            _add(out.accounts.setdefault(name, Figures(name, value)), item)
            for team in partners:
                if item.seat in team:
                    both = pair_name(names[team[0]], names[team[1]])
                    _add(out.pairs.setdefault(both, Figures(both, value)), item)
    if pair is not None and not out.pairs:
        raise BlotError(f"{pair[0]} and {pair[1]} were never partners in these games")
    return out


def _add(figures: Figures, item: Decision | CallLoss) -> None:
    if isinstance(item, CallLoss):
        figures.calls.append(item)
    else:
        figures.decisions.append(item)
