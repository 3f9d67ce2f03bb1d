"""Ratings, results and tars kapoot records in the server's database (``blot.store``).

:func:`record_outcome` runs in the same transaction as the log line that finishes a game, so a
game's end and the ratings it moves are written together or not at all. The leaderboards and
profiles are read from here. Every function is blocking and takes a SQLAlchemy connection.

Players appear in answers by their public name only: an account's username, or ``bot:LEVEL`` for
a bot level (usernames cannot hold ``:``, so the two never meet).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import combinations
from typing import Any

from sqlalchemy import and_, case, func, insert, or_, select, update
from sqlalchemy.engine import Connection

from blot.games import SPECS, spec
from blot.ratings import Rating, changes, display
from blot.store.accounts import bot_player
from blot.store.schema import players, ratings, results, tables, tars_kapoots

BOT_PREFIX = "bot:"
#: How a game ended for a seat (``results.ending``).
PLAYED, LEFT, AGREEMENT, RESIGNED = "played", "left", "agreement", "resigned"
RECENT = 20
#: Rated games shown in a profile's rating history (the last ones).
HISTORY = 200
#: Games a profile's partner table counts (the last ones).
PARTNER_GAMES = 1000


@dataclass(frozen=True)
class SeatOutcome:
    """Who sat in a seat at the end: a person (``player``) or a bot level (``bot``); ``left``: a
    person who left and did not come back (a stand-in bot finished the game)."""

    player: int | None
    bot: str | None
    left: bool = False
    #: A person whose side resigned (a rated game "ended by agreement" with no person of the
    #: other side to agree): rated as a loss, as one who left.
    resigned: bool = False


@dataclass(frozen=True)
class Outcome:
    """How a game ended, as a table tells it when it finishes.

    ``places``: each seat's place (0 first), or None for a game ended by agreement;
    ``tars_kapoot``: the game ended by tars kapoot (B-55), suffered by the team that lost."""

    table_id: str
    game: str
    rated: bool
    places: tuple[int, ...] | None
    seats: tuple[SeatOutcome, ...]
    tars_kapoot: bool = False
    #: Filled in by :func:`record_outcome`: the player of each seat (bot levels resolved).
    resolved: list[int] = field(default_factory=list, compare=False)


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


def _accounts(c: Connection, ids: Sequence[int]) -> set[int]:
    if not ids:
        return set()
    rows = c.execute(
        select(players.c.id).where(players.c.id.in_(list(ids)), players.c.username_key.is_not(None))
    ).all()
    return {int(r.id) for r in rows}


def _current(c: Connection, game: str, ids: Sequence[int]) -> dict[int, Rating]:
    rows = c.execute(
        select(ratings.c.player_id, ratings.c.mu, ratings.c.sigma).where(
            ratings.c.game == game, ratings.c.player_id.in_(list(set(ids)))
        )
    ).all()
    return {int(r.player_id): Rating(float(r.mu), float(r.sigma)) for r in rows}


def record_outcome(c: Connection, outcome: Outcome, at: datetime) -> dict[int, Rating]:
    """Store a finished (or agreed-ended) game's results, move the ratings it moves (see
    :mod:`blot.ratings`) and put a tars kapoot on record. Answers the new ratings by player."""
    game = spec(outcome.game)
    who = [s.player if s.player is not None else bot_player(c, s.bot or "basic", at) for s in outcome.seats]
    outcome.resolved[:] = who
    persons = [s.player for s in outcome.seats if s.player is not None]
    accounts = _accounts(c, persons)
    team_of = {seat: t for t, team in enumerate(game.teams) for seat in team}
    left = frozenset(i for i, s in enumerate(outcome.seats) if s.left or s.resigned)
    # Rated: a finished game at a rated table; persons who are no longer accounts are not rated.
    rated_seats = {
        i
        for i, s in enumerate(outcome.seats)
        if s.bot is not None or (s.player is not None and s.player in accounts)
    }
    current = _current(c, game.name, who)
    new: dict[int, Rating] = {}
    if outcome.rated and outcome.places is not None:
        new = changes(game.teams, outcome.places, who, current, left)
        new = {p: r for p, r in new.items() if any(who[i] == p for i in rated_seats)}
    counted: set[int] = set()
    for seat, s in enumerate(outcome.seats):
        player = who[seat]
        place = None if outcome.places is None else outcome.places[seat]
        ending = AGREEMENT if place is None else RESIGNED if s.resigned else LEFT if s.left else PLAYED
        moved = player in new
        before = current.get(player, Rating()) if moved else None
        after = new.get(player)
        c.execute(
            insert(results).values(
                table_id=outcome.table_id,
                seat=seat,
                player_id=player,
                game=game.name,
                team=team_of[seat],
                place=place,
                ending=ending,
                rated=moved,
                mu_before=None if before is None else before.mu,
                sigma_before=None if before is None else before.sigma,
                mu_after=None if after is None else after.mu,
                sigma_after=None if after is None else after.sigma,
                finished_at=at,
            )
        )
        if moved and player not in counted and after is not None:
            counted.add(player)
            won = ending == PLAYED and place == 0
            _store_rating(c, player, game.name, after, won, player in current, at)
    if outcome.tars_kapoot and outcome.rated and outcome.places is not None and not left:
        losers = [s for s in range(len(outcome.seats)) if outcome.places[s] != 0]
        pair = sorted({who[s] for s in losers if outcome.seats[s].player is not None and who[s] in accounts})
        if len(pair) == 2 and len(losers) == 2:
            c.execute(
                insert(tars_kapoots).values(
                    player_a=pair[0], player_b=pair[1], table_id=outcome.table_id, at=at
                )
            )
    return new


def _store_rating(
    c: Connection, player: int, game: str, rating: Rating, won: bool, exists: bool, at: datetime
) -> None:
    if exists:
        c.execute(
            update(ratings)
            .where(ratings.c.player_id == player, ratings.c.game == game)
            .values(
                mu=rating.mu,
                sigma=rating.sigma,
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
                mu=rating.mu,
                sigma=rating.sigma,
                games=1,
                wins=1 if won else 0,
                updated_at=at,
            )
        )


# --- reading ---------------------------------------------------------------------------------------


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


def _names(c: Connection, ids: set[int]) -> dict[int, str]:
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
    counts per game, the rating history (the last :data:`HISTORY` rated games), partners and
    tars kapoots, and a page of :data:`RECENT` recent games (``page`` from 0). Games of private
    tables are left out of the lists unless the viewer sat there; partners count public games.
    Every part is one indexed query, so a player with thousands of games answers at once."""
    player = int(row.id)
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
            "played": played,
            "won": wins,
            "history": _history(c, player, name, viewer),
            "partners": _partners(c, player, name),
        }
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
    names = _names(c, {int(r.player_id) for rs in by_table.values() for r in rs})
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
                "match_score": summary.get("match_score"),
                "totals": summary.get("totals"),
                "replay": f"/replay/{r.table_id}",
            }
        )
    return {
        "username": public_name(row.username, row.bot),
        "bot": row.bot,
        "since": iso(row.created_at),
        "games": games,
        "recent": recent,
        "page": page,
        "next_page": page + 1 if more else None,
        "tars_kapoot": tars_records(c, player, viewer),
    }


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
    names = _names(c, {int(r.player_id) for r in rows})
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
    """Every tars kapoot the player suffered at a rated table, oldest first, with the partner (the
    table only where ``viewer`` may see it: :func:`_seen_by`)."""
    rows = c.execute(
        select(tars_kapoots, _seen_by(viewer).label("visible"))
        .join(tables, tables.c.id == tars_kapoots.c.table_id)
        .where(or_(tars_kapoots.c.player_a == player, tars_kapoots.c.player_b == player))
        .order_by(tars_kapoots.c.at)
    ).all()
    names = _names(c, {int(r.player_a) for r in rows} | {int(r.player_b) for r in rows})
    return [
        {
            "partner": names.get(int(r.player_b) if int(r.player_a) == player else int(r.player_a), ""),
            "table": r.table_id if r.visible else None,
            "at": iso(r.at),
        }
        for r in rows
    ]


