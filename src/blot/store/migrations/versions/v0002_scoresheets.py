"""Score sheets (Davtar) of real-table games: sheets, their current deals, the edit history."""

from __future__ import annotations

from alembic import op

from blot.store.migrations.columns import data, key, number, ordinal, player, text, when

revision = "0002"
down_revision: str | None = "0001"


def upgrade() -> None:
    op.create_table(
        "scoresheets",
        text("id", 24, primary_key=True),
        text("share_id", 24, unique=True),
        text("ruleset", 16),
        data("options"),
        data("teams"),
        text("created_by", 40, True),
        player("created_player", True),
        number("version"),
        when("created_at"),
        when("updated_at"),
    )
    op.create_table(
        "scoresheet_deals",
        key("sheet_id", "scoresheets.id", primary_key=True),
        ordinal("number"),
        data("entry"),
    )
    op.create_table(
        "scoresheet_edits",
        key("sheet_id", "scoresheets.id", primary_key=True),
        ordinal("seq"),
        number("deal"),
        text("action", 8),
        data("before", True),
        data("after", True),
        text("by_name", 40, True),
        player("by_player", True),
        when("at"),
    )


def downgrade() -> None:
    op.drop_table("scoresheet_edits")
    op.drop_table("scoresheet_deals")
    op.drop_table("scoresheets")
