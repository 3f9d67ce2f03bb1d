"""The day's deals (issue 45, ``docs/protocol.md``, "The day's deals"): today's sets, starting
(or resuming) one, and a day's results as the asker may see them."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from blot.server.daily import Daily
from blot.server.daily import results as scored
from blot.server.routes import body_of, device, me, service_of, viewer_of

router = APIRouter(prefix="/api/daily", tags=["daily"])


def daily_of(request: Request) -> Daily:
    """The app's day's deals (made at its first request)."""
    return service_of(request, "daily", Daily)


@router.get("")
async def today(request: Request) -> dict[str, Any]:
    """Today's sets: per game and ruleset its deals, seat, bots, the field so far, and the
    asker's ``status`` (``new``, ``playing``, ``finished``) and table."""
    return await scored.today(daily_of(request), await viewer_of(request))


@router.post("/{game}/start")
async def start(game: str, request: Request) -> dict[str, Any]:
    """Start today's set of ``game`` (body ``{"ruleset"}``, optional), or resume it:
    ``{"table", "seat"}``. Refused once the asker finished it (``daily_played``) or when another
    account of the same browser played it (``daily_same_device``)."""
    player, name = await me(request)
    body = await body_of(request, required=False)
    return await daily_of(request).start(player, name, game, body, device(request))


@router.get("/{game}/results")
async def results(
    game: str, request: Request, ruleset: str | None = None, day: str | None = None
) -> dict[str, Any]:
    """A day's results of ``game`` (today by default) as the asker may see them: the deals they
    finished, the ranking once they finished the set, everything and the seed once the day is
    over."""
    return await scored.results(daily_of(request), await viewer_of(request), game, ruleset, day)
