"""Standings of a tournament: a pure function of its rounds' results (no I/O). Standings are never
stored: every reader computes them from the games' stored results.

**Match points** per game (B-71): in Bazar Blot the winning pair scores 2 for a Rubicon win
(2–0) and 1 for a plain win (1–0), the losing pair 0. In 3-5-8 a table's T-50 ranking is its
match points: first place 2, second 1, third 0. A **bye** scores :data:`BYE_POINTS` (1, a plain
win); a **forfeit** (an entrant who did not come, blot.server.tournaments) scores 1 for each entrant
who came and 0 for each who did not. A game ended by agreement is *unfinished* (League §7, L-2):
it counts for nothing until it is continued and finished.

**Tie-breaks**, in order:

- Swiss: *Buchholz* (the opponents' match points added up), then *Sonneborn–Berger* (for each
  game, the match points earned there times the opponents' total), then the *points difference*
  (game points scored minus game points conceded, over every finished game; in 3-5-8 the
  player's own total of tricks against targets);
- round robin: Sonneborn–Berger, then *head to head* (the match points earned in games between
  the entrants still tied; shown only for entrants it applies to, issue 42);
- duplicate: the *percentage* of matchpoints is the ranking itself (:func:`duplicate`), then the
  points difference.

Entrants equal on points and every tie-break share a rank.

**A barred entry** (L-3, L-10; issue 38 item 5): a pair barred by a tars kapoot during the tournament,
or an entry with an account barred by a dishonour, is withdrawn with a note ("barred by tars
kapoot in round 2"). The games it played keep their results; every later game of its schedule is
a forfeit: its opponent scores :data:`FORFEIT_WIN` (a round robin's planned opponent has it as a
bye, the same point), the barred entry nothing; and it is ranked below every entry not barred,
whatever its points: a barred pair does not win the tournament.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

#: What a bye scores (a plain 1–0 win).
BYE_POINTS = 1
#: What an entrant who came scores against one who did not, and what that one scores.
FORFEIT_WIN, FORFEIT_LOSS = 1, 0


@dataclass(frozen=True)
class Entrant:
    id: int
    name: str
    withdrawn: bool = False
    #: Why a bar withdrew it ("barred by tars kapoot in round 2"), None if none did.
    barred: str | None = None
    #: A late entry's starting score (issue 42: the organizer's ``late_score``, 0 unless given).
    start: float = 0


@dataclass(frozen=True)
class Game:
    """One table of a round. ``entries`` in seat order (Bazar Blot: team 0 then team 1);
    ``points``: each entry's match points once the game is over (None until then, and for an
    unfinished game); ``score``: each entry's game points (for the points difference);
    ``boards``: a duplicate table's points per deal, each as (team 0, team 1)."""

    round: int
    entries: tuple[int, ...]
    points: tuple[int, ...] | None = None
    score: tuple[int, ...] | None = None
    boards: tuple[tuple[int, int], ...] = ()
    table: str | None = None


@dataclass(frozen=True)
class Round:
    number: int
    games: tuple[Game, ...]
    byes: tuple[int, ...] = ()


@dataclass
class Standing:
    entry: int
    name: str
    points: float = 0
    games: int = 0
    tiebreaks: dict[str, float] = field(default_factory=dict)
    rank: int = 0
    withdrawn: bool = False
    barred: str | None = None
    #: Tie-breaks computed for the order but not shown: a round robin's head to head where it
    #: decides no tie (issue 42 item 7).
    hidden: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "entry": self.entry,
            "name": self.name,
            "rank": self.rank,
            "points": _number(self.points),
            "games": self.games,
            "tiebreaks": {k: _number(v) for k, v in self.tiebreaks.items() if k not in self.hidden},
            "withdrawn": self.withdrawn,
            "barred": self.barred,
        }


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else round(value, 2)


