"""The database tables (SQLAlchemy Core). Alembic migrations in ``migrations/versions`` create
and change them; a test checks that the migrations and these definitions agree.

- ``players``: everybody who sits at a table: a guest (a name), an account (a username, unique
  by its case-folded ``username_key``, its ``username_skeleton`` that finds a look-alike username
  in one indexed lookup, :func:`blot.accounts.skeleton`, and an Argon2id ``password_hash``) or a
  bot level as a rated player (``bot``). A deleted account keeps its row (its games stay) with
  every personal field cleared and the name "deleted player".
- ``sessions``: the hash of each token a browser holds (a guest's, or one per login); the token
  itself is never stored.
- ``tables``: one row per table: game, settings, status and a copy of its seats for listings;
  ``record`` holds the docs/format.md record once the game is over.
- ``table_log``: the append-only log of every accepted change of a table (seats, start, the cards
  of each deal, every action). A table's state is the fold of its log through the rules engine.
- ``scoresheets``: one row per score sheet (Davtar) of a real-table game: rules, team names, the
  read-only share id, and ``version`` (the number of its last edit, which watchers compare).
- ``scoresheet_deals``: a sheet's current deal entries (the score sheet model's JSON input form).
  A sheet's totals, end and match score are never stored: the model recomputes them.
- ``scoresheet_edits``: the append-only history of a sheet's deals: who, when, before, after.
- ``ratings``: one OpenSkill rating (mu, sigma) per player per game, with games and wins counted.
- ``results``: one row per seat of every finished game: the place, how it ended for that seat
  (played, left, ended by agreement), and the rating before and after when the game moved it
  (the rating history and the profiles are read from here).
- ``tars_kapoots``: each tars kapoot (B-55) a pair of accounts suffered, at an online table
  (rated or not) or on a referee's Davtar at an event (``sheet_id``).
- ``events``: League events (issue 25): name, game, format, settings, status; ``event_organizers``
  who run each; ``event_entries`` (a pair of accounts, one account, or a bot level) and
  ``event_members`` (each account in an entry, unique per event: nobody registers twice);
  ``event_rounds`` (one row per round, unique per event and number: a round cannot be started
  twice; a duplicate round's deals, never sent to anybody); ``event_tables`` (a round's tables:
  the entries in seat order, the online table or the referee's score sheet, the referee, a
  forfeit); ``event_notes`` (a referee's announcements and disputes, timestamped); ``court_cases``
  (questions sent to the League's courts, without the players' names) and ``court_members``;
  ``court_decisions`` (the Court of Conduct's published decisions, the League's register: a
  dishonour's kind, accounts, penance and bar, case and forgiveness too, L-9, L-10).
  Standings are never stored: they are computed from the games' results.
- ``analyses``: the double-dummy analysis of a finished game (issue 14), computed once and kept:
  the page's JSON (``format``: its version; another version is computed again) and how many
  seconds it took.
- ``accuracies``: each seat's accuracy in a finished game (issue 28), written with its analysis
  (a profile reads them by player, never recomputes them).
- ``puzzle_games``: the anonymous record of each game puzzles were mined from, once per game
  (``key``: :func:`blot.puzzles.record_key`); ``puzzles``: each puzzle (a position of one of those
  games, its best cards, every legal card's value) and its OpenSkill rating.
- ``puzzle_ratings``: each player's puzzle rating per game; ``puzzle_attempts``: each player's
  first attempt at each puzzle (only the first moves ratings).
- ``chat_messages``: what was said at a table (issue 26): quick phrases, emotes and free text, and
  the host's turning chat off and on; kept with the table but not in its log, so that replays and
  event numbers are the same with or without talk. ``room``: ``players`` or ``spectators`` (the
  two never hear each other); ``removed_at``: removed by ``blot admin chat-remove``.
- ``chat_mutes``: whom each player muted (their messages are never sent to that player).
- ``daily_sets`` and ``daily_plays``: the day's deals (issue 45): each day's secret seed per game
  and ruleset, the bots' par, and who played them at which table with what result per deal.
- ``friends`` (issue 41): one row per pair of accounts and direction: ``asked`` (waiting for the
  other), ``friend`` (both directions once accepted), ``blocked`` (the blocker's row);
  ``invitations``: who invited whom to which table, and whether the invitee dismissed it.
- ``players.avatar``: the emoji a player chose to be shown by (initials otherwise);
  ``players.silenced_at``: ``blot admin silence`` took the account's voice at tables.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
)

# re-exported (``x as x``, as mypy's strict mode asks): the one MetaData and the League's tables
from blot.store.meta import metadata as metadata
from blot.store.schema_league import court_cases as court_cases
from blot.store.schema_league import court_decisions as court_decisions
from blot.store.schema_league import court_members as court_members
from blot.store.schema_league import event_entries as event_entries
from blot.store.schema_league import event_members as event_members
from blot.store.schema_league import event_notes as event_notes
from blot.store.schema_league import event_organizers as event_organizers
from blot.store.schema_league import event_recusals as event_recusals
from blot.store.schema_league import event_rounds as event_rounds
from blot.store.schema_league import event_tables as event_tables
from blot.store.schema_league import events as events

players = Table(
    "players",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(40), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("username", String(40), nullable=True),
    Column("username_key", String(40), nullable=True),
    Column("username_skeleton", String(80), nullable=True),
    Column("password_hash", String(255), nullable=True),
    Column("bot", String(80), nullable=True),
    Column("disabled", Boolean, nullable=False, server_default=false()),
    Column("deleted_at", DateTime(timezone=True), nullable=True),
    Column("avatar", String(16), nullable=True),
    Column("silenced_at", DateTime(timezone=True), nullable=True),
    UniqueConstraint("username_key", name="uq_players_username_key"),
    UniqueConstraint("bot", name="uq_players_bot"),
    Index("ix_players_username_skeleton", "username_skeleton"),
)

sessions = Table(
    "sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    #: When the session ends by itself (a join code's, issue 41 item 10); none for the others.
    Column("expires_at", DateTime(timezone=True), nullable=True),
    Index("ix_sessions_player", "player_id"),
)

#: The browsers each player used (issue 22): a hash of the browser's ``blot_device`` cookie, so
#: that two accounts used from one browser can be kept from sitting at one table.
devices = Table(
    "devices",
    metadata,
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True),
    Column("device", String(64), primary_key=True),
    Column("last_seen", DateTime(timezone=True), nullable=False),
    Index("ix_devices_device", "device"),
)

tables = Table(
    "tables",
    metadata,
    Column("id", String(24), primary_key=True),
    Column("game", String(16), nullable=False),
    Column("settings", JSON, nullable=False),
    Column("public", Boolean, nullable=False),
    Column("status", String(12), nullable=False),
    Column("host", Integer, ForeignKey("players.id"), nullable=True),
    Column("seats", JSON, nullable=False),
    Column("last_seq", Integer, nullable=False),
    Column("summary", JSON, nullable=True),
    Column("record", JSON, nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=True),
    Index("ix_tables_status", "status"),
    Index("ix_tables_host", "host", "status"),
)

table_log = Table(
    "table_log",
    metadata,
    Column("table_id", String(24), ForeignKey("tables.id"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("kind", String(12), nullable=False),
    Column("payload", JSON, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
)

scoresheets = Table(
    "scoresheets",
    metadata,
    Column("id", String(24), primary_key=True),
    Column("share_id", String(24), nullable=False, unique=True),
    Column("ruleset", String(16), nullable=False),
    Column("options", JSON, nullable=False),
    Column("teams", JSON, nullable=False),
    Column("created_by", String(40), nullable=True),
    Column("created_player", Integer, ForeignKey("players.id"), nullable=True),
    Column("version", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

scoresheet_deals = Table(
    "scoresheet_deals",
    metadata,
    Column("sheet_id", String(24), ForeignKey("scoresheets.id"), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("entry", JSON, nullable=False),
    #: The id the page gave the deal when it was entered (issue 41 item 9): a deal sent again
    #: by a page that recorded it offline is recognised, not added twice.
    Column("client_id", String(40), nullable=True),
    UniqueConstraint("sheet_id", "client_id", name="uq_scoresheet_deals_client_id"),
)

scoresheet_edits = Table(
    "scoresheet_edits",
    metadata,
    Column("sheet_id", String(24), ForeignKey("scoresheets.id"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("deal", Integer, nullable=False),
    Column("action", String(8), nullable=False),
    Column("before", JSON, nullable=True),
    Column("after", JSON, nullable=True),
    Column("by_name", String(40), nullable=True),
    Column("by_player", Integer, ForeignKey("players.id"), nullable=True),
    Column("at", DateTime(timezone=True), nullable=False),
)

ratings = Table(
    "ratings",
    metadata,
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True),
    Column("game", String(16), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

results = Table(
    "results",
    metadata,
    Column("table_id", String(24), ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("game", String(16), nullable=False),
    Column("team", Integer, nullable=False),
    Column("place", Integer, nullable=True),
    Column("ending", String(12), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("mu_before", Float, nullable=True),
    Column("sigma_before", Float, nullable=True),
    Column("mu_after", Float, nullable=True),
    Column("sigma_after", Float, nullable=True),
    Column("finished_at", DateTime(timezone=True), nullable=False),
    Index("ix_results_player", "player_id", "finished_at"),
    # a profile's counts and rating history are read from the index alone
    Index("ix_results_player_game", "player_id", "game", "place", "ending", "rated", "finished_at"),
)

tars_kapoots = Table(
    "tars_kapoots",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player_a", Integer, ForeignKey("players.id"), nullable=False),
    Column("player_b", Integer, ForeignKey("players.id"), nullable=False),
    # an online table's, or (``sheet_id``) a referee's Davtar at an event (issue 38 item 5)
    Column("table_id", String(24), ForeignKey("tables.id"), nullable=True),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("sheet_id", String(24), nullable=True),
    Index("ix_tars_kapoots_pair", "player_a", "player_b"),
)

analyses = Table(
    "analyses",
    metadata,
    Column("table_id", String(24), ForeignKey("tables.id"), primary_key=True),
    Column("format", Integer, nullable=False),
    Column("analysis", JSON, nullable=False),
    Column("seconds", Float, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)


#: The processes of a cluster (``blot serve --broker``) and their heartbeats
#: (:mod:`blot.server.cluster.leases`).
nodes = Table(
    "nodes",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("address", String(200), nullable=False),
    Column("started_at", DateTime(timezone=True), nullable=False),
    Column("heartbeat_at", DateTime(timezone=True), nullable=False),
)

#: Which process drives each table, and since which change of owner (``epoch``).
table_owners = Table(
    "table_owners",
    metadata,
    Column("table_id", String(24), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("node", String(32), nullable=False),
    Column("epoch", Integer, nullable=False),
    Column("since", DateTime(timezone=True), nullable=False),
    Index("ix_table_owners_node", "node"),
)

accuracies = Table(
    "accuracies",
    metadata,
    Column("table_id", String(24), ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("game", String(16), nullable=False),
    Column("cards", Integer, nullable=False),
    Column("loss", Integer, nullable=False),
    Column("accuracy", Float, nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=False),
    # a profile's accuracy trend is read from the index alone
    Index("ix_accuracies_player", "player_id", "game", "finished_at", "accuracy"),
)

puzzle_games = Table(
    "puzzle_games",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("key", String(64), nullable=False, unique=True),
    Column("game", String(16), nullable=False),
    Column("table_id", String(24), ForeignKey("tables.id"), nullable=True),
    Column("record", JSON, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

puzzles = Table(
    "puzzles",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("source", Integer, ForeignKey("puzzle_games.id"), nullable=False),
    Column("game", String(16), nullable=False),
    Column("deal", Integer, nullable=False),
    Column("after", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("solution", JSON, nullable=False),
    Column("values", JSON, nullable=False),
    Column("threshold", Integer, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("solved", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("source", "deal", "after", name="uq_puzzles_position"),
    # the next puzzle is the nearest in rating: read from this index
    Index("ix_puzzles_game_mu", "game", "mu"),
)

puzzle_ratings = Table(
    "puzzle_ratings",
    metadata,
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True),
    Column("game", String(16), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("solved", Integer, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

puzzle_attempts = Table(
    "puzzle_attempts",
    metadata,
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True),
    Column("puzzle_id", Integer, ForeignKey("puzzles.id"), primary_key=True),
    Column("card", String(4), nullable=False),
    Column("solved", Boolean, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
)

chat_messages = Table(
    "chat_messages",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(24), ForeignKey("tables.id"), nullable=False),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("seat", Integer, nullable=True),
    Column("room", String(12), nullable=False),
    Column("kind", String(8), nullable=False),
    Column("body", String(400), nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("removed_at", DateTime(timezone=True), nullable=True),
    Index("ix_chat_messages_table", "table_id", "room", "id"),
)

chat_mutes = Table(
    "chat_mutes",
    metadata,
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True),
    Column("muted_id", Integer, ForeignKey("players.id"), primary_key=True),
    Column("at", DateTime(timezone=True), nullable=False),
)

#: The day's deals (issue 45): one row per day, game and ruleset offered: the secret ``seed`` its
#: deals are dealt from (published once the day is over), the seat the player takes, and the
#: bots' own result from that seat (``par``: each deal's points and words, computed once).
daily_sets = Table(
    "daily_sets",
    metadata,
    Column("day", String(10), primary_key=True),
    Column("game", String(16), primary_key=True),
    Column("ruleset", String(32), primary_key=True),
    Column("seed", String(64), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("deals", Integer, nullable=False),
    Column("bots", String(80), nullable=False),
    Column("par", JSON, nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

#: Who played a day's deals (issue 45): once per person, day, game and ruleset (its table; the
#: browser it was started from; each counted deal's points and words once the table finished).
daily_plays = Table(
    "daily_plays",
    metadata,
    Column("day", String(10), primary_key=True),
    Column("game", String(16), primary_key=True),
    Column("ruleset", String(32), primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True),
    Column("name", String(40), nullable=False),
    Column("guest", Boolean, nullable=False),
    Column("device", String(64), nullable=True),
    Column("table_id", String(24), ForeignKey("tables.id"), nullable=False),
    Column("finished", Boolean, nullable=False, server_default=false()),
    Column("scores", JSON, nullable=True),
    Column("started_at", DateTime(timezone=True), nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=True),
    Index("ix_daily_plays_player", "player_id", "day"),
    Index("ix_daily_plays_table", "table_id"),
)

#: Web Push (issue 41 item 4): the server's one VAPID key pair (``id`` 1, made once by the first
#: server that needs it), each browser's subscription (its push service's ``endpoint`` and the
#: browser's keys, the page's language), and the kinds of notification each player turned off.
push_keys = Table(
    "push_keys",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("private_key", Text, nullable=False),
    Column("public_key", String(128), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)
push_subscriptions = Table(
    "push_subscriptions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("endpoint", String(1024), nullable=False),
    Column("p256dh", String(128), nullable=False),
    Column("auth", String(64), nullable=False),
    Column("lang", String(8), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("endpoint", name="uq_push_subscriptions_endpoint"),
    Index("ix_push_subscriptions_player", "player_id"),
)
push_settings = Table(
    "push_settings",
    metadata,
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True),
    Column("off", JSON, nullable=False),
)
#: When a player last heard "your turn" of a table (or that its event's table was ready): kept
#: here, not in one process's memory, so that a table's new owner after a take-over keeps the
#: 5 minutes' quiet (:data:`blot.server.push.TURN_QUIET`); rows older than that are deleted.
push_quiet = Table(
    "push_quiet",
    metadata,
    Column("table_id", String(24), primary_key=True),
    Column("player_id", Integer, primary_key=True, autoincrement=False),
    Column("told_at", DateTime(timezone=True), nullable=False),
    Index("ix_push_quiet_told_at", "told_at"),
)


#: Friends (issue 41 item 2): one row per pair of accounts and direction (``asked``, ``friend``,
#: ``blocked``); :mod:`blot.store.friends`.
friends = Table(
    "friends",
    metadata,
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True),
    Column("other_id", Integer, ForeignKey("players.id"), primary_key=True),
    Column("status", String(8), nullable=False),
    Column("since", DateTime(timezone=True), nullable=False),
    Index("ix_friends_other", "other_id", "status"),
)

#: Invitations to a table (issue 41 item 2): once per table, inviter and invitee.
invitations = Table(
    "invitations",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(24), ForeignKey("tables.id"), nullable=False),
    Column("inviter", Integer, ForeignKey("players.id"), nullable=False),
    Column("invitee", Integer, ForeignKey("players.id"), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("dismissed", Boolean, nullable=False, server_default=false()),
    UniqueConstraint("table_id", "inviter", "invitee", name="uq_invitations_table_inviter_invitee"),
    Index("ix_invitations_invitee", "invitee", "created_at"),
)

#: The quick game's queue (issue 41 item 3): one row per person waiting for a game (game,
#: ruleset, rated), with the browser they asked from; ``seen`` is the last time they asked (a
#: person not heard of for a while is dropped) and ``table_id`` the table they were seated at.
#: The queue lives here, not in a process, so that every process of a cluster matches from it.
quick_waits = Table(
    "quick_waits",
    metadata,
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True),
    Column("name", String(40), nullable=False),
    Column("guest", Boolean, nullable=False),
    Column("game", String(16), nullable=False),
    Column("ruleset", String(32), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("device", String(64), nullable=True),
    Column("since", DateTime(timezone=True), nullable=False),
    Column("seen", DateTime(timezone=True), nullable=False),
    Column("table_id", String(24), nullable=True),
    Column("seat", Integer, nullable=True),
    Index("ix_quick_waits_key", "game", "ruleset", "rated", "since"),
)


#: Join codes (issue 41 item 10): a code an event's organizer or a table's host hands out for a
#: night; each use signs a person in as a guest whose session ends at ``until`` (``uses`` at
#: most; ``revoked_at`` ends them all at once). :mod:`blot.store.joincodes`.
join_codes = Table(
    "join_codes",
    metadata,
    Column("code", String(16), primary_key=True),
    Column("created_by", Integer, ForeignKey("players.id"), nullable=False),
    Column("event_id", String(24), nullable=True),
    Column("table_id", String(24), nullable=True),
    Column("name", String(40), nullable=True),
    Column("uses", Integer, nullable=False),
    Column("used", Integer, nullable=False),
    Column("until", DateTime(timezone=True), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("revoked_at", DateTime(timezone=True), nullable=True),
    Index("ix_join_codes_creator", "created_by"),
)

#: Who came in with which join code (their sessions end when it is revoked).
join_code_players = Table(
    "join_code_players",
    metadata,
    Column("code", String(16), ForeignKey("join_codes.code"), primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True),
)
