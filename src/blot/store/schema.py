"""The database tables (SQLAlchemy Core). Alembic migrations in ``migrations/versions`` create
and change them; a test checks that the migrations and these definitions agree.

- ``players``: a name and the hash of the browser-held token (accounts come later).
- ``tables``: one row per table: game, settings, status and a copy of its seats for listings;
  ``record`` holds the FORMAT.md record once the game is over.
- ``table_log``: the append-only log of every accepted change of a table (seats, start, the cards
  of each deal, every action). A table's state is the fold of its log through the rules engine.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
)

metadata = MetaData()

players = Table(
    "players",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(40), nullable=False),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

tables = Table(
    "tables",
    metadata,
    Column("id", String(24), primary_key=True),
    Column("game", String(16), nullable=False),
    Column("settings", JSON, nullable=False),
    Column("public", Boolean, nullable=False),
    Column("status", String(12), nullable=False),
    Column("host", Integer, ForeignKey("players.id"), nullable=True),
    Column("seats", JSON, nullable=False),
    Column("last_seq", Integer, nullable=False),
    Column("summary", JSON, nullable=True),
    Column("record", JSON, nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=True),
    Index("ix_tables_status", "status"),
)

table_log = Table(
    "table_log",
    metadata,
    Column("table_id", String(24), ForeignKey("tables.id"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("kind", String(12), nullable=False),
    Column("payload", JSON, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
)
