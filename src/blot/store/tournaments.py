"""The rows of League tournaments (``blot.store``; the tables are named ``events``,
``event_entries``, …): tournaments, organizers, entries and their accounts, rounds, the tables of
a round and the referees' notes (the courts' rows are :mod:`blot.store.courts`). Only stores:
what a tournament allows is :mod:`blot.server.tournaments`, pairing and standings are
:mod:`blot.tournaments`. Every function is blocking and takes a SQLAlchemy connection.

What two requests could race is made safe here by the database: a change of entries or rounds
locks the tournament's row (:func:`lock`) and checks what it was decided on; an account is in a
tournament once (``event_members``' primary key), a round is started once (``event_rounds``'
primary key), a table of a round is opened once (:func:`link_table` updates only a row that has
no table yet), a court answers a case once (:func:`answer_case` updates only an unanswered one).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import and_, delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection

from blot.store.schema import (
    event_entries,
    event_members,
    event_notes,
    event_organizers,
    event_recusals,
    event_rounds,
    event_tables,
    events,
    players,
    results,
    tables,
)


def insert_event(c: Connection, row: Mapping[str, Any], organizer: int) -> None:
    c.execute(insert(events).values(**row))
    c.execute(insert(event_organizers).values(event_id=row["id"], player_id=organizer))


def add_organizer(c: Connection, event_id: str, player: int) -> bool:
    """Make ``player`` an organizer of the tournament; False when they already are one."""
    found = c.execute(
        select(event_organizers.c.player_id).where(
            event_organizers.c.event_id == event_id, event_organizers.c.player_id == player
        )
    ).first()
    if found is not None:
        return False
    c.execute(insert(event_organizers).values(event_id=event_id, player_id=player))
    return True


def event_row(c: Connection, event_id: str) -> dict[str, Any] | None:
    row = c.execute(select(events).where(events.c.id == event_id)).mappings().first()
    return None if row is None else dict(row)


def organizers(c: Connection, event_id: str) -> list[int]:
    rows = c.execute(select(event_organizers.c.player_id).where(event_organizers.c.event_id == event_id))
    return [int(r.player_id) for r in rows]


def lock(c: Connection, event_id: str) -> int:
    """Lock the tournament's row until the transaction ends (PostgreSQL: ``FOR UPDATE``; SQLite's
    one writer runs one transaction at a time) and answer its number of rounds: a change decided
    on what was read before checks that nothing it depends on moved meanwhile."""
    c.execute(select(events.c.id).where(events.c.id == event_id).with_for_update())
    count = select(func.count()).select_from(event_rounds).where(event_rounds.c.event_id == event_id)
    return int(c.execute(count).scalar_one())


def touch(c: Connection, event_id: str, at: datetime) -> None:
    c.execute(update(events).where(events.c.id == event_id).values(updated_at=at))


def start(c: Connection, event_id: str, settings: Mapping[str, Any], at: datetime) -> None:
    """A round has started: the tournament runs (its settings now hold a round robin's field)."""
    c.execute(
        update(events)
        .where(events.c.id == event_id)
        .values(settings=dict(settings), status="running", updated_at=at)
    )


def set_settings(c: Connection, event_id: str, settings: Mapping[str, Any], at: datetime, **row: Any) -> None:
    """The tournament's settings (and ``name``, ``public``) as the organizer edited them (issue 42);
    the caller holds the lock (:func:`lock`) since it read them."""
    c.execute(
        update(events).where(events.c.id == event_id).values(settings=dict(settings), updated_at=at, **row)
    )


def set_status(c: Connection, event_id: str, status: str) -> None:
    """The tournament's status as last computed (:mod:`blot.server.tournaments`), for the listing."""
    c.execute(update(events).where(events.c.id == event_id, events.c.status != status).values(status=status))


def unfinished_events(c: Connection, limit: int = 500) -> list[str]:
    """Events running or with a schedule, not finished, oldest change first: the sweep starts
    their scheduled rounds and notes when they finish."""
    e = events.c
    query = select(e.id, e.status, e.settings).where(e.status != "finished").order_by(e.updated_at)
    found = c.execute(query.limit(limit))
    return [str(r.id) for r in found if r.status == "running" or r.settings.get("schedule")]


def listing(c: Connection, viewer: int | None, limit: int = 100) -> list[dict[str, Any]]:
    """Public events and the viewer's own (entered or organized), newest first."""
    mine = select(event_members.c.event_id).where(event_members.c.player_id == viewer)
    run = select(event_organizers.c.event_id).where(event_organizers.c.player_id == viewer)
    query = select(events).where(or_(events.c.public.is_(True), events.c.id.in_(mine), events.c.id.in_(run)))
    rows = c.execute(query.order_by(events.c.updated_at.desc()).limit(limit)).mappings()
    return [dict(r) for r in rows]


# --- entries --------------------------------------------------------------------------------------


def insert_entry(c: Connection, event_id: str, name: str, bot: str | None, late: bool, at: datetime) -> int:
    result = c.execute(
        insert(event_entries).values(event_id=event_id, name=name, bot=bot, late=late, created_at=at)
    )
    key = result.inserted_primary_key
    assert key is not None
    return int(key[0])


def insert_member(
    c: Connection, event_id: str, player: int, entry: int, position: int, confirmed: bool
) -> None:
    """An account of an entry (an IntegrityError when the account is in the tournament already)."""
    c.execute(
        insert(event_members).values(
            event_id=event_id, player_id=player, entry_id=entry, position=position, confirmed=confirmed
        )
    )


def confirm(c: Connection, event_id: str, entry: int, player: int) -> bool:
    """The account confirms its place in the entry; False when it is not in it."""
    done = c.execute(
        update(event_members)
        .where(
            event_members.c.event_id == event_id,
            event_members.c.entry_id == entry,
            event_members.c.player_id == player,
        )
        .values(confirmed=True)
    )
    return bool(done.rowcount)


def withdraw(c: Connection, entry: int, at: datetime) -> bool:
    """Withdraw an entry (once: False when it was withdrawn already)."""
    done = c.execute(
        update(event_entries)
        .where(event_entries.c.id == entry, event_entries.c.withdrawn_at.is_(None))
        .values(withdrawn_at=at)
    )
    return bool(done.rowcount)


def delete_unconfirmed(c: Connection, entry: int) -> None:
    """An entry withdrawn before it was confirmed leaves no trace (its accounts may enter again)."""
    c.execute(delete(event_members).where(event_members.c.entry_id == entry))
    c.execute(delete(event_entries).where(event_entries.c.id == entry))


def entries(c: Connection, event_id: str) -> list[dict[str, Any]]:
    """The tournament's entries in registration order, each with its accounts (``members``: player,
    name, position, confirmed)."""
    rows = [
        dict(r)
        for r in c.execute(
            select(event_entries).where(event_entries.c.event_id == event_id).order_by(event_entries.c.id)
        ).mappings()
    ]
    members = c.execute(
        select(
            event_members.c.entry_id,
            event_members.c.player_id,
            event_members.c.position,
            event_members.c.confirmed,
            players.c.username,
            players.c.name,
        )
        .join(players, players.c.id == event_members.c.player_id)
        .where(event_members.c.event_id == event_id)
        .order_by(event_members.c.entry_id, event_members.c.position)
    ).all()
    by_entry: dict[int, list[dict[str, Any]]] = {}
    for m in members:
        by_entry.setdefault(int(m.entry_id), []).append(
            {
                "player": int(m.player_id),
                "name": str(m.username or m.name),
                "position": int(m.position),
                "confirmed": bool(m.confirmed),
            }
        )
    for row in rows:
        row["members"] = by_entry.get(int(row["id"]), [])
    return rows


# --- rounds and their tables ----------------------------------------------------------------------


def insert_round(
    c: Connection,
    event_id: str,
    number: int,
    byes: Sequence[int],
    boards: Any,
    at: datetime,
    status: str = "playing",
    absent: Sequence[int] = (),
) -> None:
    """The round's row (an IntegrityError when it exists: a round is paired once), ``published``
    (its tables wait for the organizer's start, issue 42) or ``playing``."""
    c.execute(
        insert(event_rounds).values(
            event_id=event_id,
            number=number,
            byes=list(byes),
            boards=boards,
            started_at=at,
            status=status,
            absent=list(absent),
            changes=[],
        )
    )


class ChangedMeanwhile(Exception):
    """A published round changed between its reading and a correction decided on it."""


def start_published(c: Connection, event_id: str, number: int, at: datetime) -> bool:
    """A published round starts (once: False when it was not published): its tables open."""
    r = event_rounds.c
    done = c.execute(
        update(event_rounds)
        .where(r.event_id == event_id, r.number == number, r.status == "published")
        .values(status="playing", started_at=at)
    )
    return bool(done.rowcount)


def repair_round(
    c: Connection,
    event_id: str,
    number: int,
    tables: Sequence[Sequence[int]],
    byes: Sequence[int],
    change: Mapping[str, Any],
    before: Sequence[Sequence[int]] | None = None,
) -> bool:
    """A published round's tables and byes corrected (a swap, a bye moved, a new pairing), the
    change appended to its record; False when the round is no longer published. Table rows are
    kept by number (a referee assigned stays with his table); extra rows are added, spare ones
    removed."""
    r = event_rounds.c
    found = c.execute(
        select(r.changes).where(r.event_id == event_id, r.number == number, r.status == "published")
    ).first()
    if found is None:
        return False
    t = event_tables.c
    if before is not None:  # corrected on what was read: another organizer's change came first
        now = c.execute(select(t.entries).where(t.event_id == event_id, t.round == number).order_by(t.number))
        if [list(x.entries) for x in now] != [list(b) for b in before]:
            raise ChangedMeanwhile()
    c.execute(
        update(event_rounds)
        .where(r.event_id == event_id, r.number == number)
        .values(byes=list(byes), changes=[*(found.changes or []), dict(change)])
    )
    rows = {
        int(x.number): int(x.id)
        for x in c.execute(select(t.id, t.number).where(t.event_id == event_id, t.round == number))
    }
    for index, table in enumerate(tables, 1):
        if index in rows:
            c.execute(update(event_tables).where(t.id == rows[index]).values(entries=list(table)))
        else:
            insert_table(c, {"event_id": event_id, "round": number, "number": index, "entries": list(table)})
    spare = [row for n, row in rows.items() if n > len(tables)]
    if spare:
        c.execute(delete(event_recusals).where(event_recusals.c.event_table.in_(spare)))
        c.execute(delete(event_tables).where(t.id.in_(spare)))
    return True


def rounds(c: Connection, event_id: str) -> list[dict[str, Any]]:
    query = select(event_rounds).where(event_rounds.c.event_id == event_id).order_by(event_rounds.c.number)
    return [dict(r) for r in c.execute(query).mappings()]


def insert_table(c: Connection, row: Mapping[str, Any]) -> int:
    result = c.execute(insert(event_tables).values(**row))
    key = result.inserted_primary_key
    assert key is not None
    return int(key[0])


def round_tables(c: Connection, event_id: str) -> list[dict[str, Any]]:
    """Every table of the tournament, with what the games' stored results say: the online table's
    status, summary and the place of each seat (``places``), or the score sheet's id."""
    t = event_tables.c
    rows = [
        dict(r)
        for r in c.execute(
            select(
                event_tables,
                tables.c.status.label("table_status"),
                tables.c.summary.label("table_summary"),
            )
            .outerjoin(tables, tables.c.id == t.table_id)
            .where(t.event_id == event_id)
            .order_by(t.round, t.number)
        ).mappings()
    ]
    ids = [r["table_id"] for r in rows if r["table_id"] is not None and r["table_status"] == "finished"]
    places: dict[str, dict[int, int | None]] = {}
    for chunk in range(0, len(ids), 500):
        for r in c.execute(
            select(results.c.table_id, results.c.seat, results.c.place).where(
                results.c.table_id.in_(ids[chunk : chunk + 500])
            )
        ):
            places.setdefault(str(r.table_id), {})[int(r.seat)] = r.place
    for row in rows:
        row["places"] = places.get(row["table_id"] or "", {})
    return rows


def event_table(c: Connection, row_id: int) -> dict[str, Any] | None:
    row = c.execute(select(event_tables).where(event_tables.c.id == row_id)).mappings().first()
    return None if row is None else dict(row)


#: The referee's announcements that leave an over-the-board game unfinished and reopen it (L-2).
LEFT = "unfinished"
REOPENED = "reopened"


def left_unfinished(c: Connection, row_id: int) -> bool:
    """Whether the referee's last word on a table's game is that it is left unfinished (L-2)."""
    n = event_notes.c
    last = c.execute(
        select(n.kind)
        .where(n.event_table == row_id, n.kind.in_((LEFT, REOPENED)))
        .order_by(n.id.desc())
        .limit(1)
    ).scalar()
    return last == LEFT


def sheet_keeping(c: Connection, sheet_id: str) -> tuple[set[int], bool, set[int]] | None:
    """Who may edit a score sheet that is a tournament's table (its referee and the tournament's
    organizers), whether its game is left unfinished now, and the accounts playing at it (who
    never keep it, L-6, L-8); None for a sheet of no event."""
    row = c.execute(
        select(
            event_tables.c.id, event_tables.c.event_id, event_tables.c.referee, event_tables.c.entries
        ).where(event_tables.c.sheet_id == sheet_id)
    ).first()
    if row is None:
        return None
    keepers = set(organizers(c, str(row.event_id)))
    if row.referee is not None:
        keepers.add(int(row.referee))
    return keepers, left_unfinished(c, int(row.id)), table_players(c, row.entries)


def sheet_entry_members(c: Connection, sheet_id: str) -> list[list[int]] | None:
    """The accounts of each entry of the tournament table a score sheet is, in the table's order
    (team 0 first); None for a sheet of no event."""
    row = c.execute(select(event_tables.c.entries).where(event_tables.c.sheet_id == sheet_id)).first()
    if row is None:
        return None
    order = [int(e) for e in row.entries]
    found = c.execute(
        select(event_members.c.entry_id, event_members.c.player_id)
        .where(event_members.c.entry_id.in_(order))
        .order_by(event_members.c.position)
    )
    members: dict[int, list[int]] = {e: [] for e in order}
    for r in found:
        members[int(r.entry_id)].append(int(r.player_id))
    return [members[e] for e in order]


def table_players(c: Connection, entries: Iterable[int]) -> set[int]:
    """The accounts of a table's entries (withdrawn or not: they played there)."""
    wanted = [int(e) for e in entries]
    found = c.execute(select(event_members.c.player_id).where(event_members.c.entry_id.in_(wanted)))
    return {int(r.player_id) for r in found}


def link_table(
    c: Connection, row_id: int, *, table_id: str | None = None, sheet_id: str | None = None
) -> bool:
    """Link an opened table or sheet to its place in the round, once (False: linked already)."""
    t = event_tables.c
    if table_id is not None:
        done = c.execute(
            update(event_tables).where(t.id == row_id, t.table_id.is_(None)).values(table_id=table_id)
        )
    else:
        done = c.execute(
            update(event_tables).where(t.id == row_id, t.sheet_id.is_(None)).values(sheet_id=sheet_id)
        )
    return bool(done.rowcount)


def relink_table(c: Connection, old: str, new: str) -> None:
    """An unfinished game continued at a new table (League §7): the round's place follows it."""
    c.execute(update(event_tables).where(event_tables.c.table_id == old).values(table_id=new))


def unopened(c: Connection, limit: int = 100) -> list[dict[str, Any]]:
    """Tables of started rounds (not of a round only published) that have no table or score
    sheet yet (a start cut short): any process opens them."""
    t = event_tables.c
    r = event_rounds.c
    query = (
        select(event_tables)
        .join(event_rounds, and_(r.event_id == t.event_id, r.number == t.round))
        .where(t.table_id.is_(None), t.sheet_id.is_(None), r.status == "playing")
        .limit(limit)
    )
    return [dict(x) for x in c.execute(query).mappings()]


def set_forfeit(c: Connection, row_id: int, forfeit: Sequence[int]) -> bool:
    t = event_tables.c
    done = c.execute(
        update(event_tables).where(t.id == row_id, t.forfeit.is_(None)).values(forfeit=list(forfeit))
    )
    return bool(done.rowcount)


def due_forfeits(c: Connection, before: datetime, limit: int = 200) -> list[dict[str, Any]]:
    """Online tables of rounds started before ``before`` still being played and not forfeited."""
    t = event_tables.c
    query = (
        select(event_tables)
        .join(event_rounds, and_(event_rounds.c.event_id == t.event_id, event_rounds.c.number == t.round))
        .join(tables, tables.c.id == t.table_id)
        .where(t.forfeit.is_(None), tables.c.status == "playing", event_rounds.c.started_at < before)
        .limit(limit)
    )
    return [dict(r) for r in c.execute(query).mappings()]


def referees(c: Connection, event_id: str) -> set[int]:
    """The accounts refereeing a table of the tournament."""
    t = event_tables.c
    found = c.execute(select(t.referee).where(t.event_id == event_id, t.referee.is_not(None)))
    return {int(r.referee) for r in found}


def players_in(c: Connection, event_id: str) -> set[int]:
    """The accounts of the tournament's entries that have not withdrawn."""
    m = event_members.c
    query = (
        select(m.player_id)
        .join(event_entries, event_entries.c.id == m.entry_id)
        .where(m.event_id == event_id, event_entries.c.withdrawn_at.is_(None))
    )
    return {int(r.player_id) for r in c.execute(query)}


def set_referee(c: Connection, row_id: int, referee: int | None) -> None:
    c.execute(update(event_tables).where(event_tables.c.id == row_id).values(referee=referee))


def next_games(c: Connection, player: int) -> list[dict[str, Any]]:
    """The tournament tables not over where ``player`` plays (an entry of theirs sits there), as
    the page shows them: the event (its id and name), the round and the table."""
    mine = [
        int(r.entry_id)
        for r in c.execute(select(event_members.c.entry_id).where(event_members.c.player_id == player))
    ]
    if not mine:
        return []
    t = event_tables.c
    query = (
        select(event_tables, events.c.name.label("event_name"), tables.c.status.label("table_status"))
        .join(events, events.c.id == t.event_id)
        .outerjoin(tables, tables.c.id == t.table_id)
        .where(t.event_id.in_(select(event_members.c.event_id).where(event_members.c.player_id == player)))
    )
    found = []
    for r in c.execute(query).mappings():
        if (
            set(r["entries"]) & set(mine)
            and r["table_status"] in ("waiting", "playing")
            and r["forfeit"] is None
        ):
            found.append(
                {
                    "event": r["event_id"],
                    "event_name": r["event_name"],
                    "round": r["round"],
                    "table": r["table_id"],
                }
            )
    return found


# --- the referee's console and the courts -----------------------------------------------------------


def insert_note(
    c: Connection, row_id: int, kind: str, body: Mapping[str, Any], by: int | None, at: datetime
) -> None:
    c.execute(insert(event_notes).values(event_table=row_id, kind=kind, body=dict(body), by_player=by, at=at))


def notes(c: Connection, event_id: str) -> list[dict[str, Any]]:
    query = (
        select(event_notes, event_tables.c.round, event_tables.c.number)
        .join(event_tables, event_tables.c.id == event_notes.c.event_table)
        .where(event_tables.c.event_id == event_id)
        .order_by(event_notes.c.at, event_notes.c.id)
    )
    return [dict(r) for r in c.execute(query).mappings()]


def recuse(c: Connection, row_id: int, player: int, at: datetime) -> None:
    """``player`` stepped down from refereeing the table (L-8): kept once, never assigned again."""
    r = event_recusals.c
    found = c.execute(select(r.player_id).where(r.event_table == row_id, r.player_id == player)).first()
    if found is None:
        c.execute(insert(event_recusals).values(event_table=row_id, player_id=player, at=at))


def recused(c: Connection, row_id: int) -> set[int]:
    """The referees who stepped down from the table."""
    r = event_recusals.c
    return {int(x.player_id) for x in c.execute(select(r.player_id).where(r.event_table == row_id))}


def usernames(c: Connection, ids: Iterable[int]) -> dict[int, str]:
    """Each account's username (its display name when it has none)."""
    wanted = sorted({int(i) for i in ids})
    if not wanted:
        return {}
    found = c.execute(
        select(players.c.id, players.c.username, players.c.name).where(players.c.id.in_(wanted))
    )
    return {int(r.id): str(r.username or r.name) for r in found}


def account_names(c: Connection, ids: Iterable[int]) -> list[tuple[str, str]]:
    """Each account's username (empty for none) and display name."""
    wanted = [int(i) for i in ids]
    found = c.execute(select(players.c.username, players.c.name).where(players.c.id.in_(wanted)))
    return [(str(r.username or ""), str(r.name or "")) for r in found]


def round_started(c: Connection, event_id: str, number: int, at: datetime) -> None:
    """A round that waited for its referees starts now: forfeits count from this time."""
    r = event_rounds.c
    c.execute(update(event_rounds).where(r.event_id == event_id, r.number == number).values(started_at=at))


def bar_entry(c: Connection, entry: int, barred: Mapping[str, Any], at: datetime) -> bool:
    """Withdraw an entry because a bar keeps its accounts out (L-3, L-10), saying why."""
    done = c.execute(
        update(event_entries)
        .where(event_entries.c.id == entry, event_entries.c.withdrawn_at.is_(None))
        .values(withdrawn_at=at, barred=dict(barred))
    )
    return bool(done.rowcount)
