"""The column kinds the migrations write, each in one place: a timestamp, a reference to a
player or a table, a key of text, a count. The migrations were written with ``sa.Column`` in full
and repeated the same few kinds a hundred times (issue 39).

These builders are frozen: a released migration must create the same schema for ever, so a
builder never changes what it makes; a new kind of column is a new builder. Every one takes
``nullable`` (False unless said) and passes any other keyword (``primary_key``, ``unique``,
``autoincrement``, ``server_default``) to :class:`sqlalchemy.Column` as it is.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

Column = sa.Column[Any]


def _column(name: str, kind: Any, *extra: Any, nullable: bool = False, **kw: Any) -> Column:
    return sa.Column(name, kind, *extra, nullable=nullable, **kw)


def when(name: str, nullable: bool = False) -> Column:
    """A moment, with its time zone."""
    return _column(name, sa.DateTime(timezone=True), nullable=nullable)


def text(name: str, length: int, nullable: bool = False, **kw: Any) -> Column:
    """Text of at most ``length`` characters."""
    return _column(name, sa.String(length), nullable=nullable, **kw)


def prose(name: str, nullable: bool = False) -> Column:
    """Text of any length (a question, an answer, a decision)."""
    return _column(name, sa.Text(), nullable=nullable)


def number(name: str, nullable: bool = False, **kw: Any) -> Column:
    """A whole number."""
    return _column(name, sa.Integer(), nullable=nullable, **kw)


def real(name: str, nullable: bool = False) -> Column:
    """A number with a fraction (a rating, seconds)."""
    return _column(name, sa.Float(), nullable=nullable)


def flag(name: str, nullable: bool = False, **kw: Any) -> Column:
    """True or false."""
    return _column(name, sa.Boolean(), nullable=nullable, **kw)


def data(name: str, nullable: bool = False) -> Column:
    """A JSON document."""
    return _column(name, sa.JSON(), nullable=nullable)


def serial(name: str = "id") -> Column:
    """The numbered primary key of a table whose rows the database numbers."""
    return _column(name, sa.Integer(), primary_key=True, autoincrement=True)


def ordinal(name: str) -> Column:
    """A numbered part of a composite primary key (a seat, a log's sequence), never numbered by
    the database."""
    return _column(name, sa.Integer(), primary_key=True, autoincrement=False)


def player(name: str, nullable: bool = False, **kw: Any) -> Column:
    """A player (``players.id``)."""
    return _column(name, sa.Integer(), sa.ForeignKey("players.id"), nullable=nullable, **kw)


def row(name: str, target: str, nullable: bool = False, **kw: Any) -> Column:
    """A numbered row of another table (``target``: ``"table.column"``)."""
    return _column(name, sa.Integer(), sa.ForeignKey(target), nullable=nullable, **kw)


def key(name: str, target: str | sa.ForeignKey, nullable: bool = False, **kw: Any) -> Column:
    """A row of another table known by its 24-character id (a table, a sheet, an event);
    ``target`` is ``"table.id"``, or the foreign key itself where it says more."""
    foreign = target if isinstance(target, sa.ForeignKey) else sa.ForeignKey(target)
    return _column(name, sa.String(24), foreign, nullable=nullable, **kw)


def rating() -> list[Column]:
    """The head of a player's rating table (the games' ratings, the puzzles' ratings): the
    player and the game, its key, then the rating's mean and spread."""
    return [
        player("player_id", primary_key=True),
        text("game", 16, primary_key=True),
        real("mu"),
        real("sigma"),
    ]
