"""The double-dummy analyses of finished games (issue 14): one row per analysed table."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("format", sa.Integer(), nullable=False),
        sa.Column("analysis", sa.JSON(), nullable=False),
        sa.Column("seconds", sa.Float(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("analyses")
