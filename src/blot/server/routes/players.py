"""Players: a guest is a name and a token the browser keeps (accounts: :mod:`.accounts`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from blot.server.errors import Refused
from blot.server.routes import address, bearer, body_of, device, hub_of

router = APIRouter(prefix="/api", tags=["players"])


@router.post("/players")
async def new_player(request: Request) -> dict[str, Any]:
    """Create a player; the answer's ``token`` identifies it from now on (keep it secret). One
    address may create ``guests_per_address`` of them an hour."""
    body = await body_of(request)
    return await hub_of(request).accounts.new_guest(body.get("name"), address(request), device(request))


@router.get("/me")
async def who_am_i(request: Request) -> dict[str, Any]:
    """``{"id", "name", "username", "bars"}``: ``username`` null for a guest; ``bars``: the
    League bars (``--league``) that keep this account from sitting with someone."""
    return await hub_of(request).accounts.me(bearer(request))


@router.put("/me")
async def rename(request: Request) -> dict[str, Any]:
    body = await body_of(request)
    token = bearer(request)
    if token is None:
        raise Refused("forbidden", "a player token is needed")
    return await hub_of(request).accounts.rename(token, body.get("name"))
