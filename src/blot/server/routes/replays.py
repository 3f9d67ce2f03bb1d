"""Finished games: the list, and a replay of one card by card with every hand visible."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request

from blot.server.errors import Refused
from blot.server.games import kind_of
from blot.server.routes import hub_of
from blot.server.routes.tables import _listed
from blot.server.table import FINISHED
from blot.store import LogEntry

router = APIRouter(prefix="/api", tags=["replays"])


@router.get("/replays")
async def finished(request: Request) -> dict[str, Any]:
    rows = await asyncio.to_thread(hub_of(request).store.listing, [FINISHED])
    return {"games": [_listed(r) for r in rows]}


@router.get("/tables/{table_id}/replay")
async def replay(table_id: str, request: Request) -> dict[str, Any]:
    """Every step of a finished game with all hands (404 while the game is not over)."""
    store = hub_of(request).store
    row = await asyncio.to_thread(store.table, table_id)
    if row is None or row["status"] != FINISHED:
        raise Refused("not_found", "no finished game at this table")
    entries = await asyncio.to_thread(store.log, table_id)
    deals = await asyncio.to_thread(frames, row["game"], entries)
    return {
        "id": table_id,
        "game": row["game"],
        "players": [s.get("name") for s in row["seats"]],
        "summary": row["summary"],
        "deals": deals,
    }


def frames(game: str, entries: list[LogEntry]) -> list[dict[str, Any]]:
    """Replay the log through the engine, one frame after each deal and each action."""
    kind = kind_of(game)
    state: Any = None
    deals: list[dict[str, Any]] = []
    for entry in entries:
        p = entry.payload
        if entry.kind == "create":
            state = kind.new_game(p["settings"])
        elif entry.kind == "deal":
            kind.start_deal(state, p)
            deals.append(
                {"number": len(deals) + 1, "dealer": state.deal.dealer, "frames": [kind.frame(state)]}
            )
            deals[-1]["frames"][0]["action"] = None
        elif entry.kind == "act":
            seat = int(p["seat"])
            before = kind.phase(state)
            action = kind.decode(state, seat, p["action"])
            state.apply(action)
            frame = kind.frame(state)
            frame["action"] = {"seat": seat, "text": str(action), "phase": before, "by": p.get("by")}
            deals[-1]["frames"].append(frame)
    return deals