def match_points(places: Sequence[int] | None, match_score: str | None = None) -> tuple[int, ...]:
    """Each seat-order entrant's match points from a finished game: a game that ends with a match
    score (Bazar Blot's B-71: ``2-0`` or ``1-0``) gives it to the winner (``places``: 0) and
    nothing to the others; a game without one (3-5-8, T-50) gives 2, 1, 0 by place.

    >>> match_points([0, 1], "2-0"), match_points([1, 0], "1-0")
    ((2, 0), (0, 1))
    >>> match_points([1, 2, 0])
    (1, 0, 2)
    """
    assert places is not None
    if match_score is not None:
        win = 2 if match_score == "2-0" else 1
        return tuple(win if p == 0 else 0 for p in places)
    return tuple(max(0, 2 - p) for p in places)


def opponents(game: Game, entry: int) -> list[int]:
    return [e for e in game.entries if e != entry]


def standings(entrants: Sequence[Entrant], rounds: Sequence[Round], fmt: str) -> list[Standing]:
    """The standings after ``rounds``, best first, ranked by ``fmt``'s tie-breaks."""
    rows = {
        e.id: Standing(e.id, e.name, float(e.start), withdrawn=e.withdrawn, barred=e.barred) for e in entrants
    }
    games = [g for r in rounds for g in r.games]
    difference: dict[int, float] = defaultdict(float)
    for r in rounds:
        for e in r.byes:
            if e in rows:
                rows[e].points += BYE_POINTS
    if fmt == "duplicate":
        percent = duplicate(rounds)
        for e, value in percent.items():
            if e in rows:
                rows[e].points = value
    for g in games:
        if g.points is None:
            continue
        for i, e in enumerate(g.entries):
            if e not in rows:
                continue
            rows[e].games += 1
            if fmt != "duplicate":
                rows[e].points += g.points[i]
            if g.score is not None:
                own = g.score[i]
                others = [s for j, s in enumerate(g.score) if j != i]
                difference[e] += own - (sum(others) if len(g.score) == 2 else 0)
    totals = {e: s.points for e, s in rows.items()}
    for e, s in rows.items():
        buchholz = 0.0
        sb = 0.0
        for g in games:
            if g.points is None or e not in g.entries:
                continue
            mine = g.points[g.entries.index(e)]
            for o in opponents(g, e):
                buchholz += totals.get(o, 0)
                sb += mine * totals.get(o, 0)
        if fmt == "swiss":
            s.tiebreaks = {"buchholz": buchholz, "sonneborn_berger": sb, "difference": difference[e]}
        elif fmt == "round_robin":
            s.tiebreaks = {"sonneborn_berger": sb, "head_to_head": 0.0, "difference": difference[e]}
        else:
            s.tiebreaks = {"difference": difference[e]}
    ordered = list(rows.values())
    if fmt == "round_robin":
        _head_to_head(ordered, games)
    ordered.sort(key=_key)
    for i, s in enumerate(ordered):
        s.rank = ordered[i - 1].rank if i and _key(ordered[i - 1]) == _key(s) else i + 1
    return ordered


def _key(s: Standing) -> tuple[float, ...]:
    return (s.barred is not None, -s.points, *(-v for v in s.tiebreaks.values()))


def _head_to_head(rows: list[Standing], games: Sequence[Game]) -> None:
    """Among entrants tied on points and Sonneborn–Berger: the match points each earned in the
    games between them."""
    groups: dict[tuple[float, float], list[Standing]] = defaultdict(list)
    for s in rows:
        groups[(s.points, s.tiebreaks["sonneborn_berger"])].append(s)
    for tied in groups.values():
        if len(tied) < 2:  # decides no tie: counted as 0 and not shown
            tied[0].hidden = ("head_to_head",)
            continue
        ids = {s.entry for s in tied}
        for s in tied:
            earned = 0.0
            for g in games:
                if g.points is None or s.entry not in g.entries:
                    continue
                if any(o in ids for o in opponents(g, s.entry)):
                    earned += g.points[g.entries.index(s.entry)]
            s.tiebreaks["head_to_head"] = earned


