"""League events (docs/protocol.md, "Events"): create, list and read events, entries, rounds,
standings (JSON and CSV), the referees' console and the League's register."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import PlainTextResponse

from blot.numbers import whole_number
from blot.server import secrecy
from blot.server.errors import Refused
from blot.server.routes import bearer, body_of, hub_of, me
from blot.server.tournaments.exports import csv_of

router = APIRouter(prefix="/api", tags=["events"])


async def _viewer(request: Request) -> int | None:
    found = await hub_of(request).accounts.player(bearer(request))
    return None if found is None else found[0]


#: What a path's number that is no number names: the same sentence as a number that names nothing.
_MISSING = {
    "entry": "no_such_entry",
    "table": "no_such_event_table",
    "case": "no_such_case",
    "round": "no_such_round_path",
}


def _number(text: str, what: str) -> int:
    number = whole_number(text, 9)
    if number is None:
        raise Refused("not_found", _MISSING[what])
    return number


@router.post("/events")
async def create_event(request: Request) -> dict[str, Any]:
    """A new event: ``{"name", "game", "format", "rounds", "online", "rated", "public", "ruleset",
    "options", "deals", "deadline", "schedule", "forfeit_seconds", "timer"}``; its creator
    organizes it."""
    player, _ = await me(request)
    return await hub_of(request).tournaments.commands.create(player, await body_of(request))


@router.get("/events")
async def list_events(request: Request) -> dict[str, Any]:
    """Public events and the viewer's own, newest first."""
    return {"events": await hub_of(request).tournaments.views.listing(await _viewer(request))}


@router.get("/events/next")
async def next_games(request: Request) -> dict[str, Any]:
    """The requester's event tables being played ("your table is ready")."""
    found = await hub_of(request).accounts.player(bearer(request))
    if found is None:
        return {"games": []}
    return {"games": await hub_of(request).tournaments.views.next_games(found[0])}


@router.get("/events/{event_id}")
async def get_event(event_id: str, request: Request) -> dict[str, Any]:
    """The event: entries, rounds with their tables and results, standings, cross table."""
    service = hub_of(request).tournaments.views
    viewer = await _viewer(request)
    return await _shown(request, service.to_json(await service.load(event_id), viewer), viewer)


async def _shown(request: Request, data: dict[str, Any], viewer: int | None = None) -> dict[str, Any]:
    """An event's answer as ``viewer`` may see it: what a duplicate round's tables keep secret is
    left out (issue 38 item 1, :mod:`blot.server.secrecy`)."""
    ids = [tb["table"] for r in data.get("rounds") or [] for tb in r.get("tables") or [] if tb.get("table")]
    if data.get("format") == "duplicate" and ids:
        found = await hub_of(request).read(lambda c: secrecy.of_ids(c, ids))
        secrecy.hide_in_event(data, found, viewer)
    return data


@router.get("/events/{event_id}/standings", response_model=None)
async def event_standings(event_id: str, request: Request, format: str = "json") -> Any:
    """The standings (``?format=csv`` for a spreadsheet)."""
    service = hub_of(request).tournaments.views
    if format not in ("csv", "json"):
        raise Refused("malformed", "events_data_format", "format")
    # counted without what a duplicate round keeps secret from the viewer (issue 38 item 1)
    viewer = await _viewer(request)
    data = await _shown(request, service.to_json(await service.load(event_id), viewer), viewer)
    if format == "csv":
        headers = {"Content-Disposition": f'attachment; filename="blot-event-{event_id}.csv"'}
        return PlainTextResponse(csv_of(data), media_type="text/csv; charset=utf-8", headers=headers)
    return {
        "event": data["id"],
        "status": data["status"],
        "standings": data["standings"],
        "cross_table": data["cross_table"],
    }


async def _commanded(
    request: Request, command: str, event_id: str, body: bool = False, entry: str | None = None
) -> dict[str, Any]:
    """A command of the requester on the tournament (:mod:`blot.server.tournaments.commands`)
    with the body sent or the entry named, answered with the tournament as he may see it."""
    player, _ = await me(request)
    args = [await body_of(request)] if body else [_number(entry, "entry")] if entry is not None else []
    data: dict[str, Any] = await getattr(hub_of(request).tournaments.commands, command)(
        player, event_id, *args
    )
    return await _shown(request, data, player)


async def _desk_changed(request: Request, change: str, event_id: str) -> dict[str, Any]:
    """An organizer's change of the event's settings with the body sent (the desk's method
    ``change``, :class:`blot.server.tournaments.desk.EventDesk`), answered as :func:`_commanded` answers."""
    player, _ = await me(request)
    desk = hub_of(request).tournaments.settings
    data: dict[str, Any] = await getattr(desk, change)(player, event_id, await body_of(request))
    return await _shown(request, data, player)


