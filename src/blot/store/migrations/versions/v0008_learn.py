"""Learning from games (issue 28): each seat's accuracy in a finished game, the puzzles mined from
finished games with the anonymous records they come from, and the puzzle ratings and attempts."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from blot.store.migrations.columns import (
    data,
    flag,
    key,
    number,
    ordinal,
    player,
    rating,
    real,
    row,
    serial,
    text,
    when,
)

revision = "0008"
down_revision: str | None = "0007"


def upgrade() -> None:
    op.create_table(
        "accuracies",
        key("table_id", "tables.id", primary_key=True),
        ordinal("seat"),
        player("player_id"),
        text("game", 16),
        number("cards"),
        number("loss"),
        real("accuracy"),
        when("finished_at"),
    )
    op.create_index("ix_accuracies_player", "accuracies", ["player_id", "game", "finished_at", "accuracy"])
    op.create_table(
        "puzzle_games",
        serial("id"),
        text("key", 64, unique=True),
        text("game", 16),
        key("table_id", "tables.id", True),
        data("record"),
        when("created_at"),
    )
    op.create_table(
        "puzzles",
        serial("id"),
        row("source", "puzzle_games.id"),
        text("game", 16),
        number("deal"),
        number("after"),
        number("seat"),
        data("solution"),
        data("values"),
        number("threshold"),
        real("mu"),
        real("sigma"),
        number("attempts"),
        number("solved"),
        when("created_at"),
        sa.UniqueConstraint("source", "deal", "after", name="uq_puzzles_position"),
    )
    op.create_index("ix_puzzles_game_mu", "puzzles", ["game", "mu"])
    op.create_table(
        "puzzle_ratings",
        *rating(),
        number("attempts"),
        number("solved"),
        when("updated_at"),
    )
    op.create_table(
        "puzzle_attempts",
        player("player_id", primary_key=True),
        row("puzzle_id", "puzzles.id", primary_key=True),
        text("card", 4),
        flag("solved"),
        flag("rated"),
        when("at"),
    )


def downgrade() -> None:
    op.drop_table("puzzle_attempts")
    op.drop_table("puzzle_ratings")
    op.drop_index("ix_puzzles_game_mu", "puzzles")
    op.drop_table("puzzles")
    op.drop_table("puzzle_games")
    op.drop_index("ix_accuracies_player", "accuracies")
    op.drop_table("accuracies")
