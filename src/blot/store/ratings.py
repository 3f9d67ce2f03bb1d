"""Ratings, results and tars kapoot records in the server's database (``blot.store``): the rows
only; what a game counts for and what bars a pair is decided by :mod:`blot.league`. The
leaderboards and profiles are read from here. Every function is blocking and takes a SQLAlchemy
connection.

Players appear in answers by their public name only: an account's username, or ``bot:LEVEL`` for
a bot level (usernames cannot hold ``:``, so the two never meet).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import and_, case, delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection

from blot.games import SPECS, spec
from blot.ratings import PROVISIONAL_GAMES, Rating, display, provisional
from blot.store import accuracies, iso
from blot.store.schema import players, ratings, results, tables, tars_kapoots

BOT_PREFIX = "bot:"
#: How a game ended for a seat (``results.ending``).
PLAYED, LEFT, AGREEMENT, RESIGNED = "played", "left", "agreement", "resigned"
RECENT = 20
#: Rated games shown in a profile's rating history (the last ones).
HISTORY = 200
#: Games a profile's partner table counts (the last ones).
PARTNER_GAMES = 1000


#: How a guest appears in profiles: ``guest:NAME`` (usernames cannot hold ``:``).
GUEST_PREFIX = "guest:"
DELETED = "deleted player"


def public_name(username: str | None, bot: str | None, name: str | None = None, deleted: bool = False) -> str:
    """A player's public name: the username, ``bot:LEVEL``, ``guest:NAME`` for a guest (with
    ``name`` given), or "deleted player"."""
    if bot is not None:
        return BOT_PREFIX + bot
    if username:
        return username
    if name is not None and not deleted:
        return GUEST_PREFIX + name
    return DELETED


def accounts_among(c: Connection, ids: Sequence[int]) -> set[int]:
    """Those of ``ids`` that are accounts."""
    if not ids:
        return set()
    rows = c.execute(
        select(players.c.id).where(players.c.id.in_(list(ids)), players.c.username_key.is_not(None))
    ).all()
    return {int(r.id) for r in rows}


def lock_ratings(c: Connection) -> None:
    """Hold the ratings until this transaction ends (PostgreSQL: another process's rated game
    that ends at the same moment waits, so that neither update is lost; SQLite has one writer)."""
    if c.dialect.name == "postgresql":
        c.exec_driver_sql("LOCK TABLE ratings IN SHARE ROW EXCLUSIVE MODE")


def current_ratings(c: Connection, game: str, ids: Sequence[int]) -> dict[int, Rating]:
    """The stored ratings of ``ids`` in ``game`` (a player without one is left out)."""
    rows = c.execute(
        select(ratings.c.player_id, ratings.c.mu, ratings.c.sigma).where(
            ratings.c.game == game, ratings.c.player_id.in_(list(set(ids)))
        )
    ).all()
    return {int(r.player_id): Rating(float(r.mu), float(r.sigma)) for r in rows}


def insert_result(c: Connection, values: dict[str, Any]) -> None:
    """One seat's result of a finished game."""
    c.execute(insert(results).values(**values))


def insert_tars_kapoot(
    c: Connection,
    player_a: int,
    player_b: int,
    table_id: str | None,
    at: datetime,
    sheet_id: str | None = None,
) -> None:
    """A tars kapoot on record: at an online table (``table_id``) or on a Davtar (``sheet_id``)."""
    c.execute(
        insert(tars_kapoots).values(
            player_a=player_a, player_b=player_b, table_id=table_id, sheet_id=sheet_id, at=at
        )
    )


def sheet_tars_kapoots(c: Connection, sheet_id: str) -> list[tuple[int, int]]:
    """The pairs whose tars kapoot on this Davtar is on record."""
    k = tars_kapoots.c
    return [
        (int(r.player_a), int(r.player_b))
        for r in c.execute(select(k.player_a, k.player_b).where(k.sheet_id == sheet_id))
    ]


def delete_sheet_tars_kapoots(c: Connection, sheet_id: str) -> None:
    """A Davtar's tars kapoot taken back with the deal that made it."""
    c.execute(delete(tars_kapoots).where(tars_kapoots.c.sheet_id == sheet_id))


def tars_kapoots_among(c: Connection, ids: Sequence[int]) -> list[tuple[int, int, datetime]]:
    """The tars kapoots on record of pairs among ``ids``, oldest first: ``(a, b, at)``, a < b."""
    found = c.execute(
        select(tars_kapoots.c.player_a, tars_kapoots.c.player_b, tars_kapoots.c.at)
        .where(and_(tars_kapoots.c.player_a.in_(list(ids)), tars_kapoots.c.player_b.in_(list(ids))))
        .order_by(tars_kapoots.c.at)
    ).all()
    return [(int(r.player_a), int(r.player_b), r.at) for r in found]


