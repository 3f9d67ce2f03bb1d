"""A duplicate round's boards as bridge players read them (issue 42 item 5): for each board
(deal) its *hand record* (the dealer and the four hands) and its *traveller*: every table's
contract, declaring side, result, score and matchpoints. Pure: no I/O.

Matchpoints are those of :func:`blot.tournaments.standings.duplicate`: on a board, each pair is
compared with every pair that held the same cards in the same seats (team 0 with team 0) on its
net score (own points minus the opponents'): 2 for each it beat, 1 for each tie.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class PlayedTable:
    """One table of the round: its number, its two entries (team 0, team 1), and its deals as
    the record holds them (``deals[k]``: the record's deal, with ``hands`` and ``dealer``) and as
    the replay scores them (``scored[k]``: ``contract``, ``made``, ``points``, ``void``)."""

    number: int
    entries: tuple[int, int]
    deals: Sequence[Mapping[str, Any]]
    scored: Sequence[Mapping[str, Any]]


def travellers(played: Sequence[PlayedTable], boards: int) -> list[dict[str, Any]]:
    """Boards 1..``boards``: each with its hand record (None until a table has played it) and its
    traveller, one line per table that played it, best score for team 0 first."""
    out = []
    for k in range(boards):
        lines = [_line(t, k) for t in played if k < len(t.scored)]
        for direction in (0, 1):
            for line in lines:
                net = line["points"][direction] - line["points"][1 - direction]
                earned = 0
                for other in lines:
                    if other is line:
                        continue
                    theirs = other["points"][direction] - other["points"][1 - direction]
                    earned += 2 if net > theirs else 1 if net == theirs else 0
                line["matchpoints"][direction] = earned
        top = 2 * (len(lines) - 1)
        for line in lines:
            line["percent"] = [round(100 * m / top, 1) if top else None for m in line["matchpoints"]]
        lines.sort(key=lambda x: (x["points"][1] - x["points"][0], x["table"]))
        source = next((t.deals[k] for t in played if k < len(t.deals)), None)
        record = None if source is None else {"dealer": source.get("dealer"), "hands": source.get("hands")}
        out.append({"board": k + 1, "hand_record": record, "traveller": lines})
    return out


def _line(t: PlayedTable, k: int) -> dict[str, Any]:
    deal = t.scored[k]
    contract = deal.get("contract")
    return {
        "table": t.number,
        "entries": list(t.entries),
        "contract": contract,
        "declarer": None if not contract else contract.get("team"),
        "result": None
        if deal.get("void") or deal.get("made") is None
        else "made"
        if deal["made"]
        else "down",
        "points": [int(p) for p in deal.get("points") or (0, 0)],
        "matchpoints": [0, 0],
    }
