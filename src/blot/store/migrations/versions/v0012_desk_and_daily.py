"""The organizer's desk (issue 42) and the day's deals (issue 45): what each keeps. Each part adds
its own step below, called in order by :func:`upgrade` and undone in reverse by :func:`downgrade`."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision: str | None = "0011"


def _daily() -> None:
    """The day's deals (issue 45): each day's secret seed per game and ruleset with the bots'
    par, and who played them (one row per person, day, game and ruleset)."""
    op.create_table(
        "daily_sets",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("game", sa.String(16), primary_key=True),
        sa.Column("ruleset", sa.String(32), primary_key=True),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("deals", sa.Integer(), nullable=False),
        sa.Column("bots", sa.String(80), nullable=False),
        sa.Column("par", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "daily_plays",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("game", sa.String(16), primary_key=True),
        sa.Column("ruleset", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("guest", sa.Boolean(), nullable=False),
        sa.Column("device", sa.String(64), nullable=True),
        sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("scores", sa.JSON(), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_daily_plays_player", "daily_plays", ["player_id", "day"])
    op.create_index("ix_daily_plays_table", "daily_plays", ["table_id"])


def _daily_down() -> None:
    op.drop_index("ix_daily_plays_table", "daily_plays")
    op.drop_index("ix_daily_plays_player", "daily_plays")
    op.drop_table("daily_plays")
    op.drop_table("daily_sets")


def _desk() -> None:
    """Issue 42: a round is published before it is played (``status``), its corrections recorded
    (``changes``: who, when, what) and its requested byes kept (``absent``)."""
    with op.batch_alter_table("event_rounds") as batch:
        batch.add_column(sa.Column("status", sa.String(12), nullable=False, server_default="playing"))
        batch.add_column(sa.Column("changes", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("absent", sa.JSON(), nullable=True))


def _undo_desk() -> None:
    with op.batch_alter_table("event_rounds") as batch:
        batch.drop_column("absent")
        batch.drop_column("changes")
        batch.drop_column("status")


def upgrade() -> None:
    """Each part's step, in order."""
    _daily()
    _desk()


def downgrade() -> None:
    """Each part's step undone, in reverse order."""
    _undo_desk()
    _daily_down()
