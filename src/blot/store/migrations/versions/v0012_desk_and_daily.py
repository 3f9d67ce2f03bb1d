"""The organizer's desk (issue 42) and the day's deals (issue 45): what each keeps. Each part adds
its own step below, called in order by :func:`upgrade` and undone in reverse by :func:`downgrade`."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision: str | None = "0011"


def _desk() -> None:
    """Issue 42: a round is published before it is played (``status``), its corrections recorded
    (``changes``: who, when, what) and its requested byes kept (``absent``)."""
    with op.batch_alter_table("event_rounds") as batch:
        batch.add_column(sa.Column("status", sa.String(12), nullable=False, server_default="playing"))
        batch.add_column(sa.Column("changes", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("absent", sa.JSON(), nullable=True))


def _undo_desk() -> None:
    with op.batch_alter_table("event_rounds") as batch:
        batch.drop_column("absent")
        batch.drop_column("changes")
        batch.drop_column("status")


def upgrade() -> None:
    """Each part's step, in order."""
    _desk()


def downgrade() -> None:
    """Each part's step undone, in reverse order."""
    _undo_desk()
