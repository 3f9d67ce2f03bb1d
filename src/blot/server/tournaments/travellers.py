"""A duplicate round's boards on the server (issue 42 item 5, ``GET /api/events/{id}/rounds/{n}/
boards``): each board's hand record and traveller (:mod:`blot.tournaments.boards`), shown to a
viewer only as far as :mod:`blot.server.secrecy` lets them see that deal at *every* table of the
round: a board opens to all once every table has finished it; the organizers and referees who
play at no table see every board at once; a player sees no board of his round before the others
finished it too (its traveller holds the other tables' results). A table's line comes once its
game is over (its record is written then)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from blot.games import spec
from blot.server import secrecy
from blot.server.errors import Refused
from blot.server.services import Storage
from blot.server.tournaments.state import TournamentState
from blot.store.schema import tables
from blot.tournaments.boards import PlayedTable, travellers


def round_of(state: TournamentState, number: int) -> list[dict[str, Any]]:
    """Round ``number``'s tables (refused when the event has no such round)."""
    if not any(int(r["number"]) == number for r in state.rounds):
        raise Refused("not_found", "no_such_event_round", n=number)
    return sorted((t for t in state.tables if int(t["round"]) == number), key=lambda t: int(t["number"]))


async def boards(storage: Storage, state: TournamentState, number: int, viewer: int | None) -> dict[str, Any]:
    """The round's boards as ``viewer`` may see them: ``shown`` boards from the first; the
    others are listed as ``secret`` with nothing of them."""
    if state.format != "duplicate":
        raise Refused("malformed", "boards_duplicate_only")
    played = round_of(state, number)
    ids = [str(t["table_id"]) for t in played if t["table_id"] is not None]
    deals = int(state.settings.get("deals") or 0)

    def read(c: Connection) -> tuple[dict[str, secrecy.Secret], dict[str, Any]]:
        found = secrecy.of_ids(c, ids)
        records = {}
        if ids:
            query = select(tables.c.id, tables.c.record).where(
                tables.c.id.in_(ids), tables.c.record.is_not(None)
            )
            records = {str(r.id): r.record for r in c.execute(query)}
        return found, records

    found, records = await storage.read(read)
    secrets = [found[i] for i in ids if i in found]
    deals = max([deals, *(s.deals for s in secrets)])
    shown = min((s.visible(viewer) for s in secrets), default=0) if len(secrets) == len(ids) and ids else 0
    tables_played = []
    for t in played:
        record = records.get(str(t["table_id"]))
        if record is None or len(t["entries"]) != 2:
            continue
        scored = spec(state.row["game"]).replay(record).to_json()["deals"]
        tables_played.append(
            PlayedTable(
                int(t["number"]), (int(t["entries"][0]), int(t["entries"][1])), record["deals"], scored
            )
        )
    names = {int(e["id"]): e["name"] for e in state.entries}
    out = travellers(tables_played, deals)
    for board in out:
        if board["board"] > shown:
            board.update(hand_record=None, traveller=[], secret=True)
        else:
            board["secret"] = False
    return {
        "event": state.id,
        "round": number,
        "boards": out,
        "shown": min(shown, deals),
        "tables": [{"number": int(t["number"]), "entries": [int(e) for e in t["entries"]]} for t in played],
        "names": {str(k): v for k, v in names.items()},
    }
