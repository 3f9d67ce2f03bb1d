"""What a finished game counts for (League rulebook §7, B-55): its results, the ratings it moves
(computed by :mod:`blot.ratings`), a tars kapoot on record, and the bars those records make with
``--league``; and the Court of Conduct's dishonours (L-9, L-10) with the bars they make. The
rules live here; :mod:`blot.store.ratings`, :mod:`blot.store.tournaments` and
:mod:`blot.store.courts` only read and write rows.

**Who a bar keeps from what** (L-3, issue 38 item 5): a pair barred by a tars kapoot (a year, for
life after a second) may not play *together as partners* at a public or rated table, nor enter
an event together; the two may sit as opponents, and play together at a private unrated table
among friends. A tars kapoot bars the pair wherever it happened: at any online table, rated or
not, or on a referee's Davtar at an event. An account barred by a dishonour (L-10: for a period
or for life, until the Court forgives it) may not sit at a public or rated table at all, nor
enter an event; a private unrated table stays open to it.

:func:`record_outcome` runs in the same transaction as the log line that finishes a game, so a
game's end and the ratings it moves are written together or not at all.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
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
    # wherever it happened, rated or not (L-3: the ban follows the pair; issue 38 item 5)
    if outcome.tars_kapoot and outcome.places is not None and not left:
        losers = [s for s in range(len(outcome.seats)) if outcome.places[s] != 0]
        pair = sorted({who[s] for s in losers if outcome.seats[s].player is not None and who[s] in accounts})
        if len(pair) == 2 and len(losers) == 2:
            rows.insert_tars_kapoot(c, pair[0], pair[1], outcome.table_id, at)
    return new


def record_sheet_outcome(
    c: Connection, sheet_id: str, winner: int | None, tars_kapoot: bool, at: datetime
) -> None:
    """After every edit of a referee's Davtar at an event (B-55, L-3): a game it ends by tars
    kapoot puts the losing pair's two accounts on record, as at an online table, once; an edit
    that takes that ending back (a deal corrected or taken back) takes the record back too. A
    sheet of no event names no accounts and records nothing."""
    from blot.store.tournaments import sheet_entry_members

    members = sheet_entry_members(c, sheet_id)
    if members is None:
        return
    pair: list[int] = []
    if tars_kapoot and winner is not None and len(members) == 2:
        pair = sorted(set(members[1 - winner]))
    recorded = rows.sheet_tars_kapoots(c, sheet_id)
    if len(pair) == 2 and recorded == [(pair[0], pair[1])]:
        return
    rows.delete_sheet_tars_kapoots(c, sheet_id)
    if len(pair) == 2:
        rows.insert_tars_kapoot(c, pair[0], pair[1], None, at, sheet_id=sheet_id)


@dataclass(frozen=True)
class Bar:
    """A pair barred from playing together as partners at public or rated tables and from
    entering events (League §7, L-3, with ``--league``): until ``until``, or for ever (``until``
    None) after a second tars kapoot."""

    players: tuple[int, int]
    names: tuple[str, str]
    first: datetime
    until: datetime | None

    def sentence(self) -> str:
        a, b = self.names
        if self.until is None:
            return (
                f"{a} and {b} suffered tars kapoot twice: under the League's rules they may never "
                "again play together as partners at a public table or in an event"
            )
        return (
            f"{a} and {b} suffered tars kapoot on {self.first.date().isoformat()}: under the League's "
            "rules they may not play together as partners at a public table or in an event until "
            f"{self.until.date().isoformat()}"
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
        found = _in_force(times.get(pair, []), now)
        if found is not None:
            first, until = found
            out.append(Bar(pair, (names.get(pair[0], ""), names.get(pair[1], "")), first, until))
    return out


def _in_force(when: Sequence[datetime], now: datetime) -> tuple[datetime, datetime | None] | None:
    """A pair's bar from its tars kapoots (oldest first): (since, until or None for life) while
    in force, else None."""
    if not when:
        return None
    first = _aware(when[0], now)
    until = None if len(when) >= 2 else a_year_after(first)
    return (first, until) if until is None or now < until else None


def barred_entries(
    c: Connection, entries: Mapping[int, Sequence[int]], now: datetime, *, tars: bool
) -> dict[int, str]:
    """The entries of an event (entry -> its accounts) that a bar keeps out now, and why:
    ``dishonour`` (an account barred by the Court of Conduct, L-10) or ``tars_kapoot`` (the
    pair, with ``--league``, L-3). A few statements for the whole event."""
    ids = sorted({p for members in entries.values() for p in members})
    dishonoured = {b.player for b in dishonour_bars(c, ids, now)}
    times: dict[tuple[int, int], list[datetime]] = defaultdict(list)
    if tars and len(ids) >= 2:
        for a, b, at in rows.tars_kapoots_among(c, ids):
            times[(a, b)].append(at)
    out: dict[int, str] = {}
    for entry, members in entries.items():
        if dishonoured & set(members):
            out[entry] = "dishonour"
        elif tars and len(set(members)) == 2:
            a, b = sorted(set(members))
            if _in_force(times.get((a, b), []), now) is not None:
                out[entry] = "tars_kapoot"
    return out


def bars_of(c: Connection, player: int, now: datetime) -> list[Bar]:
    """Every bar in force now that names ``player``."""
    partners = rows.tars_partners(c, player)
    return bars(c, sorted(partners | {player}), now, involving=player)


#: The dishonours of L-9, by the key the API and the register use.
KINDS = {
    "signals": "hints and signals",
    "stakes": "betting or stakes",
    "cheating": "cheating and fraud",
    "barred_pair": "playing with a barred pair",
    "arranged_loss": "a faked or arranged loss",
}
#: The penances the Court of Conduct gives (L-10): a warning, a bar until a date, a bar for life.
PENANCES = ("warning", "bar", "life")


@dataclass(frozen=True)
class DishonourBar:
    """An account barred by a dishonour (L-9, L-10): no public or rated table, no event, until
    ``until`` (a date, the first day it may play again) or for life (None), unless forgiven."""

    player: int
    name: str
    decision: int
    until: str | None

    def sentence(self) -> str:
        if self.until is None:
            return (
                f"{self.name} is barred for life by the Court of Conduct (decision {self.decision}): "
                "no public table and no event"
            )
        return (
            f"{self.name} is barred by the Court of Conduct (decision {self.decision}) until "
            f"{self.until}: no public table and no event until then"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "players": [self.name],
            "until": self.until,
            "decision": self.decision,
            "message": self.sentence(),
        }


def dishonour_bars(c: Connection, people: Sequence[int], now: datetime) -> list[DishonourBar]:
    """The dishonour bars in force now on any of ``people``: a bar whose day has not come, or
    for life, and not forgiven (L-10)."""
    from blot.store.courts import barring_decisions

    wanted = set(people)
    if not wanted:
        return []
    today = now.date().isoformat()
    found = []
    for d in barring_decisions(c):
        if d["until"] is not None and d["until"] <= today:
            continue
        for player in d["accounts"] or []:
            if player in wanted:
                found.append((int(player), int(d["id"]), d["until"]))
    names = rows.names_of(c, {p for p, _, _ in found})
    return [DishonourBar(p, names.get(p, ""), number, until) for p, number, until in found]


def seating_bar(
    c: Connection,
    seats: Mapping[int, int],
    teams: Sequence[Sequence[int]],
    now: datetime,
    *,
    tars: bool,
    newcomer: int | None = None,
) -> Bar | DishonourBar | None:
    """What keeps these persons (seat -> player) from sitting together at a public or rated
    table, if anything: an account barred by a dishonour, or (``tars``: with ``--league``) two
    partners of one team barred by a tars kapoot. Opponents are never kept apart (L-3 bans a
    *pair*). ``newcomer``: only the bars that name this person."""
    people = sorted(set(seats.values()) if newcomer is None else {newcomer})
    for bar in dishonour_bars(c, people, now):
        return bar
    if tars:
        for team in teams:
            partners = sorted({seats[s] for s in team if s in seats})
            found = bars(c, partners, now, involving=newcomer)
            if found:
                return found[0]
    return None


def entry_bar(
    c: Connection, people: Sequence[int], now: datetime, *, tars: bool
) -> Bar | DishonourBar | None:
    """What keeps an entry of these accounts out of an event, if anything (L-3, L-10)."""
    for bar in dishonour_bars(c, people, now):
        return bar
    found = bars(c, people, now) if tars else []
    return found[0] if found else None


def register(c: Connection, now: datetime) -> list[dict[str, Any]]:
    """The League's register of tars kapoot bans (L-3): each pair that suffered one, since when,
    for one year or for life (a second one), until when, and whether the ban is in force now."""
    from blot.store.courts import tars_register

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


__all__ = [
    "KINDS",
    "PENANCES",
    "Bar",
    "DishonourBar",
    "Outcome",
    "SeatOutcome",
    "a_year_after",
    "barred_entries",
    "bars",
    "bars_of",
    "dishonour_bars",
    "entry_bar",
    "record_outcome",
    "record_sheet_outcome",
    "register",
    "seating_bar",
]
