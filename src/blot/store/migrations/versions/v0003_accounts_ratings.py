"""Accounts, sessions, ratings, results and tars kapoot records (issue 13).

Every player's token hash moves from ``players.token_hash`` to the new ``sessions`` table, so that
an account can hold one token per browser it logged in from (each guest keeps the token it has:
nobody is logged out by the upgrade).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"


def upgrade() -> None:
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_sessions_player", "sessions", ["player_id"])
    op.execute(
        "INSERT INTO sessions (token_hash, player_id, created_at) "
        "SELECT token_hash, id, created_at FROM players"
    )
    with op.batch_alter_table("players") as batch:
        batch.drop_column("token_hash")
        batch.add_column(sa.Column("username", sa.String(40), nullable=True))
        batch.add_column(sa.Column("username_key", sa.String(40), nullable=True))
        batch.add_column(sa.Column("password_hash", sa.String(255), nullable=True))
        batch.add_column(sa.Column("bot", sa.String(80), nullable=True))
        batch.add_column(sa.Column("disabled", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True))
        batch.create_unique_constraint("uq_players_username_key", ["username_key"])
        batch.create_unique_constraint("uq_players_bot", ["bot"])
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("game", sa.String(16), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "results",
        sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("team", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=True),
        sa.Column("ending", sa.String(12), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=True),
        sa.Column("sigma_before", sa.Float(), nullable=True),
        sa.Column("mu_after", sa.Float(), nullable=True),
        sa.Column("sigma_after", sa.Float(), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_results_player", "results", ["player_id", "finished_at"])
    op.create_table(
        "tars_kapoots",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("player_a", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("player_b", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
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
        batch.add_column(sa.Column("token_hash", sa.String(64), nullable=True))
    op.execute(
        "UPDATE players SET token_hash = (SELECT MIN(s.token_hash) FROM sessions s "
        "WHERE s.player_id = players.id)"
    )
    op.drop_index("ix_sessions_player", "sessions")
    op.drop_table("sessions")