@router.post("/events/{event_id}/entries")
async def enter(event_id: str, request: Request) -> dict[str, Any]:
    """Enter: ``{"usernames": [...]}`` or ``{"bot": "basic"}``."""
    return await _commanded(request, "enter", event_id, body=True)


@router.post("/events/{event_id}/entries/{entry}/confirm")
async def confirm(event_id: str, entry: str, request: Request) -> dict[str, Any]:
    """An account of a pair confirms it (a pair plays once both accounts have)."""
    return await _commanded(request, "confirm", event_id, entry=entry)


@router.delete("/events/{event_id}/entries/{entry}")
async def withdraw(event_id: str, entry: str, request: Request) -> dict[str, Any]:
    return await _commanded(request, "withdraw", event_id, entry=entry)


@router.post("/events/{event_id}/organizers")
async def add_organizer(event_id: str, request: Request) -> dict[str, Any]:
    """``{"username"}``: another organizer of the event."""
    return await _commanded(request, "add_organizer", event_id, body=True)


@router.patch("/events/{event_id}")
async def edit_event(event_id: str, request: Request) -> dict[str, Any]:
    """An organizer edits the event: any field of its creation, and ``rounds_settings`` (issue 42)."""
    return await _desk_changed(request, "edit", event_id)


@router.post("/events/{event_id}/referees")
async def add_referee(event_id: str, request: Request) -> dict[str, Any]:
    """``{"username"}``: a referee of the event, given tables in turn as rounds are paired."""
    return await _desk_changed(request, "add_referee", event_id)


@router.post("/events/{event_id}/forbidden")
async def forbid(event_id: str, request: Request) -> dict[str, Any]:
    """``{"entries": [a, b]}``: two entries that must not meet while avoidable."""
    return await _desk_changed(request, "forbid", event_id)


@router.delete("/events/{event_id}/forbidden/{a}/{b}")
async def allow(event_id: str, a: str, b: str, request: Request) -> dict[str, Any]:
    player, _ = await me(request)
    desk = hub_of(request).tournaments.settings
    data = await desk.allow(player, event_id, _number(a, "entry"), _number(b, "entry"))
    return await _shown(request, data, player)


@router.post("/events/{event_id}/entries/{entry}/byes")
async def request_bye(event_id: str, entry: str, request: Request) -> dict[str, Any]:
    """``{"round": n}``: the entry sits round n out (a requested bye, scoring nothing)."""
    player, _ = await me(request)
    desk = hub_of(request).tournaments.settings
    data = await desk.request_bye(player, event_id, _number(entry, "entry"), await body_of(request))
    return await _shown(request, data, player)


@router.delete("/events/{event_id}/entries/{entry}/byes/{number}")
async def cancel_bye(event_id: str, entry: str, number: str, request: Request) -> dict[str, Any]:
    player, _ = await me(request)
    desk = hub_of(request).tournaments.settings
    body = {"round": _number(number, "round")}
    data = await desk.request_bye(player, event_id, _number(entry, "entry"), body, wanted=False)
    return await _shown(request, data, player)


@router.post("/events/{event_id}/rounds")
async def start_round(event_id: str, request: Request) -> dict[str, Any]:
    """Pair the next round and publish it (issue 42: its tables open at its start);
    ``{"start": true}``: and start it at once."""
    player, _ = await me(request)
    data = await hub_of(request).tournaments.rounds.start_round(
        player, event_id, await body_of(request, required=False)
    )
    return await _shown(request, data, player)


@router.get("/events/{event_id}/rounds/{number}")
async def show_round(event_id: str, number: str, request: Request) -> dict[str, Any]:
    """A round: its status (published, playing, finished), tables, byes and recorded changes."""
    viewer = await _viewer(request)
    data = await hub_of(request).tournaments.desk.show(viewer, event_id, _number(number, "round"))
    shown = await _shown(request, {"format": data.get("format"), "rounds": [data]}, viewer)
    return dict(shown["rounds"][0])


@router.patch("/events/{event_id}/rounds/{number}")
async def change_round(event_id: str, number: str, request: Request) -> dict[str, Any]:
    """While published: ``{"swap": [a, b]}``, ``{"bye": entry, "instead": entry}``, ``{"repair": true}``."""
    player, _ = await me(request)
    desk = hub_of(request).tournaments.desk
    return await desk.change(player, event_id, _number(number, "round"), await body_of(request))


@router.post("/events/{event_id}/rounds/{number}/start")
async def start_published(event_id: str, number: str, request: Request) -> dict[str, Any]:
    """ "Start": the published round's tables open."""
    player, _ = await me(request)
    data = await hub_of(request).tournaments.desk.start(player, event_id, _number(number, "round"))
    return await _shown(request, data, player)


# --- over the board: the referee's console and the courts -------------------------------------------


