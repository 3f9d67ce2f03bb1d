"""Web Push (issue 41 item 4, ``docs/protocol.md``, "Notifications"): the server's public VAPID
key, a browser's subscription, and which kinds of notification a player hears."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from blot.server.routes import body_of, hub_of, me

router = APIRouter(prefix="/api/push", tags=["push"])


@router.get("/key")
async def key(request: Request) -> dict[str, Any]:
    """The key a page subscribes with (``applicationServerKey``, base64url): made once by the
    server and kept in its database, so it is the same after a restart."""
    return {"key": await hub_of(request).push.public_key()}


@router.post("/subscriptions")
async def subscribe(request: Request) -> dict[str, Any]:
    """Keep this browser's subscription (``PushSubscription.toJSON()`` and ``lang``) for the
    asker; answers the asker's settings."""
    player, _ = await me(request)
    return await hub_of(request).push.subscribe(player, await body_of(request))


@router.delete("/subscriptions")
async def unsubscribe(request: Request) -> dict[str, Any]:
    """Forget this browser's subscription (``{"endpoint"}``)."""
    player, _ = await me(request)
    return await hub_of(request).push.unsubscribe(player, await body_of(request))


@router.get("/settings")
async def settings(request: Request) -> dict[str, Any]:
    """Each kind on or off (``turn``, ``invitation``, ``event_table``, ``rematch``) and how
    many browsers the asker subscribed."""
    player, _ = await me(request)
    return await hub_of(request).push.settings(player)


@router.put("/settings")
async def change(request: Request) -> dict[str, Any]:
    """``{"kinds": {"turn": false}}``: turn kinds off or on, one by one."""
    player, _ = await me(request)
    return await hub_of(request).push.change_settings(player, await body_of(request))
