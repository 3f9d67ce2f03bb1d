"""A League tournament as read for one request (:class:`TournamentState`), its constants and
the small checks of what a request sends, shared by the tournament's collaborators."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from sqlalchemy.engine import Connection

from blot.games import GameSpec, spec
from blot.server.errors import Refused
from blot.server.table import AGREEMENT, FORFEIT
from blot.store import tournaments as rows
from blot.tournaments import pairing
from blot.tournaments.standings import (
    FORFEIT_LOSS,
    FORFEIT_WIN,
    Game,
    Round,
    match_points,
)

log = logging.getLogger("blot.server")

FORMATS = ("swiss", "round_robin", "duplicate")
NAME_LIMIT = 80
ROUND_LIMIT = 30
DEAL_LIMIT = 16
ENTRY_LIMIT = 1000
#: Seconds an entrant has to come to an online table (then the game is lost by forfeit).
FORFEIT_SECONDS = 300
#: Why a change decided on what was read is refused when its event moved meanwhile.
CHANGED = "event_changed"
#: Why a Davtar left unfinished takes no deal (L-2).
LEFT_UNFINISHED = "left_unfinished"
#: A duplicate round's tables play to this target, so that only the round's deals end them.
DUPLICATE_TARGET = 10_000


def _clean_text(value: Any, what: str, limit: int) -> str:
    if not isinstance(value, str) or not value.strip():
        raise Refused("malformed", "field_needed", what, field=what)
    text = " ".join(value.split())
    if len(text) > limit:
        raise Refused("malformed", "field_too_long_n", what, field=what, n=limit)
    if any(not ch.isprintable() for ch in text):
        raise Refused("malformed", "field_control", what, field=what)
    return text


def _flag(body: Mapping[str, Any], key: str, default: bool) -> bool:
    value = body.get(key, default)
    if not isinstance(value, bool):
        raise Refused("malformed", "field_flag", key, field=key)
    return value


def _whole(body: Mapping[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = body.get(key, default)
    if type(value) is not int or not low <= value <= high:
        raise Refused("malformed", "field_whole", key, field=key, low=low, high=high)
    return value


def _confirmed(entry: Mapping[str, Any]) -> bool:
    return entry["bot"] is not None or all(m["confirmed"] for m in entry["members"])


def pairable(entries: Sequence[Mapping[str, Any]]) -> list[int]:
    """Entries that may be paired: confirmed and not withdrawn, in registration order."""
    return [int(e["id"]) for e in entries if e["withdrawn_at"] is None and _confirmed(e)]


def barred_note(barred: Mapping[str, Any] | None) -> str | None:
    """Why a bar withdrew an entry, as the event page and the standings say it (issue 38 item 5)."""
    if not barred:
        return None
    by = "tars kapoot" if barred.get("by") == "tars_kapoot" else "the Court of Conduct"
    number = int(barred.get("round") or 0)
    return f"barred by {by} " + (f"in round {number}" if number else "before round 1")


@lru_cache(maxsize=64)
def _schedule(field: tuple[int, ...], size: int) -> tuple[pairing.Pairing, ...]:
    """A round robin's whole schedule (a pure function of its entrants: cached)."""
    return tuple(pairing.round_robin(list(field), size=size))


