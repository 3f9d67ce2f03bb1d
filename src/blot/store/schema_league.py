"""The League's tables (issue 25 and after): events, their entries, rounds, tables and notes,
the referees' recusals and the courts' cases and decisions; described in :mod:`blot.store.schema`,
which re-exports them (one module would be past the house's 600 lines)."""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
)

from blot.store.meta import metadata

events = Table(
    "events",
    metadata,
    Column("id", String(24), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("game", String(16), nullable=False),
    Column("format", String(16), nullable=False),
    Column("settings", JSON, nullable=False),
    Column("public", Boolean, nullable=False),
    Column("status", String(12), nullable=False),
    Column("created_by", Integer, ForeignKey("players.id"), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Index("ix_events_listing", "public", "status", "updated_at"),
)

event_organizers = Table(
    "event_organizers",
    metadata,
    Column("event_id", String(24), ForeignKey("events.id"), primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True),
)

event_entries = Table(
    "event_entries",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("event_id", String(24), ForeignKey("events.id"), nullable=False),
    Column("name", String(90), nullable=False),
    Column("bot", String(80), nullable=True),
    Column("late", Boolean, nullable=False, server_default=false()),
    Column("withdrawn_at", DateTime(timezone=True), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    #: Withdrawn by a bar (L-3, L-10): ``{"by": "tars_kapoot" | "dishonour", "round": N}``.
    Column("barred", JSON, nullable=True),
    Index("ix_event_entries_event", "event_id"),
)

event_members = Table(
    "event_members",
    metadata,
    Column("event_id", String(24), ForeignKey("events.id"), primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True),
    Column("entry_id", Integer, ForeignKey("event_entries.id"), nullable=False),
    Column("position", Integer, nullable=False),
    Column("confirmed", Boolean, nullable=False),
    Index("ix_event_members_entry", "entry_id"),
    Index("ix_event_members_player", "player_id"),
)

event_rounds = Table(
    "event_rounds",
    metadata,
    Column("event_id", String(24), ForeignKey("events.id"), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("byes", JSON, nullable=False),
    Column("boards", JSON, nullable=True),
    Column("started_at", DateTime(timezone=True), nullable=False),
    #: ``published`` (paired, its tables not open: the organizer may correct it) or ``playing``
    #: (issue 42 item 2); the round's corrections (who, when, what) and its requested byes.
    Column("status", String(12), nullable=False, server_default="playing"),
    Column("changes", JSON, nullable=True),
    Column("absent", JSON, nullable=True),
)

event_tables = Table(
    "event_tables",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("event_id", String(24), ForeignKey("events.id"), nullable=False),
    Column("round", Integer, nullable=False),
    Column("number", Integer, nullable=False),
    Column("entries", JSON, nullable=False),
    Column("table_id", String(24), ForeignKey("tables.id"), nullable=True),
    Column("sheet_id", String(24), ForeignKey("scoresheets.id"), nullable=True),
    Column("referee", Integer, ForeignKey("players.id"), nullable=True),
    Column("forfeit", JSON, nullable=True),
    UniqueConstraint("event_id", "round", "number", name="uq_event_tables_round_number"),
    Index("ix_event_tables_table", "table_id"),
    Index("ix_event_tables_sheet", "sheet_id"),
    Index("ix_event_tables_referee", "referee"),
)

event_notes = Table(
    "event_notes",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("event_table", Integer, ForeignKey("event_tables.id"), nullable=False),
    Column("kind", String(16), nullable=False),
    Column("body", JSON, nullable=False),
    Column("by_player", Integer, ForeignKey("players.id"), nullable=True),
    Column("at", DateTime(timezone=True), nullable=False),
    Index("ix_event_notes_table", "event_table", "at"),
)

#: Referees who stepped down from a table, on their own or by a player's conflict of interest
#: (L-8): never assigned to that table again (issue 38 item 4).
event_recusals = Table(
    "event_recusals",
    metadata,
    Column("event_table", Integer, ForeignKey("event_tables.id"), primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True),
    Column("at", DateTime(timezone=True), nullable=False),
)

court_members = Table(
    "court_members",
    metadata,
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True),
    Column("court", String(12), primary_key=True),
)

court_cases = Table(
    "court_cases",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    # none for a case the Court of Conduct opened from its fair-play view (issue 43, schema 0014)
    Column("event_table", Integer, ForeignKey("event_tables.id"), nullable=True),
    Column("court", String(12), nullable=False),
    Column("question", Text, nullable=False),
    Column("asked_at", DateTime(timezone=True), nullable=False),
    Column("answer", Text, nullable=True),
    Column("answered_by", Integer, ForeignKey("players.id"), nullable=True),
    Column("answered_at", DateTime(timezone=True), nullable=True),
    Column("applied", Text, nullable=True),
    Column("applied_at", DateTime(timezone=True), nullable=True),
    Index("ix_court_cases_court", "court", "asked_at"),
)

court_decisions = Table(
    "court_decisions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("decided_on", String(10), nullable=False),
    Column("decision", Text, nullable=False),
    Column("concerns", String(200), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    # A dishonour (L-9, L-10; issue 38 item 6): its kind, the accounts, the names the Court
    # publishes, the penance (warning, bar until ``until``, life), the case it decides, who
    # recorded it, and when and by whom it was forgiven. Older decisions have none of these.
    Column("kind", String(16), nullable=True),
    Column("accounts", JSON, nullable=True),
    Column("names", JSON, nullable=True),
    Column("penance", String(12), nullable=True),
    Column("until", String(10), nullable=True),
    Column("case_id", Integer, nullable=True),
    Column("recorded_by", Integer, nullable=True),
    Column("forgiven_on", String(10), nullable=True),
    Column("forgiven_by", Integer, nullable=True),
)
