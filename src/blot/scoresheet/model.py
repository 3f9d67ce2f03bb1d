"""The score sheet (Davtar) of a Bazar Blot game played with real cards.

A referee enters one summary per deal: void, a played deal (contract, card points or kapoot,
counting declarations, belote) or a table penalty (B-72). The sheet holds no scoring rule of its
own: every played deal is scored by :func:`blot.bazar.scoring.score_deal`, the function the engine
itself uses after play, and the end of the game by :func:`blot.bazar.scoring.end_of_game`.

>>> sheet = ScoreSheet(Rules())
>>> line = sheet.add({"contract": {"team": 0, "level": 10, "strain": "H", "multiplier": 2},
...                   "card_points": [98, 64], "declaration_points": [2, 0], "belote": [0, 2]})
>>> line.made, line.points, line.totals
(True, (38, 2), (38, 2))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from blot.bazar.calls import KANACH, KAPOOT, STRAINS
from blot.bazar.rules import Rules
from blot.bazar.scoring import (
    PENALTY_KINDS,
    DealScore,
    DealSummary,
    Pair,
    end_of_game,
    match_score,
    score_deal,
    score_penalty,
)
from blot.bazar.tables import TOTAL_CARD_POINTS
from blot.errors import SetupError
from blot.reasons import Reason

MAX_DECLARATION_POINTS = 200


class SheetError(SetupError):
    """Input the sheet refuses; ``field`` names the part of the input at fault."""

    def __init__(self, field: str, reason: str | Reason, /, **params: Any) -> None:
        super().__init__(reason, field, **params)
        self.args = (f"{field}: {self.args[0]}",)


@dataclass(frozen=True)
class Penalty:
    kind: str
    team: int
    declaration_points: int = 0


@dataclass(frozen=True)
class Entry:
    """One deal as entered: exactly one of void, a played deal (``summary``) or a ``penalty``."""

    void: bool = False
    summary: DealSummary | None = None
    strain: str | None = None
    penalty: Penalty | None = None

    def to_json(self) -> dict[str, Any]:
        """The entry in the API's input form, normalised (both card points, all keys)."""
        if self.void:
            return {"void": True}
        if self.penalty is not None:
            p = self.penalty
            return {"penalty": {"kind": p.kind, "team": p.team, "declaration_points": p.declaration_points}}
        s = self.summary
        assert s is not None
        return {
            "void": False,
            "contract": {"team": s.team, "level": s.level, "strain": self.strain, "multiplier": s.multiplier},
            "card_points": list(s.card_points),
            "kapoot": s.kapoot,
            "declarer_alone": s.declarer_alone,
            "declaration_points": list(s.declaration_points),
            "belote": list(s.belote),
        }


@dataclass(frozen=True)
class Line:
    """A scored deal of the sheet: the entry, its outcome and the totals after it."""

    entry: Entry
    made: bool | None
    points: Pair
    totals: Pair
    tars_kapoot: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "entry": self.entry.to_json(),
            "made": self.made,
            "points": list(self.points),
            "totals": list(self.totals),
            "tars_kapoot": self.tars_kapoot,
        }


@dataclass
class ScoreSheet:
    """A game's sheet: its rules, team names and deals; totals and the end are always recomputed
    from the entries, so an edited deal changes every later total."""

    rules: Rules
    teams: tuple[str, str] = ("Team 1", "Team 2")
    entries: list[Entry] = field(default_factory=list)

    def lines(self) -> list[Line]:
        return compute(self.entries, self.rules)[0]

    def standing(self) -> Standing:
        return compute(self.entries, self.rules)[1]

    def add(self, raw: Any) -> Line:
        """Add a deal; refused (SheetError, nothing changed) if it is inconsistent or the game is over."""
        if self.standing().finished:
            raise SheetError("deal", "sheet_over")
        entry = parse_entry(raw, self.rules)
        lines, _ = compute([*self.entries, entry], self.rules)
        self.entries.append(entry)
        return lines[-1]

    def replace(self, number: int, raw: Any) -> Line:
        """Replace deal ``number`` (from 1); every later total is recomputed."""
        if not 1 <= number <= len(self.entries):
            raise SheetError("deal", "sheet_no_deal", n=number, count=len(self.entries))
        entry = parse_entry(raw, self.rules)
        entries = [*self.entries[: number - 1], entry, *self.entries[number:]]
        lines, _ = compute(entries, self.rules)
        self.entries = entries
        return lines[number - 1]


@dataclass(frozen=True)
class Standing:
    totals: Pair
    finished: bool
    winner: int | None
    match_score: str | None
    tars_kapoot: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "totals": list(self.totals),
            "finished": self.finished,
            "winner": self.winner,
            "match_score": self.match_score,
            "tars_kapoot": self.tars_kapoot,
        }


def compute(entries: Sequence[Entry], rules: Rules) -> tuple[list[Line], Standing]:
    """Score every entry in order (B-50 … B-55, B-72) and find the end of the game (B-70, B-71).
    A deal after the end is refused. **Interpretation**: a penalty counts as a played deal for
    the end of the game (B-70), since it changes the score."""
    totals: Pair = (0, 0)
    winner: int | None = None
    tars = False
    lines = []
    for number, entry in enumerate(entries, 1):
        if winner is not None:
            raise SheetError("deal", "sheet_after_end", n=number, last=number - 1)
        made: bool | None = None
        points: Pair = (0, 0)
        score: DealScore | None = None
        if entry.summary is not None:
            score = score_deal(entry.summary)
            made, points = score.made, score.points
        elif entry.penalty is not None:
            p = entry.penalty
            points = score_penalty(p.kind, p.team, p.declaration_points)
        totals = (totals[0] + points[0], totals[1] + points[1])
        if not entry.void:
            summary = entry.summary
            tars_for = (
                1 - summary.team if summary is not None and score is not None and score.tars_kapoot else None
            )
            kapoot_deal = summary is not None and summary.kapoot is not None
            winner = end_of_game(totals, rules.target, kapoot_deal=kapoot_deal, tars_kapoot_for=tars_for)
            tars = tars_for is not None
        lines.append(Line(entry, made, points, totals, bool(score and score.tars_kapoot)))
    finished = winner is not None
    score_text = match_score(totals, winner) if winner is not None else None
    return lines, Standing(totals, finished, winner, score_text, tars and finished)


