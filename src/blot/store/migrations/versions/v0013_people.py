"""People who find each other (issue 41): what each part keeps. Each part adds its own step below,
called in order by :func:`upgrade` and undone in reverse by :func:`downgrade`."""

from __future__ import annotations

revision = "0013"
down_revision: str | None = "0012"


def upgrade() -> None:
    """Each part's step, in order."""


def downgrade() -> None:
    """Each part's step undone, in reverse order."""
