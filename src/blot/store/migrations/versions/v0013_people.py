"""People who find each other (issue 41): what each part keeps. Each part adds its own step below,
called in order by :func:`upgrade` and undone in reverse by :func:`downgrade`."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision: str | None = "0012"


def _push() -> None:
    """Web Push (issue 41 item 4): the server's VAPID keys (made once), each browser's
    subscription, and which kinds of notification each player turned off."""
    op.create_table(
        "push_keys",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("private_key", sa.Text(), nullable=False),
        sa.Column("public_key", sa.String(128), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("endpoint", sa.String(1024), nullable=False),
        sa.Column("p256dh", sa.String(128), nullable=False),
        sa.Column("auth", sa.String(64), nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("endpoint", name="uq_push_subscriptions_endpoint"),
    )
    op.create_index("ix_push_subscriptions_player", "push_subscriptions", ["player_id"])
    op.create_table(
        "push_settings",
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("off", sa.JSON(), nullable=False),
    )


def _push_down() -> None:
    op.drop_table("push_settings")
    op.drop_index("ix_push_subscriptions_player", "push_subscriptions")
    op.drop_table("push_subscriptions")
    op.drop_table("push_keys")


def upgrade() -> None:
    """Each part's step, in order."""
    _push()


def downgrade() -> None:
    """Each part's step undone, in reverse order."""
    _push_down()
