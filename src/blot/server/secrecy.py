"""Which deals of a table a person may see, and when (issue 38 item 1; DESIGN.md, *Secrets and
fairness*). This is the one rule; every route that could reveal a table's cards asks it: the
websocket (a spectator joining, and one already watching), the record, the replay, the
analysis (and so each seat's accuracy and the puzzles mined from the game), the lobby's list and
the list of finished games.

Some tables deal the same cards as other tables: the tables of a duplicate round of an event
(issue 25; the table's settings name the ``event`` and its round and hold ``boards``, how many
deals the round has). Those tables are a *group* (:func:`group_key`: any later feature that deals
the same cards at several tables, such as issue 45's deals of the day, adds its own kind of group
there and nothing else). For a table of a group:

- Deal k of it is *open* once every table of the group has finished deal k; everybody may see
  the open deals, as at any public table.
- The event's organizers and referees who play at no table of the round see everything at once
  (they run the event and settle its disputes).
- A person seated at the table sees the deals the table has finished (they played them).
- Nobody else may watch it live (a spectator's socket) until every deal of the round is open: a
  spectator who saw one card of the deal being played there would see a deal that another table
  may not have finished yet. Records, replays and analyses open deal by deal (the replay) or when
  the whole round is open (the record and the analysis, which cover every deal).

A deal counts as finished at a table once the table has dealt the next deal or its game is over
(its round's deals played, or a forfeit); a game ended by agreement (League §7) has finished the
deals its record holds. A table of the round not opened yet has finished none.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from blot.server.errors import Refused
from blot.store.schema import daily_plays, event_members, event_organizers, event_tables, table_log, tables

#: How often a socket watching a secret table is looked at again (its watcher may lose the right).
RECHECK_SECONDS = 2.0

#: The server's clock (``ServerConfig.clock``; :func:`use_clock`): a day's deals open when it
#: passes the day's end.
_clock: Callable[[], float] = time.time


def use_clock(clock: Callable[[], float]) -> None:
    """Read the server's clock (the app sets it at its start; tests move it)."""
    global _clock
    _clock = clock


def refused() -> Refused:
    """The refusal of a secret deal, as every route gives it."""
    return Refused("forbidden", "deals_secret")


#: The one sentence of every refusal of a table's secret deals.
SECRET = refused().message


@dataclass(frozen=True)
class Secret:
    """A table whose deals other tables deal too, as it stands now."""

    table_id: str
    #: The deals every table of the group plays.
    deals: int
    #: Deals 1..opened are finished at every table of the group: open to everybody.
    opened: int
    #: The deals this table has finished.
    finished: int
    #: The persons seated at this table.
    seated: frozenset[int]
    #: The event's organizers and referees who play at no table of the group.
    exempt: frozenset[int]
    #: A day's deals (issue 45): how many deals each person who played the day's set at their own
    #: table has finished there (they may see those deals at every table of the set).
    known: Mapping[int, int] = field(default_factory=dict)

    @property
    def over(self) -> bool:
        """Every deal of the group is open: nothing is secret any more."""
        return self.opened >= self.deals

    def visible(self, viewer: int | None) -> int:
        """How many of the table's deals, from the first, ``viewer`` may see now."""
        if self.over or viewer in self.exempt:
            return self.deals
        seen = self.opened
        if viewer is not None and viewer in self.seated:
            seen = max(seen, self.finished)
        if viewer is not None:
            seen = max(seen, min(self.deals, self.known.get(viewer, 0)))
        return seen

    def sees_all(self, viewer: int | None) -> bool:
        """Whether ``viewer`` may see every deal (the record, the analysis)."""
        return self.visible(viewer) >= self.deals

    def may_watch(self, viewer: int | None) -> bool:
        """Whether ``viewer`` may have the table's socket open now (as a spectator or seated)."""
        if self.over or viewer in self.exempt or (viewer is not None and viewer in self.seated):
            return True
        return viewer is not None and self.known.get(viewer, 0) >= self.deals


def group_key(settings: Mapping[str, Any] | None) -> tuple[str, int, int] | None:
    """The group of tables that deal a table's deals too, from the table's settings: an event's
    duplicate round as (event, round, deals); None for a table whose deals are its own."""
    if not isinstance(settings, Mapping):
        return None
    event, boards = settings.get("event"), settings.get("boards")
    if not isinstance(event, Mapping) or not isinstance(boards, int) or isinstance(boards, bool):
        return None
    try:
        return str(event["id"]), int(event["round"]), boards
    except (KeyError, TypeError, ValueError):
        return None


def daily_key(settings: Mapping[str, Any] | None) -> tuple[str, str, str, int, float, bool] | None:
    """The day's set a table plays (issue 45): (day, game, ruleset, deals, when the day ends,
    whether it holds spare deals); None for any other table."""
    daily = settings.get("daily") if isinstance(settings, Mapping) else None
    if not isinstance(daily, Mapping):
        return None
    try:
        day, game, ruleset = str(daily["day"]), str(daily["game"]), str(daily["ruleset"])
        return day, game, ruleset, int(daily["deals"]), float(daily["ends"]), bool(daily.get("spares"))
    except (KeyError, TypeError, ValueError):
        return None


