"""The Court of Conduct's fair-play view on the server (issue 43 items 4 and 5, L-9): the figures
of :mod:`blot.fairplay` (``blot fairplay --json``) for any account, or pair, over its finished
stored games, and a case for the Court opened from them.

**Nobody else sees any of it, nor learns that it was looked at.** Only a member of the Court of
Conduct and the server's administrators (``blot serve --admin``) are answered; anybody else —
a guest, a player, the accounts looked at, a referee, an organizer — gets exactly the answer of a
path that does not exist (:func:`unknown_path`), before anything is read. Nothing is written
where the accounts looked at could see it (no notification, no socket, no log line naming them),
and a case opened from the view belongs to no event table (no referee's console lists it).

The games are chosen by their ids, by an event, or as the last ``N`` deals of the account (of
the pair together); only finished games whose every deal is open to the member are read (a
duplicate round still being played elsewhere is left out). The figures are computed in a worker
thread (the solver releases the GIL: no request waits on them), one query at a time, from each
game's stored analysis where there is one (its card losses and bidding review are read, not
solved again; docs/fairplay.md, *Cost*); the analyses missing are queued in the background
(:meth:`blot.server.analyses.Analyses.backfill`), for the games learning analyses anyway.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from blot.fairplay import Report, Settings
from blot.server import secrecy
from blot.server.errors import RateLimited, Refused
from blot.store import analyses as stored_analyses
from blot.store import courts
from blot.store.schema import event_tables, events, results, tables

if TYPE_CHECKING:
    from blot.server.hub import Hub

#: The last deals read when none is said, and the most one query reads (about 0.1 s of CPU a
#: deal of a pair with its stored analyses: docs/fairplay.md, *Cost*).
LAST_DEFAULT, LAST_LIMIT = 200, 500
#: The most games named by id in one query, and the most queries in hand (computing or waiting).
TABLES_LIMIT, WAITING_LIMIT = 200, 4
#: Deals that weigh most, listed for each account and pair.
WEIGHTY = 5
RETRY_SECONDS = 30
QUESTION_LIMIT = 4000
#: The analysis format the server stores (:data:`blot.server.analyses.FORMAT`).
ANALYSIS_FORMAT = 2


def unknown_path() -> Refused:
    """The answer of a path that does not exist, word for word (app.py's ``http_error``)."""
    return Refused("not_found", "no_such_route")


@dataclass(frozen=True)
class Query:
    """What a member asked: one account or a pair, and which games (ids, an event or the last deals)."""

    accounts: tuple[str, ...]
    game: str
    tables: tuple[str, ...] = ()
    event: str | None = None
    last: int | None = None


@dataclass
class Chosen:
    """A game read for the figures: its table, record replayed, names by seat and stored analysis."""

    table: str
    game: Any
    names: list[str]
    analysis: Mapping[str, Any] | None


def check(body: Mapping[str, Any]) -> Query:
    """The query of a request's body, or the first fault (one keyed refusal)."""
    from blot.games import SPECS

    names = body.get("accounts")
    if (
        not isinstance(names, list)
        or not 1 <= len(names) <= 2
        or not all(isinstance(n, str) and n.strip() for n in names)
        or len({n.strip().casefold() for n in names}) != len(names)
    ):
        raise Refused("malformed", "fairplay_accounts", "accounts")
    game = body.get("game", "bazar-blot")
    if not isinstance(game, str) or game not in SPECS or game not in ("bazar-blot", "3-5-8"):
        raise Refused("malformed", "fairplay_game", "game")
    chosen = [k for k in ("tables", "event", "last") if body.get(k) is not None]
    if len(chosen) > 1:
        raise Refused("malformed", "fairplay_choice", chosen[1])
    accounts = tuple(n.strip() for n in names)
    ids = body.get("tables")
    if ids is not None:
        if (
            not isinstance(ids, list)
            or not 1 <= len(ids) <= TABLES_LIMIT
            or not all(isinstance(t, str) and t.strip() for t in ids)
        ):
            raise Refused("malformed", "fairplay_tables", "tables", n=TABLES_LIMIT)
        return Query(accounts, game, tables=tuple(dict.fromkeys(t.strip() for t in ids)))
    event = body.get("event")
    if event is not None:
        if not isinstance(event, str) or not event.strip():
            raise Refused("not_found", "no_such_event", "event")
        return Query(accounts, game, event=event.strip())
    last = body.get("last", LAST_DEFAULT)
    if not isinstance(last, int) or isinstance(last, bool) or not 1 <= last <= LAST_LIMIT:
        raise Refused("malformed", "fairplay_last", "last", n=LAST_LIMIT)
    return Query(accounts, game, last=last)


def allowed(c: Connection, player: int, admins: Sequence[str]) -> bool:
    """Whether ``player`` may see the view: a member of the Court of Conduct or an administrator."""
    from blot.accounts import username_key
    from blot.store import accounts as account_rows

    if "conduct" in courts.courts_of(c, player):
        return True
    account = account_rows.by_id(c, player)
    if account is None or account.disabled or account.username is None:
        return False
    return username_key(account.username) in {username_key(a) for a in admins}


def _accounts(c: Connection, names: Sequence[str]) -> list[tuple[int, str]]:
    """The accounts named (their ids and usernames), or ``no_such_account``."""
    from blot.accounts import username_key
    from blot.store import accounts as account_rows

    found = []
    for typed in names:
        account = account_rows.find(c, username_key(typed))
        if account is None or account.username is None:
            raise Refused("not_found", "no_such_account", "accounts", name=typed)
        found.append((account.id, account.username))
    if len(found) == 2 and found[0][0] == found[1][0]:
        raise Refused("malformed", "fairplay_accounts", "accounts")
    return found


def _candidates(c: Connection, query: Query, ids: Sequence[int]) -> list[str]:
    """The finished tables of ``query.game`` where the accounts sat (a Bazar Blot pair as
    partners, a 3-5-8 pair at one table), among the games chosen, newest first."""
    first = results.alias("first")
    chosen = (
        select(first.c.table_id)
        .join(tables, tables.c.id == first.c.table_id)
        .where(first.c.player_id == ids[0], first.c.game == query.game, tables.c.status == "finished")
        .order_by(first.c.finished_at.desc(), first.c.table_id)
    )
    if len(ids) == 2:
        second = results.alias("second")
        together = second.c.table_id == first.c.table_id
        if query.game == "bazar-blot":
            together = together & (second.c.team == first.c.team)
        chosen = chosen.join(second, together).where(second.c.player_id == ids[1])
    if query.tables:
        chosen = chosen.where(first.c.table_id.in_(list(query.tables)))
    elif query.event is not None:
        chosen = chosen.where(
            first.c.table_id.in_(
                select(event_tables.c.table_id).where(event_tables.c.event_id == query.event)
            )
        )
    return list(dict.fromkeys(str(r.table_id) for r in c.execute(chosen)))


def select_games(c: Connection, query: Query, viewer: int) -> tuple[list[tuple[int, str]], list[Chosen]]:
    """The accounts and the games the figures read (replayed), oldest first; a keyed refusal
    when an account, the event or a game named is unknown, or no game is left."""
    from blot.games import spec

    accounts = _accounts(c, query.accounts)
    if (
        query.event is not None
        and c.execute(select(events.c.id).where(events.c.id == query.event)).first() is None
    ):
        raise Refused("not_found", "no_such_event", "event")
    ids = _candidates(c, query, [a for a, _ in accounts])
    secret = secrecy.of_ids(c, ids)
    ids = [t for t in ids if t not in secret or secret[t].sees_all(viewer)]
    found: list[Chosen] = []
    deals = 0
    for table_id in ids:
        row = c.execute(select(tables.c.record).where(tables.c.id == table_id)).first()
        if row is None or row.record is None:
            continue
        replay = spec(query.game).replay(dict(row.record))
        names = _names(c, table_id, spec(query.game).seats)
        analysis = stored_analyses.stored(c, table_id, ANALYSIS_FORMAT)
        found.append(Chosen(table_id, replay.game, names, analysis))
        deals += sum(1 for d in replay.game.deals if d.is_over)
        if query.last is not None and deals >= query.last:
            break
    if not found:
        raise Refused("not_found", "fairplay_no_games", "accounts")
    return accounts, found[::-1]


def _names(c: Connection, table_id: str, seats: int) -> list[str]:
    """Each seat's public name as the game's results name it (an account's is its username),
    else ``seat N``."""
    from blot.store.ratings import names_of

    seated = {
        int(r.seat): int(r.player_id)
        for r in c.execute(select(results.c.seat, results.c.player_id).where(results.c.table_id == table_id))
    }
    known = names_of(c, set(seated.values()))
    return [known.get(seated[s], f"seat {s}") if s in seated else f"seat {s}" for s in range(seats)]


def figures(chosen: Sequence[Chosen], accounts: Sequence[str], settings: Settings) -> Report:
    """The figures of ``accounts`` over ``chosen`` (as :func:`blot.fairplay.report` counts them):
    each account's own decisions, and with two accounts the pair's, from the games where both
    sat (Bazar Blot: as partners; 3-5-8: at one table). Blocking: seconds of CPU."""
    from blot.fairplay import _add, card_value, game_decisions, pair_name
    from blot.fairplay.figures import Figures
    from blot.games import spec_of

    kind = spec_of(chosen[0].game).name
    value = card_value(kind)
    out = Report(kind)
    for name in accounts:
        out.accounts[name] = Figures(name, value)
    both = pair_name(*accounts) if len(accounts) == 2 else None
    for number, game in enumerate(chosen, 1):
        seats = frozenset(s for s, n in enumerate(game.names) if n in accounts)
        for item in game_decisions(game.game, number, settings, seats, game.analysis):
            _add(out.accounts[game.names[item.seat]], item)
            if both is not None and len(seats) == 2:
                _add(out.pairs.setdefault(both, Figures(both, value)), item)
    return out


def answer(found: Report, chosen: Sequence[Chosen]) -> dict[str, Any]:
    """The figures as ``blot fairplay --json`` prints them, each weighty deal with its table and
    a link to its replay with the analysis shown, and the games read."""
    data = found.to_json()
    for row in (*data["accounts"], *data["pairs"]):
        for deal in row["weighty_deals"]:
            table = chosen[deal["game"] - 1].table
            deal["table"] = table
            deal["replay"] = f"/replay/{table}?deal={deal['deal']}&analysis=1"
    data["games"] = [g.table for g in chosen]
    data["deals"] = sum(1 for g in chosen for d in g.game.deals if d.is_over)
    data["analysed"] = sum(1 for g in chosen if g.analysis is not None)
    return data


class FairPlay:
    """The view's queries (:meth:`figures`) and cases (:meth:`open_case`), for the hub."""

    def __init__(self, hub: Hub, settings: Settings | None = None) -> None:
        self.hub = hub
        self.settings = settings or Settings()
        self._threads = ThreadPoolExecutor(max_workers=1, thread_name_prefix="blot-fairplay")
        self._waiting = 0

    async def allowed(self, player: int) -> bool:
        """Whether ``player`` may open the view (the courts page asks, for its own viewer)."""
        admins = self.hub.config.admins
        return await self.hub.read(lambda c: allowed(c, player, admins))

    async def admit(self, player: int | None) -> int:
        """The viewer when allowed, else the unknown path's answer (before anything else is read)."""
        if player is None or not await self.allowed(player):
            raise unknown_path()
        return player

    async def figures(self, viewer: int, body: Mapping[str, Any]) -> dict[str, Any]:
        """The figures of a query (``check``) for an admitted viewer, computed in the worker thread."""
        query = check(body)
        if self._waiting >= WAITING_LIMIT:
            raise RateLimited("fairplay_busy", RETRY_SECONDS)
        self._waiting += 1
        try:
            accounts, chosen = await self.hub.read(lambda c: select_games(c, query, viewer))
            names = [name for _, name in accounts]
            loop = asyncio.get_running_loop()
            found = await loop.run_in_executor(self._threads, figures, chosen, names, self.settings)
        finally:
            self._waiting -= 1
        missing = [g.table for g in chosen if g.analysis is None]
        return {**answer(found, chosen), "queued": await self.hub.analyses.backfill(missing)}

    async def open_case(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """A case for the Court of Conduct about the accounts named (``{"accounts", "question"}``),
        for an admitted viewer: the member's words, which may cite the figures; it belongs to no
        event table."""
        from blot.server.referees import court_json

        query = check({"accounts": body.get("accounts"), "last": 1})
        question = body.get("question")
        if not isinstance(question, str) or not question.strip():
            raise Refused("malformed", "field_needed", "question", field="question")
        if len(question) > QUESTION_LIMIT:
            raise Refused("malformed", "field_too_long_n", "question", field="question", n=QUESTION_LIMIT)
        at = self.hub.now()

        def write(c: Connection) -> dict[str, Any]:
            names = [name for _, name in _accounts(c, query.accounts)]
            text = f"{' & '.join(names)}: {question.strip()}"
            number = courts.insert_case(c, None, "conduct", text, at)
            found = courts.case(c, number)
            assert found is not None
            return court_json(found)

        return await self.hub.write(write)

    def close(self) -> None:
        self._threads.shutdown(wait=False, cancel_futures=True)
