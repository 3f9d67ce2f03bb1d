"""Finished games: the list, a replay of one card by card with every hand visible, and its
double-dummy analysis (:mod:`blot.server.analyses`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from blot.errors import BlotError
from blot.game import AnyGame
from blot.games import spec
from blot.server import secrecy
from blot.server.routes import check_may_see, finished_table, hub_of, me, viewer_of
from blot.server.routes.tables import _listed
from blot.server.table import FINISHED
from blot.store import LogEntry

router = APIRouter(prefix="/api", tags=["replays"])


@router.get("/replays")
async def finished(request: Request, mine: bool = False) -> dict[str, Any]:
    """Finished public games, newest first; ``?mine=1``: the games the requesting player sat at
    (their private ones too; 403 without a player token)."""
    hub = hub_of(request)
    player = (await me(request))[0] if mine else None
    rows = await hub.db(hub.store.listing, [FINISHED], 100, True, None, player)
    viewer = player if mine else await viewer_of(request)
    secrets = await hub.read(lambda c: secrecy.of_rows(c, rows))
    return {"games": [_listed(r) for r in rows if secrecy.listed(secrets, r, viewer, live=False)]}


@router.get("/tables/{table_id}/replay")
async def replay(table_id: str, request: Request) -> dict[str, Any]:
    """Every step of a finished game with all hands (404 while the game is not over)."""
    hub = hub_of(request)
    row = await finished_table(request, table_id)
    secret = await hub.read(lambda c: secrecy.of_table(c, table_id))
    shown: int | None = None  # every deal
    if secret is not None and not secret.sees_all(viewer := await viewer_of(request)):
        # a duplicate round's deals open one by one as every table finishes them (issue 38)
        shown = secret.visible(viewer)
        if shown == 0:
            raise secrecy.refused()
    entries = await hub.db(hub.store.log, table_id)
    deals = await hub.db(frames, row["game"], entries)
    out = {
        "id": table_id,
        "game": row["game"],
        "players": [s.get("name") for s in row["seats"]],
        "bots": [s.get("bot") for s in row["seats"]],
        "summary": row["summary"],
        "deals": deals,
    }
    if shown is not None:  # the totals would tell the deals not shown
        out.update(summary=None, deals=deals[:shown], secret=len(deals) - shown)
    return out


@router.post("/tables/{table_id}/analysis")
async def start_analysis(table_id: str, request: Request) -> dict[str, Any]:
    """Start the analysis of a finished game unless it is stored or under way (404 while the game
    is not over); answers as the GET."""
    await _gate(request, table_id)
    return await hub_of(request).analyses.start(table_id)


@router.get("/tables/{table_id}/analysis")
async def analysis(table_id: str, request: Request) -> dict[str, Any]:
    """How far the analysis of a finished game is, or the analysis (404 while the game is not over)."""
    await _gate(request, table_id)
    return await hub_of(request).analyses.state(table_id)


async def _gate(request: Request, table_id: str) -> None:
    """A private table's analysis is its players'; a duplicate round's covers every deal, so it
    waits until each is open to the viewer (issue 38 item 1)."""
    hub = hub_of(request)
    row = await hub.db(hub.store.table, table_id)
    if row is not None:
        await check_may_see(request, row)
        secret = await hub.read(lambda c: secrecy.of_table(c, table_id))
        if secret is not None and not secret.sees_all(await viewer_of(request)):
            raise secrecy.refused()


def frames(game: str, entries: list[LogEntry]) -> list[dict[str, Any]]:
    """Replay the log through the engine, one frame after each deal and each action."""
    game_spec = spec(game)
    wire = game_spec.wire_module()
    state: AnyGame | None = None
    deals: list[dict[str, Any]] = []
    for entry in entries:
        p = entry.payload
        if entry.kind == "create":
            settings = p["settings"]
            state = game_spec.new_game(game_spec.rules(settings.get("ruleset"), settings.get("options")))
        elif state is None:
            raise BlotError("a table's log starts with its creation")
        elif entry.kind == "deal":
            deal = state.start_deal(game_spec.cards_from_json(p))
            first = wire.frame(state)
            first["action"] = None
            deals.append({"number": len(deals) + 1, "dealer": deal.dealer, "frames": [first]})
        elif entry.kind == "act":
            seat = int(p["seat"])
            before = state.phase
            action = wire.action_from_json(state, p["action"])
            state.apply(action)
            frame = wire.frame(state)
            frame["action"] = {"seat": seat, "text": str(action), "phase": before.value, "by": p.get("by")}
            deals[-1]["frames"].append(frame)
    return deals