def tars_partners(c: Connection, player: int) -> set[int]:
    """``player`` and everyone with whom they suffered a tars kapoot."""
    found = c.execute(
        select(tars_kapoots.c.player_a, tars_kapoots.c.player_b).where(
            or_(tars_kapoots.c.player_a == player, tars_kapoots.c.player_b == player)
        )
    ).all()
    return {int(r.player_a) for r in found} | {int(r.player_b) for r in found} | {player}


def store_rating(
    c: Connection, player: int, game: str, mu: float, sigma: float, won: bool, exists: bool, at: datetime
) -> None:
    """A player's new rating after a rated game (one more game, one more win when ``won``)."""
    if exists:
        c.execute(
            update(ratings)
            .where(ratings.c.player_id == player, ratings.c.game == game)
            .values(
                mu=mu,
                sigma=sigma,
                games=ratings.c.games + 1,
                wins=ratings.c.wins + (1 if won else 0),
                updated_at=at,
            )
        )
    else:
        c.execute(
            insert(ratings).values(
                player_id=player,
                game=game,
                mu=mu,
                sigma=sigma,
                games=1,
                wins=1 if won else 0,
                updated_at=at,
            )
        )


# --- reading ---------------------------------------------------------------------------------------


def table_results(c: Connection, table_id: str) -> list[dict[str, Any]]:
    """How a finished game moved each seat's rating: ``[{"seat", "player", "rated", "rating",
    "change", "games", "provisional"}]`` by seat (``player`` the public name; ``rating`` after the
    game and ``change`` to one decimal, both null when the seat's rating did not move; ``games`` the
    player's rated games of this game by then, ``provisional`` while they are too few to show the
    number, issue 41 item 7); empty before the game's results are stored."""
    earlier = results.alias("earlier")
    games = (  # games, not seats: one bot level may sit in several seats of a game
        select(func.count(func.distinct(earlier.c.table_id)))
        .where(
            earlier.c.player_id == results.c.player_id,
            earlier.c.game == results.c.game,
            earlier.c.rated.is_(True),
            earlier.c.mu_after.is_not(None),
            earlier.c.finished_at <= results.c.finished_at,
        )
        .correlate(results)
        .scalar_subquery()
    )
    rows = c.execute(
        select(
            games.label("games"),
            results.c.seat,
            results.c.rated,
            results.c.mu_before,
            results.c.sigma_before,
            results.c.mu_after,
            results.c.sigma_after,
            players.c.username,
            players.c.bot,
            players.c.name,
            players.c.deleted_at,
        )
        .join(players, players.c.id == results.c.player_id)
        .where(results.c.table_id == table_id)
        .order_by(results.c.seat)
    ).all()
    out = []
    for r in rows:
        moved = bool(r.rated) and r.mu_after is not None and r.mu_before is not None
        after = display(r.mu_after, r.sigma_after) if moved else None
        change = round(after - display(r.mu_before, r.sigma_before), 1) if after is not None else None
        who = public_name(r.username, r.bot, r.name, r.deleted_at is not None)
        counted = int(r.games or 0)
        out.append(
            {
                "seat": int(r.seat),
                "player": who,
                "rated": moved,
                "rating": after,
                "change": change,
                "games": counted,
                "provisional": moved and provisional(counted),
            }
        )
    return out


def leaderboard(c: Connection, game: str, limit: int = 100) -> list[dict[str, Any]]:
    """The rated players of a game, best first (by ``mu - 3 sigma``); disabled and deleted
    accounts are left out."""
    rows = c.execute(
        select(
            players.c.username,
            players.c.bot,
            ratings.c.mu,
            ratings.c.sigma,
            ratings.c.games,
            ratings.c.wins,
        )
        .join(players, players.c.id == ratings.c.player_id)
        .where(
            ratings.c.game == game,
            players.c.disabled.is_(False),
            or_(players.c.username_key.is_not(None), players.c.bot.is_not(None)),
        )
        .order_by((ratings.c.mu - 3 * ratings.c.sigma).desc(), ratings.c.games.desc(), players.c.id)
        .limit(limit)
    ).all()
    return [
        {
            "rank": i + 1,
            "username": public_name(r.username, r.bot),
            "bot": r.bot,
            "rating": display(r.mu, r.sigma),
            "mu": round(r.mu, 3),
            "sigma": round(r.sigma, 3),
            "games": int(r.games),
            "wins": int(r.wins),
            "provisional": provisional(int(r.games)),
        }
        for i, r in enumerate(rows)
    ]


def player_by_name(c: Connection, name: str, key: str) -> Any:
    """The row of a public name (``bot:LEVEL`` or a username whose key is ``key``), or None
    (also for disabled and deleted accounts)."""
    columns = (players.c.id, players.c.username, players.c.bot, players.c.created_at)
    if name.startswith(BOT_PREFIX):
        return c.execute(select(*columns).where(players.c.bot == name[len(BOT_PREFIX) :])).first()
    return c.execute(
        select(*columns).where(players.c.username_key == key, players.c.disabled.is_(False))
    ).first()


