"""Scoring of one deal (B-50 … B-56) and of a game (B-70, B-71), as pure functions of summaries.

The engine scores every played deal by building a :class:`DealSummary` and calling
:func:`score_deal`; a score sheet for a real table calls the same function with what the referee
enters. There is no second copy of these rules anywhere.

Team 0 bids 8 and takes 98 of the 162 card points; the same cards fail a bid of 10 (9 tens),
and the defenders' belote counts for them:

>>> score_deal(DealSummary(team=0, level=8, multiplier=1, card_points=(98, 64)))
DealScore(made=True, points=(18, 6), tars_kapoot=False)
>>> score_deal(DealSummary(team=0, level=10, multiplier=1, card_points=(98, 64), belote=(0, 2)))
DealScore(made=False, points=(0, 28), tars_kapoot=False)
"""

from __future__ import annotations

from typing import Final, NamedTuple

from blot.bazar.calls import KANACH, KAPOOT
from blot.bazar.tables import TOTAL_CARD_POINTS
from blot.errors import SetupError

KAPOOT_POINTS: Final = 25
DEAL_POINTS: Final = 16
RUBICON: Final = 150
Pair = tuple[int, int]


class DealSummary(NamedTuple):
    """What decides a played deal's score. Pairs are indexed by team (team 0 = seats 0 and 2).

    ``card_points`` include the last trick's 10 and add up to 162. ``kapoot`` is the team that took
    all 8 tricks, if one did. ``declarer_alone`` tells, for a kanach (30), whether the declarer took
    all 8 tricks himself. ``declaration_points`` are the counting declarations of B-44 (belote
    excluded; at most one team non-zero); ``belote`` each team's belote-rebelote points (0 or 2).
    """

    team: int
    level: int
    multiplier: int
    card_points: Pair
    kapoot: int | None = None
    declarer_alone: bool = False
    declaration_points: Pair = (0, 0)
    belote: Pair = (0, 0)

    def check(self) -> DealSummary:
        """The summary itself if it is consistent, else a SetupError naming the field (for input
        typed by people; the engine builds consistent summaries)."""
        if self.team not in (0, 1):
            raise SetupError("score_team", "team")
        if self.multiplier not in (1, 2, 4):
            raise SetupError("score_multiplier", "multiplier")
        if not (8 <= self.level <= KAPOOT or self.level == KANACH):
            raise SetupError("score_level", "level", level=self.level)
        if sum(self.card_points) != TOTAL_CARD_POINTS or min(self.card_points) < 0:
            raise SetupError("score_card_points", "card_points")
        if self.kapoot not in (None, 0, 1):
            raise SetupError("score_kapoot", "kapoot")
        if min(self.declaration_points) < 0 or min(self.declaration_points) != 0:
            raise SetupError("score_declarations", "declaration_points")
        if any(b not in (0, 2) for b in self.belote) or sum(self.belote) > 2:
            raise SetupError("score_belote", "belote")
        if self.kapoot is not None and self.card_points[self.kapoot] != TOTAL_CARD_POINTS:
            raise SetupError("score_kapoot_points", "card_points")
        if self.declarer_alone and self.kapoot != self.team:
            raise SetupError("score_declarer_alone", "declarer_alone")
        return self


class DealScore(NamedTuple):
    """The outcome of a played deal: made or failed, game points per team, and whether the
    contractors bid 25 or 30 and took no trick (tars kapoot, B-55)."""

    made: bool
    points: Pair
    tars_kapoot: bool


def card_to_game_points(defenders_card_points: int) -> Pair:
    """B-50: ``(contractors, defenders)`` game points from the defenders' card points: the
    defenders' are rounded (5 down, 6 up) and the two always add up to 16."""
    pd = (defenders_card_points + 4) // 10
    return DEAL_POINTS - pd, pd


def score_deal(s: DealSummary) -> DealScore:
    """B-50 … B-55."""
    ct, dt = s.team, 1 - s.team
    c, d = s.card_points[ct], s.card_points[dt]
    dc, dd = s.declaration_points[ct], s.declaration_points[dt]
    bc, bd = s.belote[ct], s.belote[dt]
    z = dc + dd
    all_c, all_d = s.kapoot == ct, s.kapoot == dt

    if s.level == KAPOOT:
        made = all_c
    elif s.level == KANACH:
        made = all_c and s.declarer_alone
    else:
        made = (KAPOOT_POINTS if all_c else c // 10) + dc + bc >= s.level

    if s.multiplier == 1 and made:
        if s.kapoot is None:
            pc, pd = card_to_game_points(d)
        else:
            pc, pd = (KAPOOT_POINTS, 0) if all_c else (0, KAPOOT_POINTS)
        contractors, defenders = s.level + pc + dc + bc, pd + dd + bd
    elif s.multiplier == 1:
        v = KAPOOT_POINTS if all_d else DEAL_POINTS
        contractors, defenders = bc, v + s.level + z + bd
    elif made:
        v = KAPOOT_POINTS if all_c else DEAL_POINTS
        contractors, defenders = s.multiplier * s.level + v + z + bc, bd
    else:
        v = KAPOOT_POINTS if all_d else DEAL_POINTS
        contractors, defenders = bc, s.multiplier * s.level + v + z + bd

    points = (contractors, defenders) if ct == 0 else (defenders, contractors)
    return DealScore(made, points, tars_kapoot=s.level >= KAPOOT and all_d)


def match_score(totals: Pair, winner: int) -> str:
    """B-71: 2-0 (Rubicon) when the loser has 150 points or fewer, else 1-0."""
    return "2-0" if totals[1 - winner] <= RUBICON else "1-0"


def game_winner(totals: Pair, summary: DealSummary, score: DealScore, target: int) -> int | None:
    """B-70, B-55: the team that has won once this played deal is scored (``totals`` include
    it), or None while the game goes on."""
    tars = 1 - summary.team if score.tars_kapoot else None
    return end_of_game(totals, target, kapoot_deal=summary.kapoot is not None, tars_kapoot_for=tars)


def end_of_game(
    totals: Pair, target: int, *, kapoot_deal: bool = False, tars_kapoot_for: int | None = None
) -> int | None:
    """B-70: after a played deal, a team at ``target`` or more with more points than the other
    wins, unless one team took all 8 tricks in that deal (play goes on); equal totals play on.
    B-55: a tars kapoot ends the game at once for the defenders (``tars_kapoot_for``)."""
    if tars_kapoot_for is not None:
        return tars_kapoot_for
    if kapoot_deal or max(totals) < target or totals[0] == totals[1]:
        return None
    return 0 if totals[0] > totals[1] else 1


MISDEAL_POINTS: Final = 5
PENALTY_KINDS: Final = ("misdeal", "misplay")


def score_penalty(kind: str, team: int, declaration_points: int = 0) -> Pair:
    """B-72, for real-table score sheets: the team at fault scores nothing; a misdeal gives the
    other team 5, a card played against the rules 16 plus every declaration of the deal."""
    if kind not in PENALTY_KINDS:
        raise SetupError("penalty_kind", "penalty")
    if team not in (0, 1):
        raise SetupError("penalty_team", "penalty")
    if declaration_points < 0:
        raise SetupError("penalty_declarations", "penalty")
    gained = MISDEAL_POINTS if kind == "misdeal" else DEAL_POINTS + declaration_points
    return (0, gained) if team == 0 else (gained, 0)
