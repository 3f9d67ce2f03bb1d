"""The referee's console of an over-the-board event (League rulebook §8–§9, L-4 … L-8): the
organizer assigns a referee to each table; the referee keeps the table's score sheet (the
Davtar, edited through the score sheet API with the sheet's id, which the event page gives the
referee and the organizers only), announces the start, the players, breaks, complaints, the end,
the winner or that the game is unfinished (each timestamped, shown on the event page), records
each dispute with its ruling and the penalty entered through B-72, and sends to the Court of
Sages (rules) or the Court of Conduct (conduct) what they cannot decide, **without the players'
names**: the question's text is stored and shown with every name of the table's players
replaced by ``[player]``, and a court member sees the case, never the event or the table. The
court's answer is recorded on the case and applied by the referee. Any player at the table may
raise a conflict of interest (L-8): the referee then steps down, the sheet and its history stay,
and the organizer assigns another.

Every change is one transaction; nothing is kept in memory."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from sqlalchemy.engine import Connection

from blot.scoresheet import sheets as sheet_service
from blot.scoresheet.model import SheetError
from blot.server.errors import Refused
from blot.server.events import LEFT_UNFINISHED, EventService, EventState, _iso, note_json
from blot.store import accounts as account_rows
from blot.store import events as rows

#: What a referee announces (L-7).
ANNOUNCEMENTS = ("start", "players", "break", "complaint", "end", "winner", "unfinished", "reopened")
COURTS = ("sages", "conduct")
TEXT_LIMIT = 2000
HIDDEN = "[player]"


def _text(body: Mapping[str, Any], key: str, required: bool = True) -> str:
    value = body.get(key, "")
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value.strip()):
        raise Refused("malformed", f"{key} is needed", key)
    text = value.strip()
    if len(text) > TEXT_LIMIT:
        raise Refused("malformed", f"{key} has at most {TEXT_LIMIT} characters", key)
    return text


def without_names(text: str, names: list[str]) -> str:
    """``text`` with every given name (whole words, any case) replaced by ``[player]``.

    >>> without_names("Ani signalled to GOHAR; ani denies it.", ["ani", "Gohar"])
    '[player] signalled to [player]; [player] denies it.'
    """
    for name in sorted({n for n in names if n}, key=len, reverse=True):
        text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", HIDDEN, text, flags=re.IGNORECASE)
    return text


class Referees:
    """The referees' and courts' side of events (the hub owns it with the events)."""

    def __init__(self, events: EventService) -> None:
        self.events = events
        self.storage = events.storage

    async def _table(self, event_id: str, row_id: int) -> tuple[EventState, dict[str, Any]]:
        state = await self.events.load(event_id)
        found = next((t for t in state.tables if int(t["id"]) == row_id), None)
        if found is None:
            raise Refused("not_found", "no such table in this event")
        return state, found

    async def _as_referee(self, player: int, event_id: str, row_id: int) -> tuple[EventState, dict[str, Any]]:
        state, table = await self._table(event_id, row_id)
        if table["referee"] != player:
            raise Refused("forbidden", "only this table's referee does that")
        return state, table

    @staticmethod
    def players_of(state: EventState, table: Mapping[str, Any]) -> dict[int, str]:
        """The accounts playing at a table, by id: their names."""
        entries = {int(e["id"]): e for e in state.entries}
        return {m["player"]: m["name"] for e in table["entries"] for m in entries[int(e)]["members"]}

    async def assign(
        self, player: int, event_id: str, row_id: int, body: Mapping[str, Any]
    ) -> dict[str, Any]:
        """The organizer assigns a referee (``username``, or null to remove one)."""
        state, _ = await self._table(event_id, row_id)
        if player not in state.organizers:
            raise Refused("forbidden", "only the event's organizer assigns referees")
        if state.settings.get("online"):
            raise Refused(
                "conflict", "referees keep the Davtar of over-the-board events; this event is online"
            )
        username = body.get("username")
        referee, name = None, ""
        if username is not None:
            from blot.accounts import username_key

            if not isinstance(username, str):
                raise Refused("malformed", "username is an account's name, or null", "username")
            found = await self.storage.read(lambda c: account_rows.find(c, username_key(username)))
            if found is None or found.disabled:
                raise Refused("not_found", f"there is no account {username}")
            referee, name = found.id, found.username

        def write(c: Connection) -> None:
            rows.lock(c, state.id)  # as entering does: nobody becomes both
            if referee is not None and referee in rows.players_in(c, state.id):
                raise Refused("conflict", f"{name} plays in this event and cannot referee it")
            rows.set_referee(c, row_id, referee)

        await self.storage.write(write)
        return self.events.to_json(await self.events.load(event_id), player)

    async def announce(
        self, player: int, event_id: str, row_id: int, body: Mapping[str, Any]
    ) -> dict[str, Any]:
        """An announcement of L-7 (``kind``, optional ``text``), timestamped."""
        _, table = await self._as_referee(player, event_id, row_id)
        kind = body.get("kind")
        if kind not in ANNOUNCEMENTS:
            raise Refused("malformed", f"an announcement is one of {', '.join(ANNOUNCEMENTS)}", "kind")
        text = _text(body, "text", required=False)
        at = self.storage.now()
        sheet_id = table["sheet_id"]

        def write(c: Connection) -> None:
            if kind in (rows.LEFT, rows.REOPENED):  # decided in the transaction that records it
                left = rows.left_unfinished(c, row_id)
                if kind == rows.REOPENED and not left:
                    raise Refused("conflict", "only a game left unfinished is reopened")
                if kind == rows.LEFT and left:
                    raise Refused("conflict", "this game is unfinished already")
                if kind == rows.LEFT and sheet_service.load(c, sheet_id).sheet.standing().finished:
                    raise Refused("conflict", "this game is over: it cannot be left unfinished")
            rows.insert_note(c, row_id, str(kind), {"text": text}, player, at)

        await self.storage.write(write)
        return await self.console(player, event_id, row_id)

    async def dispute(
        self, player: int, event_id: str, row_id: int, body: Mapping[str, Any]
    ) -> dict[str, Any]:
        """A dispute (L-4, L-5): what was claimed, the explanation heard, the ruling, and an
        optional table penalty of B-72 (``penalty``: kind, team, declaration_points) entered on
        the sheet in the same transaction."""
        _, table = await self._as_referee(player, event_id, row_id)
        claim = _text(body, "claim")
        explanation = _text(body, "explanation", required=False)
        ruling = _text(body, "ruling")
        penalty = body.get("penalty")
        sheet_id = table["sheet_id"]
        at = self.storage.now()
        editor = sheet_service.Editor(None, player)

        def write(c: Connection) -> None:
            note: dict[str, Any] = {
                "claim": claim,
                "explanation": explanation,
                "ruling": ruling,
                "penalty": None,
            }
            if penalty is not None:
                if rows.left_unfinished(c, row_id):
                    raise Refused("conflict", LEFT_UNFINISHED)
                stored, number = sheet_service.add_deal(c, sheet_id, {"penalty": penalty}, editor)
                note["penalty"] = {**stored.sheet.entries[number - 1].to_json()["penalty"], "deal": number}
            rows.insert_note(c, row_id, "dispute", note, player, at)

        try:
            await self.storage.write(write)
        except SheetError as e:
            raise Refused("invalid", str(e), e.field) from None
        return await self.console(player, event_id, row_id)

    async def escalate(
        self, player: int, event_id: str, row_id: int, body: Mapping[str, Any]
    ) -> dict[str, Any]:
        """A question the referee cannot decide, sent to a court without the players' names."""
        state, table = await self._as_referee(player, event_id, row_id)
        court = body.get("court")
        if court not in COURTS:
            raise Refused("malformed", "court is sages (a question of the rules) or conduct", "court")
        names = list(self.players_of(state, table).values())
        names += [str(e["name"]) for e in state.entries if int(e["id"]) in table["entries"]]
        question = without_names(_text(body, "question"), names)
        at = self.storage.now()

        def write(c: Connection) -> None:
            case = rows.insert_case(c, row_id, str(court), question, at)
            rows.insert_note(
                c, row_id, "escalation", {"case": case, "court": court, "question": question}, player, at
            )

        await self.storage.write(write)
        return await self.console(player, event_id, row_id)

    async def apply(
        self, player: int, event_id: str, row_id: int, case_id: int, body: Mapping[str, Any]
    ) -> dict[str, Any]:
        """The referee applies the court's answer (recorded on the case and announced)."""
        await self._as_referee(player, event_id, row_id)
        applied = _text(body, "applied")
        found = await self.storage.read(lambda c: rows.case(c, case_id))
        if found is None or int(found["event_table"]) != row_id:
            raise Refused("not_found", "no such case at this table")
        at = self.storage.now()

        def write(c: Connection) -> bool:
            if not rows.apply_case(c, case_id, applied, at):
                return False
            rows.insert_note(
                c,
                row_id,
                "court_answer",
                {"case": case_id, "answer": found["answer"], "applied": applied},
                player,
                at,
            )
            return True

        if not await self.storage.write(write):
            raise Refused("conflict", "the court has not answered yet, or its answer was applied already")
        return await self.console(player, event_id, row_id)

    async def conflict(
        self, player: int, event_id: str, row_id: int, body: Mapping[str, Any]
    ) -> dict[str, Any]:
        """A player at the table raises a conflict of interest (L-8): the referee steps down."""
        state, table = await self._table(event_id, row_id)
        if player not in self.players_of(state, table):
            raise Refused(
                "forbidden", "only a player at this table raises a conflict of interest against its referee"
            )
        if table["referee"] is None:
            raise Refused("conflict", "this table has no referee now")
        reason = _text(body, "reason")
        at = self.storage.now()
        referee = int(table["referee"])

        def write(c: Connection) -> None:
            rows.set_referee(c, row_id, None)
            rows.insert_note(c, row_id, "conflict", {"reason": reason, "referee": referee}, player, at)

        await self.storage.write(write)
        return self.events.to_json(await self.events.load(event_id), player)

    async def console(self, player: int, event_id: str, row_id: int) -> dict[str, Any]:
        """What the referee's console shows: the table, its sheet's id, its notes and cases."""
        state, table = await self._as_referee(player, event_id, row_id)
        all_notes = await self.storage.read(lambda c: rows.notes(c, event_id))
        cases = await self.storage.read(lambda c: rows.cases(c, event_table_ids=[row_id]))
        return {
            "event": state.id,
            "table": int(table["id"]),
            "round": int(table["round"]),
            "number": int(table["number"]),
            "sheet": table["sheet_id"],
            "entries": table["entries"],
            "notes": [note_json(n) for n in all_notes if int(n["event_table"]) == row_id],
            "cases": [case_json(k) for k in cases],
        }

    # --- the courts -------------------------------------------------------------------------------

    async def court_cases(self, player: int, court: str) -> dict[str, Any]:
        """A court's cases, for its members: the question and the answer, nothing of who."""
        if court not in COURTS:
            raise Refused("not_found", "the League's courts are sages and conduct")
        mine = await self.storage.read(lambda c: rows.courts_of(c, player))
        if court not in mine:
            raise Refused("forbidden", "only the members of a court see its cases")
        found = await self.storage.read(lambda c: rows.cases(c, courts=[court]))
        return {"court": court, "cases": [case_json(k) for k in found]}

    async def answer(self, player: int, case_id: int, body: Mapping[str, Any]) -> dict[str, Any]:
        found = await self.storage.read(lambda c: rows.case(c, case_id))
        if found is None:
            raise Refused("not_found", "no such case")
        mine = await self.storage.read(lambda c: rows.courts_of(c, player))
        if found["court"] not in mine:
            raise Refused("forbidden", "only a member of the case's court answers it")
        text = _text(body, "answer")
        at = self.storage.now()
        if not await self.storage.write(lambda c: rows.answer_case(c, case_id, text, player, at)):
            raise Refused("conflict", "this case has been answered already")
        done = await self.storage.read(lambda c: rows.case(c, case_id))
        assert done is not None
        return case_json(done)


def case_json(k: Mapping[str, Any]) -> dict[str, Any]:
    """A case as a court sees it: no event, no table, no names."""
    return {
        "id": int(k["id"]),
        "court": k["court"],
        "question": k["question"],
        "asked_at": _iso(k["asked_at"]),
        "answer": k["answer"],
        "answered_at": _iso(k["answered_at"]),
        "applied": k["applied"],
        "applied_at": _iso(k["applied_at"]),
    }
