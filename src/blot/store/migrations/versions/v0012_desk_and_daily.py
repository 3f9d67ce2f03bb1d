"""The organizer's desk (issue 42) and the day's deals (issue 45): what each keeps. Each part adds
its own step below, called in order by :func:`upgrade` and undone in reverse by :func:`downgrade`."""

from __future__ import annotations

revision = "0012"
down_revision: str | None = "0011"


def upgrade() -> None:
    """Nothing yet: each part adds its step here."""


def downgrade() -> None:
    """Each part's step undone, in reverse order."""
