"""Tables: the lobby's list, creating a table, seats, bots, the start, and finished records."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from blot.games import SPECS
from blot.server import secrecy
from blot.server.errors import Refused
from blot.server.routes import (
    address,
    bearer,
    body_of,
    check_may_see,
    device,
    finished_table,
    hub_of,
    me,
    viewer_of,
)
from blot.server.table import PLAYING, WAITING, Table

router = APIRouter(prefix="/api", tags=["tables"])


@router.get("/games")
async def games(request: Request) -> dict[str, Any]:
    """The games a table can be made for, with what a client needs to draw each one without
    knowing it (docs/protocol.md): seats, teams, the way play goes round, how long a game lasts,
    rulesets and each one's name by language (its preset's labels), options (defaults and what
    may be chosen), the bot levels (the built-in bots, then
    the bot programs of ``blot serve --bot``) and those that may sit at rated tables, what an
    event may do with it (``duplicate`` rounds, ``score_sheet``: played over the board), and the
    name of the page's module that draws it (``presenter``)."""
    from blot.bots import RATED_LEVELS

    config = hub_of(request).config
    return {
        "games": [
            {
                "game": game.name,
                "title": game.title,
                "presenter": game.package,
                "seats": game.seats,
                "teams": [list(team) for team in game.teams],
                "direction": game.direction,
                "counted_deals": game.counted_deals(),
                "rulesets": list(game.rulesets),
                "ruleset_labels": game.ruleset_labels(),
                "options": game.default_options(),
                "option_fields": game.option_fields(),
                "bots": game.bot_names() + config.levels(game.name),
                "rated_bots": [level for level in RATED_LEVELS if level in game.bots],
                "duplicate": game.duplicate,
                "score_sheet": game.score_sheet,
            }
            for game in SPECS.values()
        ]
    }


@router.get("/tables")
async def open_tables(request: Request) -> dict[str, Any]:
    """Public tables waiting for players or being played that someone seated has open now,
    those with an account seated first, newest first within each (a table everybody left is not
    listed; its link still works; :func:`_lobby`)."""
    hub = hub_of(request)
    present = await hub.registry.present_ids()
    rows = await _lobby(hub, list(present))
    # a duplicate round's table is offered to watch only to those who may (issue 38 item 1)
    viewer = await viewer_of(request)
    secrets = await hub.read(lambda c: secrecy.of_rows(c, rows))
    return {"tables": [_listed(r) for r in rows if secrecy.listed(secrets, r, viewer, live=True)]}


#: Tables without an account seated that the lobby lists at most, after those with one ...
LOBBY_LIMIT: Final = 100
#: ... of which it lists this many at most (issue 38 item 7: an account's table is never pushed
#: out by guests' tables, and by other accounts' only past 500: 25 addresses, IPv6 /64s, with 20
#: waiting tables each and a page open at every one).
ACCOUNT_TABLES_LIMIT: Final = 500
#: Tables asked of the database at once (``present`` is asked for in parts of this many).
_CHUNK: Final = 1000


def _with_account(row: Mapping[str, Any]) -> bool:
    """Whether a signed-in person (an account, not a guest, not a bot) sits at the table."""
    seats = row.get("seats") or []
    return any(
        isinstance(s, dict) and s.get("player") is not None and not s.get("guest") and not s.get("bot")
        for s in seats
    )


async def _lobby(hub: Any, present: list[str]) -> list[dict[str, Any]]:
    """The public tables people are at (``present``): those where an account sits first (at most
    :data:`ACCOUNT_TABLES_LIMIT`), then the others (at most :data:`LOBBY_LIMIT`), newest first
    within each. No number of tables made by guests, from however many addresses, pushes a
    signed-in person's table out of the lobby; and one address (an IPv6 client's whole /64) keeps
    ``waiting_per_address`` tables waiting at most
    (:meth:`blot.server.tables.Tables.check_host_limit`)."""
    rows: list[dict[str, Any]] = []
    for start in range(0, len(present), _CHUNK):
        part = present[start : start + _CHUNK]
        rows += await hub.db(hub.store.listing, [WAITING, PLAYING], _CHUNK, True, part)
    accounts = [r for r in rows if _with_account(r)]
    others = [r for r in rows if not _with_account(r)]
    return accounts[:ACCOUNT_TABLES_LIMIT] + others[:LOBBY_LIMIT]


def _listed(row: dict[str, Any]) -> dict[str, Any]:
    out = {k: row[k] for k in ("id", "game", "settings", "status", "seats", "summary")}
    for key in ("created_at", "finished_at"):
        out[key] = None if row[key] is None else row[key].isoformat()
    return out


@router.post("/tables")
async def create_table(request: Request) -> dict[str, Any]:
    """Create a table (``game``, ``ruleset``, ``options``, ``public``, ``timer``, ``rated``); its
    creator is its host and sits in seat 0."""
    player, name = await me(request)
    body = await body_of(request)
    table = await hub_of(request).registry.create(player, name, body, address(request))
    summary: dict[str, Any] = await table.call(_summary, table)
    return summary


async def _summary(table: Table) -> dict[str, Any]:
    return table.summary()


