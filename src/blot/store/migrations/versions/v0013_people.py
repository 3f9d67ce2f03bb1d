"""People who find each other (issue 41): what each part keeps. Each part adds its own step below,
called in order by :func:`upgrade` and undone in reverse by :func:`downgrade`."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision: str | None = "0012"


def _push() -> None:
    """Web Push (issue 41 item 4): the server's VAPID keys (made once), each browser's
    subscription, and which kinds of notification each player turned off."""
    op.create_table(
        "push_keys",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("private_key", sa.Text(), nullable=False),
        sa.Column("public_key", sa.String(128), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("endpoint", sa.String(1024), nullable=False),
        sa.Column("p256dh", sa.String(128), nullable=False),
        sa.Column("auth", sa.String(64), nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("endpoint", name="uq_push_subscriptions_endpoint"),
    )
    op.create_index("ix_push_subscriptions_player", "push_subscriptions", ["player_id"])
    op.create_table(
        "push_settings",
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("off", sa.JSON(), nullable=False),
    )


def _push_down() -> None:
    op.drop_table("push_settings")
    op.drop_index("ix_push_subscriptions_player", "push_subscriptions")
    op.drop_table("push_subscriptions")
    op.drop_table("push_keys")


def _push_quiet() -> None:
    """When a player last heard "your turn" of a table (issue 41 item 4): in the database, so
    that a table's new owner after a take-over keeps the quiet its old owner began."""
    op.create_table(
        "push_quiet",
        sa.Column("table_id", sa.String(24), primary_key=True),
        sa.Column("player_id", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("told_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_push_quiet_told_at", "push_quiet", ["told_at"])


def _push_quiet_down() -> None:
    op.drop_index("ix_push_quiet_told_at", "push_quiet")
    op.drop_table("push_quiet")


def _friends() -> None:
    """Friends and invitations (issue 41 item 2): one row per pair of accounts and direction
    (asked, friend, blocked), and who invited whom to which table."""
    op.create_table(
        "friends",
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("other_id", sa.Integer(), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_friends_other", "friends", ["other_id", "status"])
    op.create_table(
        "invitations",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("inviter", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("invitee", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("dismissed", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.UniqueConstraint("table_id", "inviter", "invitee", name="uq_invitations_table_inviter_invitee"),
    )
    op.create_index("ix_invitations_invitee", "invitations", ["invitee", "created_at"])


def _friends_down() -> None:
    op.drop_index("ix_invitations_invitee", "invitations")
    op.drop_table("invitations")
    op.drop_index("ix_friends_other", "friends")
    op.drop_table("friends")


def _quick() -> None:
    """The quick game's queue (issue 41 item 3): who waits for which game, from which browser,
    since when, last heard of when, and the table they were seated at."""
    op.create_table(
        "quick_waits",
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("guest", sa.Boolean(), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("ruleset", sa.String(32), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("device", sa.String(64), nullable=True),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("table_id", sa.String(24), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
    )
    op.create_index("ix_quick_waits_key", "quick_waits", ["game", "ruleset", "rated", "since"])


def _quick_down() -> None:
    op.drop_index("ix_quick_waits_key", "quick_waits")
    op.drop_table("quick_waits")


def _joincodes() -> None:
    """Join codes for a club night (issue 41 item 10): the codes, who came in with each, and a
    session's end; and the page's own id of a score sheet's deal (item 9: sent again offline,
    it is recognised)."""
    op.create_table(
        "join_codes",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("created_by", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("event_id", sa.String(24), nullable=True),
        sa.Column("table_id", sa.String(24), nullable=True),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("uses", sa.Integer(), nullable=False),
        sa.Column("used", sa.Integer(), nullable=False),
        sa.Column("until", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_join_codes_creator", "join_codes", ["created_by"])
    op.create_table(
        "join_code_players",
        sa.Column("code", sa.String(16), sa.ForeignKey("join_codes.code"), primary_key=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), primary_key=True),
    )
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("scoresheet_deals") as batch:
        batch.add_column(sa.Column("client_id", sa.String(40), nullable=True))
        batch.create_unique_constraint("uq_scoresheet_deals_client_id", ["sheet_id", "client_id"])


def _joincodes_down() -> None:
    with op.batch_alter_table("scoresheet_deals") as batch:
        batch.drop_constraint("uq_scoresheet_deals_client_id", type_="unique")
        batch.drop_column("client_id")
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("expires_at")
    op.drop_table("join_code_players")
    op.drop_index("ix_join_codes_creator", "join_codes")
    op.drop_table("join_codes")


def upgrade() -> None:
    """Each part's step, in order."""
    _joincodes()
    _push()
    _push_quiet()
    _friends()
    _quick()


def downgrade() -> None:
    """Each part's step undone, in reverse order."""
    _quick_down()
    _friends_down()
    _push_quiet_down()
    _push_down()
    _joincodes_down()
