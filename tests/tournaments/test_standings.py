"""Standings (issue 25): B-71 match points, byes and forfeits, the tie-breaks worked by hand,
unfinished games counting for nothing, and duplicate matchpoints."""

from __future__ import annotations

from blot.tournaments.standings import Entrant, Game, Round, duplicate, match_points, standings

PAIRS = [Entrant(i, f"pair {i}") for i in (1, 2, 3, 4)]


def test_b71_match_points() -> None:
    assert match_points([0, 1], "2-0") == (2, 0)  # Rubicon
    assert match_points([1, 0], "1-0") == (0, 1)
    assert match_points([2, 0, 1]) == (0, 2, 1)  # T-50 places


def test_swiss_tiebreaks_by_hand() -> None:
    # round 1: 1 beats 2 (2-0), 3 beats 4 (1-0); round 2: 1 beats 3 (1-0), 4 beats 2 (2-0)
    rounds = [
        Round(1, (Game(1, (1, 2), (2, 0), (301, 120)), Game(1, (3, 4), (1, 0), (305, 290)))),
        Round(2, (Game(2, (1, 3), (1, 0), (310, 200)), Game(2, (4, 2), (2, 0), (302, 100)))),
    ]
    rows = {s.entry: s for s in standings(PAIRS, rounds, "swiss")}
    assert [rows[e].points for e in (1, 2, 3, 4)] == [3, 0, 1, 2]
    # Buchholz: 1 met 2 (0) and 3 (1) -> 1; 4 met 3 (1) and 2 (0) -> 1; 3 met 4 and 1 -> 5; 2 -> 5
    assert [rows[e].tiebreaks["buchholz"] for e in (1, 2, 3, 4)] == [1, 5, 5, 1]
    # Sonneborn-Berger: 1: 2*0 + 1*1 = 1; 3: 1*2 + 0*3 = 2; 4: 0*1 + 2*0 = 0
    assert [rows[e].tiebreaks["sonneborn_berger"] for e in (1, 3, 4)] == [1, 2, 0]
    assert rows[1].tiebreaks["difference"] == (301 - 120) + (310 - 200)
    assert [s.entry for s in standings(PAIRS, rounds, "swiss")] == [1, 4, 3, 2]


def test_bye_forfeit_and_unfinished() -> None:
    rounds = [Round(1, (Game(1, (1, 2), (1, 0)), Game(1, (3, 4), None)), (5,))]
    rows = {s.entry: s for s in standings([*PAIRS, Entrant(5, "five")], rounds, "swiss")}
    assert rows[5].points == 1 and rows[5].games == 0  # a bye: a plain win
    assert rows[3].points == rows[4].points == 0 and rows[3].games == 0  # unfinished: nothing yet


def test_equal_entrants_share_a_rank_and_head_to_head_breaks_round_robin_ties() -> None:
    rounds = [
        Round(1, (Game(1, (1, 2), (1, 0)), Game(1, (3, 4), (1, 0)))),
        Round(2, (Game(2, (2, 1), (1, 0)), Game(2, (4, 3), (1, 0)))),
    ]
    table = standings(PAIRS, rounds, "round_robin")
    assert [s.rank for s in table] == [1, 1, 1, 1]
    rounds.append(Round(3, (Game(3, (1, 3), (2, 0)), Game(3, (2, 4), (0, 2)))))
    table = standings(PAIRS, rounds, "round_robin")
    assert [(s.entry, s.rank) for s in table][:2] in ([(1, 1), (4, 1)], [(4, 1), (1, 1)])


def test_duplicate_matchpoints() -> None:
    # three tables, one deal: team 0 nets +20, +20, -10; team 1 the opposite
    games = tuple(
        Game(1, (a, b), (0, 0), boards=(board,))
        for (a, b), board in zip([(1, 2), (3, 4), (5, 6)], [(30, 10), (25, 5), (5, 15)], strict=True)
    )
    percent = duplicate([Round(1, games)])
    assert percent == {1: 75.0, 3: 75.0, 5: 0.0, 2: 25.0, 4: 25.0, 6: 100.0}