def shares_deals(settings: Mapping[str, Any] | None) -> bool:
    """Whether a table with these settings deals what other tables deal (cheap: no database)."""
    return group_key(settings) is not None or daily_key(settings) is not None


def _daily(c: Connection, key: tuple[str, str, str, int, float, bool]) -> dict[int, int]:
    """How many deals of a day's set each person who plays it has finished at their table (a
    game of counted deals may have dealt a passed-out deal again: one less is counted, never
    more)."""
    day, game, ruleset, deals, _ends, spares = key
    where = (daily_plays.c.day == day) & (daily_plays.c.game == game) & (daily_plays.c.ruleset == ruleset)
    plays = c.execute(select(daily_plays.c.player_id, daily_plays.c.table_id).where(where)).all()
    ids = [str(p.table_id) for p in plays]
    status = {
        str(r.id): str(r.status)
        for r in c.execute(select(tables.c.id, tables.c.status).where(tables.c.id.in_(ids)))
    }
    dealt = _dealt(c, ids)
    known = {}
    for p in plays:
        table_id = str(p.table_id)
        if status.get(table_id) == "finished":
            known[int(p.player_id)] = deals
        else:
            known[int(p.player_id)] = max(0, dealt.get(table_id, 0) - 1 - (1 if spares else 0))
    return known


def _of_daily(
    c: Connection, row: Mapping[str, Any], key: tuple[str, str, str, int, float, bool], known: dict[int, int]
) -> Secret:
    """The secret of a day's table: deal k opens to whoever finished their own deal k, and to
    everybody once the day is over; nobody is exempt."""
    deals, over = key[3], _clock() >= key[4]
    seated = frozenset(_players(row.get("seats")))
    own = deals if row.get("status") == "finished" else max((known.get(p, 0) for p in seated), default=0)
    return Secret(str(row["id"]), deals, deals if over else 0, own, seated, frozenset(), known)


def _players(seats: Any) -> set[int]:
    return {int(s["player"]) for s in seats or [] if isinstance(s, Mapping) and s.get("player") is not None}


def _finished(row: Mapping[str, Any], dealt: int, deals: int) -> int:
    """How many deals a table (its row) has finished, ``dealt`` the deals its log holds."""
    if row["status"] == "finished":
        summary = row.get("summary") or {}
        if summary.get("ended") == "agreement":  # unfinished (L-2): the deals its record holds
            record = row.get("record") or {}
            return min(deals, len(record.get("deals") or []))
        return deals  # the round's deals played, or a forfeit: it plays no more of them
    return max(0, dealt - 1)


def _group(
    c: Connection, event_id: str, number: int, deals: int
) -> tuple[int, dict[str, int], frozenset[int]]:
    """A duplicate round as it stands: the deals open to all, each of its tables' finished deals,
    and who is exempt (organizers and referees who play at no table of the round)."""
    t = event_tables.c
    places = c.execute(select(t.table_id, t.entries, t.referee).where(t.event_id == event_id)).all()
    in_round = c.execute(select(t.table_id, t.entries).where(t.event_id == event_id, t.round == number)).all()
    ids = [str(r.table_id) for r in in_round if r.table_id is not None]
    rows = {}
    if ids:
        query = select(tables.c.id, tables.c.status, tables.c.seats, tables.c.summary).where(
            tables.c.id.in_(ids)
        )
        rows = {str(r.id): dict(r) for r in c.execute(query).mappings()}
    dealt = _dealt(c, ids)
    finished: dict[str, int] = {}
    for table_id, row in rows.items():
        if row["status"] == "finished" and (row.get("summary") or {}).get("ended") == "agreement":
            row["record"] = c.execute(select(tables.c.record).where(tables.c.id == table_id)).scalar_one()
        finished[table_id] = _finished(row, dealt.get(table_id, 0), deals)
    opened = 0 if len(finished) < len(in_round) else min(finished.values(), default=0)
    entries = [int(e) for r in in_round for e in r.entries or []]
    playing = {
        int(p)
        for p in c.execute(
            select(event_members.c.player_id).where(event_members.c.entry_id.in_(entries))
        ).scalars()
    }
    for row in rows.values():
        playing |= _players(row["seats"])
    organizers = c.execute(
        select(event_organizers.c.player_id).where(event_organizers.c.event_id == event_id)
    ).scalars()
    runners = {int(p) for p in organizers} | {int(r.referee) for r in places if r.referee is not None}
    return opened, finished, frozenset(runners - playing)


