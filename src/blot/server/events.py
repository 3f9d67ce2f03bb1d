"""League events on the server (issue 25): creating an event, entries, starting rounds (pairing
them and opening their tables or score sheets), results and standings, forfeits, and the
referees' console.

Nothing of an event is kept in this process's memory: every request reads the event from the
database and every change is one transaction of the store's writer. What two requests could race
is settled by the database (:mod:`blot.store.events`): an account enters an event once, a round
starts once, a table of a round is opened once. Results are never typed twice: an online table's
come from its stored end (the ``tables`` row's summary and the ``results`` rows written with the
game's last line), an over-the-board table's from the referee's score sheet. Standings are
computed from them on every read (:mod:`blot.events.standings`).

The periodic :meth:`EventService.sweep` (any process may run it) opens the tables of a round
whose start was cut short, starts scheduled rounds and gives forfeits: an entrant with a seat at
an online table where, ``forfeit_seconds`` (5 minutes unless chosen) after the round's start, that
seat's person has made no move of their own though their turn came, loses the game by forfeit
(every seat of a pair must come; one still waiting for a first turn has not failed to come).
"""

from __future__ import annotations

import asyncio
import csv
import io
import logging
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from blot.errors import BlotError
from blot.events import pairing
from blot.events.standings import (
    BYE_POINTS,
    FORFEIT_LOSS,
    FORFEIT_WIN,
    Entrant,
    Game,
    Round,
    cross_table,
    match_points,
    standings,
)
from blot.games import GameSpec, spec
from blot.games import names as game_names
from blot.server.errors import Refused
from blot.server.services import Storage
from blot.server.table import AGREEMENT, FORFEIT, RATED_TIMER
from blot.server.tables import TIMER_LIMIT, Tables
from blot.store import Store
from blot.store import accounts as account_rows
from blot.store import events as rows

log = logging.getLogger("blot.server")

FORMATS = ("swiss", "round_robin", "duplicate")
NAME_LIMIT = 80
ROUND_LIMIT = 30
DEAL_LIMIT = 16
ENTRY_LIMIT = 1000
#: Seconds an entrant has to come to an online table (then the game is lost by forfeit).
FORFEIT_SECONDS = 300
#: Why a change decided on what was read is refused when its event moved meanwhile.
CHANGED = "the event changed meanwhile (a round started or an entry changed): try again"
#: Why a Davtar left unfinished takes no deal (L-2).
LEFT_UNFINISHED = "this game was left unfinished: its referee announces that it is reopened first"
#: A duplicate round's tables play to this target, so that only the round's deals end them.
DUPLICATE_TARGET = 10_000


def _clean_text(value: Any, what: str, limit: int) -> str:
    if not isinstance(value, str) or not value.strip():
        raise Refused("malformed", f"{what} is needed", what)
    text = " ".join(value.split())
    if len(text) > limit:
        raise Refused("malformed", f"{what} has at most {limit} characters", what)
    if any(not ch.isprintable() for ch in text):
        raise Refused("malformed", f"{what} may not hold control characters", what)
    return text


def _flag(body: Mapping[str, Any], key: str, default: bool) -> bool:
    value = body.get(key, default)
    if not isinstance(value, bool):
        raise Refused("malformed", f"{key} is true or false", key)
    return value


