"""Puzzles mined from finished games and their ratings (issue 28; :mod:`blot.puzzles`). Every
function is blocking and takes a connection.

Puzzles and solvers are both rated with OpenSkill (:mod:`blot.ratings`, the library the game
ratings use): an attempt is a game of two, the solver against the puzzle, won by the solver when
the card played is one of the puzzle's best. Only an account's first attempt at a puzzle moves
ratings: always its own, the puzzle's only once the account is *established*
(:func:`established`: throwaway accounts failing a puzzle on purpose move nothing but their own
rating, issue 38 item 7); a guest's is kept (so that the next puzzle is a new one) and moves
nothing; an attempt without a player is answered and forgotten. Only an account is shown the
solution and the cards' values, after its own attempt: an attempt without one learns whether its
card was one of the best, and no more (else it could learn the answer, then play it rated). The
next puzzle is the one nearest the player's rating (``mu``) that the player has not tried.

A puzzle's record is its game's record with the names replaced (:func:`blot.puzzles.anonymous`),
kept once per game (``puzzle_games``); a puzzle never says which table it comes from.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping, Sequence
from datetime import UTC, date, datetime, time, timedelta
from random import Random
from typing import Any, Final

from sqlalchemy import and_, func, insert, select, update
from sqlalchemy.engine import Connection

from blot.puzzles import Puzzle, anonymous, record_key
from blot.ratings import MU, SIGMA, Rating, changes, display
from blot.store.schema import players, puzzle_attempts, puzzle_games, puzzle_ratings, puzzles

#: The next puzzle is looked for this far (in ``mu``) around the player's rating, either way, at
#: random, so that two players of one rating do not always get the same one.
JITTER: Final = 1.5

#: An account moves puzzles' ratings once it has made this many rated attempts at the game's
#: puzzles before (docs/players.md, *Puzzles*) ...
ESTABLISHED_ATTEMPTS: Final = 20
#: ... and is at least this old: a throwaway account cannot be made established in an afternoon.
ESTABLISHED_AGE: Final = timedelta(days=7)


def add(
    c: Connection,
    record: Mapping[str, Any],
    found: Sequence[Puzzle],
    at: datetime,
    table_id: str | None = None,
) -> int:
    """Keep the puzzles ``found`` in a finished game's ``record``; a puzzle already kept (the same
    game's position) is left as it is. Answers how many are new."""
    if not found:
        return 0
    key = record_key(record)
    source = c.execute(select(puzzle_games.c.id).where(puzzle_games.c.key == key)).scalar_one_or_none()
    if source is None:
        inserted = c.execute(
            insert(puzzle_games).values(
                key=key, game=found[0].game, table_id=table_id, record=anonymous(record), created_at=at
            )
        ).inserted_primary_key
        assert inserted is not None
        source = inserted[0]
    known = {
        (int(r.deal), int(r.after))
        for r in c.execute(select(puzzles.c.deal, puzzles.c.after).where(puzzles.c.source == source))
    }
    new = [p for p in found if (p.deal, p.after) not in known]
    for p in new:
        data = p.to_json()
        c.execute(
            insert(puzzles).values(
                source=source,
                game=p.game,
                deal=p.deal,
                after=p.after,
                seat=p.seat,
                solution=data["solution"],
                values=data["values"],
                threshold=p.threshold,
                mu=MU,
                sigma=SIGMA,
                attempts=0,
                solved=0,
                created_at=at,
            )
        )
    return len(new)


_COLUMNS: Final = (puzzles, puzzle_games.c.record)


def _select() -> Any:
    return select(*_COLUMNS).join(puzzle_games, puzzle_games.c.id == puzzles.c.source)


def get(c: Connection, puzzle_id: int) -> Any:
    """The puzzle's row with its ``record``, or None."""
    return c.execute(_select().where(puzzles.c.id == puzzle_id)).first()