def _dealt(c: Connection, ids: Iterable[str]) -> dict[str, int]:
    """How many deals each table's log holds."""
    wanted = list(ids)
    if not wanted:
        return {}
    query = (
        select(table_log.c.table_id, func.count())
        .where(table_log.c.table_id.in_(wanted), table_log.c.kind == "deal")
        .group_by(table_log.c.table_id)
    )
    return {str(r[0]): int(r[1]) for r in c.execute(query)}


def of_rows(c: Connection, found: Iterable[Mapping[str, Any]]) -> dict[str, Secret]:
    """The secret of each of these tables (rows with ``id``, ``settings``, ``status``, ``seats``,
    ``summary``) that deals what other tables deal; the others are left out."""
    groups: dict[tuple[str, int, int], tuple[int, dict[str, int], frozenset[int]]] = {}
    days: dict[tuple[str, str, str, int, float, bool], dict[int, int]] = {}
    out: dict[str, Secret] = {}
    for row in found:
        day = daily_key(row.get("settings"))
        if day is not None:
            if day not in days:
                days[day] = _daily(c, day)
            out[str(row["id"])] = _of_daily(c, row, day, days[day])
            continue
        key = group_key(row.get("settings"))
        if key is None:
            continue
        if key not in groups:
            groups[key] = _group(c, *key)
        opened, finished, exempt = groups[key]
        table_id = str(row["id"])
        if table_id in finished:
            own = finished[table_id]
        else:  # not the round's table now (an unfinished game continued elsewhere): its own row
            full = dict(row)
            if "record" not in full:
                full["record"] = c.execute(
                    select(tables.c.record).where(tables.c.id == table_id)
                ).scalar_one()
            own = _finished(full, _dealt(c, [table_id]).get(table_id, 0), key[2])
        out[table_id] = Secret(
            table_id, key[2], min(opened, key[2]), own, frozenset(_players(row.get("seats"))), exempt
        )
    return out


def of_table(c: Connection, table_id: str) -> Secret | None:
    """The secret of one table; None when its deals are its own (or there is no such table)."""
    query = select(tables.c.id, tables.c.settings, tables.c.status, tables.c.seats, tables.c.summary)
    row = c.execute(query.where(tables.c.id == table_id)).mappings().first()
    if row is None:
        return None
    return of_rows(c, [dict(row)]).get(table_id)


def listed(found: Mapping[str, Secret], row: Mapping[str, Any], viewer: int | None, live: bool) -> bool:
    """Whether a table is listed for ``viewer``: the lobby (``live``) lists a table of a group only
    to those who may watch it; the finished games, only to those who may see all its deals."""
    secret = found.get(str(row["id"]))
    if secret is None:
        return True
    return secret.may_watch(viewer) if live else secret.sees_all(viewer)


def of_ids(c: Connection, ids: Iterable[str]) -> dict[str, Secret]:
    """The secret of each of these tables (by id) that deals what other tables deal."""
    wanted = list(ids)
    if not wanted:
        return {}
    query = select(tables.c.id, tables.c.settings, tables.c.status, tables.c.seats, tables.c.summary)
    return of_rows(c, [dict(r) for r in c.execute(query.where(tables.c.id.in_(wanted))).mappings()])


def hide_in_event(data: dict[str, Any], found: Mapping[str, Secret], viewer: int | None) -> None:
    """An event's answer as ``viewer`` may see it: a table of a duplicate round that is secret to
    them says so (``secret``: the page offers no Watch and no replay) and gives no result, no
    points per deal (``boards``) nor totals (``score``), which would tell how its deals went; the
    standings and the cross table are counted without them."""
    hidden = False
    for r in data.get("rounds") or []:
        for tb in r.get("tables") or []:
            secret = found.get(str(tb.get("table")))
            if secret is None:
                tb["secret"] = False
                continue
            live = tb.get("status") == "playing"
            tb["secret"] = not (secret.may_watch(viewer) if live else secret.sees_all(viewer))
            if not secret.sees_all(viewer) and tb.get("result") is not None:
                tb["boards"], tb["score"], tb["result"] = [], None, None
                hidden = True
    if hidden:  # the standings and the cross table without what is hidden
        from blot.tournaments.standings import cross_table, export_parts, standings

        confirmed = {**data, "entries": [e for e in data.get("entries") or [] if e.get("confirmed", True)]}
        entrants, rounds, fmt = export_parts(confirmed)
        data["standings"] = [s.to_json() for s in standings(entrants, rounds, fmt)]
        data["cross_table"] = {
            str(k): {str(o): v for o, v in row.items()} for k, row in cross_table(entrants, rounds).items()
        }


def hide_in_games(games: list[dict[str, Any]], found: Mapping[str, Secret], viewer: int | None) -> None:
    """A profile's recent games as ``viewer`` may see them: a duplicate round's game whose deals are
    not all open to them gives no place, score or accuracy (they would tell how its deals went)."""
    for game in games:
        secret = found.get(str(game.get("table")))
        if secret is not None and not secret.sees_all(viewer):
            game.update(place=None, match_score=None, totals=None, accuracy=None, secret=True)
