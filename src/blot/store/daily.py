"""The rows of the day's deals (issue 45): each day's set per game and ruleset (its secret seed,
the seat, the bots' par) and who played it. Only stores: what the day's deals allow is
:mod:`blot.server.daily`. Every function is blocking and takes a SQLAlchemy connection.

A set is made once (``daily_sets``' primary key: two requests racing make one, the second reads
the first's) and a person plays a set once (``daily_plays``' primary key)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import and_, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from blot.store.schema import daily_plays, daily_sets, devices, tables


def _key(table: Any, day: str, game: str, ruleset: str) -> Any:
    return and_(table.c.day == day, table.c.game == game, table.c.ruleset == ruleset)


def the_set(c: Connection, day: str, game: str, ruleset: str) -> dict[str, Any] | None:
    """A day's set of a game and ruleset, if it was made."""
    row = c.execute(select(daily_sets).where(_key(daily_sets, day, game, ruleset))).mappings().first()
    return None if row is None else dict(row)


def make_set(c: Connection, row: Mapping[str, Any]) -> dict[str, Any]:
    """The day's set: ``row`` written unless another request wrote it first (then that one)."""
    found = the_set(c, row["day"], row["game"], row["ruleset"])
    if found is not None:
        return found
    try:
        with c.begin_nested():
            c.execute(insert(daily_sets).values(**row))
    except IntegrityError:
        pass
    made = the_set(c, row["day"], row["game"], row["ruleset"])
    assert made is not None
    return made


def set_par(c: Connection, day: str, game: str, ruleset: str, par: list[dict[str, Any]]) -> None:
    """Keep the bots' result from the player's seat (computed once)."""
    c.execute(update(daily_sets).where(_key(daily_sets, day, game, ruleset)).values(par=par))


def plays(c: Connection, day: str, game: str, ruleset: str) -> list[dict[str, Any]]:
    """Everybody who started the set, first started first."""
    query = (
        select(daily_plays).where(_key(daily_plays, day, game, ruleset)).order_by(daily_plays.c.started_at)
    )
    return [dict(r) for r in c.execute(query).mappings()]


def play_of(c: Connection, day: str, game: str, ruleset: str, player: int) -> dict[str, Any] | None:
    query = select(daily_plays).where(
        _key(daily_plays, day, game, ruleset), daily_plays.c.player_id == player
    )
    row = c.execute(query).mappings().first()
    return None if row is None else dict(row)


def plays_of_player(c: Connection, player: int, day: str | None = None) -> list[dict[str, Any]]:
    """A person's plays, newest day first (of one day with ``day``)."""
    query = select(daily_plays).where(daily_plays.c.player_id == player)
    if day is not None:
        query = query.where(daily_plays.c.day == day)
    return [dict(r) for r in c.execute(query.order_by(daily_plays.c.day.desc())).mappings()]


def insert_play(c: Connection, row: Mapping[str, Any]) -> bool:
    """A person's play of a set; False when they have one already (a request that raced)."""
    try:
        with c.begin_nested():
            c.execute(insert(daily_plays).values(**row))
    except IntegrityError:
        return False
    return True


def finish_play(
    c: Connection, day: str, game: str, ruleset: str, player: int, scores: list[dict[str, Any]], at: datetime
) -> None:
    """A play's table finished: its deals' results, kept."""
    where = and_(_key(daily_plays, day, game, ruleset), daily_plays.c.player_id == player)
    c.execute(update(daily_plays).where(where).values(finished=True, scores=scores, finished_at=at))


def ended(c: Connection, table_id: str, at: datetime) -> None:
    """A table's game ended: when, for the play of a day's set at it (a set finished after its
    day does not count)."""
    where = (daily_plays.c.table_id == table_id) & daily_plays.c.finished_at.is_(None)
    c.execute(update(daily_plays).where(where).values(finished_at=at))


def left_unplayed(c: Connection, today: str) -> set[str]:
    """The tables of sets of days before ``today`` whose game never ended."""
    query = select(daily_plays.c.table_id).where(
        daily_plays.c.day < today, daily_plays.c.finished_at.is_(None)
    )
    return {str(t) for t in c.execute(query).scalars()}


def table_states(c: Connection, ids: list[str]) -> dict[str, dict[str, Any]]:
    """The status and record of each of these tables (the plays' tables)."""
    if not ids:
        return {}
    query = select(tables.c.id, tables.c.status, tables.c.record, tables.c.summary).where(
        tables.c.id.in_(ids)
    )
    return {str(r["id"]): dict(r) for r in c.execute(query).mappings()}


def same_device(c: Connection, day: str, game: str, ruleset: str, player: int, device: str | None) -> bool:
    """Whether another person who used this browser (``device``), or any browser this player used,
    has started the set: two accounts of one device play a day's set once."""
    mine = select(devices.c.device).where(devices.c.player_id == player)
    known = {str(d) for d in c.execute(mine).scalars()}
    if device is not None:
        known.add(device)
    if not known:
        return False
    sharers = select(devices.c.player_id).where(devices.c.device.in_(known), devices.c.player_id != player)
    others = {int(p) for p in c.execute(sharers).scalars()}
    query = select(daily_plays.c.player_id).where(
        _key(daily_plays, day, game, ruleset), daily_plays.c.player_id != player
    )
    rows = c.execute(
        query.where(daily_plays.c.player_id.in_(others) | daily_plays.c.device.in_(known))
    ).first()
    return rows is not None
