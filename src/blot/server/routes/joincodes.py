"""Join codes for a club night (issue 41 item 10; ``docs/protocol.md``, "Join codes"): an event's
organizer or a table's host makes, lists and revokes them; anybody with one is signed in."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from blot.server.joincodes import JoinCodes
from blot.server.routes import address, body_of, device, me, service_of

router = APIRouter(prefix="/api", tags=["join codes"])


def codes_of(request: Request) -> JoinCodes:
    """The server's join codes (made at the first request that needs them)."""
    return service_of(request, "joincodes", lambda hub: JoinCodes(hub, hub.accounts, hub.registry))


@router.post("/joincodes")
async def create_code(request: Request) -> dict[str, Any]:
    """``{"event"} or {"table"}, "uses", "hours", "name"``: a new code for that event or table."""
    player, _ = await me(request)
    return await codes_of(request).create(player, await body_of(request))


@router.get("/joincodes")
async def my_codes(request: Request) -> dict[str, Any]:
    """The codes the request's player made, newest first (with their uses and whether revoked)."""
    player, _ = await me(request)
    return {"codes": await codes_of(request).mine(player)}


@router.delete("/joincodes/{code}")
async def revoke_code(code: str, request: Request) -> dict[str, Any]:
    """Revoke a code: nobody more may use it, and those it signed in are signed out."""
    player, _ = await me(request)
    return await codes_of(request).revoke(player, code)


@router.get("/join/{code}")
async def show_code(code: str, request: Request) -> dict[str, Any]:
    """What a code leads to before it is used (its event or table, its end, the uses left)."""
    return await codes_of(request).show(code, address(request))


@router.post("/join/{code}")
async def use_code(code: str, request: Request) -> dict[str, Any]:
    """``{"name"}``: sign in with the code; ``{"id", "name", "token", "until", "goto"}``."""
    body = await body_of(request, required=False)
    return await codes_of(request).use(code, body, address(request), device(request))
