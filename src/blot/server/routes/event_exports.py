"""An event's exports and boards (issue 42 items 4 and 5; docs/protocol.md, "Events"): its TRF
(FIDE's tournament report, :mod:`blot.tournaments.trf`), a round's pairings and results as CSV,
and a duplicate round's boards (hand records and travellers, :mod:`.travellers`), each as the
viewer may see the event (:mod:`blot.server.secrecy`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import PlainTextResponse

from blot.errors import BlotError
from blot.numbers import whole_number
from blot.server.errors import Refused
from blot.server.routes import hub_of
from blot.server.routes.events import _shown, _viewer
from blot.server.tournaments import travellers
from blot.server.tournaments.exports import round_csv
from blot.tournaments import trf

router = APIRouter(prefix="/api", tags=["events"])


def _round(text: str) -> int:
    number = whole_number(text, 9)
    if number is None:
        raise Refused("not_found", "no_such_event_round", n=text[:12])
    return number


@router.get("/events/{event_id}/trf", response_model=None)
async def event_trf(event_id: str, request: Request) -> PlainTextResponse:
    """The event as a TRF-2016 file (Swiss and round robin events of Bazar Blot)."""
    service = hub_of(request).tournaments.views
    viewer = await _viewer(request)
    data = await _shown(request, service.to_json(await service.load(event_id), viewer), viewer)
    try:
        text = trf.write(data)
    except BlotError as e:
        raise Refused.from_error("malformed", e) from None
    headers = {"Content-Disposition": f'attachment; filename="blot-event-{event_id}.trf"'}
    return PlainTextResponse(text, media_type="text/plain; charset=utf-8", headers=headers)


@router.get("/events/{event_id}/rounds/{number}/csv", response_model=None)
async def round_as_csv(event_id: str, number: str, request: Request) -> PlainTextResponse:
    """A round's pairings and results as CSV (a row per table, then per bye)."""
    service = hub_of(request).tournaments.views
    viewer = await _viewer(request)
    state = await service.load(event_id)
    n = _round(number)
    travellers.round_of(state, n)
    data = await _shown(request, service.to_json(state, viewer), viewer)
    headers = {"Content-Disposition": f'attachment; filename="blot-event-{event_id}-round-{n}.csv"'}
    return PlainTextResponse(round_csv(data, n), media_type="text/csv; charset=utf-8", headers=headers)


@router.get("/events/{event_id}/rounds/{number}/boards")
async def round_boards(event_id: str, number: str, request: Request) -> dict[str, Any]:
    """A duplicate round's boards: each one's hand record and traveller, once the viewer may see it."""
    hub = hub_of(request)
    state = await hub.tournaments.views.load(event_id)
    return await travellers.boards(
        hub.tournaments.views.storage, state, _round(number), await _viewer(request)
    )
