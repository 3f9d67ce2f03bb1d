"""Fair play (issue 38): what the referees, the courts, the bars and the dishonours need to keep.
Each part of the issue adds its own step below, called in order by :func:`upgrade`."""

from __future__ import annotations

import sqlalchemy as sa  # noqa: F401
from alembic import op  # noqa: F401

revision = "0011"
down_revision: str | None = "0010"


def _referees() -> None:
    """Referees who stepped down, required referees, online referees (issue 38 item 4)."""


def _bars_and_dishonours() -> None:
    """Bars that follow the pair and dishonours on the record (issue 38 items 5 and 6)."""


def upgrade() -> None:
    _referees()
    _bars_and_dishonours()


def _undo_referees() -> None:
    """What :func:`_referees` added, removed."""


def _undo_bars_and_dishonours() -> None:
    """What :func:`_bars_and_dishonours` added, removed."""


def downgrade() -> None:
    _undo_bars_and_dishonours()
    _undo_referees()
