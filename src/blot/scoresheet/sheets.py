"""Score sheets kept in the server's database: create, read, add, replace and undo deals, each
change recorded in the sheet's append-only edit history. What a client sends is checked here and
by the model; the database rows are read and written by :mod:`blot.store.scoresheets`.

Only the entries are stored; every total, the end of the game and the match score are recomputed
by the model (:mod:`blot.scoresheet.model`) each time a sheet is read or changed. Every function
here is blocking and takes a SQLAlchemy connection: the server runs writes through its store
writer (one transaction each) and ``blot scoresheet`` runs them directly. A refused change raises
:class:`SheetError` (the API answers 422) or :class:`SheetNotFound` (404) and stores nothing.

The sheet's ``id`` is its edit link (a secret, unguessable); ``share_id`` is a second unguessable
id that only reads it (the players' live view).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.engine import Connection

from blot.bazar import GAME_NAME
from blot.bazar.rules import PRESETS, Rules
from blot.errors import BlotError
from blot.scoresheet.model import Entry, ScoreSheet, SheetError, compute, parse_entry
from blot.store import scoresheets as rows

NAME_LIMIT = 40
ID_LIMIT = 24
#: The most deals a sheet may hold (a game to 301 takes far fewer; this only bounds the work).
DEAL_LIMIT = 200
#: The longest id a page may give a deal it enters.
CLIENT_ID_LIMIT = 40
DEFAULT_TEAMS = ("Team 1", "Team 2")

ENTRY_KEYS = frozenset(
    {"void", "contract", "card_points", "kapoot", "declarer_alone", "declaration_points", "belote", "penalty"}
)
CONTRACT_KEYS = frozenset({"team", "level", "strain", "multiplier"})
PENALTY_KEYS = frozenset({"kind", "team", "declaration_points"})


class SheetNotFound(BlotError):
    """No sheet (or no such deal) under that id."""


class AlreadyIn(Exception):
    """The deal sent is already in, as number ``number`` (its transaction is rolled back)."""

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.number = number


@dataclass(frozen=True)
class Editor:
    """Who makes a change: a name as typed (or the player's name), and the player if known."""

    name: str | None = None
    player: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "player": self.player}


@dataclass
class StoredSheet:
    """A sheet as read from the database: its row, the model, and the edit history."""

    row: dict[str, Any]
    sheet: ScoreSheet
    history: list[dict[str, Any]]
    #: The page's own ids of the deals that have one (number -> id): a page that recorded deals
    #: offline sees which of them are in (issue 41 item 9).
    client_ids: dict[int, str] = field(default_factory=dict)

    def number_of(self, client_id: str) -> int | None:
        """The number of the deal the page sent under ``client_id``, if it is in."""
        return next((n for n, cid in self.client_ids.items() if cid == client_id), None)

    @property
    def id(self) -> str:
        return str(self.row["id"])

    @property
    def share_id(self) -> str:
        return str(self.row["share_id"])

    @property
    def version(self) -> int:
        return int(self.row["version"])

    def to_json(self, *, shared: bool = False) -> dict[str, Any]:
        """The whole sheet: rules, teams, every deal with its running totals, the standing and
        the history. ``shared``: the read-only view, without the edit id."""
        lines, standing = compute(self.sheet.entries, self.sheet.rules)
        out: dict[str, Any] = {} if shared else {"id": self.id}
        out.update(
            {
                "share": self.share_id,
                "share_path": f"/scoresheet/shared/{self.share_id}",
                "read_only": shared,
                "game": GAME_NAME,
                "ruleset": self.sheet.rules.ruleset,
                "options": self.sheet.rules.options(),
                "teams": list(self.sheet.teams),
                "created_by": self.row["created_by"],
                "created_at": _iso(self.row["created_at"]),
                "updated_at": _iso(self.row["updated_at"]),
                "version": self.version,
                "deals": self._deals(lines),
                **standing.to_json(),
                "history": self.history,
            }
        )
        return out

    def deal_result(self, number: int) -> dict[str, Any]:
        """What a change of deal ``number`` answers: that deal (``made``, ``points``, its
        ``entry``), then the game's ``totals``, ``finished``, ``winner``, ``match_score`` and
        ``tars_kapoot`` (as docs/format.md's replay output) and every deal with its running totals."""
        lines, standing = compute(self.sheet.entries, self.sheet.rules)
        line = lines[number - 1]
        return {
            "id": self.id,
            "number": number,
            "entry": line.entry.to_json(),
            "made": line.made,
            "points": list(line.points),
            "deal_totals": list(line.totals),
            **standing.to_json(),
            "version": self.version,
            "deals": self._deals(lines),
        }

    def _deals(self, lines: list[Any]) -> list[dict[str, Any]]:
        """Every deal with its number, its points and running totals, and the page's own id."""
        return [
            {"number": n, **line.to_json(), "client_id": self.client_ids.get(n)}
            for n, line in enumerate(lines, 1)
        ]


