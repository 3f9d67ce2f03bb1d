"""Scoring a deal (B-50 … B-56) with worked numbers: the pure ``score_deal`` on summaries, and whole
deals whose outcome is forced by the cards."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blot.bazar import DealSummary, Rules, card_to_game_points, score_deal
from blot.errors import BlotError

from .helpers import best_for, finish, new_deal, spec_game_points, spec_score

# --- B-50 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("d", range(163))
def test_b50_card_points_to_game_points_at_every_split(d: int) -> None:
    pc, pd = card_to_game_points(d)
    tens, units = divmod(d, 10)
    assert pd == (tens if units <= 5 else tens + 1)  # 5 rounds down, 6 rounds up
    assert pc + pd == 16
    assert (pc, pd) == spec_game_points(d)


@pytest.mark.parametrize(
    ("d", "pc", "pd"),
    [
        (0, 16, 0),
        (5, 16, 0),
        (6, 15, 1),
        (15, 15, 1),
        (16, 14, 2),
        (55, 11, 5),
        (56, 10, 6),
        (75, 9, 7),  # c = 87: the contractors' table would say 8; the sum rule gives 9
        (73, 9, 7),  # c = 89
        (72, 9, 7),  # c = 90
        (76, 8, 8),
        (81, 8, 8),
        (85, 8, 8),
        (86, 7, 9),
        (162, 0, 16),
    ],
)
def test_b50_worked_splits(d: int, pc: int, pd: int) -> None:
    assert card_to_game_points(d) == (pc, pd)


@pytest.mark.parametrize("d", range(0, 83))
def test_b50_in_a_made_deal_the_split_is_the_score(d: int) -> None:
    s = DealSummary(team=0, level=8, multiplier=1, card_points=(162 - d, d))
    score = score_deal(s)
    assert score.made
    pc, pd = card_to_game_points(d)
    assert score.points == (8 + pc, pd)


def test_b50_kapoot_is_25_and_0_instead() -> None:
    s = DealSummary(team=1, level=8, multiplier=1, card_points=(0, 162), kapoot=1)
    assert score_deal(s).points == (0, 8 + 25)


# --- B-51 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("level", "c", "dc", "bc", "dd", "kapoot", "alone", "made"),
    [
        (8, 80, 0, 0, 0, None, False, True),
        (8, 79, 0, 0, 0, None, False, False),
        (8, 79, 0, 2, 0, None, False, True),  # belote counts for the contractors
        (8, 62, 2, 0, 0, None, False, True),  # so do their declarations
        (8, 70, 0, 0, 20, None, False, False),  # the defenders' declarations do not
        (10, 99, 0, 0, 0, None, False, False),  # 99 is 9 (the contractors' table: 90-99 -> 9)
        (16, 159, 0, 0, 0, None, False, False),
        (16, 160, 0, 0, 0, None, False, True),
        (20, 162, 0, 0, 0, 0, False, True),  # all 8 tricks count 25
        (24, 162, 0, 0, 0, 0, False, True),
        (24, 158, 5, 2, 0, None, False, False),
        (25, 162, 0, 0, 0, 0, False, True),
        (25, 155, 20, 2, 0, None, False, False),  # kapoot needs every trick
        (30, 162, 0, 0, 0, 0, True, True),  # kanach: the declarer alone
        (30, 162, 12, 2, 0, 0, False, False),  # his partner took a trick
        (8, 0, 20, 0, 0, 1, False, True),  # no trick, but four jacks make 8
    ],
)
def test_b51_when_the_contract_is_made(
    level: int, c: int, dc: int, bc: int, dd: int, kapoot: int | None, alone: bool, made: bool
) -> None:
    for m in (1, 2, 4):
        s = DealSummary(
            team=0,
            level=level,
            multiplier=m,
            card_points=(c, 162 - c),
            kapoot=kapoot,
            declarer_alone=alone,
            declaration_points=(dc, dd),
            belote=(bc, 0),
        )
        assert score_deal(s.check()).made is made


# --- B-52 … B-54: worked numbers ----------------------------------------------------------------------

WORKED = [
    # id, summary, points by team, made
    # B-52: no contra, made: level + pc + DC + BC; defenders pd + DD + BD
    ("b52_made", DealSummary(0, 10, 1, (100, 62), None, False, (5, 0), (2, 0)), (27, 6), True),
    ("b52_made_team_1", DealSummary(1, 9, 1, (67, 95)), (7, 9 + 9), True),
    ("b52_made_defenders_belote_2", DealSummary(1, 9, 1, (67, 95), belote=(2, 0)), (9, 18), True),
    (
        "b52_made_defenders_declarations",
        DealSummary(0, 8, 1, (90, 72), declaration_points=(0, 10)),
        (17, 17),
        True,
    ),
    ("b52_natural_kapoot", DealSummary(0, 10, 1, (162, 0), 0, False, (12, 0), (2, 0)), (49, 0), True),
    ("b52_kapoot_bid_made", DealSummary(1, 25, 1, (0, 162), 1, False, (0, 12), (0, 2)), (0, 64), True),
    ("b52_made_without_a_trick", DealSummary(0, 8, 1, (0, 162), 1, False, (20, 0)), (28, 25), True),
    ("b52_kanach_made", DealSummary(0, 30, 1, (162, 0), 0, True, (12, 0), (2, 0)), (69, 0), True),
    # B-53: no contra, failed: defenders V + level + Z + BD; contractors BC
    ("b53_failed", DealSummary(0, 12, 1, (70, 92), None, False, (0, 5), (2, 0)), (2, 33), False),
    (
        "b53_failed_contractors_declarations_go_over",
        DealSummary(0, 16, 1, (80, 82), None, False, (5, 0)),
        (0, 37),
        False,
    ),
    (
        "b53_failed_defenders_kapoot",
        DealSummary(1, 10, 1, (162, 0), 0, False, (2, 0), (2, 0)),
        (39, 0),
        False,
    ),
    (
        "b53_failed_defenders_belote",
        DealSummary(1, 10, 1, (90, 72), None, False, (0, 0), (2, 0)),
        (16 + 10 + 2, 0),
        False,
    ),
    ("b53_kapoot_bid_failed", DealSummary(0, 25, 1, (150, 12), None, False, (12, 0), (2, 0)), (2, 53), False),
    ("b53_tars_kapoot", DealSummary(0, 25, 1, (0, 162), 1, False, (0, 12), (0, 2)), (0, 64), False),
    (
        "b53_kanach_partner_took_a_trick",
        DealSummary(0, 30, 1, (162, 0), 0, False, (12, 0), (2, 0)),
        (2, 58),
        False,
    ),
    (
        "b53_kanach_failed_one_trick_lost",
        DealSummary(1, 30, 1, (10, 152), None, False, (0, 5), (0, 2)),
        (16 + 30 + 5, 2),
        False,
    ),
    # B-54: contra x2, redouble x4: the winner scores m * level + V + Z + own belote
    ("b54_contra_made", DealSummary(0, 10, 2, (100, 62), None, False, (5, 0), (0, 2)), (41, 2), True),
    ("b54_contra_made_kapoot", DealSummary(0, 10, 2, (162, 0), 0, False, (12, 0), (2, 0)), (59, 0), True),
    (
        "b54_contra_made_defenders_declarations",
        DealSummary(0, 9, 2, (100, 62), None, False, (0, 10)),
        (44, 0),
        True,
    ),
    (
        "b54_contra_failed",
        DealSummary(1, 12, 2, (92, 70), None, False, (0, 2), (0, 2)),
        (24 + 16 + 2, 2),
        False,
    ),
    (
        "b54_contra_failed_defenders_kapoot",
        DealSummary(0, 9, 2, (0, 162), 1, False, (0, 2), (0, 2)),
        (0, 18 + 25 + 2 + 2),
        False,
    ),
    (
        "b54_contra_failed_contractors_belote",
        DealSummary(0, 15, 2, (120, 42), None, False, (0, 0), (2, 0)),
        (2, 46),
        False,
    ),
    ("b54_redouble_made", DealSummary(0, 11, 4, (120, 42), None, False, (0, 10)), (70, 0), True),
    (
        "b54_redouble_made_defenders_belote",
        DealSummary(1, 11, 4, (42, 120), None, False, (0, 0), (2, 0)),
        (2, 60),
        True,
    ),
    ("b54_redouble_failed", DealSummary(1, 14, 4, (82, 80), None, False, (0, 5), (2, 0)), (79, 0), False),
    (
        "b54_redouble_kapoot_bid_made",
        DealSummary(0, 25, 4, (162, 0), 0, False, (12, 0), (2, 0)),
        (139, 0),
        True,
    ),
    ("b54_redouble_tars_kapoot", DealSummary(0, 25, 4, (0, 162), 1, False, (0, 12), (0, 2)), (0, 139), False),
    (
        "b54_contra_kanach_failed",
        DealSummary(0, 30, 2, (162, 0), 0, False, (12, 0), (2, 0)),
        (2, 60 + 16 + 12),
        False,
    ),
]


@pytest.mark.parametrize(("summary", "points", "made"), [w[1:] for w in WORKED], ids=[w[0] for w in WORKED])
def test_b52_b53_b54_worked_scores(summary: DealSummary, points: tuple[int, int], made: bool) -> None:
    score = score_deal(summary.check())
    assert score.made is made
    assert score.points == points
    assert all(type(p) is int for p in score.points)


@pytest.mark.parametrize(
    "branch", ["made", "failed", "contra_made", "contra_failed", "redouble_made", "redouble_failed"]
)
@pytest.mark.parametrize("holder", ["contractors", "defenders"])
def test_b42_b52_b54_belote_always_counts_for_the_holders_team(branch: str, holder: str) -> None:
    level, m, c = {
        "made": (10, 1, 120),
        "failed": (12, 1, 80),
        "contra_made": (10, 2, 120),
        "contra_failed": (12, 2, 80),
        "redouble_made": (10, 4, 120),
        "redouble_failed": (12, 4, 80),
    }[branch]
    base = DealSummary(team=1, level=level, multiplier=m, card_points=(162 - c, c))
    belote = (2, 0) if holder == "defenders" else (0, 2)
    with_belote = base._replace(belote=belote)
    s0, s1 = score_deal(base), score_deal(with_belote)
    assert s0.made == s1.made == branch.endswith("made")
    gain = (s1.points[0] - s0.points[0], s1.points[1] - s0.points[1])
    assert gain == belote


# --- B-55 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("level", "tricks_c", "tars"),
    [(25, 0, True), (30, 0, True), (25, 1, False), (24, 0, False), (30, 1, False), (8, 0, False)],
)
def test_b55_tars_kapoot_is_a_top_bid_without_a_trick(level: int, tricks_c: int, tars: bool) -> None:
    kapoot = 1 if tricks_c == 0 else None
    card_points = (0, 162) if kapoot else (10, 152)
    s = DealSummary(team=0, level=level, multiplier=1, card_points=card_points, kapoot=kapoot)
    score = score_deal(s)
    assert score.tars_kapoot is tars
    assert not score.made


# --- B-56 ---------------------------------------------------------------------------------------


@st.composite
def summaries(draw: st.DrawFn) -> DealSummary:
    team = draw(st.integers(0, 1))
    level = draw(st.sampled_from([*range(8, 26), 30]))
    multiplier = draw(st.sampled_from([1, 2, 4]))
    kapoot = draw(st.sampled_from([None, None, None, 0, 1]))
    if kapoot is None:
        first = draw(st.integers(0, 162))
        card_points = (first, 162 - first)
    else:
        card_points = (162, 0) if kapoot == 0 else (0, 162)
    alone = kapoot == team and draw(st.booleans())
    dp = draw(st.sampled_from([0, 2, 4, 5, 7, 10, 12, 14, 15, 20, 22, 30, 35]))
    declaration_points = draw(st.sampled_from([(dp, 0), (0, dp)]))
    belote = draw(st.sampled_from([(0, 0), (2, 0), (0, 2)]))
    return DealSummary(
        team, level, multiplier, card_points, kapoot, alone, declaration_points, belote
    ).check()


@settings(max_examples=2000, deadline=None)
@given(s=summaries())
def test_b56_sum_and_whole_numbers_and_the_rule_text(s: DealSummary) -> None:
    score = score_deal(s)
    ct = s.team
    tricks = (8, 0) if s.kapoot == 0 else (0, 8) if s.kapoot == 1 else (4, 4)
    spec = spec_score(
        team=s.team,
        level=s.level,
        multiplier=s.multiplier,
        tricks=tricks,
        card_points=s.card_points,
        declarer_alone=s.declarer_alone,
        declarations=s.declaration_points,
        belote=s.belote,
    )
    assert (score.made, score.points, score.tars_kapoot) == (spec.made, spec.points, spec.tars_kapoot)
    assert all(type(p) is int and p >= 0 for p in score.points)
    if s.multiplier == 1 and score.made:
        base = 25 if s.kapoot is not None else 16
        z = sum(s.declaration_points)
        assert sum(score.points) == base + s.level + z + sum(s.belote)
    # whoever loses a contra'd or failed deal keeps only its belote
    if not score.made:
        assert score.points[ct] == s.belote[ct]
    elif s.multiplier > 1:
        assert score.points[1 - ct] == s.belote[1 - ct]


def test_b56_summary_check_refuses_inconsistent_input() -> None:
    with pytest.raises(BlotError):
        DealSummary(0, 8, 1, (100, 61)).check()
    with pytest.raises(BlotError):
        DealSummary(0, 8, 3, (100, 62)).check()
    with pytest.raises(BlotError):
        DealSummary(0, 8, 1, (100, 62), declaration_points=(2, 2)).check()
    with pytest.raises(BlotError):
        DealSummary(0, 26, 1, (100, 62)).check()


# --- whole deals whose outcome the cards force -------------------------------------------------------

#: Each seat holds one whole suit; whoever holds the trumps takes every trick, and declares an
#: 8-card run (hundred + terz = 12) and belote (2).
SUITS = [
    "JS 9S AS 10S KS QS 8S 7S",
    "JH 9H AH 10H KH QH 8H 7H",
    "JD 9D AD 10D KD QD 8D 7D",
    "JC 9C AC 10C KC QC 8C 7C",
]


def suit_deal(order: str, bidding: str, rules: Rules, declarers: tuple[int, ...]) -> tuple[int, int]:
    """Seat s holds the suit ``order[s]``; the bidding; everyone plays its lowest legal card; the
    seats in ``declarers`` declare their best. Returns the points by team."""
    hands = [SUITS["SHDC".index(letter)] for letter in order]
    deal = finish(new_deal(hands, bidding, rules=rules), best_for(*declarers))
    r = deal.result
    assert r is not None and not r.void
    return r.points


@pytest.mark.parametrize(
    ("order", "bidding", "kanach", "declarers", "points", "tars"),
    [
        # seat 0 holds the hearts: kapoot every time
        ("HSDC", "8H pass pass pass", False, (0,), (8 + 25 + 12 + 2, 0), False),
        ("HSDC", "25H pass pass pass", False, (0,), (25 + 25 + 12 + 2, 0), False),
        ("HSDC", "8H contra pass pass", False, (0,), (16 + 25 + 12 + 2, 0), False),
        ("HSDC", "25H contra pass redouble", False, (0,), (100 + 25 + 12 + 2, 0), False),
        ("HSDC", "30H pass pass pass", True, (0,), (30 + 25 + 12 + 2, 0), False),
        ("HSDC", "25H pass pass pass", False, (), (25 + 25 + 2, 0), False),
        # seat 2 (the partner) holds the hearts and takes every trick: kanach by seat 0 fails
        ("DSHC", "30H pass pass pass", True, (2,), (2, 16 + 30 + 12), False),
        ("DSHC", "25H pass pass pass", False, (2,), (25 + 25 + 12 + 2, 0), False),
        # seat 1 (a defender) holds the hearts: tars kapoot, or a failed 8 with a defenders' kapoot
        ("SHDC", "25H pass pass pass", False, (1,), (0, 25 + 25 + 12 + 2), True),
        ("SHDC", "8H pass pass pass", False, (1,), (0, 25 + 8 + 12 + 2), False),
        ("SHDC", "8H contra pass pass", False, (1,), (0, 16 + 25 + 12 + 2), False),
        ("SHDC", "8H contra pass redouble", False, (1,), (0, 32 + 25 + 12 + 2), False),
        ("SHDC", "30H pass pass pass", True, (1,), (0, 30 + 25 + 12 + 2), True),
        # the contractors' declarations go to the defenders when the contract fails (Z)
        ("SHDC", "13H pass pass pass", False, (0,), (0, 25 + 13 + 12 + 2), False),
        # ... and may make it without a trick: 8 + 0 + 12 against the defenders' 25 + belote
        ("SHDC", "8H pass pass pass", False, (0,), (8 + 0 + 12, 25 + 2), False),
    ],
)
def test_b52_to_b55_whole_deals(
    order: str, bidding: str, kanach: bool, declarers: tuple[int, ...], points: tuple[int, int], tars: bool
) -> None:
    rules = Rules(kanach=kanach)
    assert suit_deal(order, bidding, rules, declarers) == points
    hands = [SUITS["SHDC".index(letter)] for letter in order]
    deal = finish(new_deal(hands, bidding, rules=rules), best_for(*declarers))
    assert deal.result is not None and deal.result.tars_kapoot is tars
