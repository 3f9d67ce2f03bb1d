"""Several processes on one database (issue 24): the processes and their heartbeats, and which
process drives each table."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from blot.store.migrations.columns import key, number, text, when

revision = "0007"
down_revision: str | None = "0006"


def upgrade() -> None:
    op.create_table(
        "nodes",
        text("id", 32, primary_key=True),
        text("address", 200),
        when("started_at"),
        when("heartbeat_at"),
    )
    op.create_table(
        "table_owners",
        key("table_id", sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        text("node", 32),
        number("epoch"),
        when("since"),
    )
    op.create_index("ix_table_owners_node", "table_owners", ["node"])


def downgrade() -> None:
    op.drop_index("ix_table_owners_node", "table_owners")
    op.drop_table("table_owners")
    op.drop_table("nodes")