@dataclass(frozen=True)
class Bar:
    """A pair barred from sitting together at rated tables (League §7, with ``--league``):
    until ``until``, or for ever (``until`` None) after a second tars kapoot."""

    players: tuple[int, int]
    names: tuple[str, str]
    first: datetime
    until: datetime | None

    def sentence(self) -> str:
        a, b = self.names
        if self.until is None:
            return (
                f"{a} and {b} suffered tars kapoot twice: under the League's rules they may never "
                "again sit together at a rated table"
            )
        return (
            f"{a} and {b} suffered tars kapoot on {self.first.date().isoformat()}: under the League's "
            f"rules they may not sit together at a rated table until {self.until.date().isoformat()}"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "players": list(self.names),
            "since": iso(self.first),
            "until": None if self.until is None else iso(self.until),
            "message": self.sentence(),
        }


def a_year_after(at: datetime) -> datetime:
    try:
        return at.replace(year=at.year + 1)
    except ValueError:  # 29 February
        return at.replace(year=at.year + 1, day=28)


def bars(c: Connection, people: Sequence[int], now: datetime, *, involving: int | None = None) -> list[Bar]:
    """The bars in force now among ``people`` (only those of ``involving`` when given): a pair is
    barred for a year after its first tars kapoot and for ever after its second."""
    ids = sorted(set(people))
    if len(ids) < 2:
        return []
    rows = c.execute(
        select(tars_kapoots.c.player_a, tars_kapoots.c.player_b, tars_kapoots.c.at)
        .where(and_(tars_kapoots.c.player_a.in_(ids), tars_kapoots.c.player_b.in_(ids)))
        .order_by(tars_kapoots.c.at)
    ).all()
    times: dict[tuple[int, int], list[datetime]] = defaultdict(list)
    for r in rows:
        times[(int(r.player_a), int(r.player_b))].append(r.at)
    names = _names(c, set(ids))
    out = []
    for pair in combinations(ids, 2):
        if involving is not None and involving not in pair:
            continue
        when = times.get(pair)
        if not when:
            continue
        first = _aware(when[0], now)
        until = None if len(when) >= 2 else a_year_after(first)
        if until is None or now < until:
            out.append(Bar(pair, (names.get(pair[0], ""), names.get(pair[1], "")), first, until))
    return out


