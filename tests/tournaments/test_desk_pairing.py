"""Issue 42 item 2: forbidden pairs and requested byes belong to the pairing itself. Two entrants
the organizer says must not meet (same club, same family) are paired apart while any grouping
allows it, even at the cost of a repeat meeting; an entrant who asked to sit a round out is taken
out of it (``absent``) and is no pairing bye."""

from __future__ import annotations

import itertools
from random import Random

from blot.tournaments.pairing import Played, pair_key, swiss


def met_pairs(tables: tuple[tuple[int, ...], ...]) -> set[tuple[int, int]]:
    return {pair_key(a, b) for t in tables for a, b in itertools.combinations(t, 2)}


def test_forbidden_pairs_never_meet_in_round_one_of_pairs_or_threes() -> None:
    """Round 1 of pairs pairs 1-3 and 2-4 by seed (the doctest); forbidding 1-3 moves 1 away."""
    plain = swiss([1, 2, 3, 4], [], size=2, round_number=1, total_rounds=3)
    assert (1, 3) in met_pairs(plain.tables)
    for size, field in ((2, list(range(1, 11))), (3, list(range(1, 10)))):
        rng = Random(size)
        for _ in range(20):
            forbidden = [tuple(rng.sample(field, 2)) for _ in range(3)]
            found = swiss(field, [], size=size, round_number=1, total_rounds=5, forbidden=forbidden)
            assert not {pair_key(a, b) for a, b in forbidden} & met_pairs(found.tables)
            assert sorted(found.entrants()) == field


def test_a_forbidden_pair_is_avoided_before_a_repeat_but_meets_when_unavoidable() -> None:
    """Four pairs after 1-2 and 3-4 met: forbidding 1-3 and 2-4 leaves only repeats or 1-4/2-3."""
    history = [Played(((1, 2), (3, 4)), (), {1: 1, 2: 0, 3: 1, 4: 0})]
    found = swiss([1, 2, 3, 4], history, size=2, round_number=2, total_rounds=3, forbidden=[(1, 3), (2, 4)])
    assert met_pairs(found.tables) == {(1, 4), (2, 3)}
    # two entrants only: they must meet, forbidden or not (the pairing never leaves a table empty)
    alone = swiss([1, 2], [], size=2, round_number=1, total_rounds=1, forbidden=[(1, 2)])
    assert alone.tables == ((1, 2),) or alone.tables == ((2, 1),)


def test_a_requested_bye_sits_the_round_out_and_is_no_pairing_bye() -> None:
    """Five pairs, one asks to sit round 1 out: the four others play, nobody has the pairing's
    bye; in round 2 it plays, and the odd one out gets the pairing's bye as usual."""
    found = swiss([1, 2, 3, 4, 5], [], size=2, round_number=1, total_rounds=3, requested=[5])
    assert found.absent == (5,) and found.byes == ()
    assert sorted(e for t in found.tables for e in t) == [1, 2, 3, 4]
    history = [
        Played(
            found.tables, found.byes, {e: 1 if i == 0 else 0 for t in found.tables for i, e in enumerate(t)}
        )
    ]
    after = swiss([1, 2, 3, 4, 5], history, size=2, round_number=2, total_rounds=3)
    assert after.absent == () and len(after.byes) == 1 and 5 in after.entrants()
    threes = swiss(list(range(1, 8)), [], size=3, round_number=1, total_rounds=3, requested=[7])
    assert threes.absent == (7,) and threes.byes == () and len(threes.tables) == 2


def test_round_robin_head_to_head_is_shown_only_where_it_decides_a_tie() -> None:
    """Issue 42 item 7: head to head is a round robin's last tie-break; an entrant tied with
    nobody on points and Sonneborn–Berger shows none (it was a meaningless 0), tied ones do."""
    from blot.tournaments.standings import Entrant, Game, Round, standings

    pairs = [Entrant(i, f"pair {i}") for i in (1, 2, 3, 4)]
    rounds = [
        Round(1, (Game(1, (1, 2), (2, 0)), Game(1, (3, 4), (1, 0)))),
        Round(2, (Game(2, (1, 3), (2, 0)), Game(2, (2, 4), (1, 0)))),
        Round(3, (Game(3, (1, 4), (2, 0)), Game(3, (2, 3), (0, 1)))),
    ]
    untied = [x.to_json()["tiebreaks"] for x in standings(pairs, rounds, "round_robin")]
    assert all("head_to_head" not in t for t in untied)  # 6, 2, 1, 0 points: no tie to decide
    tied = [
        Round(1, (Game(1, (1, 2), (1, 0)), Game(1, (3, 4), (1, 0)))),
        Round(2, (Game(2, (2, 1), (1, 0)), Game(2, (4, 3), (1, 0)))),
    ]
    shown = [x.to_json()["tiebreaks"] for x in standings(pairs, tied, "round_robin")]
    assert all("head_to_head" in t for t in shown)  # all four level on points and S-B
