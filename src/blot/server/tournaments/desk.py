"""The organizer's desk (issue 42 item 1): an event's settings edited after its creation, its
referees, the pairs that must not meet and the byes its entrants asked for. Each change is one
transaction that locks the event and reads its settings again under the lock (two organizers at
once both keep their change)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy.engine import Connection

from blot.server.errors import Refused
from blot.server.services import Storage
from blot.server.tournaments.commands import validated
from blot.server.tournaments.state import TournamentState
from blot.server.tournaments.views import TournamentViews
from blot.store import accounts as account_rows
from blot.store import tournaments as rows

#: What cannot change once a round was paired: the game the tables play and how they are kept.
LOCKED = ("format", "online", "rated", "ruleset", "options", "deals", "referees")
#: The settings the desk keeps beside the ones an organizer sends (never sent back by PATCH).
KEPT = ("field", "forbidden", "requested_byes", "late_scores", "referee_pool")
#: The fields of an event's creation that PATCH takes too.
FIELDS = (
    "name",
    "public",
    "rounds",
    "ruleset",
    "options",
    "online",
    "rated",
    "format",
    "deals",
    "deadline",
    "schedule",
    "forfeit_seconds",
    "timer",
    "referees",
    "rounds_settings",
)


class EventDesk:
    """The organizer's changes to an event: settings, referees, forbidden pairs, requested byes."""

    def __init__(self, storage: Storage, views: TournamentViews) -> None:
        self.storage = storage
        self.views = views

    async def edit(self, player: int, event_id: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """``PATCH /api/events/{id}``: any field of the creation; once a round is paired, the
        format, online, rated, ruleset, options, deals and referees are kept (refused), the
        number of rounds never below those paired, and past start times stay as they were."""
        state = await self._organized(player, event_id)
        unknown = sorted(set(body) - set(FIELDS))
        if unknown:
            raise Refused("malformed", "event_field_unknown", unknown[0], field=unknown[0])
        current = {**state.settings, "name": state.row["name"], "public": bool(state.row["public"])}
        merged = {"game": state.game.name, "format": state.format, **current, **body}
        started = len(state.rounds)
        if started:
            for key in LOCKED:
                if key in body and body[key] != current.get(key, state.format if key == "format" else None):
                    raise Refused("conflict", "event_setting_locked", key, field=key)
            rounds = body.get("rounds", started)
            if state.format != "round_robin" and type(rounds) is int and rounds < started:
                raise Refused("conflict", "rounds_below_played", "rounds", n=started)
            if "schedule" in body and state.settings.get("schedule"):
                old = state.settings["schedule"][:started]
                if not isinstance(body["schedule"], list) or body["schedule"][:started] != old:
                    raise Refused("conflict", "schedule_history", "schedule", n=started)
        # only what the organizer sends now is checked against the clock: a time that has
        # passed since he set it (round 1 about to start) does not hold up another edit
        history = started if "schedule" in body else len(merged.get("schedule") or [])
        due = "deadline" in body and body["deadline"] != current.get("deadline")
        name, _, _, settings, public = validated(merged, self.storage.now(), history, due)
        for key in KEPT:
            if key in state.settings:
                settings[key] = state.settings[key]
        at = self.storage.now()

        def write(c: Connection) -> None:
            state.unchanged(c)
            rows.set_settings(c, state.id, settings, at, name=name, public=public)

        await self.storage.write(write)
        return self.views.to_json(await self.views.load(event_id), player)

    async def add_referee(self, player: int, event_id: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """``POST …/referees`` ``{"username"}``: a referee of the event; each round's tables are
        given its referees in turn when the round is paired (the organizer may still assign
        another at a table). Never one who plays in the event (L-6)."""
        state = await self._organized(player, event_id)
        found = await self._account(body.get("username"))

        def change(c: Connection, settings: dict[str, Any]) -> None:
            if found.id in rows.players_in(c, state.id):
                raise Refused("conflict", "player_cannot_referee", name=found.username)
            pool = [int(p) for p in settings.get("referee_pool") or []]
            if found.id not in pool:
                settings["referee_pool"] = [*pool, found.id]

        return await self._change(state, player, change)

    async def forbid(self, player: int, event_id: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """``POST …/forbidden`` ``{"entries": [a, b]}``: these two must not meet while avoidable."""
        state = await self._organized(player, event_id)
        pair = body.get("entries")
        ids = {int(e["id"]) for e in state.entries}
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or not all(type(e) is int for e in pair)
            or pair[0] == pair[1]
        ):
            raise Refused("malformed", "forbidden_form", "entries")
        for e in pair:
            if e not in ids:
                raise Refused("not_found", "no_such_entry")
        if state.format == "round_robin":
            raise Refused("conflict", "round_robin_meets_all")
        key = sorted(pair)

        def change(c: Connection, settings: dict[str, Any]) -> None:
            kept = [sorted(p) for p in settings.get("forbidden") or []]
            if key not in kept:
                settings["forbidden"] = [*kept, key]

        return await self._change(state, player, change)

    async def allow(self, player: int, event_id: str, a: int, b: int) -> dict[str, Any]:
        """``DELETE …/forbidden/{a}/{b}``: the two may meet again."""
        state = await self._organized(player, event_id)
        key = sorted([a, b])

        def change(c: Connection, settings: dict[str, Any]) -> None:
            kept = [sorted(p) for p in settings.get("forbidden") or []]
            if key not in kept:
                raise Refused("not_found", "no_such_forbidden")
            settings["forbidden"] = [p for p in kept if p != key]

        return await self._change(state, player, change)

    async def request_bye(
        self, player: int, event_id: str, entry: int, body: Mapping[str, Any], wanted: bool = True
    ) -> dict[str, Any]:
        """``POST …/entries/{entry}/byes`` ``{"round": n}`` (an entry's account or an organizer):
        the entry sits round ``n`` out, scoring nothing (docs/rules.md); DELETE takes it back.
        Only for a round not paired yet, and not in a round robin (its schedule is fixed)."""
        state = await self.views.load(event_id)
        found = next((e for e in state.entries if int(e["id"]) == entry), None)
        if found is None:
            raise Refused("not_found", "no_such_entry")
        if player not in state.organizers and player not in {m["player"] for m in found["members"]}:
            raise Refused("forbidden", "bye_who")
        if state.format == "round_robin":
            raise Refused("conflict", "round_robin_no_bye")
        number = body.get("round")
        if type(number) is not int or not len(state.rounds) < number <= state.total_rounds():
            raise Refused(
                "malformed", "bye_round", "round", low=len(state.rounds) + 1, high=state.total_rounds()
            )

        def change(c: Connection, settings: dict[str, Any]) -> None:
            asked = {k: list(v) for k, v in (settings.get("requested_byes") or {}).items()}
            rounds = set(asked.get(str(entry), []))
            rounds = rounds | {number} if wanted else rounds - {number}
            asked[str(entry)] = sorted(rounds)
            settings["requested_byes"] = {k: v for k, v in asked.items() if v}

        return await self._change(state, player, change)

    async def _change(
        self, state: TournamentState, viewer: int, change: Callable[[Connection, dict[str, Any]], None]
    ) -> dict[str, Any]:
        """One change of the settings, read again and written under the event's lock."""
        at = self.storage.now()

        def write(c: Connection) -> None:
            state.unchanged(c)
            row = rows.event_row(c, state.id)
            assert row is not None
            settings = dict(row["settings"])
            change(c, settings)
            rows.set_settings(c, state.id, settings, at)

        await self.storage.write(write)
        return self.views.to_json(await self.views.load(state.id), viewer)

    async def _organized(self, player: int, event_id: str) -> TournamentState:
        state = await self.views.load(event_id)
        if player not in state.organizers:
            raise Refused("forbidden", "event_organizer_only")
        return state

    async def _account(self, username: Any) -> Any:
        from blot.accounts import username_key

        if not isinstance(username, str):
            raise Refused("malformed", "username_needed", "username")
        found = await self.storage.read(lambda c: account_rows.find(c, username_key(username)))
        if found is None or found.disabled:
            raise Refused("not_found", "no_such_account", name=username)
        return found
