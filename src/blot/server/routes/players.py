"""Players: a name and a token the browser keeps (accounts come later)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from blot.server.errors import Refused
from blot.server.routes import bearer, body_of, hub_of, me

router = APIRouter(prefix="/api", tags=["players"])


@router.post("/players")
async def new_player(request: Request) -> dict[str, Any]:
    """Create a player; the answer's ``token`` identifies it from now on (keep it secret)."""
    body = await body_of(request)
    return await hub_of(request).new_player(body.get("name"))


@router.get("/me")
async def who_am_i(request: Request) -> dict[str, Any]:
    player, name = await me(request)
    return {"id": player, "name": name}


@router.put("/me")
async def rename(request: Request) -> dict[str, Any]:
    body = await body_of(request)
    token = bearer(request)
    if token is None:
        raise Refused("forbidden", "a player token is needed")
    return await hub_of(request).rename(token, body.get("name"))
