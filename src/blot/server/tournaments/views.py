"""Reading a League tournament and showing it: loading its state (an entry a bar keeps out is
withdrawn on the way, L-3, L-10), its JSON answer with what each viewer may see, the listing and
a player's next games."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy.engine import Connection

from blot.server.errors import Refused
from blot.server.services import Storage
from blot.server.tournaments.state import (
    COURT_NOTES,
    PRIVATE_NOTES,
    TournamentState,
    _iso,
    barred_note,
    court_questions,
    note_json,
)
from blot.store import tournaments as rows
from blot.tournaments.standings import (
    Entrant,
    Round,
    cross_table,
    standings,
)


def _davtar(state: TournamentState, t: Mapping[str, Any]) -> str | None:
    """The read-only live page of an over-the-board table's Davtar (issue 42 item 7)."""
    sheet = state.sheets.get(str(t["sheet_id"])) if t["sheet_id"] is not None else None
    return None if sheet is None else f"/scoresheet/shared/{sheet['share']}"


class TournamentViews:
    """The tournaments' reading side: every method reads the database afresh."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.config = storage.config

    # --- reading --------------------------------------------------------------------------------

    async def load(self, event_id: str) -> TournamentState:
        if not isinstance(event_id, str) or len(event_id) > 24:
            raise Refused("not_found", "no_such_event")

        def read(c: Connection) -> TournamentState | None:
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
                    sheets[str(t["sheet_id"])] = {
                        **stored.sheet.standing().to_json(),
                        "share": stored.share_id,
                    }
            pool = [int(p) for p in row["settings"].get("referee_pool") or []]
            referees = [int(t["referee"]) for t in tables if t["referee"] is not None]
            organizers = rows.organizers(c, event_id)
            return TournamentState(
                row,
                organizers,
                rows.entries(c, event_id),
                rounds,
                tables,
                sheets,
                [note_json(n) for n in rows.notes(c, event_id)],
                rows.usernames(c, [*pool, *referees, *organizers]),
            )

        state = await self.storage.read(read)
        if state is None:
            raise Refused("not_found", "no_such_event")
        if state.row["status"] != "finished" and await self._withdraw_barred(state):
            state = await self.storage.read(read)
            assert state is not None
        status = state.status()
        if state.rounds and status != state.row["status"]:  # the listing reads the stored status
            await self.storage.write(lambda c: rows.set_status(c, event_id, status))
            state.row["status"] = status
        return state

    def to_json(self, state: TournamentState, viewer: int | None = None) -> dict[str, Any]:
        settings = state.settings
        field = settings.pop("field", None)
        desk = {
            k: settings.pop(k, None) for k in ("forbidden", "requested_byes", "late_scores", "referee_pool")
        }
        organizer = viewer in state.organizers
        rounds = state.games()
        out_rounds = self._rounds_json(state, rounds, viewer)
        entrants = [
            Entrant(
                int(e["id"]),
                str(e["name"]),
                e["withdrawn_at"] is not None,
                barred_note(e.get("barred")),
                state.late_scores().get(int(e["id"]), 0),
            )
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
            # the desk names them (issue 42 item 1), as it names the referees
            "organizer_names": [state.names.get(p, "") for p in state.organizers],
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
                    "late_score": state.late_scores().get(int(e["id"])),
                    "byes_requested": sorted((desk["requested_byes"] or {}).get(str(e["id"]), [])),
                }
                for e in state.entries
            ],
            "referees": [{"id": p, "name": state.names.get(p, "")} for p in desk["referee_pool"] or []],
            # the pairs that must not meet (a family, a club): the organizers' alone
            "forbidden": [list(p) for p in desk["forbidden"] or []] if organizer else None,
            "rounds": out_rounds,
            "notes": self._notes_for(state, viewer),
            "court_questions": court_questions(state.notes),
            "standings": [s.to_json() for s in table],
            "cross_table": {
                str(k): {str(o): v for o, v in row.items()}
                for k, row in cross_table(entrants, rounds).items()
            },
        }

    @classmethod
    def _rounds_json(
        cls, state: TournamentState, rounds: Sequence[Round], viewer: int | None
    ) -> list[dict[str, Any]]:
        """Each round's tables as the viewer may see them (a score sheet's edit id only for its
        keepers: :meth:`_sheet_for`), with the round's status."""
        table_rows = {(int(t["round"]), int(t["number"])): t for t in state.tables}
        out_rounds = []
        for r, stored in zip(rounds, state.rounds, strict=True):
            published = stored.get("status") == "published"
            tables = []
            for number, g in enumerate(r.games, 1):
                t = table_rows[(r.number, number)]
                tables.append(
                    {
                        "id": int(t["id"]),
                        "number": number,
                        "table": t["table_id"],
                        "sheet": cls._sheet_for(state, t, viewer),
                        "entries": list(g.entries),
                        "result": None if g.points is None else list(g.points),
                        "score": None if g.score is None else list(g.score),
                        "boards": [list(b) for b in g.boards],
                        "referee": t["referee"],
                        "referee_name": None if t["referee"] is None else state.names.get(int(t["referee"])),
                        # the live read-only Davtar of an over-the-board table, for anybody
                        "davtar": _davtar(state, t),
                        "status": "published"
                        if published
                        else "finished"
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
                    "status": "published"
                    if published
                    else "finished"
                    if over
                    else "awaiting_referees"
                    if awaiting
                    else "playing",
                    "absent": list(stored.get("absent") or []),
                    "changes": [
                        {"by": c["by"], "at": c["at"], "what": c["what"]} for c in stored.get("changes") or []
                    ],
                    "without_referee": [] if over else state.without_referee(r.number),
                    "started_at": _iso(stored["started_at"]),
                    "tables": tables,
                    "byes": list(r.byes),
                }
            )
        return out_rounds

    @staticmethod
    def _sheet_for(state: TournamentState, t: Mapping[str, Any], viewer: int | None) -> str | None:
        """A score sheet's edit id (its secret) for the table's referee and the organizers only,
        and never for one who plays at it (L-6, L-8: nobody keeps the Davtar of his own game)."""
        if t["sheet_id"] is None:
            return None
        keepers = {t["referee"], *state.organizers} - state.players_at(t)
        return str(t["sheet_id"]) if viewer in keepers else "shared"

    @staticmethod
    def _notes_for(state: TournamentState, viewer: int | None) -> list[dict[str, Any]]:
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
        """The player's tournament tables waiting for them ("your table is ready")."""
        return await self.storage.read(lambda c: rows.next_games(c, player))

    async def _withdraw_barred(self, state: TournamentState) -> bool:
        """Issue 38 item 5 (L-3, L-10): an entry a bar keeps out now (its pair's tars kapoot with
        ``--league``, in this event or anywhere, or a dishonour of one of its accounts) is
        withdrawn at once, never silently left unpaired: ``barred`` says why and in which round
        (0: before the first), the event page and the standings say so, and its later games are
        scored as forfeits (see :mod:`blot.tournaments.standings`). Answers whether any was."""
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
