"""The double-dummy analyses of finished games (issue 14): one row per analysed table."""

from __future__ import annotations

from alembic import op

from blot.store.migrations.columns import data, key, number, real, when

revision = "0004"
down_revision: str | None = "0003"


def upgrade() -> None:
    op.create_table(
        "analyses",
        key("table_id", "tables.id", primary_key=True),
        number("format"),
        data("analysis"),
        real("seconds"),
        when("created_at"),
    )


def downgrade() -> None:
    op.drop_table("analyses")
