"""The tournaments' periodic sweep (any process may run it): tables a start left unopened,
scheduled rounds, and forfeits of entrants who did not come."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from blot.server.errors import Refused
from blot.server.periodic import every
from blot.server.services import Storage
from blot.server.tables import Tables
from blot.server.tournaments.rounds import TournamentRounds
from blot.server.tournaments.state import (
    FORFEIT_SECONDS,
    TournamentState,
    _aware,
    log,
)
from blot.server.tournaments.views import TournamentViews
from blot.store import Store
from blot.store import tournaments as rows


class TournamentSweep:
    """The sweep: opens, starts and forfeits what is due, from the database alone."""

    def __init__(
        self, storage: Storage, tables: Tables, views: TournamentViews, rounds: TournamentRounds
    ) -> None:
        self.storage = storage
        self.config = storage.config
        self.tables = tables
        self.views = views
        self.rounds = rounds

    # --- the sweep ------------------------------------------------------------------------------

    async def sweep(self) -> None:
        """Open tables a start left unopened, start the rounds whose scheduled time has come,
        note the tournaments that have finished, and give forfeits that are due."""
        await self.rounds.open_tables()
        for event_id in await self.storage.read(rows.unfinished_events):
            try:
                await self._follow(await self.views.load(event_id))
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

    async def _follow(self, state: TournamentState) -> None:
        """Start the tournament's next round when its scheduled time has come and the round before
        is over (any process may: the round starts once): the round the organizer published, or
        else paired, published and started at once (issue 42). Round 1 waits for registration to
        close: its deadline, if any, passed (entries stop at the first scheduled start anyway,
        :mod:`.commands`); only confirmed entries are paired."""
        schedule = state.settings.get("schedule") or []
        published = state.published()
        number = published or len(state.rounds) + 1
        if number > len(schedule) or state.status() == "finished":
            return
        now = self.storage.now()
        if now < _aware(datetime.fromisoformat(schedule[number - 1])):
            return
        deadline = state.settings.get("deadline")
        if number == 1 and deadline is not None and now < _aware(datetime.fromisoformat(deadline)):
            return
        if published is None and state.rounds and not state.round_over(len(state.rounds)):
            return
        await self.rounds.start(state)
        log.info("event %s: round %s started at its scheduled time", state.id, number)

    async def _forfeit(self, t: Mapping[str, Any], now: datetime) -> None:
        state = await self.views.load(str(t["event_id"]))
        started = next(r["started_at"] for r in state.rounds if int(r["number"]) == int(t["round"]))
        if (
            _aware(started)
            + timedelta(seconds=state.round_setting(int(t["round"]), "forfeit_seconds", FORFEIT_SECONDS))
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
        await every(self.config.event_sweep_seconds, self.sweep, "the sweep of events failed")