def bars_of(c: Connection, player: int, now: datetime) -> list[Bar]:
    """Every bar in force now that names ``player``."""
    rows = c.execute(
        select(tars_kapoots.c.player_a, tars_kapoots.c.player_b).where(
            or_(tars_kapoots.c.player_a == player, tars_kapoots.c.player_b == player)
        )
    ).all()
    partners = {int(r.player_a) for r in rows} | {int(r.player_b) for r in rows}
    return bars(c, sorted(partners | {player}), now, involving=player)


def iso(at: datetime) -> str:
    """An ISO 8601 time in UTC (SQLite gives back naive datetimes, stored in UTC)."""
    return (at if at.tzinfo is not None else at.replace(tzinfo=UTC)).isoformat()


def _aware(at: datetime, like: datetime) -> datetime:
    """SQLite gives back naive datetimes (stored in UTC); PostgreSQL aware ones."""
    if at.tzinfo is None and like.tzinfo is not None:
        return at.replace(tzinfo=like.tzinfo)
    return at


__all__ = [
    "AGREEMENT",
    "BOT_PREFIX",
    "LEFT",
    "PLAYED",
    "Bar",
    "Outcome",
    "SeatOutcome",
    "bars",
    "bars_of",
    "leaderboard",
    "player_by_name",
    "profile",
    "public_name",
    "record_outcome",
    "tars_records",
]
