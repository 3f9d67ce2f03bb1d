"""Accounts, sessions, ratings, results and tars kapoot records (issue 13).

Every player's token hash moves from ``players.token_hash`` to the new ``sessions`` table, so that
an account can hold one token per browser it logged in from (each guest keeps the token it has:
nobody is logged out by the upgrade).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from blot.store.migrations.columns import flag, key, number, ordinal, player, rating, real, serial, text, when

revision = "0003"
down_revision: str | None = "0002"


def upgrade() -> None:
    op.create_table(
        "sessions",
        text("token_hash", 64, primary_key=True),
        player("player_id"),
        when("created_at"),
    )
    op.create_index("ix_sessions_player", "sessions", ["player_id"])
    op.execute(
        "INSERT INTO sessions (token_hash, player_id, created_at) "
        "SELECT token_hash, id, created_at FROM players"
    )
    with op.batch_alter_table("players") as batch:
        batch.drop_column("token_hash")
        batch.add_column(text("username", 40, True))
        batch.add_column(text("username_key", 40, True))
        batch.add_column(text("password_hash", 255, True))
        batch.add_column(text("bot", 80, True))
        batch.add_column(flag("disabled", server_default=sa.false()))
        batch.add_column(when("deleted_at", True))
        batch.create_unique_constraint("uq_players_username_key", ["username_key"])
        batch.create_unique_constraint("uq_players_bot", ["bot"])
    op.create_table(
        "ratings",
        *rating(),
        number("games"),
        number("wins"),
        when("updated_at"),
    )
    op.create_table(
        "results",
        key("table_id", "tables.id", primary_key=True),
        ordinal("seat"),
        player("player_id"),
        text("game", 16),
        number("team"),
        number("place", True),
        text("ending", 12),
        flag("rated"),
        real("mu_before", True),
        real("sigma_before", True),
        real("mu_after", True),
        real("sigma_after", True),
        when("finished_at"),
    )
    op.create_index("ix_results_player", "results", ["player_id", "finished_at"])
    op.create_table(
        "tars_kapoots",
        serial("id"),
        player("player_a"),
        player("player_b"),
        key("table_id", "tables.id"),
        when("at"),
    )
    op.create_index("ix_tars_kapoots_pair", "tars_kapoots", ["player_a", "player_b"])


def downgrade() -> None:
    """Back to one token per player (the oldest session each has); accounts, ratings, results
    and records are dropped."""
    op.drop_index("ix_tars_kapoots_pair", "tars_kapoots")
    op.drop_table("tars_kapoots")
    op.drop_index("ix_results_player", "results")
    op.drop_table("results")
    op.drop_table("ratings")
    with op.batch_alter_table("players") as batch:
        batch.drop_constraint("uq_players_bot", type_="unique")
        batch.drop_constraint("uq_players_username_key", type_="unique")
        for column in ("deleted_at", "disabled", "bot", "password_hash", "username_key", "username"):
            batch.drop_column(column)
        batch.add_column(text("token_hash", 64, True))
    op.execute(
        "UPDATE players SET token_hash = (SELECT MIN(s.token_hash) FROM sessions s "
        "WHERE s.player_id = players.id)"
    )
    op.drop_index("ix_sessions_player", "sessions")
    op.drop_table("sessions")