def names_of(c: Connection, ids: set[int]) -> dict[int, str]:
    """Public names by player."""
    if not ids:
        return {}
    rows = c.execute(
        select(players.c.id, players.c.username, players.c.bot, players.c.name, players.c.deleted_at).where(
            players.c.id.in_(ids)
        )
    )
    return {int(r.id): public_name(r.username, r.bot, r.name, r.deleted_at is not None) for r in rows}


def _seen_by(viewer: int | None) -> Any:
    """The condition on ``results`` rows of tables a viewer may see in a profile: public tables,
    and private ones where the viewer sat (a private game's link is for its players only)."""
    public: Any = tables.c.public.is_(True)
    if viewer is None:
        return public
    theirs = results.alias("theirs")
    sat = (
        select(theirs.c.table_id)
        .where(theirs.c.player_id == viewer, theirs.c.table_id == tables.c.id)
        .exists()
    )
    return or_(public, sat)


def profile(c: Connection, row: Any, viewer: int | None = None, page: int = 0) -> dict[str, Any]:
    """A player's public profile (``row`` from :func:`player_by_name`) as ``viewer`` may see it:
    counts per game, the rating history (the last :data:`HISTORY` rated games), partners, the
    accuracy over the last analysed games (:func:`blot.store.accuracies.trend`) and tars
    kapoots, and a page of :data:`RECENT` recent games (``page`` from 0) with each one's
    accuracy. Games of private tables are left out of the lists unless the viewer sat there;
    partners count public games.
    Every part is one indexed query, so a player with thousands of games answers at once."""
    player = int(row.id)
    recent, more = _recent_of(c, player, viewer, page)
    return {
        "username": public_name(row.username, row.bot),
        "bot": row.bot,
        "since": iso(row.created_at),
        "games": _games_of(c, player, viewer),
        "recent": recent,
        "page": page,
        "next_page": page + 1 if more else None,
        "tars_kapoot": tars_records(c, player, viewer),
    }


def _games_of(c: Connection, player: int, viewer: int | None) -> dict[str, dict[str, Any]]:
    """The profile's counts, rating, history, partners and accuracy per game, in the registry's
    order."""
    mine = results.c.player_id == player
    won = case((and_(results.c.place == 0, results.c.ending == PLAYED), 1), else_=0)
    counts = {
        str(r.game): (int(r.played or 0), int(r.won or 0))
        for r in c.execute(
            select(
                results.c.game,
                func.count(results.c.place).label("played"),
                func.sum(won).label("won"),
            )
            .where(mine)
            .group_by(results.c.game)
        )
    }
    rated = {str(r.game): r for r in c.execute(select(ratings).where(ratings.c.player_id == player)).all()}
    games: dict[str, dict[str, Any]] = {}
    for name in (n for n in SPECS if n in counts or n in rated):  # in the registry's order
        current = rated.get(name)
        played, wins = counts.get(name, (0, 0))
        games[name] = {
            "rating": None if current is None else display(current.mu, current.sigma),
            "mu": None if current is None else round(current.mu, 3),
            "sigma": None if current is None else round(current.sigma, 3),
            "rated_games": 0 if current is None else int(current.games),
            "provisional": provisional(0 if current is None else int(current.games)),
            "provisional_games": PROVISIONAL_GAMES,
            "played": played,
            "won": wins,
            "history": _history(c, player, name, viewer),
            "partners": _partners(c, player, name),
            "accuracy": accuracies.trend(c, player, name, _seen_by(viewer)),
        }
    return games


def _recent_of(
    c: Connection, player: int, viewer: int | None, page: int
) -> tuple[list[dict[str, Any]], bool]:
    """A page of the profile's recent games (those of private tables only for one who sat
    there), each with its players and accuracy; and whether a next page has more."""
    mine = results.c.player_id == player
    shown = c.execute(
        select(results, tables.c.summary)
        .join(tables, tables.c.id == results.c.table_id)
        .where(mine, _seen_by(viewer))
        .order_by(results.c.finished_at.desc(), results.c.table_id)
        .offset(page * RECENT)
        .limit(RECENT + 1)
    ).all()
    more = len(shown) > RECENT
    shown = shown[:RECENT]
    table_ids = [str(r.table_id) for r in shown]
    by_table: dict[str, list[Any]] = defaultdict(list)
    if table_ids:
        for r in c.execute(select(results).where(results.c.table_id.in_(table_ids))).all():
            by_table[str(r.table_id)].append(r)
    names = names_of(c, {int(r.player_id) for rs in by_table.values() for r in rs})
    accurate = accuracies.of_seats(c, table_ids)
    recent = []
    for r in shown:
        seats = sorted(by_table[str(r.table_id)], key=lambda x: x.seat)
        summary = r.summary or {}
        recent.append(
            {
                "table": r.table_id,
                "game": r.game,
                "at": iso(r.finished_at),
                "seat": r.seat,
                "place": r.place,
                "ending": r.ending,
                "rated": bool(r.rated),
                "rating_change": None
                if not r.rated
                else round(display(r.mu_after, r.sigma_after) - display(r.mu_before, r.sigma_before), 1),
                "players": [names.get(int(x.player_id), "") for x in seats],
                "accuracy": accurate.get((str(r.table_id), int(r.seat))),
                "match_score": summary.get("match_score"),
                "totals": summary.get("totals"),
                "replay": f"/replay/{r.table_id}",
            }
        )
    return recent, more