def duplicate(rounds: Sequence[Round]) -> dict[int, float]:
    """Each entrant's percentage of matchpoints over the duplicate rounds it played. On every
    deal, each pair is compared with every other pair of the round that held the same cards in
    the same seats (the same direction: team 0 with team 0): 2 matchpoints per pair it beat, 1
    per tie, on the deal's net score (own points minus the opponents'). A deal only one table
    finished compares with nobody and is left out; a bye round is left out of the average.

    >>> r = Round(1, (Game(1, (1, 2), (0, 0), boards=((20, 0),)), Game(1, (3, 4), (0, 0), boards=((10, 5),))))
    >>> duplicate([r])
    {1: 100.0, 3: 0.0, 2: 0.0, 4: 100.0}
    """
    earned: dict[int, float] = defaultdict(float)
    possible: dict[int, float] = defaultdict(float)
    for r in rounds:
        played = [g for g in r.games if g.points is not None and len(g.entries) == 2]
        deals = max((len(g.boards) for g in played), default=0)
        for board in range(deals):
            for direction in (0, 1):
                nets = [
                    (g.entries[direction], g.boards[board][direction] - g.boards[board][1 - direction])
                    for g in played
                    if board < len(g.boards)
                ]
                if len(nets) < 2:
                    continue
                for e, net in nets:
                    for other, theirs in nets:
                        if other == e:
                            continue
                        earned[e] += 2 if net > theirs else 1 if net == theirs else 0
                        possible[e] += 2
    return {e: 100.0 * earned[e] / possible[e] for e in possible if possible[e]}


def cross_table(
    entrants: Sequence[Entrant], rounds: Sequence[Round]
) -> dict[int, dict[int, list[dict[str, Any]]]]:
    """Who met whom: for each entry, each opponent, the games between them (round, the match
    points each earned, the table)."""
    out: dict[int, dict[int, list[dict[str, Any]]]] = {e.id: {} for e in entrants}
    for r in rounds:
        for g in r.games:
            for i, e in enumerate(g.entries):
                for j, o in enumerate(g.entries):
                    if i == j or e not in out:
                        continue
                    out[e].setdefault(o, []).append(
                        {
                            "round": r.number,
                            "table": g.table,
                            "points": None if g.points is None else g.points[i],
                            "against": None if g.points is None else g.points[j],
                        }
                    )
    return out


def standings_of_export(data: Mapping[str, Any]) -> list[Standing]:
    """The standings of an exported event (``GET /api/events/{id}``'s JSON; ``blot event
    standings``), recomputed from its rounds."""
    entrants, rounds, fmt = export_parts(data)
    return standings(entrants, rounds, fmt)


def export_parts(data: Mapping[str, Any]) -> tuple[list[Entrant], list[Round], str]:
    """An exported tournament's entrants, rounds and format, as :func:`standings` takes them."""
    fmt = str(data.get("format", "swiss"))
    entrants = [
        Entrant(
            int(e["id"]),
            str(e.get("name", e["id"])),
            bool(e.get("withdrawn")),
            e.get("barred_note"),
            float(e.get("late_score") or 0),
        )
        for e in data.get("entries", [])
    ]
    rounds = []
    for r in data.get("rounds", []):
        games = []
        for t in r.get("tables", []):
            result = t.get("result")
            score = t.get("score")
            boards = tuple(tuple(b) for b in t.get("boards") or ())
            games.append(
                Game(
                    int(r["number"]),
                    tuple(int(e) for e in t["entries"]),
                    None if result is None else tuple(int(p) for p in result),
                    None if score is None else tuple(int(p) for p in score),
                    boards,
                    t.get("table"),
                )
            )
        rounds.append(Round(int(r["number"]), tuple(games), tuple(int(e) for e in r.get("byes", []))))
    return entrants, rounds, fmt


__all__ = [
    "BYE_POINTS",
    "Entrant",
    "Game",
    "Round",
    "Standing",
    "cross_table",
    "duplicate",
    "export_parts",
    "match_points",
    "standings",
    "standings_of_export",
]
