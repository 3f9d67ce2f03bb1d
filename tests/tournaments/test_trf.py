"""Issue 42 item 4: blot's TRF (FIDE's tournament report) of an event holds what the standings
need — Rubicon wins (B-71: 2 match points), forfeits, byes, a game not over, a late entry's
starting score, a withdrawal and a bar — so that reading it back ranks as blot does; an
independent reader (``trf`` from PyPI) reads every player line and result."""

from __future__ import annotations

from typing import Any

import pytest
import trf as independent

from blot.errors import BlotError
from blot.tournaments import trf
from blot.tournaments.standings import standings_of_export


def event(**changes: Any) -> dict[str, Any]:
    entries = [
        {"id": 11, "name": "Ani / Gohar"},
        {"id": 12, "name": "Davit / Emma"},
        {"id": 13, "name": "Hayk / Lilit", "late_score": 1},
        {
            "id": 14,
            "name": "Vardan / Nune",
            "withdrawn": True,
            "barred_note": "barred by tars kapoot in round 2",
        },
        {"id": 15, "name": "Aram / Sona", "withdrawn": True},
    ]
    rounds = [
        {
            "number": 1,
            "tables": [
                {"entries": [11, 12], "result": [2, 0], "score": [171, 60]},  # a Rubicon win
                {"entries": [14, 15], "result": [0, 1], "score": [90, 151]},
            ],
            "byes": [],
        },
        {
            "number": 2,
            "tables": [
                {"entries": [15, 11], "result": [0, 1], "score": None},  # a forfeit
                {"entries": [12, 14], "result": [1, 0], "score": [120, 80]},
            ],
            "byes": [13],
        },
        {"number": 3, "tables": [{"entries": [11, 13], "result": None, "score": None}], "byes": [12]},
    ]
    return {
        "name": "Autumn Swiss",
        "format": "swiss",
        "game": "bazar-blot",
        "entries": entries,
        "rounds": rounds,
    } | changes


@pytest.mark.parametrize("fmt", ["swiss", "round_robin"])
def test_issue42_a_trf_read_back_ranks_as_blot_does(fmt: str) -> None:
    data = event(format=fmt)
    text = trf.write(data)
    assert trf.standings_of(text) == [s.to_json() for s in standings_of_export(data)]
    report = independent.loads(text)
    by_id = {p.id: p for p in report.players}
    ani = by_id[11]
    assert ani.name == "Ani / Gohar" and ani.points == 3.0  # 2 (Rubicon) + 1 (forfeit), not 2 wins
    # the game not over yet (round 3) is its opponent and colour with a blank result, at the end of
    # the line: the reader keeps the rounds played
    assert [(g.startrank, g.color, g.result) for g in ani.games] == [(2, "w", "1"), (5, "b", "+")]
    assert [(g.startrank, g.color, g.result) for g in by_id[13].games] == [(0, "-", "Z"), (0, "-", "U")]
    line = next(x for x in text.splitlines() if x.startswith("001") and "Ani / Gohar" in x)
    assert line.endswith("     2 w 1     5 b +     3 w  ")


def test_issue42_no_trf_for_a_duplicate_or_358_event_nor_from_a_file_without_players() -> None:
    for data in (event(format="duplicate"), event(game="3-5-8")):
        with pytest.raises(BlotError) as refused:
            trf.write(data)
        assert refused.value.reason == "trf_formats"
    with pytest.raises(BlotError) as refused:
        trf.read("012 Nothing\n")
    assert refused.value.reason == "trf_no_players"