def _history(c: Connection, player: int, game: str, viewer: int | None) -> list[dict[str, Any]]:
    """The rating after each of the last :data:`HISTORY` rated games, oldest first (a private
    table's id only for a viewer who sat there)."""
    visible = _seen_by(viewer)
    rows = c.execute(
        select(results.c.finished_at, results.c.table_id, results.c.mu_after, results.c.sigma_after, visible)
        .join(tables, tables.c.id == results.c.table_id)
        .where(results.c.player_id == player, results.c.game == game, results.c.rated.is_(True))
        .order_by(results.c.finished_at.desc(), results.c.table_id.desc())
        .limit(HISTORY)
    ).all()
    return [
        {
            "at": iso(r.finished_at),
            "rating": display(r.mu_after, r.sigma_after),
            "table": r.table_id if r[4] else None,
        }
        for r in reversed(rows)
    ]


def _partners(c: Connection, player: int, game: str) -> list[dict[str, Any]] | None:
    """With whom the player won most (games with partners only): their last
    :data:`PARTNER_GAMES` finished public games."""
    if all(len(team) < 2 for team in spec(game).teams):
        return None
    me = (
        select(results.c.table_id, results.c.team, results.c.place)
        .join(tables, tables.c.id == results.c.table_id)
        .where(
            results.c.player_id == player,
            results.c.game == game,
            results.c.place.is_not(None),
            tables.c.public.is_(True),
        )
        .order_by(results.c.finished_at.desc())
        .limit(PARTNER_GAMES)
        .subquery("me")
    )
    other = results.alias("other")
    rows = c.execute(
        select(
            other.c.player_id,
            func.count().label("games"),
            func.sum(case((me.c.place == 0, 1), else_=0)).label("wins"),
        )
        .select_from(me)
        .join(other, and_(other.c.table_id == me.c.table_id, other.c.team == me.c.team))
        .where(other.c.player_id != player)
        .group_by(other.c.player_id)
    ).all()
    names = names_of(c, {int(r.player_id) for r in rows})
    out: list[dict[str, Any]] = [
        {
            "partner": names.get(int(r.player_id), ""),
            "games": int(r.games),
            "wins": int(r.wins or 0),
            "share": round(int(r.wins or 0) / int(r.games), 3),
        }
        for r in rows
    ]
    out.sort(key=lambda x: (-x["wins"], -x["share"], x["partner"]))
    return out


def tars_records(c: Connection, player: int, viewer: int | None = None) -> list[dict[str, Any]]:
    """Every tars kapoot the player suffered (at any table, or on a Davtar), oldest first, with
    the partner (the table only where ``viewer`` may see it: :func:`_seen_by`)."""
    rows = c.execute(
        select(tars_kapoots, _seen_by(viewer).label("visible"))
        .outerjoin(tables, tables.c.id == tars_kapoots.c.table_id)  # a Davtar's has no table
        .where(or_(tars_kapoots.c.player_a == player, tars_kapoots.c.player_b == player))
        .order_by(tars_kapoots.c.at)
    ).all()
    names = names_of(c, {int(r.player_a) for r in rows} | {int(r.player_b) for r in rows})
    return [
        {
            "partner": names.get(int(r.player_b) if int(r.player_a) == player else int(r.player_a), ""),
            "table": r.table_id if r.table_id is not None and r.visible else None,
            "at": iso(r.at),
        }
        for r in rows
    ]


__all__ = [
    "AGREEMENT",
    "BOT_PREFIX",
    "LEFT",
    "PLAYED",
    "RESIGNED",
    "accounts_among",
    "current_ratings",
    "delete_sheet_tars_kapoots",
    "insert_result",
    "insert_tars_kapoot",
    "iso",
    "leaderboard",
    "lock_ratings",
    "names_of",
    "player_by_name",
    "profile",
    "public_name",
    "sheet_tars_kapoots",
    "store_rating",
    "tars_kapoots_among",
    "tars_partners",
    "tars_records",
]