# --- reading what the referee typed ------------------------------------------------------------


def parse_entry(raw: Any, rules: Rules) -> Entry:
    """Check one deal as the API receives it; SheetError names the first field at fault."""
    if not isinstance(raw, Mapping):
        raise SheetError("deal", "sheet_deal_object")
    if raw.get("void") is True:
        return Entry(void=True)
    if raw.get("void") not in (None, False):
        raise SheetError("void", "sheet_flag")
    if raw.get("penalty") is not None:
        return Entry(penalty=_penalty(raw["penalty"]))
    contract = raw.get("contract")
    if not isinstance(contract, Mapping):
        raise SheetError("contract", "sheet_contract")
    team = _choice(contract.get("team"), (0, 1), "contract.team", "0 or 1")
    level = contract.get("level")
    levels = (*range(8, KAPOOT + 1), *((KANACH,) if rules.kanach else ()))
    if type(level) is not int or level not in levels:
        top = "25, or 30 with the kanach option" if not rules.kanach else "25 or 30 (kanach)"
        raise SheetError("contract.level", "sheet_level", level=repr(level), high=top)
    strain = _choice(contract.get("strain"), STRAINS, "contract.strain", "S, H, D, C or NT")
    multiplier = _choice(
        contract.get("multiplier", 1), (1, 2, 4), "contract.multiplier", "1, 2 (contra) or 4 (redouble)"
    )
    kapoot = raw.get("kapoot")
    if kapoot is not None:
        kapoot = _choice(kapoot, (0, 1), "kapoot", "null, 0 or 1 (the team that took every trick)")
    card_points = _card_points(raw.get("card_points"), kapoot)
    declarations = _pair(raw.get("declaration_points", [0, 0]), "declaration_points", MAX_DECLARATION_POINTS)
    if min(declarations) != 0:
        raise SheetError("declaration_points", "sheet_one_team_declares")
    belote = _pair(raw.get("belote", [0, 0]), "belote", 2)
    if any(b not in (0, 2) for b in belote) or sum(belote) > 2:
        raise SheetError("belote", "sheet_belote_one_team")
    if strain == "NT" and sum(belote):
        raise SheetError("belote", "sheet_belote_no_trump")
    alone = raw.get("declarer_alone", False)
    if not isinstance(alone, bool):
        raise SheetError("declarer_alone", "sheet_flag")
    if alone and kapoot != team:
        raise SheetError("declarer_alone", "sheet_declarer_alone")
    summary = DealSummary(team, level, multiplier, card_points, kapoot, alone, declarations, belote)
    return Entry(summary=summary, strain=strain)


def _penalty(raw: Any) -> Penalty:
    if not isinstance(raw, Mapping):
        raise SheetError("penalty", "sheet_penalty_object")
    kind = _choice(raw.get("kind"), PENALTY_KINDS, "penalty.kind", "misdeal or misplay")
    team = _choice(raw.get("team"), (0, 1), "penalty.team", "0 or 1 (the team at fault)")
    points = raw.get("declaration_points", 0)
    if type(points) is not int or not 0 <= points <= MAX_DECLARATION_POINTS:
        raise SheetError("penalty.declaration_points", "sheet_whole_number", high=MAX_DECLARATION_POINTS)
    return Penalty(kind, team, points)


def _choice(value: Any, allowed: Sequence[Any], name: str, words: str) -> Any:
    if isinstance(value, bool) or value not in allowed:
        raise SheetError(name, "sheet_not_allowed", value=repr(value), allowed=words)
    return value


def _pair(value: Any, name: str, top: int) -> Pair:
    if not isinstance(value, list) or len(value) != 2:
        raise SheetError(name, "sheet_two_numbers")
    for v in value:
        if type(v) is not int or not 0 <= v <= top:
            raise SheetError(name, "sheet_each_number", high=top)
    return (value[0], value[1])


def _card_points(value: Any, kapoot: int | None) -> Pair:
    """Both teams' card points; one may be null (the other follows from 162); with a kapoot
    they may be left out (the kapoot team has all 162)."""
    if value is None and kapoot is not None:
        return (TOTAL_CARD_POINTS, 0) if kapoot == 0 else (0, TOTAL_CARD_POINTS)
    if not isinstance(value, list) or len(value) != 2:
        raise SheetError("card_points", "sheet_card_points_pair")
    a, b = value
    for v in (a, b):
        if v is not None and (type(v) is not int or not 0 <= v <= TOTAL_CARD_POINTS):
            raise SheetError("card_points", "sheet_card_points_range", high=TOTAL_CARD_POINTS)
    if a is None and b is None:
        raise SheetError("card_points", "sheet_card_points_needed")
    a = TOTAL_CARD_POINTS - b if a is None else a
    b = TOTAL_CARD_POINTS - a if b is None else b
    if a + b != TOTAL_CARD_POINTS:
        raise SheetError("card_points", "sheet_card_points_sum", total=TOTAL_CARD_POINTS, sum=a + b)
    if kapoot is not None and (a, b)[kapoot] != TOTAL_CARD_POINTS:
        raise SheetError("card_points", "sheet_kapoot_points")
    return (a, b)
