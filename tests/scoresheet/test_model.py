"""The score sheet's model: worked examples of B-50 … B-55 and B-72, input checks, edits, and the
same points as the engine for fully played deals."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blot.bazar import Game, Rules
from blot.bots import make_bot
from blot.play import play as play_game
from blot.scoresheet import ScoreSheet, SheetError


def played(
    team: int, level: int, strain: str, card_points: list[int | None] | None, **extra: Any
) -> dict[str, Any]:
    multiplier = extra.pop("multiplier", 1)
    return {
        "contract": {"team": team, "level": level, "strain": strain, "multiplier": multiplier},
        "card_points": card_points,
        **extra,
    }


# (entry, made, points) — each branch with worked numbers
WORKED = [
    # B-52 no contra, made: 10 + (16 - 6) + 2 = 22; defenders (64+4)//10 = 6
    (played(0, 10, "H", [98, 64], declaration_points=[2, 0]), True, (22, 6)),
    # B-50 rounding: defenders 65 -> 6 (5 rounds down), 66 -> 7 (6 up)
    (played(0, 8, "S", [97, 65]), True, (18, 6)),
    (played(0, 8, "S", [96, 66]), True, (17, 7)),
    # B-51 made by declarations: 7 tens + 20 declarations >= 25? no: level 9 with 8 tens + 2 belote
    (played(1, 9, "D", [80, 82], belote=[0, 2]), True, (8, 9 + 8 + 2)),
    # B-53 failed, no contra: defenders 16 + level + Z + their belote; contractors their belote
    (played(0, 12, "C", [90, 72], declaration_points=[0, 5], belote=[2, 0]), False, (2, 16 + 12 + 5)),
    # B-53 failed with the defenders' kapoot: V = 25
    (played(1, 10, "NT", [162, 0], kapoot=0), False, (25 + 10, 0)),
    # B-54 contra made: 2 x 10 + 16 + Z + own belote; losers their belote only
    (played(0, 10, "H", [98, 64], multiplier=2, declaration_points=[2, 0], belote=[0, 2]), True, (38, 2)),
    # B-54 contra failed: the defenders take 2 x 11 + 16 + Z
    (played(1, 11, "S", [90, 72], multiplier=2, declaration_points=[5, 0]), False, (22 + 16 + 5, 0)),
    # B-54 redouble made with kapoot: 4 x 12 + 25
    (played(0, 12, "D", None, kapoot=0, multiplier=4), True, (48 + 25, 0)),
    # B-54 redouble failed: 4 x 14 + 16
    (played(1, 14, "C", [100, 62], multiplier=4), False, (56 + 16, 0)),
    # B-51 kapoot bid made: 25 + 25
    (played(0, 25, "H", None, kapoot=0), True, (50, 0)),
    # kapoot bid failed without the defenders taking all: 16 + 25
    (played(0, 25, "H", [150, 12]), False, (0, 41)),
    # B-52 with a natural kapoot: 11 + 25
    (played(1, 11, "S", [0, 162], kapoot=1, belote=[0, 2]), True, (0, 11 + 25 + 2)),
]


@pytest.mark.parametrize(("entry", "made", "points"), WORKED)
def test_b50_to_b54_worked_examples(entry: dict[str, Any], made: bool, points: tuple[int, int]) -> None:
    line = ScoreSheet(Rules()).add(entry)
    assert (line.made, line.points) == (made, points)


def test_b55_tars_kapoot_ends_the_game_for_the_defenders() -> None:
    sheet = ScoreSheet(Rules())
    sheet.add(played(0, 16, "H", [162, 0], kapoot=0))  # team 0 far ahead: 41 vs 0
    line = sheet.add(played(0, 25, "S", [0, 162], kapoot=1))
    standing = sheet.standing()
    assert line.tars_kapoot and standing.finished and standing.winner == 1 and standing.tars_kapoot


def test_b72_penalties() -> None:
    sheet = ScoreSheet(Rules())
    assert sheet.add({"penalty": {"kind": "misdeal", "team": 0}}).points == (0, 5)
    line = sheet.add({"penalty": {"kind": "misplay", "team": 1, "declaration_points": 5}})
    assert line.points == (21, 0) and line.totals == (21, 5)


def test_b70_b71_end_of_game_and_match_score() -> None:
    sheet = ScoreSheet(Rules(target=60))
    sheet.add(played(0, 8, "H", [140, 22]))  # made: 8 + 14 = 22 vs 2
    sheet.add({"void": True})  # void deals do not count
    sheet.add(played(0, 20, "H", None, kapoot=0))  # 20 + 25: 67 vs 2, but a kapoot deal plays on
    assert sheet.standing().totals == (67, 2) and not sheet.standing().finished
    sheet.add(played(1, 8, "S", [60, 102]))  # team 1 makes 8 + 10, team 0 gets 6: 73 vs 20 -> ends
    standing = sheet.standing()
    assert standing.totals == (73, 20)
    assert standing.finished and standing.winner == 0 and standing.match_score == "2-0"
    with pytest.raises(SheetError, match="the game is over"):
        sheet.add({"void": True})


def test_edits_recompute_every_later_total() -> None:
    sheet = ScoreSheet(Rules())
    sheet.add(played(0, 10, "H", [108, 54]))  # made: 10 + 11 vs 5
    sheet.add(played(1, 10, "S", [60, 102]))  # made: 6 vs 10 + 10
    before = [line.totals for line in sheet.lines()]
    sheet.replace(1, played(0, 10, "H", [60, 102]))  # now failed: 0 vs 16 + 10
    after = [line.totals for line in sheet.lines()]
    assert before == [(21, 5), (27, 25)]
    assert after == [(0, 26), (6, 46)]


@pytest.mark.parametrize(
    ("entry", "field", "words"),
    [
        (played(0, 10, "H", [170, -8]), "card_points", "from 0 to 162"),
        (played(0, 10, "H", [100, 100]), "card_points", "must add up to 162"),
        (played(0, 10, "H", [98, 64], declaration_points=[2, 5]), "declaration_points", "only one team"),
        (played(0, 10, "NT", [98, 64], belote=[2, 0]), "belote", "no-trump deal"),
        (played(0, 7, "H", [98, 64]), "contract.level", "not a level"),
        (played(0, 30, "H", [98, 64]), "contract.level", "not a level"),
        (played(0, 10, "X", [98, 64]), "contract.strain", "S, H, D, C or NT"),
        (played(2, 10, "H", [98, 64]), "contract.team", "0 or 1"),
        (played(0, 10, "H", [98, 64], multiplier=3), "contract.multiplier", "1, 2"),
        (played(0, 10, "H", [100, 62], kapoot=0), "card_points", "all 162"),
        ({"penalty": {"kind": "cheating", "team": 0}}, "penalty.kind", "misdeal or misplay"),
        ({"card_points": [98, 64]}, "contract", "needs its contract"),
        ([], "deal", "JSON object"),
    ],
)
def test_inconsistent_input_is_refused_naming_the_field(entry: Any, field: str, words: str) -> None:
    sheet = ScoreSheet(Rules())
    with pytest.raises(SheetError) as e:
        sheet.add(entry)
    assert e.value.field == field and words in str(e.value)
    assert sheet.entries == []


def test_one_team_card_points_fill_in_the_other() -> None:
    line = ScoreSheet(Rules()).add(played(0, 10, "H", [98, None]))
    assert line.entry.summary is not None and line.entry.summary.card_points == (98, 64)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), ruleset=st.sampled_from(["league", "classic"]))
def test_sheet_scores_played_deals_exactly_as_the_engine(seed: int, ruleset: str) -> None:
    """The summary of every fully played deal, entered on a sheet, gives the engine's points,
    totals and end of game."""
    rules = Rules(ruleset=ruleset)  # type: ignore[arg-type]
    rng = Random(seed)
    game = Game(rules, rng=Random(rng.getrandbits(32)))
    play_game(game, [make_bot("bazar-blot", "basic" if s % 2 else "random", Random(s)) for s in range(4)])
    sheet = ScoreSheet(rules)
    for deal in game.deals:
        result = deal.result
        assert result is not None
        if result.void:
            sheet.add({"void": True})
            continue
        c = result.contract
        assert c is not None and deal.summary is not None
        line = sheet.add(
            {
                "contract": {
                    "team": c.team,
                    "level": c.level,
                    "strain": c.strain,
                    "multiplier": c.multiplier,
                },
                "card_points": list(result.card_points),
                "kapoot": result.kapoot,
                "declarer_alone": deal.summary.declarer_alone,
                "declaration_points": list(result.declaration_points),
                "belote": list(result.belote),
            }
        )
        assert (line.made, line.points) == (result.made, result.points)
    standing = sheet.standing()
    assert standing.totals == game.totals
    assert (standing.finished, standing.winner, standing.match_score) == (True, game.winner, game.match_score)
    assert standing.tars_kapoot == game.tars_kapoot
