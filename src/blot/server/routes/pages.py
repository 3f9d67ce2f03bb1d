"""The browser client: one page (``blot/web``) for the lobby, tables, replays and score sheets."""

from __future__ import annotations

import secrets
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse

from blot.server.routes import DEVICE_COOKIE

WEB = Path(__file__).resolve().parent.parent.parent / "web"

router = APIRouter(include_in_schema=False)


#: Every page is the one client page, which reads the path: the lobby, a table, the replays, a
#: replay, the score sheets, a sheet and a sheet's read-only share; logging in, the account, the
#: leaderboards and a player's profile; the events, an event, a referee's console, the register.
PAGES = (
    "/",
    "/table/{table_id}",
    "/replays",
    "/replay/{table_id}",
    "/scoresheet",
    "/scoresheet/{sheet_id}",
    "/scoresheet/shared/{share_id}",
    "/login",
    "/account",
    "/leaderboard",
    "/players/{username}",
    "/events",
    "/event/{event_id}",
    "/event/{event_id}/table/{table}",
    "/register",
)


async def index(request: Request) -> FileResponse:
    """The page; a browser seen for the first time gets its ``blot_device`` cookie."""
    response = FileResponse(WEB / "index.html", headers={"Cache-Control": "no-cache"})
    if DEVICE_COOKIE not in request.cookies:
        response.set_cookie(
            DEVICE_COOKIE,
            secrets.token_urlsafe(24),
            max_age=2 * 365 * 86400,
            httponly=True,
            samesite="strict",
        )
    return response


for _path in PAGES:
    router.add_api_route(_path, index, methods=["GET"])
