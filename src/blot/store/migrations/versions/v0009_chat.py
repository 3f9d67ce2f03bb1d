"""Talk at the table (issue 26): the messages of each table (``chat_messages``), whom each player
muted (``chat_mutes``), a player's chosen avatar and an account silenced by ``blot admin``."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision: str | None = "0008"


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("avatar", sa.String(16), nullable=True))
        batch.add_column(sa.Column("silenced_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("room", sa.String(12), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("body", sa.String(400), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("removed_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_chat_messages_table", "chat_messages", ["table_id", "room", "id"])
    op.create_table(
        "chat_mutes",
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("muted_id", sa.Integer(), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("chat_mutes")
    op.drop_index("ix_chat_messages_table", "chat_messages")
    op.drop_table("chat_messages")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("silenced_at")
        batch.drop_column("avatar")
