"""The Court of Conduct's fair-play view (issue 43 item 4, L-9): a case the Court opens from the
figures belongs to no event table, so ``court_cases.event_table`` may be empty (a referee's case
still names its table; no referee's console lists a case without one)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision: str | None = "0013"


def upgrade() -> None:
    with op.batch_alter_table("court_cases") as batch:
        batch.alter_column("event_table", existing_type=sa.Integer(), nullable=True)


def downgrade() -> None:
    op.execute("DELETE FROM court_cases WHERE event_table IS NULL")
    with op.batch_alter_table("court_cases") as batch:
        batch.alter_column("event_table", existing_type=sa.Integer(), nullable=False)
