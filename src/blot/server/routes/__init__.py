"""The endpoints, one router per concern; :func:`blot.server.app.create_app` includes them all."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import Request
from fastapi.websockets import WebSocket

from blot.server.chat import Chat
from blot.server.endings import FINISHED
from blot.server.errors import Refused
from blot.server.hub import Hub
from blot.server.jsonin import loads


def hub_of(request: Request | WebSocket) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


S = TypeVar("S")


def service_of(request: Request | WebSocket, name: str, make: Callable[[Hub], S]) -> S:
    """The app's service ``name`` (the day's deals, the quick game, the join codes), made from its
    hub at the first request that needs it and kept in ``app.state``; made again for another hub
    (the tests start several apps in one process)."""
    state, hub = request.app.state, hub_of(request)
    kept: tuple[Hub, S] | None = getattr(state, name, None)
    if kept is None or kept[0] is not hub:
        kept = (hub, make(hub))
        setattr(state, name, kept)
    return kept[1]


def chat_of(request: Request | WebSocket) -> Chat:
    """The talk at the tables (:mod:`blot.server.chat`)."""
    chat: Chat = request.app.state.chat
    return chat


def address(request: Request | WebSocket) -> str:
    """The client's address, the key of the per-address limits (behind a reverse proxy named by
    ``--trusted-proxy``, the address it forwards)."""
    return request.client.host if request.client is not None else "unknown"


#: The cookie that names a browser (set with the page): two players of one browser may not sit at
#: one table (issue 22). Only its SHA-256 is stored.
DEVICE_COOKIE = "blot_device"


def device(request: Request | WebSocket) -> str | None:
    """The hash of the browser's ``blot_device`` cookie, or None (programs send none)."""
    import hashlib

    value = request.cookies.get(DEVICE_COOKIE)
    if not value or len(value) > 64:
        return None
    return hashlib.sha256(value.encode()).hexdigest()


def bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return None


async def me(request: Request) -> tuple[int, str]:
    """The player behind the request's token, or 403."""
    found = await hub_of(request).accounts.player(bearer(request))
    if found is None:
        raise Refused("forbidden", "token_needed_create")
    return found


async def viewer_of(request: Request) -> int | None:
    """The player behind the request's token, or None (anybody)."""
    found = await hub_of(request).accounts.player(bearer(request))
    return None if found is None else found[0]


async def body_of(request: Request, required: bool = True) -> dict[str, Any]:
    """The request's JSON object; with ``required`` false an empty body is an empty object. Its
    size is capped before any route (blot.server.guard) and its nesting here (jsonin)."""
    raw = await request.body()
    if not required and not raw:
        return {}
    data = loads(raw, "the request body") if raw.strip() else None
    if not isinstance(data, dict):
        raise Refused("malformed", "body_object")
    return data


async def finished_table(request: Request, table_id: str) -> dict[str, Any]:
    """The stored row of a finished game that the requester may see (:func:`check_may_see`);
    404 for a game not over, as for an unknown table."""
    hub = hub_of(request)
    row = await hub.db(hub.store.table, table_id)
    if row is None or row["status"] != FINISHED:
        raise Refused("not_found", "no_finished_game")
    await check_may_see(request, row)
    return row


async def check_may_see(request: Request, row: dict[str, Any]) -> None:
    """A private table's finished game (replay, record, analysis) is for the people who sat at
    it (and its host) only: to anybody else it does not exist (404, as an unknown table). A day's
    set's table is private too, but the people who played the set see it as its secrecy allows."""
    if row.get("public", True) or (row.get("settings") or {}).get("daily"):
        return  # a day's set: blot.server.secrecy says who may see it (issue 45)
    found = await hub_of(request).accounts.player(bearer(request))
    allowed = {s.get("player") for s in row.get("seats") or []} | {row.get("host")}
    if found is None or found[0] not in allowed:
        raise Refused("not_found", "no_finished_game")