@router.get("/tables/{table_id}")
async def table_summary(table_id: str, request: Request) -> dict[str, Any]:
    hub = hub_of(request)
    table = await hub.registry.table(table_id)
    found = await hub.accounts.player(bearer(request))
    player = None if found is None else found[0]

    async def summary() -> dict[str, Any]:
        return table.summary(table.at_table(player))

    result: dict[str, Any] = await table.call(summary)
    hub.registry.idle(table_id)  # a finished table loaded only to be read leaves memory again
    return result


async def _command(request: Request, table_id: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
    """Run a player's command on the table's owner (this process or another: any process
    serves any request); it answers the table's summary."""
    player, player_name = await me(request)
    result: dict[str, Any] = await hub_of(request).registry.command(
        table_id, name, {"player": player, "name": player_name, **args}
    )
    return result


@router.post("/tables/{table_id}/sit")
async def sit(table_id: str, request: Request) -> dict[str, Any]:
    """Take an empty seat (``seat``) before the start."""
    body = await body_of(request, required=False)
    return await _command(request, table_id, "sit", {"seat": body.get("seat"), "device": device(request)})


@router.post("/tables/{table_id}/leave")
async def leave(table_id: str, request: Request) -> dict[str, Any]:
    return await _command(request, table_id, "leave", {})


@router.post("/tables/{table_id}/bot")
async def set_bot(table_id: str, request: Request) -> dict[str, Any]:
    """Seat a bot (``level``) in an empty seat, or empty a bot's seat (``level`` null)."""
    body = await body_of(request, required=False)
    return await _command(request, table_id, "bot", {"seat": body.get("seat"), "level": body.get("level")})


@router.post("/tables/{table_id}/fill-bots")
async def fill_bots(table_id: str, request: Request) -> dict[str, Any]:
    """A bot (``level``, default basic) in every empty seat."""
    body = await body_of(request, required=False)
    return await _command(request, table_id, "fill_bots", {"level": body.get("level", "basic")})


@router.post("/tables/{table_id}/start")
async def start(table_id: str, request: Request) -> dict[str, Any]:
    return await _command(request, table_id, "start", {})


@router.post("/tables/{table_id}/end")
async def end_by_agreement(table_id: str, request: Request) -> dict[str, Any]:
    """``{"agree": true}``: agree to end the game now; ``false``: decline (every vote is withdrawn).
    The game ends, not rated, when every person seated agrees (League rulebook §7)."""
    body = await body_of(request)
    return await _command(request, table_id, "end", {"agree": body.get("agree")})


@router.post("/tables/{table_id}/play-for-me")
async def play_for_me(table_id: str, request: Request) -> dict[str, Any]:
    """``{"on": true, "level"}``: a bot of ``level`` plays my seat of a casual game while I step
    away; ``{"on": false}``: I take it back (issue 41 item 6). Refused at a rated table, an
    event's and a day's deals'."""
    body = await body_of(request)
    return await _command(
        request, table_id, "play_for_me", {"on": body.get("on"), "level": body.get("level")}
    )


@router.post("/tables/{table_id}/rematch")
async def rematch(table_id: str, request: Request) -> dict[str, Any]:
    """After the game: a new table with the same settings and seats, started at once (asking
    again answers the same table); a rated game's once every person of it asked (until then the
    answer is the old table with ``rematch_asks``)."""
    return await _command(request, table_id, "rematch", {})


@router.get("/tables/{table_id}/ratings")
async def rating_changes(table_id: str, request: Request) -> dict[str, Any]:
    """How the finished game moved each seat's rating (``seats``: ``seat``, ``player``, ``rated``,
    ``rating`` after the game, ``change``, ``games`` and ``provisional``: issue 41 item 7); 404 until
    the game is over. Private tables answer their players only, as the record does."""
    from blot.ratings import PROVISIONAL_GAMES
    from blot.store import ratings

    hub = hub_of(request)
    row = await finished_table(request, table_id)
    secret = await hub.read(lambda c: secrecy.of_table(c, table_id))
    if secret is not None and not secret.sees_all(await viewer_of(request)):
        raise secrecy.refused()  # the places tell how its secret deals went (issues 38, 45)
    seats = await hub.read(lambda c: ratings.table_results(c, table_id))
    return {
        "rated": bool(row["settings"].get("rated")),
        "seats": seats,
        "provisional_games": PROVISIONAL_GAMES,
    }


@router.post("/tables/{table_id}/resume")
async def resume(table_id: str, request: Request) -> dict[str, Any]:
    """Continue an unfinished game (ended by agreement, League §7) at a new table with the same
    seats, from where it stopped; once every person of the game has asked (until then the answer
    is the old table with ``resume_asks``)."""
    return await _command(request, table_id, "resume", {})


@router.get("/tables/{table_id}/record", response_model=None)
async def record(table_id: str, request: Request, download: bool = False) -> Any:
    """The game's docs/format.md record once the game is over (404 before)."""
    hub = hub_of(request)
    row = await hub.db(hub.store.table, table_id)
    if row is None or row["record"] is None:
        raise Refused("not_found", "no_finished_game")
    await check_may_see(request, row)
    secret = await hub.read(lambda c: secrecy.of_table(c, table_id))
    if secret is not None and not secret.sees_all(await viewer_of(request)):
        raise secrecy.refused()  # a duplicate round's deals, not all played everywhere (issue 38)
    headers = {}
    if download:
        headers["Content-Disposition"] = f'attachment; filename="blot-{table_id}.json"'
    return JSONResponse(row["record"], headers=headers)
