"""The first schema: players, tables and the append-only table log."""

from __future__ import annotations

from alembic import op

from blot.store.migrations.columns import data, flag, key, number, ordinal, player, serial, text, when

revision = "0001"
down_revision: str | None = None


def upgrade() -> None:
    op.create_table(
        "players",
        serial("id"),
        text("name", 40),
        text("token_hash", 64, unique=True),
        when("created_at"),
    )
    op.create_table(
        "tables",
        text("id", 24, primary_key=True),
        text("game", 16),
        data("settings"),
        flag("public"),
        text("status", 12),
        player("host", True),
        data("seats"),
        number("last_seq"),
        data("summary", True),
        data("record", True),
        when("created_at"),
        when("updated_at"),
        when("finished_at", True),
    )
    op.create_index("ix_tables_status", "tables", ["status"])
    op.create_table(
        "table_log",
        key("table_id", "tables.id", primary_key=True),
        ordinal("seq"),
        text("kind", 12),
        data("payload"),
        when("at"),
    )


def downgrade() -> None:
    op.drop_table("table_log")
    op.drop_index("ix_tables_status", "tables")
    op.drop_table("tables")
    op.drop_table("players")
