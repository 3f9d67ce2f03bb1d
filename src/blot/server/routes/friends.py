"""Friends and invitations (issue 41 item 2): the list, asking and accepting, removing,
blocking, and inviting a friend to a table (:mod:`blot.server.friends`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from blot.server.friends import Friends, friends_of
from blot.server.routes import bearer, body_of, hub_of

router = APIRouter(prefix="/api", tags=["friends"])


def _friends(request: Request) -> Friends:
    return friends_of(hub_of(request), request.app.state)


@router.get("/friends")
async def friends(request: Request) -> dict[str, Any]:
    """The account's friends (``online``, ``playing``, a public ``table``), the requests either
    way (``asked``: his own, ``asking``: to him), whom he blocked, and his open invitations."""
    service = _friends(request)
    return await service.listing(await service.account(bearer(request)))


@router.post("/friends")
async def ask(request: Request) -> dict[str, Any]:
    """``{"username"}``: ask that account to be friends; asking one who asked you accepts."""
    service = _friends(request)
    who = await service.account(bearer(request))
    body = await body_of(request)
    return await service.ask(who, body.get("username"))


@router.delete("/friends/{username}")
async def remove(request: Request, username: str) -> dict[str, Any]:
    """Remove a friend, withdraw or decline a request, or lift a block."""
    service = _friends(request)
    return await service.remove(await service.account(bearer(request)), username)


@router.post("/friends/{username}/block")
async def block(request: Request, username: str) -> dict[str, Any]:
    """Block an account: no friendship or request either way; to him you are an unknown name."""
    service = _friends(request)
    return await service.block(await service.account(bearer(request)), username)


@router.post("/tables/{table_id}/invitations")
async def invite(request: Request, table_id: str) -> dict[str, Any]:
    """``{"username"}``: invite a friend to this table (you sit at it or host it; it waits with
    a free seat). The friend's page lists it (``GET /api/friends``) until he sits, dismisses it,
    or the table fills."""
    service = _friends(request)
    who = await service.account(bearer(request))
    body = await body_of(request)
    made = await service.invite(who, table_id, body.get("username"))
    # Web Push (issue 41 item 4): the invitee hears of it with the page closed too
    hub_of(request).notify(
        [made.invitee], "invitation", f"/table/{made.table}", f"invite-{made.table}", who=made.inviter_name
    )
    return made.to_json()


@router.delete("/invitations/{invitation}")
async def dismiss(request: Request, invitation: int) -> dict[str, Any]:
    """The invitee dismisses an invitation (it is no longer listed)."""
    service = _friends(request)
    await service.dismiss(await service.account(bearer(request)), invitation)
    return {"id": invitation, "dismissed": True}