async def _at_table(
    request: Request, command: str, event_id: str, table: str, shown: bool = False
) -> dict[str, Any]:
    """One of the referees' commands at a table (:class:`blot.server.referees.Referees`) with the
    body sent; ``shown``: its answer is the event's, cut for the requester (:func:`_shown`)."""
    player, _ = await me(request)
    body = await body_of(request)
    run = getattr(hub_of(request).referees, command)
    data: dict[str, Any] = await run(player, event_id, _number(table, "table"), body)
    return await _shown(request, data, player) if shown else data


@router.post("/events/{event_id}/tables/{table}/referee")
async def assign_referee(event_id: str, table: str, request: Request) -> dict[str, Any]:
    """The organizer assigns a table's referee: ``{"username"}`` (null: none)."""
    return await _at_table(request, "assign", event_id, table, shown=True)


@router.get("/events/{event_id}/tables/{table}/console")
async def console(event_id: str, table: str, request: Request) -> dict[str, Any]:
    """The referee's console: the table's sheet id, its announcements, disputes and cases."""
    player, _ = await me(request)
    return await hub_of(request).referees.console(player, event_id, _number(table, "table"))


@router.post("/events/{event_id}/tables/{table}/notes")
async def announce(event_id: str, table: str, request: Request) -> dict[str, Any]:
    """An announcement: ``{"kind": "start" | "players" | "break" | "complaint" | "end" | "winner"
    | "unfinished" | "reopened", "text"}``."""
    return await _at_table(request, "announce", event_id, table)


@router.post("/events/{event_id}/tables/{table}/disputes")
async def dispute(event_id: str, table: str, request: Request) -> dict[str, Any]:
    """A dispute: ``{"claim", "explanation", "ruling", "penalty": {"kind", "team",
    "declaration_points"} | null}`` (the penalty goes on the sheet, B-72)."""
    return await _at_table(request, "dispute", event_id, table)


@router.post("/events/{event_id}/tables/{table}/cases")
async def escalate(event_id: str, table: str, request: Request) -> dict[str, Any]:
    """A question for a court: ``{"court": "sages" | "conduct", "question"}`` (names removed)."""
    return await _at_table(request, "escalate", event_id, table)


@router.post("/events/{event_id}/tables/{table}/cases/{case}/apply")
async def apply_answer(event_id: str, table: str, case: str, request: Request) -> dict[str, Any]:
    """The referee applies a court's answer: ``{"applied"}``."""
    player, _ = await me(request)
    body = await body_of(request)
    referees = hub_of(request).referees
    return await referees.apply(player, event_id, _number(table, "table"), _number(case, "case"), body)


@router.post("/events/{event_id}/tables/{table}/conflict")
async def conflict(event_id: str, table: str, request: Request) -> dict[str, Any]:
    """A player at the table raises a conflict of interest: ``{"reason"}``; the referee steps down."""
    return await _at_table(request, "conflict", event_id, table, shown=True)


@router.post("/events/{event_id}/tables/{table}/step_down")
async def step_down(event_id: str, table: str, request: Request) -> dict[str, Any]:
    """The referee steps down on his own: ``{"reason"}`` (optional); never assigned here again."""
    return await _at_table(request, "step_down", event_id, table, shown=True)


@router.post("/events/{event_id}/tables/{table}/pause")
async def pause(event_id: str, table: str, request: Request) -> dict[str, Any]:
    """The referee of an online table pauses its game or resumes it: ``{"paused": true | false}``."""
    return await _at_table(request, "pause", event_id, table)


@router.get("/courts")
async def my_courts(request: Request) -> dict[str, Any]:
    """The courts the requester sits on (the court page lists their cases), and whether the
    requester may open the fair-play view (a Court of Conduct member or an administrator)."""
    player, _ = await me(request)
    hub = hub_of(request)
    fairplay = await request.app.state.fairplay.allowed(player)
    return {**await hub.referees.courts(player), "fairplay": fairplay}


@router.get("/courts/{court}/cases")
async def court_cases(court: str, request: Request) -> dict[str, Any]:
    """A court's cases, for its members only: each question and answer, without who or where."""
    player, _ = await me(request)
    return await hub_of(request).referees.court_cases(player, court)


@router.post("/cases/{case}/answer")
async def answer_case(case: str, request: Request) -> dict[str, Any]:
    player, _ = await me(request)
    body = await body_of(request)
    return await hub_of(request).referees.answer(player, _number(case, "case"), body)


@router.get("/register")
async def register(request: Request) -> dict[str, Any]:
    """The League's register: tars kapoot bans and the Court of Conduct's published decisions
    (dishonours with their kind, penance and published names, forgiven ones marked: L-10)."""
    from blot import league
    from blot.server import conduct

    hub = hub_of(request)
    now = hub.now()
    bans = await hub.read(lambda c: league.register(c, now))
    today = now.date().isoformat()
    return {"bans": bans, "decisions": await hub.read(lambda c: conduct.published(c, today))}
