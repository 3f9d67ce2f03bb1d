"""League events (issue 25): events, organizers, entries and their accounts, rounds, tables of a
round, the referees' notes, the courts' cases and members, and the Court of Conduct's published
decisions."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from blot.store.migrations.columns import (
    data,
    flag,
    key,
    number,
    ordinal,
    player,
    prose,
    row,
    serial,
    text,
    when,
)

revision = "0010"
down_revision: str | None = "0009"


def upgrade() -> None:
    _events()
    _notes_and_courts()


def _events() -> None:
    """The events, their organizers, entries, members, rounds and tables (in this order)."""
    op.create_table(
        "events",
        text("id", 24, primary_key=True),
        text("name", 80),
        text("game", 16),
        text("format", 16),
        data("settings"),
        flag("public"),
        text("status", 12),
        player("created_by"),
        when("created_at"),
        when("updated_at"),
    )
    op.create_index("ix_events_listing", "events", ["public", "status", "updated_at"])
    op.create_table(
        "event_organizers",
        key("event_id", "events.id", primary_key=True),
        player("player_id", primary_key=True),
    )
    op.create_table(
        "event_entries",
        serial("id"),
        key("event_id", "events.id"),
        text("name", 90),
        text("bot", 80, True),
        flag("late", server_default=sa.false()),
        when("withdrawn_at", True),
        when("created_at"),
    )
    op.create_index("ix_event_entries_event", "event_entries", ["event_id"])
    op.create_table(
        "event_members",
        key("event_id", "events.id", primary_key=True),
        player("player_id", primary_key=True),
        row("entry_id", "event_entries.id"),
        number("position"),
        flag("confirmed"),
    )
    op.create_index("ix_event_members_entry", "event_members", ["entry_id"])
    op.create_index("ix_event_members_player", "event_members", ["player_id"])
    op.create_table(
        "event_rounds",
        key("event_id", "events.id", primary_key=True),
        ordinal("number"),
        data("byes"),
        data("boards", True),
        when("started_at"),
    )
    op.create_table(
        "event_tables",
        serial("id"),
        key("event_id", "events.id"),
        number("round"),
        number("number"),
        data("entries"),
        key("table_id", "tables.id", True),
        key("sheet_id", "scoresheets.id", True),
        player("referee", True),
        data("forfeit", True),
        sa.UniqueConstraint("event_id", "round", "number", name="uq_event_tables_round_number"),
    )
    op.create_index("ix_event_tables_table", "event_tables", ["table_id"])
    op.create_index("ix_event_tables_sheet", "event_tables", ["sheet_id"])
    op.create_index("ix_event_tables_referee", "event_tables", ["referee"])


def _notes_and_courts() -> None:
    """The referees' notes, the courts' members and cases, and the Court of Conduct's decisions."""
    op.create_table(
        "event_notes",
        serial("id"),
        row("event_table", "event_tables.id"),
        text("kind", 16),
        data("body"),
        player("by_player", True),
        when("at"),
    )
    op.create_index("ix_event_notes_table", "event_notes", ["event_table", "at"])
    op.create_table(
        "court_members",
        player("player_id", primary_key=True),
        text("court", 12, primary_key=True),
    )
    op.create_table(
        "court_cases",
        serial("id"),
        row("event_table", "event_tables.id"),
        text("court", 12),
        prose("question"),
        when("asked_at"),
        prose("answer", True),
        player("answered_by", True),
        when("answered_at", True),
        prose("applied", True),
        when("applied_at", True),
    )
    op.create_index("ix_court_cases_court", "court_cases", ["court", "asked_at"])
    op.create_table(
        "court_decisions",
        serial("id"),
        text("decided_on", 10),
        prose("decision"),
        text("concerns", 200),
        when("created_at"),
    )


def downgrade() -> None:
    for name in (
        "court_decisions",
        "court_cases",
        "court_members",
        "event_notes",
        "event_tables",
        "event_rounds",
        "event_members",
        "event_entries",
        "event_organizers",
        "events",
    ):
        op.drop_table(name)