def rating(c: Connection, player: int, game: str) -> Rating | None:
    """The player's puzzle rating in ``game``, or None before the first rated attempt."""
    row = c.execute(
        select(puzzle_ratings.c.mu, puzzle_ratings.c.sigma).where(
            puzzle_ratings.c.player_id == player, puzzle_ratings.c.game == game
        )
    ).first()
    return None if row is None else Rating(float(row.mu), float(row.sigma))


def established(c: Connection, player: int, game: str, at: datetime) -> bool:
    """Whether the account's attempts move puzzles' ratings: :data:`ESTABLISHED_ATTEMPTS` rated
    attempts at ``game``'s puzzles already, and an account :data:`ESTABLISHED_AGE` old at ``at``."""
    made = c.execute(select(players.c.created_at).where(players.c.id == player)).scalar_one_or_none()
    if made is None:
        return False
    if made.tzinfo is None:  # SQLite gives back naive datetimes (stored in UTC)
        made = made.replace(tzinfo=UTC)
    if at - made < ESTABLISHED_AGE:
        return False
    tried = c.execute(
        select(puzzle_ratings.c.attempts).where(
            puzzle_ratings.c.player_id == player, puzzle_ratings.c.game == game
        )
    ).scalar_one_or_none()
    return int(tried or 0) >= ESTABLISHED_ATTEMPTS


def rating_json(found: Rating | None) -> dict[str, Any] | None:
    """A puzzle rating as answers give it: the shown rating (``mu - 3 sigma``), ``mu``, ``sigma``."""
    if found is None:
        return None
    return {
        "rating": display(found.mu, found.sigma),
        "mu": round(found.mu, 3),
        "sigma": round(found.sigma, 3),
    }


def next_for(c: Connection, game: str, player: int | None, rng: Random) -> Any:
    """The puzzle of ``game`` nearest the player's rating (the initial one for a guest or
    nobody) that the player has not tried; None when there is none left."""
    current = rating(c, player, game) if player is not None else None
    target = (current or Rating()).mu + rng.uniform(-JITTER, JITTER)
    where = [puzzles.c.game == game]
    if player is not None:
        tried = (
            select(puzzle_attempts.c.puzzle_id)
            .where(puzzle_attempts.c.player_id == player, puzzle_attempts.c.puzzle_id == puzzles.c.id)
            .exists()
        )
        where.append(~tried)
    up = c.execute(
        _select().where(*where, puzzles.c.mu >= target).order_by(puzzles.c.mu, puzzles.c.id).limit(1)
    ).first()
    down = c.execute(
        _select().where(*where, puzzles.c.mu < target).order_by(puzzles.c.mu.desc(), puzzles.c.id).limit(1)
    ).first()
    if up is None or down is None:
        return up if down is None else down
    return up if float(up.mu) - target <= target - float(down.mu) else down


def daily(c: Connection, game: str, day: date) -> Any:
    """The puzzle of the day: one of the puzzles of ``game`` kept before ``day`` began (any,
    on the first day), chosen by the date, the same all day for everybody."""
    start = datetime.combine(day, time(), tzinfo=UTC)
    older = [puzzles.c.game == game, puzzles.c.created_at < start]
    top = c.execute(select(func.max(puzzles.c.id)).where(*older)).scalar_one_or_none()
    if top is None:
        older = [puzzles.c.game == game]
        top = c.execute(select(func.max(puzzles.c.id)).where(*older)).scalar_one_or_none()
        if top is None:
            return None
    pick = (
        int.from_bytes(hashlib.sha256(f"{game}:{day.isoformat()}".encode()).digest()[:8], "big") % int(top)
        + 1
    )
    found = c.execute(_select().where(*older, puzzles.c.id >= pick).order_by(puzzles.c.id).limit(1)).first()
    return found or c.execute(_select().where(*older).order_by(puzzles.c.id).limit(1)).first()