@dataclass
class TournamentState:
    """A tournament as read from the database, for one request."""

    row: dict[str, Any]
    organizers: list[int]
    entries: list[dict[str, Any]]
    rounds: list[dict[str, Any]]
    tables: list[dict[str, Any]]
    sheets: dict[str, dict[str, Any]]
    #: The referees' announcements, disputes and escalations (the event page shows them).
    notes: list[dict[str, Any]]
    #: The usernames of the event's referees (issue 42: each table names its referee).
    names: dict[int, str] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return str(self.row["id"])

    @property
    def game(self) -> GameSpec:
        return spec(self.row["game"])

    @property
    def settings(self) -> dict[str, Any]:
        return dict(self.row["settings"])

    @property
    def format(self) -> str:
        return str(self.row["format"])

    @property
    def size(self) -> int:
        """Entrants at a table: one entry for each of the game's teams (a pair, or a player)."""
        return len(self.game.teams)

    def confirmed(self, entry: Mapping[str, Any]) -> bool:
        return _confirmed(entry)

    def active(self) -> list[int]:
        return pairable(self.entries)

    def unchanged(self, c: Connection) -> None:
        """In a write: lock the tournament and check that no round started since this state was read."""
        if rows.lock(c, self.id) != len(self.rounds):
            raise Refused("conflict", CHANGED)

    def total_rounds(self) -> int:
        if self.format == "round_robin":
            field = self.settings.get("field")
            if field is None:
                return 0
            return len(_schedule(tuple(field), self.size))
        return int(self.settings["rounds"])

    def games(self) -> list[Round]:
        """The rounds as standings need them, results taken from the games' stored ends."""
        by_round: dict[int, list[Game]] = {}
        for t in self.tables:
            by_round.setdefault(int(t["round"]), []).append(self._game_of(t))
        return [
            Round(int(r["number"]), tuple(by_round.get(int(r["number"]), [])), tuple(r["byes"]))
            for r in self.rounds
        ]

    def _game_of(self, t: Mapping[str, Any]) -> Game:
        entries = tuple(int(e) for e in t["entries"])
        number = int(t["round"])
        table = t["table_id"]
        if t["sheet_id"] is not None:
            sheet = self.sheets.get(str(t["sheet_id"]))
            if sheet is None or not sheet["finished"]:
                return Game(number, entries, table=None)
            winner = int(sheet["winner"])
            points = match_points([0 if i == winner else 1 for i in range(2)], sheet["match_score"])
            return Game(number, entries, points, tuple(sheet["totals"]))
        if table is None or t["table_status"] != "finished":
            return Game(number, entries, table=table)
        summary = t["table_summary"] or {}
        if summary.get("ended") == AGREEMENT:  # unfinished (League §7): counts for nothing yet
            return Game(number, entries, table=table)
        seats = self._seats_of(entries)
        places = t["places"]
        by_entry = [min(places.get(s, 1) or 0 for s in seats[i]) for i in range(len(entries))]
        if summary.get("ended") == FORFEIT:
            lost = set(summary.get("forfeited", []))
            points = tuple(FORFEIT_LOSS if set(seats[i]) & lost else FORFEIT_WIN for i in range(len(entries)))
        else:
            points = match_points(by_entry, summary.get("match_score"))
        totals = summary.get("totals") or []
        score = tuple(int(totals[i]) for i in range(len(entries))) if len(totals) >= len(entries) else None
        boards = tuple((int(p[0]), int(p[1])) for p in summary.get("deal_points", []))
        if self.format == "duplicate" and score is not None:
            # issue 42 item 5: a duplicate table's result is each pair's score on the boards (its
            # match points mean nothing there; the standings rank by matchpoints, B-71 aside)
            points = score
        return Game(number, entries, points, score, boards, table)

    def _seats_of(self, entries: Sequence[int]) -> list[tuple[int, ...]]:
        """The seats of each entry of a table, in the table's order."""
        return [self.game.teams[i] for i in range(len(entries))]

    def unfinished(self, t: Mapping[str, Any]) -> bool:
        """Whether a table's game is unfinished (League §7, L-2): online, ended by agreement and
        not continued yet; over the board, its sheet not finished and the referee's last word
        on it ``unfinished`` (not ``reopened``)."""
        if t["sheet_id"] is not None:
            sheet = self.sheets.get(str(t["sheet_id"]))
            marks = [
                n["kind"]
                for n in self.notes
                if n["table"] == int(t["id"]) and n["kind"] in (rows.LEFT, rows.REOPENED)
            ]
            return sheet is not None and not sheet["finished"] and marks[-1:] == [rows.LEFT]
        summary = t.get("table_summary") or {}
        return t["table_status"] == "finished" and summary.get("ended") == AGREEMENT

    def published(self) -> int | None:
        """The number of the round paired and published but not started (issue 42 item 2)."""
        last = self.rounds[-1] if self.rounds else None
        return int(last["number"]) if last is not None and last.get("status") == "published" else None

    def forbidden(self) -> list[tuple[int, int]]:
        """The pairs of entries that must not meet while avoidable (issue 42)."""
        return [(int(a), int(b)) for a, b in self.settings.get("forbidden") or []]

    def requested_byes(self, number: int) -> list[int]:
        """The entries that asked to sit round ``number`` out (issue 42)."""
        asked = self.settings.get("requested_byes") or {}
        return [int(e) for e, rounds in asked.items() if number in rounds]

    def late_scores(self) -> dict[int, float]:
        """Each late entry's starting score (issue 42; 0 unless the organizer gave one)."""
        return {int(e): float(p) for e, p in (self.settings.get("late_scores") or {}).items()}

    def round_setting(self, number: int, key: str, default: int) -> int:
        """A time control of round ``number``: its own (``rounds_settings``) or the event's."""
        own = (self.settings.get("rounds_settings") or {}).get(str(number)) or {}
        return int(own.get(key, self.settings.get(key, default)) or 0)

    def requires_referees(self) -> bool:
        """Whether every table must have a referee before its round's play starts (L-6)."""
        return bool(self.settings.get("referees"))

    def without_referee(self, number: int) -> list[int]:
        """The numbers of round ``number``'s tables that have no referee, when the tournament
        requires one at every table (L-6); else none."""
        if not self.requires_referees():
            return []
        return [int(t["number"]) for t in self.tables if t["round"] == number and t["referee"] is None]

    def awaiting_referees(self, number: int) -> list[int]:
        """The tables that keep round ``number`` from starting: the tournament requires a referee at
        every table and the round's tables are not open yet (they open all together once every
        table has one, see
        :mod:`blot.server.tournaments.rounds`)."""
        played = [t for t in self.tables if t["round"] == number]
        if any(t["table_id"] is not None or t["sheet_id"] is not None for t in played):
            return []
        if self.published() == number:  # not started: the organizer's start opens them
            return []
        return self.without_referee(number)

    def players_at(self, t: Mapping[str, Any]) -> set[int]:
        """The accounts playing at a table (its entries' members)."""
        entries = {int(e["id"]): e for e in self.entries}
        return {m["player"] for e in t["entries"] for m in entries[int(e)]["members"]}

    def round_over(self, number: int) -> bool:
        """Every game of the round has its result or is unfinished: an unfinished game is
        continued whenever its players agree (L-2) and does not hold the tournament up."""
        played = [t for t in self.tables if t["round"] == number]
        if not played:  # a round robin's round whose every table lost an entrant: byes only
            return any(int(r["number"]) == number and r["byes"] for r in self.rounds)
        return all(self.unfinished(t) or self._game_of(t).points is not None for t in played)

    def status(self) -> str:
        """``finished`` once every round is played and no game of it is left unfinished."""
        if not self.rounds:
            return "registration"
        total = self.total_rounds()
        if (
            len(self.rounds) >= total
            and self.round_over(len(self.rounds))
            and not any(self.unfinished(t) for t in self.tables)
        ):
            return "finished"
        return "running"


