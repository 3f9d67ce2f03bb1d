"""Fair play (issue 38): what the referees, the courts, the bars and the dishonours need to keep.
Each part of the issue adds its own step below, called in order by :func:`upgrade`."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from blot.store.migrations.columns import data, number, player, row, text, when

revision = "0011"
down_revision: str | None = "0010"


def _referees() -> None:
    """Referees who stepped down, required referees, online referees (issue 38 item 4): who
    stepped down from which table (never assigned to it again, L-8). Requiring referees is an
    event setting (JSON) and an online table's pause is its own log's: no column for them."""
    op.create_table(
        "event_recusals",
        row("event_table", "event_tables.id", primary_key=True),
        player("player_id", primary_key=True),
        when("at"),
    )


def _bars_and_dishonours() -> None:
    """Bars that follow the pair and dishonours on the record (issue 38 items 5 and 6): a tars
    kapoot on a referee's Davtar (``sheet_id``, no table), an event entry withdrawn by a bar
    (``barred``: why and in which round), and a dishonour's kind, accounts, penance, case and
    forgiveness on the Court of Conduct's decisions."""
    with op.batch_alter_table("tars_kapoots") as batch:
        batch.alter_column("table_id", existing_type=sa.String(24), nullable=True)
        batch.add_column(text("sheet_id", 24, True))
    with op.batch_alter_table("event_entries") as batch:
        batch.add_column(data("barred", True))
    with op.batch_alter_table("court_decisions") as batch:
        for column in (
            text("kind", 16, True),
            data("accounts", True),
            data("names", True),
            text("penance", 12, True),
            text("until", 10, True),
            number("case_id", True),
            number("recorded_by", True),
            text("forgiven_on", 10, True),
            number("forgiven_by", True),
        ):
            batch.add_column(column)


def upgrade() -> None:
    _referees()
    _bars_and_dishonours()


def _undo_referees() -> None:
    """What :func:`_referees` added, removed."""
    op.drop_table("event_recusals")


def _undo_bars_and_dishonours() -> None:
    """What :func:`_bars_and_dishonours` added, removed (a tars kapoot of a Davtar has no table:
    it goes with the column)."""
    with op.batch_alter_table("court_decisions") as batch:
        for name in (
            "forgiven_by", "forgiven_on", "recorded_by", "case_id",
            "until", "penance", "names", "accounts", "kind",
        ):  # fmt: skip
            batch.drop_column(name)
    with op.batch_alter_table("event_entries") as batch:
        batch.drop_column("barred")
    op.execute("DELETE FROM tars_kapoots WHERE table_id IS NULL")
    with op.batch_alter_table("tars_kapoots") as batch:
        batch.drop_column("sheet_id")
        batch.alter_column("table_id", existing_type=sa.String(24), nullable=False)


def downgrade() -> None:
    _undo_bars_and_dishonours()
    _undo_referees()