def attempt(
    c: Connection, row: Any, card: str, player: int | None, account: bool, at: datetime
) -> dict[str, Any]:
    """Play ``card`` (a legal card of the puzzle: checked by the caller) at the puzzle ``row``:
    right or wrong, every card's value to an account only, and the ratings it moved (see the
    module's docstring)."""
    solved = card in row.solution
    out: dict[str, Any] = {
        "solved": solved,
        "card": card,
        "threshold": int(row.threshold),
        "rated": False,
        "first": False,
        "established": False,
        "rating": None,
        "puzzle_rating": {"before": display(row.mu, row.sigma), "after": display(row.mu, row.sigma)},
    }
    if account and player is not None:
        out["solution"] = list(row.solution)
        out["values"] = dict(row.values)
    if player is None:
        return out
    done = c.execute(
        select(puzzle_attempts.c.solved).where(
            puzzle_attempts.c.player_id == player, puzzle_attempts.c.puzzle_id == row.id
        )
    ).first()
    if done is not None:
        return out
    out["first"] = True
    c.execute(
        insert(puzzle_attempts).values(
            player_id=player, puzzle_id=row.id, card=card, solved=solved, rated=account, at=at
        )
    )
    counts = {"attempts": puzzles.c.attempts + 1, "solved": puzzles.c.solved + (1 if solved else 0)}
    if not account:
        c.execute(update(puzzles).where(puzzles.c.id == row.id).values(**counts))
        return out
    moves = established(c, player, row.game, at)
    mine = rating(c, player, row.game)
    theirs = Rating(float(row.mu), float(row.sigma))
    new = changes(
        ((0,), (1,)),
        (0, 1) if solved else (1, 0),
        ("player", "puzzle"),
        {"puzzle": theirs, **({"player": mine} if mine else {})},
        frozenset(),
    )
    me, it = new["player"], new["puzzle"] if moves else theirs
    c.execute(update(puzzles).where(puzzles.c.id == row.id).values(mu=it.mu, sigma=it.sigma, **counts))
    before = mine or Rating()
    values = {"mu": me.mu, "sigma": me.sigma, "updated_at": at}
    if mine is None:
        c.execute(
            insert(puzzle_ratings).values(
                player_id=player, game=row.game, attempts=1, solved=1 if solved else 0, **values
            )
        )
    else:
        c.execute(
            update(puzzle_ratings)
            .where(and_(puzzle_ratings.c.player_id == player, puzzle_ratings.c.game == row.game))
            .values(
                attempts=puzzle_ratings.c.attempts + 1,
                solved=puzzle_ratings.c.solved + (1 if solved else 0),
                **values,
            )
        )
    out["rated"] = True
    out["established"] = moves
    out["rating"] = {"before": display(before.mu, before.sigma), "after": display(me.mu, me.sigma)}
    out["puzzle_rating"] = {"before": display(theirs.mu, theirs.sigma), "after": display(it.mu, it.sigma)}
    return out


def _described(row: Any) -> dict[str, Any]:
    """What both the API and the export say of a puzzle: where it stands, its rating and its
    counts (the answer and the record are each one's own)."""
    return {
        "id": int(row.id),
        "game": row.game,
        "deal": int(row.deal),
        "after": int(row.after),
        "seat": int(row.seat),
        "threshold": int(row.threshold),
        "rating": display(row.mu, row.sigma),
        "mu": round(float(row.mu), 3),
        "sigma": round(float(row.sigma), 3),
        "attempts": int(row.attempts),
        "solved": int(row.solved),
    }


def public(row: Any, shown: Mapping[str, Any]) -> dict[str, Any]:
    """A puzzle as the API gives it to solve: no solution, no values (docs/protocol.md)."""
    return {**_described(row), "players": list(row.record.get("players") or []), **shown}


def exported(c: Connection, game: str | None = None) -> Iterator[dict[str, Any]]:
    """Every puzzle (of ``game`` when given) as ``blot puzzles export`` writes it, by id."""
    query = _select().order_by(puzzles.c.id)
    if game is not None:
        query = query.where(puzzles.c.game == game)
    for row in c.execute(query):
        yield {
            **_described(row),
            "record": row.record,
            "solution": list(row.solution),
            "values": dict(row.values),
        }


def count(c: Connection, game: str | None = None) -> int:
    query = select(func.count()).select_from(puzzles)
    if game is not None:
        query = query.where(puzzles.c.game == game)
    return int(c.execute(query).scalar_one())