def _schedule_of(value: Any, rounds: int) -> list[str]:
    """The times the rounds start by themselves (the first ones; the others the organizer's),
    in order."""
    if not isinstance(value, list) or not value or len(value) > rounds:
        raise Refused("malformed", "schedule_list", "schedule", n=rounds)
    times = []
    for item in value:
        try:
            times.append(_aware(datetime.fromisoformat(str(item))))
        except ValueError:
            raise Refused("malformed", "schedule_times", "schedule") from None
    if times != sorted(times):
        raise Refused("malformed", "schedule_order", "schedule")
    return [t.isoformat() for t in times]


def note_json(n: Mapping[str, Any]) -> dict[str, Any]:
    """A referee's note as the event page and the console show it."""
    return {
        "id": int(n["id"]),
        "table": int(n["event_table"]),
        "round": n.get("round"),
        "number": n.get("number"),
        "kind": n["kind"],
        "at": _iso(n["at"]),
        "by": n["by_player"],
        **dict(n["body"]),
    }


#: Notes that belong to a court's case: the event page lists them apart, with no table (L-5).
COURT_NOTES = ("escalation", "court_answer")
#: Notes that may name people: only the table's referee, its players and the organizers see them.
PRIVATE_NOTES = ("dispute", "conflict", "stepped_down")


def court_questions(notes: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """What the event page says of its courts' cases (L-5), in the order they were asked: that
    a question went to a court and, once the referee has applied it at the table, the court's
    answer; never the question's text, its time, its table, its round or its pairs (a court
    member who saw the case matches it to nothing)."""
    found: dict[int, dict[str, Any]] = {}
    for n in notes:
        if n["kind"] == "escalation":
            found[int(n["case"])] = {"court": n["court"], "answer": None}
        elif n["kind"] == "court_answer" and int(n["case"]) in found:
            found[int(n["case"])]["answer"] = n["answer"]
    return list(found.values())


def _insert_within_limit(c: Connection, row: Mapping[str, Any], player: int, limit: int | None) -> None:
    """Insert the tournament, unless the account created ``limit`` public events in the 24 hours before
    it already (counted in the same transaction: two requests at once cannot both pass; issue 38
    item 7). ``limit`` None: no limit (a private event, an administrator)."""
    if limit is not None:
        from sqlalchemy import func, select

        from blot.store.schema import events as event_table

        since = row["created_at"] - timedelta(days=1)
        made = c.execute(
            select(func.count())
            .select_from(event_table)
            .where(
                event_table.c.created_by == player,
                event_table.c.public.is_(True),
                event_table.c.created_at > since,
            )
        ).scalar_one()
        if int(made) >= limit:
            raise Refused("conflict", "event_daily_limit", n=limit)
    rows.insert_event(c, row, player)


class _Taken(Exception):
    """Another request opened the table first (nothing of this one is kept)."""


def _aware(at: datetime) -> datetime:
    """SQLite gives back naive datetimes (stored in UTC)."""
    from datetime import UTC

    return at.replace(tzinfo=UTC) if at.tzinfo is None else at


def _iso(at: Any) -> str | None:
    if at is None:
        return None
    if isinstance(at, datetime):
        return _aware(at).isoformat()
    return str(at)