def _whole(body: Mapping[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = body.get(key, default)
    if type(value) is not int or not low <= value <= high:
        raise Refused("malformed", f"{key} is a whole number between {low} and {high}", key)
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
class EventState:
    """An event as read from the database, for one request."""

    row: dict[str, Any]
    organizers: list[int]
    entries: list[dict[str, Any]]
    rounds: list[dict[str, Any]]
    tables: list[dict[str, Any]]
    sheets: dict[str, dict[str, Any]]
    #: The referees' announcements, disputes and escalations (the event page shows them).
    notes: list[dict[str, Any]]

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
        """In a write: lock the event and check that no round started since this state was read."""
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

    def requires_referees(self) -> bool:
        """Whether every table must have a referee before its round's play starts (L-6)."""
        return bool(self.settings.get("referees"))

    def without_referee(self, number: int) -> list[int]:
        """The numbers of round ``number``'s tables that have no referee, when the event
        requires one at every table (L-6); else none."""
        if not self.requires_referees():
            return []
        return [int(t["number"]) for t in self.tables if t["round"] == number and t["referee"] is None]

    def awaiting_referees(self, number: int) -> list[int]:
        """The tables that keep round ``number`` from starting: the event requires a referee at
        every table and the round's tables are not open yet (they open all together once every
        table has one, :meth:`EventService.open_tables`)."""
        played = [t for t in self.tables if t["round"] == number]
        if any(t["table_id"] is not None or t["sheet_id"] is not None for t in played):
            return []
        return self.without_referee(number)

    def players_at(self, t: Mapping[str, Any]) -> set[int]:
        """The accounts playing at a table (its entries' members)."""
        entries = {int(e["id"]): e for e in self.entries}
        return {m["player"] for e in t["entries"] for m in entries[int(e)]["members"]}

    def round_over(self, number: int) -> bool:
        """Every game of the round has its result or is unfinished: an unfinished game is
        continued whenever its players agree (L-2) and does not hold the event up."""
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


class EventService:
    """Events of one server (the hub owns it): every method reads what it needs from the
    database and writes through the store's writer."""

    def __init__(self, storage: Storage, tables: Tables, store: Store) -> None:
        self.storage = storage
        self.tables = tables
        self.store = store
        self.config = storage.config

    # --- reading --------------------------------------------------------------------------------

    async def load(self, event_id: str) -> EventState:
        if not isinstance(event_id, str) or len(event_id) > 24:
            raise Refused("not_found", "no such event")

        def read(c: Connection) -> EventState | None:
            row = rows.event_row(c, event_id)
            if row is None:
                return None
            # each statement may see a newer commit (PostgreSQL's read committed): the rounds
            # first, so that every round read has its tables read too (they are written together)
            rounds = rows.rounds(c, event_id)
            tables = rows.round_tables(c, event_id)
            sheets = {}
            from blot.scoresheet import sheets as service

            for t in tables:
                if t["sheet_id"] is not None:
                    stored = service.load(c, t["sheet_id"])
                    sheets[str(t["sheet_id"])] = stored.sheet.standing().to_json()
            return EventState(
                row,
                rows.organizers(c, event_id),
                rows.entries(c, event_id),
                rounds,
                tables,
                sheets,
                [note_json(n) for n in rows.notes(c, event_id)],
            )

        state = await self.storage.read(read)
        if state is None:
            raise Refused("not_found", "no such event")
        if state.row["status"] != "finished" and await self._withdraw_barred(state):
            state = await self.storage.read(read)
            assert state is not None
        status = state.status()
        if state.rounds and status != state.row["status"]:  # the listing reads the stored status
            await self.storage.write(lambda c: rows.set_status(c, event_id, status))
            state.row["status"] = status
        return state

    def to_json(self, state: EventState, viewer: int | None = None) -> dict[str, Any]:
        settings = state.settings
        field = settings.pop("field", None)
        rounds = state.games()
        table_rows = {(int(t["round"]), int(t["number"])): t for t in state.tables}
        out_rounds = []
        for r, stored in zip(rounds, state.rounds, strict=True):
            tables = []
            for number, g in enumerate(r.games, 1):
                t = table_rows[(r.number, number)]
                tables.append(
                    {
                        "id": int(t["id"]),
                        "number": number,
                        "table": t["table_id"],
                        "sheet": self._sheet_for(state, t, viewer),
                        "entries": list(g.entries),
                        "result": None if g.points is None else list(g.points),
                        "score": None if g.score is None else list(g.score),
                        "boards": [list(b) for b in g.boards],
                        "referee": t["referee"],
                        "status": "finished"
                        if g.points is not None
                        else "unfinished"
                        if state.unfinished(t)
                        else "awaiting_referee"
                        if t["table_id"] is None and t["sheet_id"] is None and state.requires_referees()
                        else "playing",
                    }
                )
            over = all(x["result"] is not None for x in tables)
            awaiting = state.awaiting_referees(r.number)
            out_rounds.append(
                {
                    "number": r.number,
                    "status": "finished" if over else "awaiting_referees" if awaiting else "playing",
                    "without_referee": [] if over else state.without_referee(r.number),
                    "started_at": _iso(stored["started_at"]),
                    "tables": tables,
                    "byes": list(r.byes),
                }
            )
        entrants = [
            Entrant(int(e["id"]), str(e["name"]), e["withdrawn_at"] is not None, barred_note(e.get("barred")))
            for e in state.entries
            if state.confirmed(e)
        ]
        table = standings(entrants, rounds, state.format)
        return {
            "id": state.id,
            "name": state.row["name"],
            "game": state.game.name,
            "format": state.format,
            "status": state.status(),
            "public": bool(state.row["public"]),
            "settings": settings,
            "rounds_total": state.total_rounds()
            if field is not None or state.format != "round_robin"
            else None,
            "organizers": state.organizers,
            "organizer": viewer in state.organizers,
            "created_at": _iso(state.row["created_at"]),
            "entries": [
                {
                    "id": int(e["id"]),
                    "name": e["name"],
                    "bot": e["bot"],
                    "late": bool(e["late"]),
                    "withdrawn": e["withdrawn_at"] is not None,
                    "barred": e.get("barred"),
                    "barred_note": barred_note(e.get("barred")),
                    "confirmed": state.confirmed(e),
                    "members": e["members"],
                }
                for e in state.entries
            ],
            "rounds": out_rounds,
            "notes": self._notes_for(state, viewer),
            "court_questions": court_questions(state.notes),
            "standings": [s.to_json() for s in table],
            "cross_table": {
                str(k): {str(o): v for o, v in row.items()}
                for k, row in cross_table(entrants, rounds).items()
            },
        }

    @staticmethod
    def _sheet_for(state: EventState, t: Mapping[str, Any], viewer: int | None) -> str | None:
        """A score sheet's edit id (its secret) for the table's referee and the organizers only,
        and never for one who plays at it (L-6, L-8: nobody keeps the Davtar of his own game)."""
        if t["sheet_id"] is None:
            return None
        keepers = {t["referee"], *state.organizers} - state.players_at(t)
        return str(t["sheet_id"]) if viewer in keepers else "shared"

    @staticmethod
    def _notes_for(state: EventState, viewer: int | None) -> list[dict[str, Any]]:
        """The referees' notes a viewer sees (L-5): never a court's question or answer beside a
        table (:func:`court_questions` lists them apart); a dispute, a conflict of interest or a
        referee's stepping down, which may name people, only for that table's referee, the
        organizers and the table's players."""
        by_id = {int(t["id"]): t for t in state.tables}
        shown = []
        for n in state.notes:
            if n["kind"] in COURT_NOTES:
                continue
            if n["kind"] in PRIVATE_NOTES:
                t = by_id[int(n["table"])]
                allowed = {t["referee"], n["by"], *state.organizers} | state.players_at(t)
                if viewer is None or viewer not in allowed:
                    continue
            shown.append(n)
        return shown

    async def listing(self, viewer: int | None) -> list[dict[str, Any]]:
        found = await self.storage.read(lambda c: rows.listing(c, viewer))
        return [
            {
                "id": r["id"],
                "name": r["name"],
                "game": r["game"],
                "format": r["format"],
                "status": r["status"],
                "public": bool(r["public"]),
                "online": bool(r["settings"].get("online")),
                "rated": bool(r["settings"].get("rated")),
                "rounds": r["settings"].get("rounds"),
                "created_at": _iso(r["created_at"]),
            }
            for r in found
        ]

    async def next_games(self, player: int) -> list[dict[str, Any]]:
        """The player's event tables waiting for them ("your table is ready")."""
        found = await self.storage.read(lambda c: rows.next_games(c, player))
        return [
            {
                "event": r["event_id"],
                "event_name": r["event_name"],
                "round": r["round"],
                "table": r["table_id"],
            }
            for r in found
        ]

    async def standings_csv(self, event_id: str) -> str:
        state = await self.load(event_id)
        return self.csv_of(self.to_json(state))

    @staticmethod
    def csv_of(data: Mapping[str, Any]) -> str:
        """The standings of an event's answer as CSV (a spreadsheet's rows)."""
        out = io.StringIO()
        keys = list(data["standings"][0]["tiebreaks"]) if data["standings"] else []
        writer = csv.writer(out)
        writer.writerow(["rank", "entry", "name", "points", *keys, "games", "withdrawn"])
        for s in data["standings"]:
            writer.writerow(
                [
                    s["rank"],
                    s["entry"],
                    s["name"],
                    s["points"],
                    *(s["tiebreaks"][k] for k in keys),
                    s["games"],
                    s["withdrawn"],
                ]
            )
        return out.getvalue()

    # --- creating -------------------------------------------------------------------------------

    async def create(self, player: int, body: Mapping[str, Any]) -> dict[str, Any]:
        """A new event; its creator is its organizer (an account), who creates at most
        ``public_events_per_day`` public ones in 24 hours unless an administrator (issue 38 item 7)."""
        username = await self._username(player)
        if username is None:
            raise Refused("forbidden", "only an account can run an event: sign up or log in first")
        name = _clean_text(body.get("name"), "name", NAME_LIMIT)
        try:
            game = spec(body.get("game", game_names()[0]))
        except BlotError as e:
            raise Refused.of(e) from None
        fmt = body.get("format", "swiss")
        if fmt not in FORMATS:
            raise Refused("malformed", f"format is {', '.join(FORMATS)}", "format")
        if fmt == "duplicate" and not game.duplicate:
            raise Refused("malformed", f"{game.title} is not played in duplicate", "format")
        options = body.get("options")
        if options is not None and not isinstance(options, dict):
            raise Refused("malformed", "options is an object of the game's options, or null", "options")
        try:
            rules = game.rules(body.get("ruleset"), options or None)
        except BlotError as e:
            raise Refused.of(e) from None
        online = _flag(body, "online", True)
        rated = _flag(body, "rated", False)
        public = _flag(body, "public", True)
        if rated and not online:
            raise Refused(
                "malformed",
                "ratings move only with online games: an over-the-board event is not rated",
                "rated",
            )
        if rated and fmt == "duplicate":
            raise Refused(
                "malformed",
                "a duplicate round's fixed deals are no game to the end: it cannot be rated",
                "rated",
            )
        if not online and fmt == "duplicate":
            raise Refused(
                "malformed",
                "duplicate is played online: the server deals the same cards at every table",
                "format",
            )
        if not online and not game.score_sheet:
            raise Refused(
                "malformed",
                f"{game.title} has no Davtar for referees to keep: its events are online",
                "online",
            )
        settings: dict[str, Any] = {
            "ruleset": rules.ruleset,
            "options": rules.options(),
            "rounds": _whole(body, "rounds", 5, 1, ROUND_LIMIT),
            "online": online,
            "rated": rated,
            "forfeit_seconds": _whole(body, "forfeit_seconds", FORFEIT_SECONDS, 1, 3600),
            "timer": _whole(body, "timer", RATED_TIMER if rated else 0, 0, TIMER_LIMIT),
            # a referee at every table (L-6): by default over the board under the League's rules
            "referees": _flag(body, "referees", not online and rules.ruleset == "league"),
        }
        if rated and not settings["timer"]:
            settings["timer"] = RATED_TIMER
        if fmt == "duplicate":
            settings["deals"] = _whole(body, "deals", 4, 1, DEAL_LIMIT)
        schedule = body.get("schedule")
        if schedule is not None:
            settings["schedule"] = _schedule_of(schedule, settings["rounds"])
        deadline = body.get("deadline")
        if deadline is not None:
            try:
                when = datetime.fromisoformat(str(deadline))
            except ValueError:
                raise Refused(
                    "malformed", "deadline is a date and time such as 2026-05-01T18:00:00Z", "deadline"
                ) from None
            settings["deadline"] = when.isoformat()
        at = self.storage.now()
        event_id = secrets.token_urlsafe(9)
        row = {
            "id": event_id,
            "name": name,
            "game": game.name,
            "format": fmt,
            "settings": settings,
            "public": public,
            "status": "registration",
            "created_by": player,
            "created_at": at,
            "updated_at": at,
        }
        limit = None if not public or self._admin(username) else self.config.public_events_per_day
        await self.storage.write(lambda c: _insert_within_limit(c, row, player, limit))
        return self.to_json(await self.load(event_id), player)

    def _admin(self, username: str) -> bool:
        """Whether the account is one of the server's administrators (``blot serve --admin``)."""
        from blot.accounts import username_key

        return username_key(username) in {username_key(name) for name in self.config.admins}

    async def _username(self, player: int) -> str | None:
        def read(c: Connection) -> str | None:
            found = account_rows.by_id(c, player)
            return None if found is None or found.disabled else found.username

        return await self.storage.read(read)

    # --- entries --------------------------------------------------------------------------------

    async def enter(self, player: int, event_id: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """An entry: ``{"usernames": [...]}`` (a team's accounts: a pair, or one account; the
        requester among them, or the organizer) or ``{"bot": LEVEL}`` (the organizer)."""
        state = await self.load(event_id)
        organizer = player in state.organizers
        late = bool(state.rounds)
        if late:
            if not organizer:
                raise Refused(
                    "conflict",
                    "registration is closed: the event has started (only its organizer adds late entries)",
                )
            if state.format == "round_robin":
                raise Refused("conflict", "a round robin's schedule is made at its start: no late entries")
            if len(state.rounds) * 2 > state.total_rounds():
                raise Refused("conflict", "late entries are possible until half the rounds are played")
        deadline = state.settings.get("deadline")
        if (
            deadline is not None
            and not organizer
            and self.storage.now() > _aware(datetime.fromisoformat(deadline))
        ):
            raise Refused("conflict", "the registration deadline has passed")
        if sum(1 for e in state.entries if e["withdrawn_at"] is None) >= ENTRY_LIMIT:
            raise Refused("conflict", f"an event has at most {ENTRY_LIMIT} entries")
        at = self.storage.now()
        if "bot" in body:
            return await self._enter_bot(state, player, body.get("bot"), late, at)
        names = body.get("usernames")
        need = len(state.game.teams[0])
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names) or len(names) != need:
            title = state.game.title
            raise Refused(
                "malformed",
                f"an entry of {title} is a pair of two accounts: usernames is a list of 2"
                if state.game.pairs
                else f"an entry of {title} is one account: usernames is a list of 1",
                "usernames",
            )
        from blot.accounts import username_key

        keys = [username_key(n) for n in names]
        if len(set(keys)) != len(keys):
            raise Refused(
                "malformed", f"a pair is two different accounts: {names[0]} is named twice", "usernames"
            )

        def find(c: Connection) -> list[Any]:
            return [account_rows.find(c, k) for k in keys]

        accounts = await self.storage.read(find)
        for typed, found in zip(names, accounts, strict=True):
            if found is None or found.disabled:
                raise Refused("not_found", f"there is no account {typed}", "usernames")
        ids = [a.id for a in accounts]
        if not organizer and player not in ids:
            raise Refused(
                "forbidden", "you may enter yourself (with your partner); the organizer enters others"
            )
        await self._check_bars(ids, at)
        entry_name = " & ".join(a.username for a in accounts)

        def write(c: Connection) -> int:
            state.unchanged(c)  # late or not, as decided
            referees = rows.referees(c, state.id)  # under the lock that assigning one takes too
            for account in accounts:
                if account.id in referees:
                    raise Refused(
                        "conflict",
                        f"{account.username} referees a table of this event and cannot also play in it",
                    )
            entry = rows.insert_entry(c, state.id, entry_name, None, late, at)
            for position, account in enumerate(accounts):
                rows.insert_member(
                    c, state.id, account.id, entry, position, organizer or account.id == player
                )
            rows.touch(c, state.id, at)
            return entry

        try:
            await self.storage.write(write)
        except IntegrityError:
            taken = await self.storage.read(
                lambda c: {m["player"] for e in rows.entries(c, state.id) for m in e["members"]}
            )
            who = next((a.username for a in accounts if a.id in taken), accounts[0].username)
            raise Refused("conflict", f"{who} is already entered in this event") from None
        return self.to_json(await self.load(event_id), player)

    async def _enter_bot(
        self, state: EventState, player: int, level: Any, late: bool, at: datetime
    ) -> dict[str, Any]:
        if player not in state.organizers:
            raise Refused("forbidden", "only the event's organizer adds bot entrants")
        if not state.settings.get("online"):
            raise Refused("conflict", "bots play online: an over-the-board event has no bot entrants")
        if not isinstance(level, str) or level not in state.game.bots:
            raise Refused(
                "malformed", f"a bot entrant is a level: {', '.join(state.game.bot_names())}", "bot"
            )
        if state.settings.get("rated"):
            from blot.server.seats import check_rated_level

            check_rated_level(state.game, level)
        count = sum(1 for e in state.entries if e["bot"] is not None) + 1
        name = f"bot ({level}) {count}"

        def write(c: Connection) -> None:
            state.unchanged(c)
            rows.insert_entry(c, state.id, name, level, late, at)
            rows.touch(c, state.id, at)

        await self.storage.write(write)
        return self.to_json(await self.load(state.id), player)

    async def _check_bars(self, ids: Sequence[int], at: datetime) -> None:
        """L-3, L-10: an account barred by a dishonour may not enter, nor (``--league``) a pair
        barred by a tars kapoot."""
        from blot import league

        tars = self.config.league
        found = await self.storage.read(lambda c: league.entry_bar(c, list(ids), at, tars=tars))
        if found is not None:
            from blot.server.conduct import bar_refusal

            raise Refused("forbidden", bar_refusal(found))

    async def _withdraw_barred(self, state: EventState) -> bool:
        """Issue 38 item 5 (L-3, L-10): an entry a bar keeps out now (its pair's tars kapoot with
        ``--league``, in this event or anywhere, or a dishonour of one of its accounts) is
        withdrawn at once, never silently left unpaired: ``barred`` says why and in which round
        (0: before the first), the event page and the standings say so, and its later games are
        scored as forfeits (see :mod:`blot.events.standings`). Answers whether any was."""
        from blot import league

        entries = {
            int(e["id"]): [int(m["player"]) for m in e["members"]]
            for e in state.entries
            if e["withdrawn_at"] is None and e["bot"] is None
        }
        if not entries:
            return False
        now = self.storage.now()
        tars = self.config.league and state.game.pairs
        barred = await self.storage.read(lambda c: league.barred_entries(c, entries, now, tars=tars))
        if not barred:
            return False
        number = len(state.rounds)

        def write(c: Connection) -> bool:
            done = [rows.bar_entry(c, e, {"by": by, "round": number}, now) for e, by in barred.items()]
            if any(done):
                rows.touch(c, state.id, now)
            return any(done)

        return await self.storage.write(write)

    async def confirm(self, player: int, event_id: str, entry: int) -> dict[str, Any]:
        state = await self.load(event_id)
        if state.rounds and player not in state.organizers:
            raise Refused("conflict", "registration is closed: the event has started")

        def write(c: Connection) -> bool:
            state.unchanged(c)
            return rows.confirm(c, state.id, entry, player)

        if not await self.storage.write(write):
            raise Refused("forbidden", "only an account of this entry confirms it")
        return self.to_json(await self.load(event_id), player)

    async def withdraw(self, player: int, event_id: str, entry: int) -> dict[str, Any]:
        state = await self.load(event_id)
        found = next((e for e in state.entries if int(e["id"]) == entry), None)
        if found is None:
            raise Refused("not_found", "no such entry in this event")
        members = {m["player"] for m in found["members"]}
        if player not in members and player not in state.organizers:
            raise Refused("forbidden", "only the entry's own accounts or the organizer withdraw it")
        if found["withdrawn_at"] is not None:
            raise Refused("conflict", "that entry has withdrawn already")
        at = self.storage.now()
        played = any(entry in t["entries"] for t in state.tables) or any(
            entry in r["byes"] for r in state.rounds
        )

        def write(c: Connection) -> None:
            state.unchanged(c)  # played or not, as decided
            if played:
                rows.withdraw(c, entry, at)
            else:
                rows.delete_unconfirmed(c, entry)
            rows.touch(c, state.id, at)

        await self.storage.write(write)
        return self.to_json(await self.load(event_id), player)

    async def add_organizer(self, player: int, event_id: str, body: Mapping[str, Any]) -> dict[str, Any]:
        state = await self.load(event_id)
        if player not in state.organizers:
            raise Refused("forbidden", "only an organizer of the event adds another")
        return await self._add_organizer(state, body.get("username"), player)

    async def _add_organizer(self, state: EventState, username: Any, viewer: int) -> dict[str, Any]:
        from blot.accounts import username_key

        if not isinstance(username, str):
            raise Refused("malformed", "a username is needed", "username")
        found = await self.storage.read(lambda c: account_rows.find(c, username_key(username)))
        if found is None:
            raise Refused("not_found", f"there is no account {username}")
        await self.storage.write(lambda c: rows.add_organizer(c, state.id, found.id))
        return self.to_json(await self.load(state.id), viewer)

    async def check_sheet_keeper(self, sheet_id: str, player: int | None) -> None:
        """A score sheet that is an event's table is edited by its referee and the event's
        organizers only (a referee who stepped down no longer can, L-8), and not while its game
        is left unfinished (L-2: the referee announces that it is reopened first)."""
        found = await self.storage.read(lambda c: rows.sheet_keeping(c, sheet_id))
        if found is None:
            return
        keepers, left, playing = found
        if player is not None and player in playing:
            raise Refused(
                "forbidden",
                "you play in this game: nobody keeps or edits the Davtar of his own game (L-6, L-8)",
            )
        if player not in keepers:
            raise Refused(
                "forbidden", "this Davtar is an event's: only its table's referee or the organizers edit it"
            )
        if left:
            raise Refused("conflict", LEFT_UNFINISHED)

    # --- rounds ---------------------------------------------------------------------------------

    async def start_round(self, player: int, event_id: str) -> dict[str, Any]:
        """The organizer starts the next round (see :meth:`_start`)."""
        state = await self.load(event_id)
        if player not in state.organizers:
            raise Refused("forbidden", "only the event's organizer starts its rounds")
        await self._start(state)
        return self.to_json(await self.load(event_id), player)

    async def _start(self, state: EventState) -> None:
        """Pair the next round and open its tables (online) or score sheets (over the board).
        Two starts at once, in this process or another, start it once: the round's row is the
        database's (the other is refused)."""
        number = len(state.rounds) + 1
        waiting = ", ".join(str(n) for n in state.awaiting_referees(len(state.rounds)))
        if waiting:
            raise Refused("conflict", f"round {len(state.rounds)} waits for a referee at tables {waiting}")
        if state.rounds and not state.round_over(len(state.rounds)):
            raise Refused("conflict", f"round {len(state.rounds)} is still being played")
        active = state.active()
        barred = await self._barred(state, active)
        active = [e for e in active if e not in barred]
        settings = state.settings
        if state.format == "round_robin":
            field = settings.get("field") or active
            if len(field) < state.size:
                raise Refused("conflict", f"a round needs at least {state.size} entries")
            schedule = _schedule(tuple(field), state.size)
            if number > len(schedule):
                raise Refused("conflict", "every round of the event has been played")
            planned = schedule[number - 1]
            playing = set(active)
            tables: list[tuple[int, ...]] = []
            byes = list(planned.byes)
            for t in planned.tables:
                if all(e in playing for e in t):
                    tables.append(t)
                else:  # a withdrawn entrant is not paired again: the others of its table have a bye
                    byes.extend(e for e in t if e in playing)
            result = pairing.Pairing(tuple(tables), tuple(byes))
            settings["field"] = list(field)
        else:
            if number > int(settings["rounds"]):
                raise Refused("conflict", "every round of the event has been played")
            if len(active) < state.size:
                raise Refused("conflict", f"a round needs at least {state.size} confirmed entries")
            history = self._history(state)
            result = await asyncio.to_thread(
                pairing.swiss,
                active,
                history,
                size=state.size,
                round_number=number,
                total_rounds=int(settings["rounds"]),
            )
        boards = None
        if state.format == "duplicate":
            rng = self.tables.services.new_rng()
            boards = [state.game.random_deal(rng).to_json() for _ in range(int(settings["deals"]))]
        at = self.storage.now()

        def write(c: Connection) -> None:
            if rows.lock(c, state.id) >= number:
                raise Refused("conflict", f"round {number} has already been started")
            if pairable(rows.entries(c, state.id)) != state.active():  # paired on what was read
                raise Refused("conflict", CHANGED)
            rows.insert_round(c, state.id, number, result.byes, boards, at)
            for index, table in enumerate(result.tables, 1):
                rows.insert_table(
                    c, {"event_id": state.id, "round": number, "number": index, "entries": list(table)}
                )
            rows.start(c, state.id, settings, at)

        try:
            await self.storage.write(write)
        except IntegrityError:
            raise Refused("conflict", f"round {number} has already been started") from None
        await self.open_tables(state.id)

    async def _barred(self, state: EventState, active: Sequence[int]) -> set[int]:
        """Entries whose pair is barred now (League §7, ``--league``): they are not paired."""
        if not self.config.league or not state.game.pairs:
            return set()
        from blot import league

        now = self.storage.now()
        pairs = {
            int(e["id"]): [m["player"] for m in e["members"]] for e in state.entries if int(e["id"]) in active
        }
        pairs = {k: v for k, v in pairs.items() if len(v) == 2}
        if not pairs:
            return set()

        def read(c: Connection) -> set[int]:
            return {entry for entry, ids in pairs.items() if league.bars(c, ids, now)}

        return await self.storage.read(read)

    def _history(self, state: EventState) -> list[pairing.Played]:
        history = []
        for r in state.games():
            earned: dict[int, float] = {}
            for g in r.games:
                if g.points is not None:
                    for e, p in zip(g.entries, g.points, strict=True):
                        earned[e] = p
            for e in r.byes:
                earned[e] = BYE_POINTS
            history.append(pairing.Played(tuple(g.entries for g in r.games), r.byes, earned))
        return history

    async def open_tables(self, event_id: str | None = None) -> int:
        """Open the tables (or score sheets) of started rounds that have none yet: right after a
        start, and from the sweep for a start cut short. Answers how many were opened."""

        def read(c: Connection) -> list[dict[str, Any]]:
            found = rows.unopened(c)
            return [r for r in found if event_id is None or r["event_id"] == event_id]

        opened = 0
        pending = await self.storage.read(read)
        states: dict[str, EventState] = {}
        for t in pending:
            state = states.get(t["event_id"]) or await self.load(t["event_id"])
            states[state.id] = state
            if state.awaiting_referees(int(t["round"])):  # opened once every table has one (L-6)
                continue
            try:
                if await self._open_one(state, t):
                    opened += 1
            except Exception:
                log.exception(
                    "event %s: table %s of round %s could not be opened", state.id, t["number"], t["round"]
                )
        return opened

    async def _open_one(self, state: EventState, t: Mapping[str, Any]) -> bool:
        settings = state.settings
        entries = {int(e["id"]): e for e in state.entries}
        row_id = int(t["id"])
        if not settings.get("online"):
            return await self._open_sheet(state, row_id, [str(entries[int(e)]["name"]) for e in t["entries"]])
        seats: list[dict[str, Any]] = []
        for index, entry_id in enumerate(t["entries"]):
            entry = entries[int(entry_id)]
            places = state.game.teams[index]
            for position, seat in enumerate(places):
                if entry["bot"] is not None:
                    seats.append({"seat": seat, "level": entry["bot"]})
                else:
                    member = entry["members"][position]
                    seats.append(
                        {"seat": seat, "player": member["player"], "name": member["name"], "guest": False}
                    )
        options = dict(settings["options"])
        boards = None
        if state.format == "duplicate":
            options["target"] = DUPLICATE_TARGET
            boards = next(r["boards"] for r in state.rounds if int(r["number"]) == int(t["round"]))
        table_settings: dict[str, Any] = {
            "ruleset": settings["ruleset"],
            "options": options,
            "trick_pause": self.config.trick_pause,
            "rated": bool(settings.get("rated")),
            "timer": int(settings.get("timer") or 0),
            "event": {
                "id": state.id,
                "name": state.row["name"],
                "round": int(t["round"]),
                "table": int(t["number"]),
            },
        }
        if boards is not None:
            table_settings["boards"] = len(boards)
        table = await self.tables.open_for_event(
            state.game.name,
            table_settings,
            bool(state.row["public"]),
            seats,
            boards,
            lambda c, table_id: rows.link_table(c, row_id, table_id=table_id),
        )
        return table is not None

    async def _open_sheet(self, state: EventState, row_id: int, teams: list[str]) -> bool:
        """An over-the-board table: the referee's score sheet (Davtar), its teams the two pairs."""
        from blot.scoresheet import sheets as service

        settings = state.settings
        body = {
            "ruleset": settings["ruleset"],
            "options": settings["options"],
            "teams": [n[:40] for n in teams],
        }

        def write(c: Connection) -> bool:
            stored = service.create(c, body, service.Editor(state.row["name"][:40], None))
            if not rows.link_table(c, row_id, sheet_id=stored.id):
                raise _Taken()
            return True

        try:
            return await self.storage.write(write)
        except _Taken:
            return False

    # --- the sweep ------------------------------------------------------------------------------

    async def sweep(self) -> None:
        """Open tables a start left unopened, start the rounds whose scheduled time has come,
        note the events that have finished, and give forfeits that are due."""
        await self.open_tables()
        for event_id in await self.storage.read(rows.unfinished_events):
            try:
                await self._follow(await self.load(event_id))
            except Refused as e:  # say, too few entries at the scheduled time: tried again
                log.info("event %s: its scheduled round did not start: %s", event_id, e.message)
            except Exception:
                log.exception("event %s: the sweep failed", event_id)
        now = self.storage.now()
        due = await self.storage.read(lambda c: rows.due_forfeits(c, now - timedelta(seconds=1)))
        for t in due:
            try:
                await self._forfeit(t, now)
            except Exception:
                log.exception("event table %s: the forfeit check failed", t["id"])

    async def _follow(self, state: EventState) -> None:
        """Start the event's next round when its scheduled time has come and the round before
        is over (any process may: the round starts once)."""
        schedule = state.settings.get("schedule") or []
        number = len(state.rounds) + 1
        if number > len(schedule) or state.status() == "finished":
            return
        if self.storage.now() < _aware(datetime.fromisoformat(schedule[number - 1])):
            return
        if state.rounds and not state.round_over(len(state.rounds)):
            return
        await self._start(state)
        log.info("event %s: round %s started at its scheduled time", state.id, number)

    async def _forfeit(self, t: Mapping[str, Any], now: datetime) -> None:
        state = await self.load(str(t["event_id"]))
        started = next(r["started_at"] for r in state.rounds if int(r["number"]) == int(t["round"]))
        if (
            _aware(started) + timedelta(seconds=int(state.settings.get("forfeit_seconds", FORFEIT_SECONDS)))
            > now
        ):
            return
        table_id = str(t["table_id"])
        log_lines = await self.storage.read(lambda c: Store.log_of(c, table_id))
        people = {int(e.payload["seat"]) for e in log_lines if e.kind == "sit"}
        came = {
            int(e.payload["seat"]) for e in log_lines if e.kind == "act" and e.payload.get("by") == "player"
        }
        absent = sorted(people - came)
        lost: list[int] = []
        if absent:
            # on the table's owner, this process or another (blot.server.tables.Tables.command),
            # which knows whose turn came (blot.server.table.Table.forfeit)
            done = await self.tables.command(table_id, "forfeit", {"seats": absent})
            forfeited = set(done["forfeited"])
            if not forfeited:  # nobody failed a turn yet: the next sweep looks again
                return
            seats = state._seats_of(t["entries"])
            lost = [int(e) for i, e in enumerate(t["entries"]) if set(seats[i]) & forfeited]
            log.info("event %s: %s lost by forfeit at table %s", state.id, lost, table_id)
        row_id = int(t["id"])
        await self.storage.write(lambda c: rows.set_forfeit(c, row_id, lost))

    async def sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.config.event_sweep_seconds)
            try:
                await self.sweep()
            except Exception:
                log.exception("the sweep of events failed")


def _schedule_of(value: Any, rounds: int) -> list[str]:
    """The times the rounds start by themselves (the first ones; the others the organizer's),
    in order."""
    if not isinstance(value, list) or not value or len(value) > rounds:
        raise Refused(
            "malformed", f"schedule is a list of the rounds' start times, at most {rounds}", "schedule"
        )
    times = []
    for item in value:
        try:
            times.append(_aware(datetime.fromisoformat(str(item))))
        except ValueError:
            raise Refused(
                "malformed", "schedule holds dates and times such as 2026-05-01T18:00:00Z", "schedule"
            ) from None
    if times != sorted(times):
        raise Refused("malformed", "schedule lists the rounds' start times in order", "schedule")
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
    """Insert the event, unless the account created ``limit`` public events in the 24 hours before
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
            raise Refused(
                "conflict",
                f"an account creates at most {limit} public events in 24 hours: make this one private, "
                "or create it later",
            )
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
