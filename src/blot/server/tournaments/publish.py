"""A round between its pairing and its start (issue 42 item 2): pairing publishes it, the
organizer reads it, corrects it (swaps two entrants, moves a bye, or pairs it again), each change
recorded with who made it and when, and then starts it: only the start opens its tables (online)
or score sheets (over the board)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy.engine import Connection

from blot.server.errors import Refused
from blot.server.services import Storage
from blot.server.tournaments.rounds import TournamentRounds
from blot.server.tournaments.state import CHANGED, TournamentState, _iso
from blot.server.tournaments.views import TournamentViews
from blot.store import accounts as account_rows
from blot.store import tournaments as rows


class RoundDesk:
    """Reading, correcting and starting a published round; every change is one transaction that
    checks the round is still published (two organizers at once: the later one is refused)."""

    def __init__(self, storage: Storage, views: TournamentViews, rounds: TournamentRounds) -> None:
        self.storage = storage
        self.views = views
        self.rounds = rounds

    async def show(self, viewer: int | None, event_id: str, number: int) -> dict[str, Any]:
        """``GET /api/events/{id}/rounds/{n}``: the round as the event shows it, with its changes."""
        state = await self.views.load(event_id)
        data = self.views.to_json(state, viewer)
        found = next((r for r in data["rounds"] if r["number"] == number), None)
        if found is None:
            raise Refused("not_found", "no_such_round", n=number)
        return {"event": state.id, "format": state.format, **found}

    async def change(
        self, player: int, event_id: str, number: int, body: Mapping[str, Any]
    ) -> dict[str, Any]:
        """``PATCH``: ``{"swap": [a, b]}``, ``{"bye": entry}`` (with ``"instead"`` when the round
        has several byes) or ``{"repair": true}``, while the round is published."""
        state = await self._published(player, event_id, number)
        tables = [list(t["entries"]) for t in state.tables if int(t["round"]) == number]
        before = [list(t) for t in tables]
        byes = list(state.rounds[-1]["byes"])
        if "swap" in body:
            what: dict[str, Any] = {"swap": _swap(tables, byes, body["swap"])}
        elif "bye" in body:
            what = {"bye": _move_bye(tables, byes, body["bye"], body.get("instead"))}
        elif body.get("repair") is True:
            earlier = [r for r in state.rounds if int(r["number"]) < number]
            unpaired = dataclasses.replace(
                state, rounds=earlier, tables=[t for t in state.tables if int(t["round"]) < number]
            )
            paired, _ = await self.rounds.pair(unpaired, number)
            tables, byes = [list(t) for t in paired.tables], list(paired.byes)
            what = {"repair": True}
        else:
            raise Refused("malformed", "round_change_form", "swap")
        name = await self.storage.read(lambda c: _name_of(c, player))
        change = {"by": name, "by_player": player, "at": _iso(self.storage.now()), "what": what}

        def write(c: Connection) -> bool:
            state.unchanged(c)
            try:
                return rows.repair_round(c, state.id, number, tables, byes, change, before)
            except rows.ChangedMeanwhile:
                raise Refused("conflict", CHANGED) from None

        if not await self.storage.write(write):
            raise Refused("conflict", "round_not_published")
        return await self.show(player, event_id, number)

    async def start(self, player: int, event_id: str, number: int) -> dict[str, Any]:
        """``POST …/rounds/{n}/start``: the published round's tables open."""
        state = await self._published(player, event_id, number)
        await self.rounds.start_published(state, player)
        return self.views.to_json(await self.views.load(event_id), player)

    async def _published(self, player: int, event_id: str, number: int) -> TournamentState:
        state = await self.views.load(event_id)
        if player not in state.organizers:
            raise Refused("forbidden", "rounds_organizer")
        if not any(int(r["number"]) == number for r in state.rounds):
            raise Refused("not_found", "no_such_round", n=number)
        if state.published() != number:
            raise Refused("conflict", "round_not_published")
        return state


def _name_of(c: Connection, player: int) -> str:
    found = account_rows.by_id(c, player)
    return "" if found is None else str(found.username or "")


def _place(tables: Sequence[list[int]], byes: Sequence[int], entry: Any) -> tuple[int, int]:
    """Where an entry is in the round: (table index, seat index), or (-1, index among the byes)."""
    if type(entry) is int:
        for i, t in enumerate(tables):
            if entry in t:
                return i, t.index(entry)
        if entry in byes:
            return -1, list(byes).index(entry)
    raise Refused("conflict", "not_in_round", entry=str(entry))


def _swap(tables: list[list[int]], byes: list[int], pair: Any) -> list[int]:
    """Two entrants exchange their places (tables, seats, or a bye)."""
    if not isinstance(pair, list) or len(pair) != 2 or pair[0] == pair[1]:
        raise Refused("malformed", "round_swap_form", "swap")
    (ta, sa), (tb, sb) = _place(tables, byes, pair[0]), _place(tables, byes, pair[1])
    first = tables[ta] if ta >= 0 else byes
    second = tables[tb] if tb >= 0 else byes
    first[sa], second[sb] = second[sb], first[sa]
    return [int(pair[0]), int(pair[1])]


def _move_bye(tables: list[list[int]], byes: list[int], entry: Any, instead: Any) -> dict[str, int]:
    """The bye goes to ``entry`` (at a table); the entrant who had it takes ``entry``'s seat."""
    if not byes:
        raise Refused("conflict", "round_no_bye")
    if instead is None and len(byes) > 1:
        raise Refused("malformed", "round_bye_instead", "instead")
    holder = byes[0] if instead is None else instead
    if holder not in byes:
        raise Refused("conflict", "not_a_bye", entry=str(holder))
    table, _ = _place(tables, byes, entry)
    if table < 0:
        raise Refused("conflict", "has_bye_already", entry=str(entry))
    _swap(tables, byes, [entry, holder])
    return {"to": int(entry), "from": int(holder)}
