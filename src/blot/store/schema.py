"""The database tables (SQLAlchemy Core). Alembic migrations in ``migrations/versions`` create
and change them; a test checks that the migrations and these definitions agree.

- ``players``: a name and the hash of the browser-held token (accounts come later).
- ``tables``: one row per table: game, settings, status and a copy of its seats for listings;
  ``record`` holds the docs/format.md record once the game is over.
- ``table_log``: the append-only log of every accepted change of a table (seats, start, the cards
  of each deal, every action). A table's state is the fold of its log through the rules engine.
- ``scoresheets``: one row per score sheet (Davtar) of a real-table game: rules, team names, the
  read-only share id, and ``version`` (the number of its last edit, which watchers compare).
- ``scoresheet_deals``: a sheet's current deal entries (the score sheet model's JSON input form).
  A sheet's totals, end and match score are never stored: the model recomputes them.
- ``scoresheet_edits``: the append-only history of a sheet's deals: who, when, before, after.
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

scoresheets = Table(
    "scoresheets",
    metadata,
    Column("id", String(24), primary_key=True),
    Column("share_id", String(24), nullable=False, unique=True),
    Column("ruleset", String(16), nullable=False),
    Column("options", JSON, nullable=False),
    Column("teams", JSON, nullable=False),
    Column("created_by", String(40), nullable=True),
    Column("created_player", Integer, ForeignKey("players.id"), nullable=True),
    Column("version", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

scoresheet_deals = Table(
    "scoresheet_deals",
    metadata,
    Column("sheet_id", String(24), ForeignKey("scoresheets.id"), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("entry", JSON, nullable=False),
)

scoresheet_edits = Table(
    "scoresheet_edits",
    metadata,
    Column("sheet_id", String(24), ForeignKey("scoresheets.id"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("deal", Integer, nullable=False),
    Column("action", String(8), nullable=False),
    Column("before", JSON, nullable=True),
    Column("after", JSON, nullable=True),
    Column("by_name", String(40), nullable=True),
    Column("by_player", Integer, ForeignKey("players.id"), nullable=True),
    Column("at", DateTime(timezone=True), nullable=False),
)
