"""Leaderboards and profiles (``docs/protocol.md``, "Ratings")."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request

from blot.accounts import username_key
from blot.errors import BlotError
from blot.games import spec
from blot.ratings import PROVISIONAL_GAMES
from blot.server import secrecy
from blot.server.errors import Refused
from blot.server.routes import bearer, hub_of
from blot.store import ratings

router = APIRouter(prefix="/api", tags=["ratings"])


@router.get("/leaderboard")
async def leaderboard(request: Request, game: str = "") -> dict[str, Any]:
    """The rated players of a game (accounts and bot levels), best first; each says whether its
    rating is still ``provisional`` (fewer rated games than ``provisional_games``, issue 41 item 7)."""
    try:
        name = spec(game).name
    except BlotError as e:
        raise Refused.of(e) from None
    rows = await hub_of(request).read(lambda c: ratings.leaderboard(c, name))
    return {"game": name, "players": rows, "provisional_games": PROVISIONAL_GAMES}


@router.get("/players/{username}")
async def profile(username: str, request: Request, page: int = Query(0, ge=0, le=10_000)) -> dict[str, Any]:
    """A player's profile: ratings per game, games played and won, a page of recent games
    (``page``, from 0; ``next_page`` when there are more), the rating history, partners (games
    with partners) and tars kapoots on record. Private tables' games show only to their players."""
    if len(username) > 100:
        raise Refused("not_found", "no_such_player")
    key = username_key(username)
    hub = hub_of(request)
    viewer = await hub.accounts.player(bearer(request))

    seer = None if viewer is None else viewer[0]

    def read(c: Any) -> dict[str, Any] | None:
        row = ratings.player_by_name(c, username, key)
        if row is None:
            return None
        found = ratings.profile(c, row, seer, page)
        found["_player"] = int(row.id)
        secrecy.hide_in_games(found["recent"], secrecy.of_ids(c, [g["table"] for g in found["recent"]]), seer)
        return found

    found = await hub.read(read)
    if found is None:
        raise Refused("not_found", "no_such_player")
    from blot.server.daily import results as daily
    from blot.server.routes.daily import daily_of

    found["daily"] = await daily.profile(daily_of(request), found.pop("_player"))  # issue 45
    return found
