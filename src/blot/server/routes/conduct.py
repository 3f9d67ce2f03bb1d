"""The Court of Conduct's dishonours (L-9, L-10; issue 38 item 6): a member records one and
forgives it; the register (``GET /api/register``, routes/events.py) publishes them. Its fair-play
view (issue 43 item 4, :mod:`blot.server.fairplay`): the figures of an account or a pair, and a
case opened from them — to anybody but a member or an administrator, a path that does not exist."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from sqlalchemy.engine import Connection

from blot.numbers import whole_number
from blot.server import conduct
from blot.server.errors import Refused
from blot.server.fairplay import FairPlay, unknown_path
from blot.server.routes import body_of, hub_of, me, viewer_of

router = APIRouter(prefix="/api/conduct", tags=["conduct"])


@router.post("/decisions")
async def record_dishonour(request: Request) -> dict[str, Any]:
    """Record a dishonour (a member of the Court of Conduct): ``{"kind", "usernames", "penance",
    "until"?, "explanation", "concerns"?, "case"?, "publish_names"?}``; answers the register."""
    player, _ = await me(request)
    body = await body_of(request)
    hub = hub_of(request)
    at = hub.now()
    today = at.date().isoformat()

    def write(c: Connection) -> int:
        conduct.check_member(c, player)
        return conduct.record(c, conduct.check(body, today), today, player, at)

    number = await hub.write(write)
    return {"id": number, "decisions": await hub.read(lambda c: conduct.published(c, today))}


@router.post("/decisions/{number}/forgive")
async def forgive(number: str, request: Request) -> dict[str, Any]:
    """The Court finds the penance sufficient (L-10): the dishonour is marked forgiven."""
    player, _ = await me(request)
    hub = hub_of(request)
    today = hub.now().date().isoformat()
    found = whole_number(number, 9)
    if found is None:
        raise Refused("not_found", "no_such_dishonour")

    def write(c: Connection) -> None:
        conduct.check_member(c, player)
        conduct.forgive(c, found, today, player)

    await hub.write(write)
    return {"id": found, "decisions": await hub.read(lambda c: conduct.published(c, today))}


#: Every method: to anybody not admitted the view's paths answer as paths that do not exist do.
ANY_METHOD = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"]


@router.api_route("/fairplay", methods=ANY_METHOD, include_in_schema=False)
async def fairplay_figures(request: Request) -> dict[str, Any]:
    """The fair-play figures (``POST``, members and administrators): ``{"accounts": [A] | [A, B],
    "game"?, "tables"?: [ids] | "event"?: id | "last"?: N}``; answers ``blot fairplay --json``'s
    object with each weighty deal's replay link and the games read."""
    fairplay: FairPlay = request.app.state.fairplay
    viewer = await fairplay.admit(await viewer_of(request))
    if request.method != "POST":
        raise unknown_path()
    return await fairplay.figures(viewer, await body_of(request))


@router.api_route("/fairplay/cases", methods=ANY_METHOD, include_in_schema=False)
async def fairplay_case(request: Request) -> dict[str, Any]:
    """A case for the Court of Conduct opened from the view (``POST``): ``{"accounts", "question"}``."""
    fairplay: FairPlay = request.app.state.fairplay
    await fairplay.admit(await viewer_of(request))
    if request.method != "POST":
        raise unknown_path()
    return await fairplay.open_case(await body_of(request))
