"""League events (issue 25): events, organizers, entries and their accounts, rounds, tables of a
round, the referees' notes, the courts' cases and members, and the Court of Conduct's published
decisions."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision: str | None = "0009"


def _when(name: str, nullable: bool = False) -> sa.Column:  # type: ignore[type-arg]
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    _events()
    _notes_and_courts()


def _events() -> None:
    """The events, their organizers, entries, members, rounds and tables (in this order)."""
    op.create_table(
        "events",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("public", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("created_by", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        _when("created_at"),
        _when("updated_at"),
    )
    op.create_index("ix_events_listing", "events", ["public", "status", "updated_at"])
    op.create_table(
        "event_organizers",
        sa.Column("event_id", sa.String(24), sa.ForeignKey("events.id"), primary_key=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), primary_key=True),
    )
    op.create_table(
        "event_entries",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("event_id", sa.String(24), sa.ForeignKey("events.id"), nullable=False),
        sa.Column("name", sa.String(90), nullable=False),
        sa.Column("bot", sa.String(80), nullable=True),
        sa.Column("late", sa.Boolean(), nullable=False, server_default=sa.false()),
        _when("withdrawn_at", True),
        _when("created_at"),
    )
    op.create_index("ix_event_entries_event", "event_entries", ["event_id"])
    op.create_table(
        "event_members",
        sa.Column("event_id", sa.String(24), sa.ForeignKey("events.id"), primary_key=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("entry_id", sa.Integer(), sa.ForeignKey("event_entries.id"), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("confirmed", sa.Boolean(), nullable=False),
    )
    op.create_index("ix_event_members_entry", "event_members", ["entry_id"])
    op.create_index("ix_event_members_player", "event_members", ["player_id"])
    op.create_table(
        "event_rounds",
        sa.Column("event_id", sa.String(24), sa.ForeignKey("events.id"), primary_key=True),
        sa.Column("number", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("byes", sa.JSON(), nullable=False),
        sa.Column("boards", sa.JSON(), nullable=True),
        _when("started_at"),
    )
    op.create_table(
        "event_tables",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("event_id", sa.String(24), sa.ForeignKey("events.id"), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("entries", sa.JSON(), nullable=False),
        sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id"), nullable=True),
        sa.Column("sheet_id", sa.String(24), sa.ForeignKey("scoresheets.id"), nullable=True),
        sa.Column("referee", sa.Integer(), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("forfeit", sa.JSON(), nullable=True),
        sa.UniqueConstraint("event_id", "round", "number", name="uq_event_tables_round_number"),
    )
    op.create_index("ix_event_tables_table", "event_tables", ["table_id"])
    op.create_index("ix_event_tables_sheet", "event_tables", ["sheet_id"])
    op.create_index("ix_event_tables_referee", "event_tables", ["referee"])


def _notes_and_courts() -> None:
    """The referees' notes, the courts' members and cases, and the Court of Conduct's decisions."""
    op.create_table(
        "event_notes",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("event_table", sa.Integer(), sa.ForeignKey("event_tables.id"), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.Column("by_player", sa.Integer(), sa.ForeignKey("players.id"), nullable=True),
        _when("at"),
    )
    op.create_index("ix_event_notes_table", "event_notes", ["event_table", "at"])
    op.create_table(
        "court_members",
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("court", sa.String(12), primary_key=True),
    )
    op.create_table(
        "court_cases",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("event_table", sa.Integer(), sa.ForeignKey("event_tables.id"), nullable=False),
        sa.Column("court", sa.String(12), nullable=False),
        sa.Column("question", sa.Text(), nullable=False),
        _when("asked_at"),
        sa.Column("answer", sa.Text(), nullable=True),
        sa.Column("answered_by", sa.Integer(), sa.ForeignKey("players.id"), nullable=True),
        _when("answered_at", True),
        sa.Column("applied", sa.Text(), nullable=True),
        _when("applied_at", True),
    )
    op.create_index("ix_court_cases_court", "court_cases", ["court", "asked_at"])
    op.create_table(
        "court_decisions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("decided_on", sa.String(10), nullable=False),
        sa.Column("decision", sa.Text(), nullable=False),
        sa.Column("concerns", sa.String(200), nullable=False),
        _when("created_at"),
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
