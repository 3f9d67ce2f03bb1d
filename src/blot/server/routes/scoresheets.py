"""Score sheets (Davtar) for games played with real cards: create a sheet, add and edit its
deals, read it with its edit history, and watch it live through a read-only share link.

Every total, the end of the game and the match score are computed by the score sheet model
with the engine's own scoring (:mod:`blot.scoresheet`). Inconsistent input answers 422 with
``{"error": "invalid", "field", "message"}`` and stores nothing; an unknown sheet answers 404.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from blot.numbers import whole_number
from blot.scoresheet import sheets as service
from blot.scoresheet.model import ScoreSheet, SheetError
from blot.scoresheet.sheets import AlreadyIn, Editor, SheetNotFound, StoredSheet
from blot.server.errors import Refused
from blot.server.hub import Hub
from blot.server.jsonin import loads
from blot.server.routes import bearer, hub_of

router = APIRouter(tags=["scoresheets"])
log = logging.getLogger("blot.server")

T = TypeVar("T")

#: How often a live view checks the database for changes made by another process (such as
#: ``blot scoresheet`` in a terminal); changes made through this server arrive at once.
POLL_SECONDS = 3.0
MAX_MESSAGE = 4096
BODY_LIMIT = 16_384


# --- helpers ------------------------------------------------------------------------------------


def _refused(e: Exception) -> Refused:
    if isinstance(e, SheetNotFound):
        return Refused.from_error("not_found", e)
    if isinstance(e, SheetError):
        return Refused.from_error("invalid", e, e.field)
    raise e


async def _read(hub: Hub, fn: Callable[[Connection], T]) -> T:
    def run() -> T:
        with hub.store.engine.connect() as c:
            return fn(c)

    try:
        return await hub.db(run)
    except (SheetError, SheetNotFound) as e:
        raise _refused(e) from None


async def _write(request: Request, share_id: str, fn: Callable[[Connection], T]) -> T:
    """Run a change in one transaction of the store's writer, then wake the sheet's watchers."""
    try:
        result = await hub_of(request).write(fn)
    except (SheetError, SheetNotFound) as e:
        raise _refused(e) from None
    watchers(request).notify(share_id)
    return result


async def _body(request: Request) -> Any:
    raw = await request.body()
    if len(raw) > BODY_LIMIT:
        raise Refused("invalid", "body_size", "body", n=BODY_LIMIT)
    try:
        return loads(raw, "body: the request body")
    except Refused as e:
        raise Refused.from_error("invalid", e, "body") from None


async def _editor(request: Request, body: Any) -> Editor:
    """Who makes the change: ``by`` (or ``who``) in the body, else the name of the player whose
    token the request carries; the player is recorded too when the token is known."""
    by = None
    if isinstance(body, dict):
        by = body.pop("by", None)
        who = body.pop("who", None)
        by = who if by is None else by
    found = await hub_of(request).accounts.player(bearer(request))
    name = None
    if by is not None:
        try:
            name = service.clean_name(by, "by")
        except SheetError as e:
            raise _refused(e) from None
    elif found is not None:
        name = found[1]
    return Editor(name, None if found is None else found[0])


def _deal_number(text: str) -> int:
    number = whole_number(text, 6)
    if number is None:
        raise Refused("not_found", "sheet_no_deal_number", n=repr(text))
    return number


def _precheck(stored: StoredSheet, body: Any, number: int | None) -> None:
    """The model's checks on a copy, before the change goes to the writer (so that a refused
    entry never costs the other tables' writes a rolled back transaction)."""
    copy = ScoreSheet(stored.sheet.rules, stored.sheet.teams, list(stored.sheet.entries))
    try:
        entry = service.entry_of(body, copy.rules)
        if number is None:
            copy.add(entry.to_json())
        else:
            if not 1 <= number <= len(copy.entries):
                raise SheetNotFound("sheet_no_such_deal", n=number, count=len(copy.entries))
            copy.replace(number, entry.to_json())
    except (SheetError, SheetNotFound) as e:
        raise _refused(e) from None


# --- live views ---------------------------------------------------------------------------------


