"""Several processes on one database (issue 24): the processes and their heartbeats, and which
process drives each table."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision: str | None = "0006"


def upgrade() -> None:
    op.create_table(
        "nodes",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("address", sa.String(200), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "table_owners",
        sa.Column(
            "table_id", sa.String(24), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("node", sa.String(32), nullable=False),
        sa.Column("epoch", sa.Integer(), nullable=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_table_owners_node", "table_owners", ["node"])


def downgrade() -> None:
    op.drop_index("ix_table_owners_node", "table_owners")
    op.drop_table("table_owners")
    op.drop_table("nodes")
