"""Score sheets (Davtar) of real-table games: sheets, their current deals, the edit history."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"


def upgrade() -> None:
    op.create_table(
        "scoresheets",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("share_id", sa.String(24), nullable=False, unique=True),
        sa.Column("ruleset", sa.String(16), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("teams", sa.JSON(), nullable=False),
        sa.Column("created_by", sa.String(40), nullable=True),
        sa.Column("created_player", sa.Integer(), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "scoresheet_deals",
        sa.Column("sheet_id", sa.String(24), sa.ForeignKey("scoresheets.id"), primary_key=True),
        sa.Column("number", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("entry", sa.JSON(), nullable=False),
    )
    op.create_table(
        "scoresheet_edits",
        sa.Column("sheet_id", sa.String(24), sa.ForeignKey("scoresheets.id"), primary_key=True),
        sa.Column("seq", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("deal", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(8), nullable=False),
        sa.Column("before", sa.JSON(), nullable=True),
        sa.Column("after", sa.JSON(), nullable=True),
        sa.Column("by_name", sa.String(40), nullable=True),
        sa.Column("by_player", sa.Integer(), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("scoresheet_edits")
    op.drop_table("scoresheet_deals")
    op.drop_table("scoresheets")
