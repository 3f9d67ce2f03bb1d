"""A quick game (issue 41 item 3, ``docs/protocol.md``, "A quick game"): wait for a game, ask how
the wait stands, stop waiting, or fill the empty seats with bots."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from blot.server.quick import Quick
from blot.server.routes import body_of, device, me, service_of

router = APIRouter(prefix="/api/quick", tags=["quick"])


def quick_of(request: Request) -> Quick:
    """The app's quick game (made at its first request)."""
    return service_of(request, "quick", Quick)


@router.post("")
async def ask(request: Request) -> dict[str, Any]:
    """Wait for a game (``game``, ``ruleset``, ``rated``): ``{"status": "seated", "table",
    "seat"}`` when enough people wait for the same thing, else ``{"status": "waiting",
    "waited", "people", "seats", "bots_after"}``. Asking again goes on with the same wait."""
    player, name = await me(request)
    body = await body_of(request)
    return await quick_of(request).ask(player, name, body, device(request))


@router.get("")
async def poll(request: Request) -> dict[str, Any]:
    """How the asker's wait stands (``none``, ``waiting`` or ``seated``); asking keeps it alive."""
    player, _ = await me(request)
    return await quick_of(request).poll(player)


@router.delete("")
async def cancel(request: Request) -> dict[str, Any]:
    """Stop waiting."""
    player, _ = await me(request)
    return await quick_of(request).cancel(player)


@router.post("/bots")
async def bots(request: Request) -> dict[str, Any]:
    """Start now: the people waiting for the same thing and bots of ``level`` in the other seats."""
    player, _ = await me(request)
    body = await body_of(request, required=False)
    return await quick_of(request).bots(player, body)
