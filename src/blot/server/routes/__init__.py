"""The endpoints, one router per concern; :func:`blot.server.app.create_app` includes them all."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.websockets import WebSocket

from blot.server.errors import Refused
from blot.server.hub import Hub
from blot.server.jsonin import loads


def hub_of(request: Request | WebSocket) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return None


async def me(request: Request) -> tuple[int, str]:
    """The player behind the request's token, or 403."""
    found = await hub_of(request).player(bearer(request))
    if found is None:
        raise Refused("forbidden", "a player token is needed: create a player first")
    return found


async def body_of(request: Request, required: bool = True) -> dict[str, Any]:
    """The request's JSON object; with ``required`` false an empty body is an empty object. Its
    size is capped before any route (blot.server.guard) and its nesting here (jsonin)."""
    raw = await request.body()
    if not required and not raw:
        return {}
    data = loads(raw, "the request body") if raw.strip() else None
    if not isinstance(data, dict):
        raise Refused("malformed", "the request body must be a JSON object")
    return data