class Watchers:
    """The open live views of each sheet (by share id): each has an event set on every change."""

    def __init__(self) -> None:
        self._events: dict[str, set[asyncio.Event]] = {}

    def subscribe(self, share_id: str) -> asyncio.Event:
        event = asyncio.Event()
        self._events.setdefault(share_id, set()).add(event)
        return event

    def unsubscribe(self, share_id: str, event: asyncio.Event) -> None:
        events = self._events.get(share_id)
        if events is not None:
            events.discard(event)
            if not events:
                del self._events[share_id]

    def notify(self, share_id: str) -> None:
        for event in self._events.get(share_id, ()):
            event.set()


def watchers(request: Request | WebSocket) -> Watchers:
    state = request.app.state
    found: Watchers | None = getattr(state, "scoresheet_watchers", None)
    if found is None:
        found = Watchers()
        state.scoresheet_watchers = found
    return found


# --- the API ------------------------------------------------------------------------------------


@router.post("/api/scoresheets")
async def create_sheet(request: Request) -> dict[str, Any]:
    """A new sheet: ``{"ruleset", "options", "teams": [name, name], "by"}``; the answer is the
    sheet with its ``id`` (the edit link: keep it) and ``share`` (the players' read-only link)."""
    body = await _body(request)
    if not isinstance(body, dict):
        raise Refused("invalid", "body_object_field", "body")
    editor = await _editor(request, body)
    try:
        service.sheet_settings(body)
    except SheetError as e:
        raise _refused(e) from None
    stored = await hub_of(request).writer.run(lambda c: service.create(c, body, editor))
    return stored.to_json()


@router.get("/api/scoresheets/shared/{share_id}")
async def shared_sheet(share_id: str, request: Request) -> dict[str, Any]:
    """The read-only view of a sheet by its share id (no edit id in it)."""
    stored = await _read(hub_of(request), lambda c: service.load(c, share_id=share_id))
    return stored.to_json(shared=True)


@router.get("/api/scoresheets/{sheet_id}")
async def get_sheet(sheet_id: str, request: Request) -> dict[str, Any]:
    """The whole sheet: rules, teams, every deal with its points and running totals, the end of
    the game and the match score, and the history of edits (who, when, before, after)."""
    stored = await _read(hub_of(request), lambda c: service.load(c, sheet_id))
    return stored.to_json()


async def _put_deal(request: Request, sheet_id: str, number: int | None) -> dict[str, Any]:
    """Add the next deal (``number`` None) or replace deal ``number``; the deal's result."""
    stored = await _read(hub_of(request), lambda c: service.load(c, sheet_id))
    body = await _body(request)
    editor = await _editor(request, body)
    try:
        client_id = service.client_id_of(body) if number is None else None
    except SheetError as e:
        raise _refused(e) from None
    await hub_of(request).tournaments.commands.check_sheet_keeper(sheet_id, editor.player)
    if client_id is not None and (known := stored.number_of(client_id)) is not None:
        return stored.deal_result(known)  # sent again by a page that was offline: already in
    _precheck(stored, body, number)
    at = hub_of(request).now()
    if number is None:
        try:
            after, added = await _write(
                request,
                stored.share_id,
                lambda c: _tars_hook(c, sheet_id, service.add_deal(c, sheet_id, body, editor, client_id), at),
            )
        except (AlreadyIn, IntegrityError):  # the same deal sent twice at once: one is in
            again = await _read(hub_of(request), lambda c: service.load(c, sheet_id))
            known = again.number_of(client_id) if client_id is not None else None
            if known is None:
                raise
            return again.deal_result(known)
        return after.deal_result(added)
    after, _ = await _write(
        request,
        stored.share_id,
        lambda c: _tars_hook(c, sheet_id, service.replace_deal(c, sheet_id, number, body, editor), at),
    )
    return after.deal_result(number)


S = TypeVar("S", StoredSheet, tuple[StoredSheet, int])


