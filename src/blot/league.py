"""What a finished game counts for (League rulebook §7, B-55): its results, the ratings it moves
(computed by :mod:`blot.ratings`), a tars kapoot on record, and the bars those records make at
rated tables with ``--league``. The rules live here; :mod:`blot.store.ratings` only reads and
writes the rows.

:func:`record_outcome` runs in the same transaction as the log line that finishes a game, so a
game's end and the ratings it moves are written together or not at all.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from itertools import combinations
from typing import Any

from sqlalchemy.engine import Connection

from blot.games import spec
from blot.ratings import Rating, changes
from blot.store import ratings as rows
from blot.store.accounts import bot_player
from blot.store.ratings import AGREEMENT, LEFT, PLAYED, RESIGNED, iso


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


def record_outcome(c: Connection, outcome: Outcome, at: datetime) -> dict[int, Rating]:
    """Store a finished (or agreed-ended) game's results, move the ratings it moves (see
    :mod:`blot.ratings`) and put a tars kapoot on record. Answers the new ratings by player."""
    game = spec(outcome.game)
    if outcome.rated:
        rows.lock_ratings(c)  # two rated games ending at once in two processes both count
    who = [s.player if s.player is not None else bot_player(c, s.bot or "basic", at) for s in outcome.seats]
    outcome.resolved[:] = who
    persons = [s.player for s in outcome.seats if s.player is not None]
    accounts = rows.accounts_among(c, persons)
    team_of = {seat: t for t, team in enumerate(game.teams) for seat in team}
    left = frozenset(i for i, s in enumerate(outcome.seats) if s.left or s.resigned)
    # Rated: a finished game at a rated table; persons who are no longer accounts are not rated.
    rated_seats = {
        i
        for i, s in enumerate(outcome.seats)
        if s.bot is not None or (s.player is not None and s.player in accounts)
    }
    current = rows.current_ratings(c, game.name, who)
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
        rows.insert_result(
            c,
            {
                "table_id": outcome.table_id,
                "seat": seat,
                "player_id": player,
                "game": game.name,
                "team": team_of[seat],
                "place": place,
                "ending": ending,
                "rated": moved,
                "mu_before": None if before is None else before.mu,
                "sigma_before": None if before is None else before.sigma,
                "mu_after": None if after is None else after.mu,
                "sigma_after": None if after is None else after.sigma,
                "finished_at": at,
            },
        )
        if moved and player not in counted and after is not None:
            counted.add(player)
            won = ending == PLAYED and place == 0
            rows.store_rating(c, player, game.name, after.mu, after.sigma, won, player in current, at)
    if outcome.tars_kapoot and outcome.rated and outcome.places is not None and not left:
        losers = [s for s in range(len(outcome.seats)) if outcome.places[s] != 0]
        pair = sorted({who[s] for s in losers if outcome.seats[s].player is not None and who[s] in accounts})
        if len(pair) == 2 and len(losers) == 2:
            rows.insert_tars_kapoot(c, pair[0], pair[1], outcome.table_id, at)
    return new


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
    times: dict[tuple[int, int], list[datetime]] = defaultdict(list)
    for a, b, at in rows.tars_kapoots_among(c, ids):
        times[(a, b)].append(at)
    names = rows.names_of(c, set(ids))
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
    partners = rows.tars_partners(c, player)
    return bars(c, sorted(partners | {player}), now, involving=player)


def register(c: Connection, now: datetime) -> list[dict[str, Any]]:
    """The League's register of tars kapoot bans (L-3): each pair that suffered one, since when,
    for one year or for life (a second one), until when, and whether the ban is in force now."""
    from blot.store.events import tars_register

    times: dict[tuple[int, int], list[datetime]] = defaultdict(list)
    names: dict[tuple[int, int], tuple[str, str]] = {}
    for row in tars_register(c):
        key = (row["players"][0], row["players"][1])
        times[key].append(_aware(row["at"], now))
        names[key] = row["names"]
    out = []
    for key, when in times.items():
        lifetime = len(when) >= 2
        until = None if lifetime else a_year_after(when[0])
        out.append(
            {
                "players": list(names[key]),
                "since": iso(when[0]),
                "second": iso(when[1]) if lifetime else None,
                "ban": "lifetime" if lifetime else "one year",
                "until": None if until is None else iso(until),
                "in_force": until is None or now < until,
            }
        )
    out.sort(key=lambda b: str(b["since"]), reverse=True)
    return out


def _aware(at: datetime, like: datetime) -> datetime:
    """SQLite gives back naive datetimes (stored in UTC); PostgreSQL aware ones."""
    if at.tzinfo is None and like.tzinfo is not None:
        return at.replace(tzinfo=like.tzinfo)
    return at


__all__ = ["Bar", "Outcome", "SeatOutcome", "a_year_after", "bars", "bars_of", "record_outcome", "register"]
