"""Players: a guest is a name and a token the browser keeps (accounts: :mod:`.accounts`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from blot.server.errors import Refused
from blot.server.routes import address, bearer, body_of, device, hub_of, me

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
        raise Refused("forbidden", "token_needed")
    return await hub_of(request).accounts.rename(token, body.get("name"))


@router.get("/avatars")
async def avatars(request: Request, ids: str = "") -> dict[str, Any]:
    """``?ids=1,2,3``: the avatars those players chose (``{"avatars": {"1": "🦊"}}``, players who
    chose none left out), and the ``choices`` a player may make."""
    from blot.server.chat import AVATARS
    from blot.store import accounts

    wanted = [int(x) for x in ids.split(",")[:100] if x.strip().isdecimal() and len(x.strip()) < 12]
    hub = hub_of(request)
    found = await hub.read(lambda c: accounts.avatars(c, wanted)) if wanted else {}
    return {"avatars": {str(k): v for k, v in found.items()}, "choices": list(AVATARS)}


@router.put("/me/avatar")
async def set_avatar(request: Request) -> dict[str, Any]:
    """``{"avatar": "🦊"}`` (one of the choices) or ``{"avatar": null}`` (initials again). Refused
    while the player sits at a table whose game is being played: a new avatar mid-game would be a
    sign to the partner (L-9), so a change reaches the others from the next game on."""
    from blot.server.chat import AVATARS
    from blot.store import accounts

    player, _ = await me(request)
    body = await body_of(request)
    avatar = body.get("avatar")
    if avatar is not None and avatar not in AVATARS:
        raise Refused("malformed", "avatar_choices", choices=" ".join(AVATARS))
    hub = hub_of(request)
    await hub.accounts.not_playing(player, "avatar")  # from the next game on (issue 38 item 2)
    await hub.write(lambda c: accounts.set_avatar(c, player, avatar))
    return {"avatar": avatar}
