"""Integrity (issue 22): the browsers each player used (``devices``), an index on the tables a
player hosts (the host limit is counted in the database) and one on a player's results (a profile
with thousands of games)."""

from __future__ import annotations

from alembic import op

from blot.store.migrations.columns import player, text, when

revision = "0005"
down_revision: str | None = "0004"


def upgrade() -> None:
    op.create_table(
        "devices",
        player("player_id", primary_key=True),
        text("device", 64, primary_key=True),
        when("last_seen"),
    )
    op.create_index("ix_devices_device", "devices", ["device"])
    op.create_index("ix_tables_host", "tables", ["host", "status"])
    op.create_index(
        "ix_results_player_game", "results", ["player_id", "game", "place", "ending", "rated", "finished_at"]
    )


def downgrade() -> None:
    op.drop_index("ix_results_player_game", "results")
    op.drop_index("ix_tables_host", "tables")
    op.drop_index("ix_devices_device", "devices")
    op.drop_table("devices")
