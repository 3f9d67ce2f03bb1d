"""The skeleton of each username (issue 22): a username that looks like a taken one (Cyrillic
``КАТЕ`` beside ``KATE``) is refused, found by one indexed lookup of its skeleton. The accounts
made before get theirs here, with :func:`blot.accounts.skeleton` as it is at this revision (a
later change to it comes with a migration that computes them again)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision: str | None = "0005"

players = sa.table(
    "players",
    sa.column("id", sa.Integer()),
    sa.column("username", sa.String()),
    sa.column("username_skeleton", sa.String()),
)


def upgrade() -> None:
    from blot.accounts import skeleton

    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("username_skeleton", sa.String(80), nullable=True))
        batch.create_index("ix_players_username_skeleton", ["username_skeleton"])
    bind = op.get_bind()
    accounts = bind.execute(
        sa.select(players.c.id, players.c.username).where(players.c.username.is_not(None))
    ).all()
    for row in accounts:
        bind.execute(
            sa.update(players)
            .where(players.c.id == row.id)
            .values(username_skeleton=skeleton(str(row.username)))
        )


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_index("ix_players_username_skeleton")
        batch.drop_column("username_skeleton")
