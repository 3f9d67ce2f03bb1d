"""Puzzles mined from finished games (issue 28; ``docs/protocol.md``, "Puzzles"): the next one
for a player, one by id, the puzzle of the day, and an attempt that rates both the solver and the
puzzle (:mod:`blot.store.puzzles`)."""

from __future__ import annotations

from collections import OrderedDict
from datetime import UTC, date
from random import SystemRandom
from typing import Any, Final

from fastapi import APIRouter, Request

from blot.errors import BlotError
from blot.games import names, spec
from blot.server.errors import Refused
from blot.server.routes import address, bearer, body_of, hub_of
from blot.store import puzzles as store

router = APIRouter(prefix="/api/puzzles", tags=["puzzles"])

NO_PUZZLE = "no_such_puzzle"
#: Positions a server remembers (by puzzle id): a puzzle's position is replayed from its record once.
SHOWN_LIMIT: Final = 512
_RANDOM = SystemRandom()


def _game(name: str) -> str:
    try:
        return spec(name or names()[0]).name
    except BlotError as e:
        raise Refused.of(e) from None


def _public(request: Request, row: Any) -> dict[str, Any]:
    """The puzzle to solve (its position replayed once, then remembered by this server)."""
    from blot.puzzles import shown

    remembered: OrderedDict[int, dict[str, Any]] | None = getattr(request.app.state, "puzzle_positions", None)
    if remembered is None:
        remembered = request.app.state.puzzle_positions = OrderedDict()
    key = int(row.id)
    position = remembered.get(key)
    if position is None:
        position = shown(row.record, int(row.deal), int(row.after), int(row.seat))
        remembered[key] = position
        if len(remembered) > SHOWN_LIMIT:
            remembered.popitem(last=False)
    else:
        remembered.move_to_end(key)
    return store.public(row, position)


async def _me(request: Request) -> tuple[int | None, bool]:
    """The player asking (None: nobody) and whether it is an account (only accounts are rated)."""
    who = await hub_of(request).accounts.who(bearer(request))
    return (None, False) if who is None else (who.id, who.username is not None)


async def _answer(request: Request, row: Any) -> dict[str, Any]:
    if row is None:
        raise Refused("not_found", NO_PUZZLE)
    player, account = await _me(request)
    out = _public(request, row)
    mine = None
    if account and player is not None:
        found = await hub_of(request).read(lambda c: store.rating(c, player, row.game))
        mine = store.rating_json(found)
    out["you"] = {"rated": account, "rating": mine}
    return out


@router.get("/next")
async def next_puzzle(request: Request, game: str = "") -> dict[str, Any]:
    """The puzzle of ``game`` nearest the player's puzzle rating that the player has not tried
    (404 when there is none left)."""
    name = _game(game)
    player, _ = await _me(request)
    row = await hub_of(request).read(lambda c: store.next_for(c, name, player, _RANDOM))
    if row is None:
        raise Refused("not_found", "no_puzzle_left")
    return await _answer(request, row)


@router.get("/daily")
async def daily(request: Request, game: str = "") -> dict[str, Any] | None:
    """The puzzle of the day (UTC) of ``game``, the same for everybody all day (404 when the game
    has none yet); without ``game``, that of the first game of the registry that has one, or
    ``null`` while no game has any (the lobby asks so, and is not answered an error)."""
    hub = hub_of(request)
    today: date = hub.now().astimezone(UTC).date()
    for name in [_game(game)] if game else names():
        row = await hub.read(lambda c: store.daily(c, name, today))  # noqa: B023 (awaited here)
        if row is not None:
            return await _answer(request, row)
    if game:
        raise Refused("not_found", NO_PUZZLE)
    return None


@router.get("/{puzzle_id}")
async def one(puzzle_id: int, request: Request) -> dict[str, Any]:
    row = await hub_of(request).read(lambda c: store.get(c, puzzle_id))
    return await _answer(request, row)


@router.post("/{puzzle_id}/attempt")
async def attempt(puzzle_id: int, request: Request) -> dict[str, Any]:
    """Play a card at the puzzle: right or wrong; to an account, every legal card's value and
    the best ones (without one, no more than right or wrong: the answer could then be played by
    an account, rated); and the ratings it moved (an account's first attempt only; the puzzle's
    only by an established account, :func:`blot.store.puzzles.established`)."""
    from blot.cards import parse_card

    body = await body_of(request)
    card = body.get("card")
    if not isinstance(card, str) or not card:
        raise Refused("malformed", "puzzle_which_card")
    try:
        text = parse_card(card).text
    except BlotError:
        raise Refused("malformed", "puzzle_not_card", text=repr(card[:8])) from None
    hub = hub_of(request)
    player, account = await _me(request)
    at = hub.now()

    def play(c: Any) -> dict[str, Any]:
        row = store.get(c, puzzle_id)
        if row is None:
            raise Refused("not_found", NO_PUZZLE)
        if text not in row.values:
            legal = ", ".join(row.values)
            raise Refused("illegal", "puzzle_card_not_legal", card=text, cards=legal)
        return store.attempt(c, row, text, player, account, at)

    answer = await hub.write(play)
    if not account:
        # without an account one card per puzzle is answered: a guest's first attempt, and from
        # one address (an IPv6 /64) without a token one a day; else every card could be tried,
        # the best learnt and then played by an account, rated (issue 38 item 7)
        again = (
            not answer["first"]
            if player is not None
            else not await hub.limits.puzzle(address(request), puzzle_id)
        )
        if again:
            raise Refused(
                "conflict",
                "puzzle_once",
            )
    return answer