def _tars_hook(c: Connection, sheet_id: str, changed: S, at: datetime) -> S:
    """In the edit's transaction: a game of an event's Davtar that ends by tars kapoot bars the
    losing pair as an online table's does (B-55, L-3; :func:`blot.league.record_sheet_outcome`)."""
    from blot import league

    after = changed if isinstance(changed, StoredSheet) else changed[0]
    standing = after.sheet.standing()
    league.record_sheet_outcome(c, sheet_id, standing.winner, standing.tars_kapoot, at)
    return changed


@router.post("/api/scoresheets/{sheet_id}/deals")
async def add_deal(sheet_id: str, request: Request) -> dict[str, Any]:
    """Add the next deal (the entry's JSON, plus an optional ``by`` and the page's own
    ``client_id``: a deal sent again under the same id is answered as the one already in)."""
    return await _put_deal(request, sheet_id, None)


@router.put("/api/scoresheets/{sheet_id}/deals/{number}")
async def replace_deal(sheet_id: str, number: str, request: Request) -> dict[str, Any]:
    """Replace deal ``number`` (from 1); every later total is recomputed."""
    return await _put_deal(request, sheet_id, _deal_number(number))


@router.delete("/api/scoresheets/{sheet_id}/deals/{number}")
async def delete_deal(sheet_id: str, number: str, request: Request) -> dict[str, Any]:
    """Take back the last deal (recorded in the history like any edit)."""
    hub = hub_of(request)
    n = _deal_number(number)
    stored = await _read(hub, lambda c: service.load(c, sheet_id))
    body: Any = {}
    if await request.body():
        body = await _body(request)
    editor = await _editor(request, body)
    await hub.tournaments.commands.check_sheet_keeper(sheet_id, editor.player)
    at = hub.now()
    after = await _write(
        request,
        stored.share_id,
        lambda c: _tars_hook(c, sheet_id, service.delete_last(c, sheet_id, n, editor), at),
    )
    return after.to_json()


# --- the live view ------------------------------------------------------------------------------


@router.websocket("/ws/scoresheets/{share_id}")
async def sheet_socket(ws: WebSocket, share_id: str) -> None:
    """Read-only: ``{"type": "sheet", "sheet": {…}}`` now and after every change; the client may
    only ``ping``. An unknown share id gets an error and the close code 4404."""
    hub = hub_of(ws)
    await ws.accept()
    send_lock = asyncio.Lock()

    async def send(message: dict[str, Any]) -> None:
        async with send_lock:
            await ws.send_text(json.dumps(message))

    try:
        stored = await _read(hub, lambda c: service.load(c, share_id=share_id))
    except Refused as e:
        await send(e.to_json())
        with contextlib.suppress(Exception):
            await ws.close(4404)
        return

    async def listen() -> None:
        """Answer pings; refuse everything else (the link only reads); return when the peer leaves."""
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            data: Any = None
            if isinstance(text, str) and len(text) <= MAX_MESSAGE:
                with contextlib.suppress(Refused):
                    data = loads(text)
            if isinstance(data, dict) and data.get("type") == "ping":
                await send({"type": "pong", "version": shown})
            else:
                await send(Refused("forbidden", "sheet_read_only").to_json())

    registry = watchers(ws)
    event = registry.subscribe(share_id)
    receiver = asyncio.create_task(listen())
    shown: int | None = None
    try:
        while True:
            if stored.version != shown:
                shown = stored.version
                await send({"type": "sheet", "sheet": stored.to_json(shared=True)})
            event.clear()
            waiter = asyncio.create_task(event.wait())
            done, _ = await asyncio.wait(
                {receiver, waiter}, timeout=POLL_SECONDS, return_when=asyncio.FIRST_COMPLETED
            )
            waiter.cancel()
            if receiver in done:
                break
            current = await _read(hub, lambda c: service.version(c, share_id))
            if current is None:
                break
            if current != shown:
                stored = await _read(hub, lambda c: service.load(c, share_id=share_id))
    except (WebSocketDisconnect, RuntimeError, Refused):
        pass
    except Exception:  # the database went away (the server is stopping): end this view quietly
        log.debug("score sheet view %s ended", share_id, exc_info=True)
    finally:
        registry.unsubscribe(share_id, event)
        receiver.cancel()
        with contextlib.suppress(BaseException):
            await receiver
        with contextlib.suppress(Exception):
            await ws.close()