def _iso(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, datetime):
        if value.tzinfo is None:  # SQLite gives naive datetimes back: they were stored in UTC
            value = value.replace(tzinfo=UTC)
        return str(value.isoformat())
    return str(value)


def _now() -> datetime:
    return datetime.now(UTC)


# --- checking what a client sent ---------------------------------------------------------------


def clean_name(value: Any, field: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise SheetError(field, "name_needed")
    text = " ".join(value.split())
    if len(text) > NAME_LIMIT:
        raise SheetError(field, "name_too_long", n=NAME_LIMIT)
    return text


def sheet_settings(body: Mapping[str, Any]) -> tuple[Rules, tuple[str, str]]:
    """The rules and team names of a new sheet from ``{"ruleset", "options", "teams"}``."""
    ruleset = body.get("ruleset")
    if ruleset is None:
        ruleset = next(iter(PRESETS))
    if not isinstance(ruleset, str) or ruleset not in PRESETS:
        raise SheetError("ruleset", "sheet_ruleset", ruleset=repr(ruleset), rulesets=" or ".join(PRESETS))
    options = body.get("options")
    if options is not None and not isinstance(options, Mapping):
        raise SheetError("options", "sheet_options")
    try:
        rules = Rules.from_record(ruleset, options or {})
    except BlotError as e:
        raise SheetError("options", e.as_reason() or e.message) from None
    teams = body.get("teams")
    if teams is None:
        return rules, DEFAULT_TEAMS
    if not isinstance(teams, list) or len(teams) != 2:
        raise SheetError("teams", "sheet_teams")
    a, b = (clean_name(t, "teams") for t in teams)
    return rules, (a, b)


def entry_of(raw: Any, rules: Rules) -> Entry:
    """A deal entry as the API receives it: unknown keys are refused (a misspelt key would
    otherwise be read as its default), then the model checks the rest."""
    if isinstance(raw, Mapping):
        for key in raw:
            if key not in ENTRY_KEYS:
                keys = ", ".join(sorted(ENTRY_KEYS))
                raise SheetError(str(key), "sheet_deal_key", key=repr(key), keys=keys)
        for name, known in (("contract", CONTRACT_KEYS), ("penalty", PENALTY_KEYS)):
            part = raw.get(name)
            if isinstance(part, Mapping):
                for key in part:
                    if key not in known:
                        raise SheetError(
                            f"{name}.{key}",
                            "sheet_key",
                            key=repr(key),
                            what=name,
                            keys=", ".join(sorted(known)),
                        )
    return parse_entry(raw, rules)


# --- reading ------------------------------------------------------------------------------------


def _row(c: Connection, sheet_id: str | None = None, share_id: str | None = None) -> dict[str, Any]:
    key = sheet_id if sheet_id is not None else share_id
    if not isinstance(key, str) or not key or len(key) > ID_LIMIT:
        raise SheetNotFound("no_such_sheet")
    row = rows.sheet_row(c, sheet_id=sheet_id, share_id=share_id)
    if row is None:
        raise SheetNotFound("no_such_sheet")
    return row


def _rules(row: Mapping[str, Any]) -> Rules:
    return Rules.from_record(row["ruleset"], row["options"])


def _history(c: Connection, sheet_id: str) -> list[dict[str, Any]]:
    return [
        {
            "seq": r["seq"],
            "deal": r["deal"],
            "action": r["action"],
            "who": r["by_name"],
            "player": r["by_player"],
            "when": _iso(r["at"]),
            "before": r["before"],
            "after": r["after"],
        }
        for r in rows.edit_rows(c, sheet_id)
    ]


def load(c: Connection, sheet_id: str | None = None, *, share_id: str | None = None) -> StoredSheet:
    """A sheet by its id (the edit link) or by its share id (read-only)."""
    row = _row(c, sheet_id, share_id)
    rules = _rules(row)
    teams = row["teams"]
    entries = [parse_entry(raw, rules) for raw in rows.entries(c, row["id"])]
    sheet = ScoreSheet(rules, (str(teams[0]), str(teams[1])), entries)
    return StoredSheet(row, sheet, _history(c, row["id"]), rows.client_ids(c, row["id"]))


def version(c: Connection, share_id: str) -> int | None:
    """The number of the sheet's last edit (0 before any), or None for an unknown share id."""
    return rows.version(c, share_id)


def listing(c: Connection, limit: int = 20) -> list[dict[str, Any]]:
    """The most recently changed sheets (for ``blot scoresheet``), newest first."""
    return rows.listing(c, limit)


# --- changing -----------------------------------------------------------------------------------


def create(c: Connection, body: Mapping[str, Any], editor: Editor) -> StoredSheet:
    rules, teams = sheet_settings(body)
    stamp = _now()
    row = {
        "id": secrets.token_urlsafe(12),
        "share_id": secrets.token_urlsafe(12),
        "ruleset": rules.ruleset,
        "options": rules.options(),
        "teams": list(teams),
        "created_by": editor.name,
        "created_player": editor.player,
        "version": 0,
        "created_at": stamp,
        "updated_at": stamp,
    }
    rows.insert_sheet(c, row)
    return StoredSheet(row, ScoreSheet(rules, teams, []), [])


def _lock(c: Connection, sheet_id: str) -> tuple[int, datetime]:
    """Take the sheet's row for this transaction (its next edit number), before reading its
    deals, so that two changes of one sheet are applied one after the other."""
    stamp = _now()
    seq = rows.next_edit(c, sheet_id, stamp)
    if seq is None:
        raise SheetNotFound("no_such_sheet")
    return seq, stamp


def _record(
    c: Connection,
    sheet_id: str,
    seq: int,
    stamp: datetime,
    deal: int,
    action: str,
    before: Entry | None,
    after: Entry | None,
    editor: Editor,
) -> None:
    rows.insert_edit(
        c,
        {
            "sheet_id": sheet_id,
            "seq": seq,
            "deal": deal,
            "action": action,
            "before": None if before is None else before.to_json(),
            "after": None if after is None else after.to_json(),
            "by_name": editor.name,
            "by_player": editor.player,
            "at": stamp,
        },
    )


def client_id_of(raw: Any) -> str | None:
    """Take the page's own id of a new deal (``client_id``) out of what it sent, checked."""
    if not isinstance(raw, dict) or "client_id" not in raw:
        return None
    value = raw.pop("client_id")
    if value is None:
        return None
    if not isinstance(value, str) or not 1 <= len(value) <= CLIENT_ID_LIMIT or not value.isprintable():
        raise SheetError("client_id", "sheet_client_id", n=CLIENT_ID_LIMIT)
    return value


def add_deal(
    c: Connection, sheet_id: str, raw: Any, editor: Editor, client_id: str | None = None
) -> tuple[StoredSheet, int]:
    """Add the next deal; refused (nothing stored) when inconsistent or the game is over.
    Returns the sheet after the change and the deal's number. A deal sent again under the same
    ``client_id`` (a page that recorded it offline and could not tell it arrived) is the one
    already in: nothing is added twice."""
    row = _row(c, sheet_id)
    entry = entry_of(raw, _rules(row))
    seq, stamp = _lock(c, sheet_id)
    stored = load(c, sheet_id)
    if client_id is not None and (known := stored.number_of(client_id)) is not None:
        raise AlreadyIn(known)
    if len(stored.sheet.entries) >= DEAL_LIMIT:
        raise SheetError("deal", "sheet_deals_limit", n=DEAL_LIMIT)
    number = len(stored.sheet.entries) + 1
    stored.sheet.add(entry.to_json())  # the model's checks: the game is not over
    rows.insert_deal(c, sheet_id, number, entry.to_json(), client_id)
    _record(c, sheet_id, seq, stamp, number, "add", None, entry, editor)
    return load(c, sheet_id), number


def _check_number(stored: StoredSheet, number: Any) -> int:
    count = len(stored.sheet.entries)
    if type(number) is not int or not 1 <= number <= count:
        raise SheetNotFound("sheet_no_such_deal", n=number, count=count)
    return number


def replace_deal(
    c: Connection, sheet_id: str, number: int, raw: Any, editor: Editor
) -> tuple[StoredSheet, int]:
    """Replace deal ``number`` (from 1); every later total follows. Refused when the new entry is
    inconsistent or would end the game before a later deal."""
    row = _row(c, sheet_id)
    entry = entry_of(raw, _rules(row))
    seq, stamp = _lock(c, sheet_id)
    stored = load(c, sheet_id)
    _check_number(stored, number)
    before = stored.sheet.entries[number - 1]
    stored.sheet.replace(number, entry.to_json())
    rows.update_deal(c, sheet_id, number, entry.to_json())
    _record(c, sheet_id, seq, stamp, number, "replace", before, entry, editor)
    return load(c, sheet_id), number


def delete_last(c: Connection, sheet_id: str, number: int, editor: Editor) -> StoredSheet:
    """Take back the last deal (only the last: the numbers of the others never change)."""
    _row(c, sheet_id)
    seq, stamp = _lock(c, sheet_id)
    stored = load(c, sheet_id)
    _check_number(stored, number)
    if number != len(stored.sheet.entries):
        raise SheetError("deal", "sheet_take_back_last", n=len(stored.sheet.entries))
    before = stored.sheet.entries[number - 1]
    rows.delete_deal(c, sheet_id, number)
    _record(c, sheet_id, seq, stamp, number, "delete", before, None, editor)
    return load(c, sheet_id)


__all__ = [
    "AlreadyIn",
    "Editor",
    "SheetError",
    "SheetNotFound",
    "StoredSheet",
    "add_deal",
    "clean_name",
    "client_id_of",
    "create",
    "delete_last",
    "entry_of",
    "listing",
    "load",
    "replace_deal",
    "sheet_settings",
    "version",
]
