"""A League tournament's rounds: pairing the next one (Swiss, round robin, duplicate) and opening
its tables (online) or score sheets (over the board)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from blot.server.errors import Refused
from blot.server.services import Storage
from blot.server.tables import Tables
from blot.server.tournaments.state import (
    CHANGED,
    DUPLICATE_TARGET,
    TournamentState,
    _schedule,
    _Taken,
    log,
    pairable,
)
from blot.server.tournaments.views import TournamentViews
from blot.store import tournaments as rows
from blot.tournaments import pairing
from blot.tournaments.standings import (
    BYE_POINTS,
)


class TournamentRounds:
    """Starting rounds and opening their tables: a round starts once, a table opens once (the
    database settles two starts at once)."""

    def __init__(self, storage: Storage, tables: Tables, views: TournamentViews) -> None:
        self.storage = storage
        self.config = storage.config
        self.tables = tables
        self.views = views

    # --- rounds ---------------------------------------------------------------------------------

    async def start_round(self, player: int, event_id: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """The organizer pairs the next round and publishes it (issue 42 item 2: its tables open
        at :meth:`start_published`); ``{"start": true}`` starts it at once, as one click."""
        state = await self.views.load(event_id)
        if player not in state.organizers:
            raise Refused("forbidden", "rounds_organizer")
        at_once = body.get("start", False)
        if not isinstance(at_once, bool):
            raise Refused("malformed", "field_flag", "start", field="start")
        await self.publish(state, player, start=at_once)
        return self.views.to_json(await self.views.load(event_id), player)

    async def start(self, state: TournamentState) -> None:
        """Pair the next round and start it at once (the sweep's scheduled start), or start the
        round the organizer published."""
        if state.published() is not None:
            await self.start_published(state, None)
        else:
            await self.publish(state, None, start=True)

    async def publish(self, state: TournamentState, by: int | None, start: bool = False) -> None:
        """Pair the next round and publish it (no table opens until it starts), or with ``start``
        open its tables (online) or score sheets (over the board) at once. Two at once, in this
        process or another, pair it once: the round's row is the database's (the other is
        refused)."""
        number = len(state.rounds) + 1
        published = state.published()
        if published is not None:
            raise Refused("conflict", "round_published_already", n=published)
        waiting = ", ".join(str(n) for n in state.awaiting_referees(len(state.rounds)))
        if waiting:
            raise Refused("conflict", "round_awaits_referees", n=len(state.rounds), tables=waiting)
        if state.rounds and not state.round_over(len(state.rounds)):
            raise Refused("conflict", "round_being_played", n=len(state.rounds))
        result, settings = await self.pair(state, number)
        boards = None
        if state.format == "duplicate":
            rng = self.tables.services.new_rng()
            boards = [state.game.random_deal(rng).to_json() for _ in range(int(settings["deals"]))]
        at = self.storage.now()
        pool = [int(p) for p in settings.get("referee_pool") or []]

        def write(c: Connection) -> None:
            if rows.lock(c, state.id) >= number:
                raise Refused("conflict", "round_started_already", n=number)
            if pairable(rows.entries(c, state.id)) != state.active():  # paired on what was read
                raise Refused("conflict", CHANGED)
            status = "playing" if start else "published"
            rows.insert_round(c, state.id, number, result.byes, boards, at, status, result.absent)
            for index, table in enumerate(result.tables, 1):
                referee = pool[(index - 1) % len(pool)] if pool else None
                rows.insert_table(
                    c,
                    {
                        "event_id": state.id,
                        "round": number,
                        "number": index,
                        "entries": list(table),
                        "referee": referee,
                    },
                )
            rows.start(c, state.id, settings, at)

        try:
            await self.storage.write(write)
        except IntegrityError:
            raise Refused("conflict", "round_started_already", n=number) from None
        if start:
            await self.open_tables(state.id)

    async def start_published(self, state: TournamentState, by: int | None) -> None:
        """ "Start": the published round's tables (or score sheets) open; forfeits count from now."""
        number = state.published()
        if number is None:
            raise Refused("conflict", "round_not_published")
        at = self.storage.now()

        def write(c: Connection) -> bool:
            state.unchanged(c)
            return rows.start_published(c, state.id, number, at)

        if not await self.storage.write(write):
            raise Refused("conflict", "round_started_already", n=number)
        await self.open_tables(state.id)

    async def pair(self, state: TournamentState, number: int) -> tuple[pairing.Pairing, dict[str, Any]]:
        """Round ``number``'s pairing (forbidden pairs kept apart and requested byes honoured,
        issue 42) and the settings to store with it (a round robin's field)."""
        active = state.active()
        barred = await self._barred(state, active)
        active = [e for e in active if e not in barred]
        settings = state.settings
        if state.format == "round_robin":
            field = settings.get("field") or active
            if len(field) < state.size:
                raise Refused("conflict", "round_needs_entries", n=state.size)
            schedule = _schedule(tuple(field), state.size)
            if number > len(schedule):
                raise Refused("conflict", "rounds_all_played")
            planned = schedule[number - 1]
            playing = set(active)
            tables: list[tuple[int, ...]] = []
            byes = list(planned.byes)
            for t in planned.tables:
                if all(e in playing for e in t):
                    tables.append(t)
                else:  # a withdrawn entrant is not paired again: the others of its table have a bye
                    byes.extend(e for e in t if e in playing)
            settings["field"] = list(field)
            return pairing.Pairing(tuple(tables), tuple(byes)), settings
        if number > int(settings["rounds"]):
            raise Refused("conflict", "rounds_all_played")
        requested = state.requested_byes(number)
        if len([e for e in active if e not in requested]) < state.size:
            raise Refused("conflict", "round_needs_confirmed", n=state.size)
        result = await asyncio.to_thread(
            pairing.swiss,
            active,
            self.history(state),
            size=state.size,
            round_number=number,
            total_rounds=int(settings["rounds"]),
            forbidden=state.forbidden(),
            requested=requested,
        )
        return result, settings

    async def _barred(self, state: TournamentState, active: Sequence[int]) -> set[int]:
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

    def history(self, state: TournamentState) -> list[pairing.Played]:
        """The rounds as pairing needs them; a late entry's starting score counts as earned in
        round 1 (issue 42)."""
        history = []
        for r in state.games():
            earned: dict[int, float] = {}
            for g in r.games:
                if g.points is not None:
                    for e, p in zip(g.entries, g.points, strict=True):
                        earned[e] = p
            for e in r.byes:
                earned[e] = BYE_POINTS
            if r.number == 1:
                for e, points in state.late_scores().items():
                    earned[e] = earned.get(e, 0) + points
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
        states: dict[str, TournamentState] = {}
        for t in pending:
            state = states.get(t["event_id"]) or await self.views.load(t["event_id"])
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

    async def _open_one(self, state: TournamentState, t: Mapping[str, Any]) -> bool:
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
            "timer": state.round_setting(int(t["round"]), "timer", 0),
            "event": {
                "id": state.id,
                "name": state.row["name"],
                "round": int(t["round"]),
                "table": int(t["number"]),
            },
        }
        if boards is not None:
            table_settings["boards"] = len(boards)
        table = await self.tables.openings.open_for_event(
            state.game.name,
            table_settings,
            bool(state.row["public"]),
            seats,
            boards,
            lambda c, table_id: rows.link_table(c, row_id, table_id=table_id),
        )
        if table is not None:  # Web Push (issue 41 item 4): each person's table is ready
            people = [s["player"] for s in seats if "player" in s]
            name, number = str(state.row["name"]), int(t["round"])
            self.tables.services.notify(
                people,
                "event_table",
                f"/table/{table.id}",
                f"event-{table.id}",
                event=name,
                round=number,
                table=table.id,
            )
        return table is not None

    async def _open_sheet(self, state: TournamentState, row_id: int, teams: list[str]) -> bool:
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
