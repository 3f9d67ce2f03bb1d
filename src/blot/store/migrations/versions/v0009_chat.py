"""Talk at the table (issue 26): the messages of each table (``chat_messages``), whom each player
muted (``chat_mutes``), a player's chosen avatar and an account silenced by ``blot admin``."""

from __future__ import annotations

from alembic import op

from blot.store.migrations.columns import key, number, player, serial, text, when

revision = "0009"
down_revision: str | None = "0008"


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(text("avatar", 16, True))
        batch.add_column(when("silenced_at", True))
    op.create_table(
        "chat_messages",
        serial("id"),
        key("table_id", "tables.id"),
        player("player_id"),
        number("seat", True),
        text("room", 12),
        text("kind", 8),
        text("body", 400),
        when("at"),
        when("removed_at", True),
    )
    op.create_index("ix_chat_messages_table", "chat_messages", ["table_id", "room", "id"])
    op.create_table(
        "chat_mutes",
        player("player_id", primary_key=True),
        player("muted_id", primary_key=True),
        when("at"),
    )


def downgrade() -> None:
    op.drop_table("chat_mutes")
    op.drop_index("ix_chat_messages_table", "chat_messages")
    op.drop_table("chat_messages")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("silenced_at")
        batch.drop_column("avatar")
