"""How the server behaves; ``blot serve`` sets these from its options (docs/operators.md:
Starting the server)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from blot.errors import BlotError
from blot.server.clock import Clock, scheduler

#: The built-in bot that takes a seat whose bot program failed (docs/bot-protocol.md).
SWAP_LEVEL = "basic"


@dataclass
class ServerConfig:
    db_url: str
    #: Seconds a player who dropped keeps the seat before a bot plays it (until the player returns).
    grace: float = 60.0
    #: Seconds a bot waits before it moves, so that people can follow.
    bot_delay: float = 0.8
    #: Seconds a complete trick stays on the table (a table may choose its own, ``trick_pause``
    #: in its settings): a bot waits this long, on top of ``bot_delay``, before it leads the next.
    trick_pause: float = 1.0
    #: Seconds the result of a deal shows before the next deal is dealt (after the last trick's
    #: pause, so that the last trick is seen first).
    deal_pause: float = 4.0
    #: Seed of the shuffles (tests); None: the operating system's randomness.
    seed: int | None = None
    #: Bot programs offered as bot levels (``blot serve --bot NAME=COMMAND``): name -> command.
    bots: dict[str, str] = field(default_factory=dict)
    #: The games each of those programs plays, from its hello (:meth:`check_bots`).
    bot_games: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: The League's rules for rated tables (``blot serve --league``): a pair that suffered tars
    #: kapoot may not sit together at a rated table for a year, and never after a second one.
    league: bool = False
    #: The server's clock (wall seconds since the epoch) that every expiry reads and every game
    #: timer is set on (:mod:`blot.server.clock`); tests give a ``ManualClock`` and move it.
    clock: Callable[[], float] = field(default=time.time)
    #: argon2-cffi's profile for new password hashes (Argon2id; tests use ``CHEAPEST``).
    password_profile: str = "RFC_9106_LOW_MEMORY"
    #: Failed logins an account may have in ``login_window`` seconds before logins wait.
    account_attempts: int = 5
    #: Logins and sign-ups one address may try in ``login_window`` seconds: a ceiling that a
    #: club night behind one address (60 people signing up and logging in on two devices) does
    #: not reach (issue 41 item 10); a brute force is stopped by the two limits of failures.
    address_attempts: int = 300
    #: Failed logins one address may have in ``login_window`` seconds, whatever the accounts:
    #: a brute force across accounts meets it; a venue's mistyped passwords do not.
    address_failures: int = 60
    login_window: float = 900.0

    # --- limits: no client can exhaust the server (issue 11) --------------------------------------

    #: The largest request body in bytes; a larger one is answered 413 before it is read.
    body_limit: int = 16_384
    #: Origins (``https://blot.example``) allowed to change state and open websockets besides the
    #: server's own (the ``Host`` a request was sent to); a request without ``Origin`` (not a
    #: browser) is let through.
    origins: tuple[str, ...] = ()
    #: Host names that are the server's own besides addresses and ``localhost`` (``blot serve``:
    #: its ``--host`` and the machine's name); a request for any other ``Host`` is refused.
    hosts: tuple[str, ...] = ()
    #: Addresses of reverse proxies whose ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are
    #: believed (``blot serve --trusted-proxy``); from anybody else those headers are ignored.
    trusted_proxies: tuple[str, ...] = ()
    #: Seconds a bot may think about one move; then the automatic move is made for it.
    bot_move_seconds: float = 10.0
    #: Seconds a waiting table lives with nobody connected to it; then it is closed (deleted).
    waiting_expiry: float = 1800.0
    #: Open tables (waiting or being played) one player may host at once.
    host_limit: int = 10
    #: Seconds a client has to send a request's headers; then the connection is closed.
    header_timeout: float = 10.0
    #: Connections (HTTP and websockets) one address may have open at once.
    connections_per_address: int = 128
    #: Guests one address may create in ``guest_window`` seconds.
    guests_per_address: int = 60
    guest_window: float = 3600.0
    #: Tables waiting for players that one address may have at once (its players' together; an
    #: IPv6 address counted by its /64).
    waiting_per_address: int = 20
    #: Public events one account may create in any 24 hours (issue 38 item 7); ``admins`` are not
    #: limited.
    public_events_per_day: int = 10
    #: The usernames of the server's administrators (``blot serve --admin``): the limit on public
    #: events does not apply to them.
    admins: tuple[str, ...] = ()
    #: How often the hub looks for waiting tables to close and finished ones to unload.
    sweep_seconds: float = 60.0
    #: How often the events' sweep opens tables a round's start left unopened and gives the
    #: forfeits that are due (issue 25).
    event_sweep_seconds: float = 15.0
    #: How often the hub checks that the sessions of open connections still exist (a logout, a
    #: new password, ``blot admin disable`` in another process): an ended one is closed.
    session_check_seconds: float = 5.0
    #: Analyses of finished games run at once, each in a process of its own (``blot serve
    #: --analyses``); more wait their turn.
    analysis_workers: int = 1
    #: The Redis broker of a cluster (``blot serve --broker redis://…``); None: one process alone.
    broker_url: str | None = None
    #: Where this process answers (``host:port``), written with its heartbeat in a cluster.
    address: str = ""
    #: Analyse every game played out with a person seated as it ends, for its players' accuracy
    #: and its puzzles (issue 28; ``blot serve`` turns it on, ``--no-learn`` off).
    learn: bool = False
    #: Compile the search bots' solver in the background at start (``blot serve``), so that the
    #: first search bot does not wait for it.
    warm_solver: bool = False

    @property
    def timers(self) -> Clock:
        """The scheduler of :attr:`clock` (the loop's real timers unless a test's clock)."""
        return scheduler(self.clock)

    # --- the day's deals (issue 45) -------------------------------------------------------------

    #: The zone whose midnight starts a new day's deals (``blot serve --daily-zone``).
    daily_zone: str = "UTC"
    #: The games offered, ``game`` or ``game/ruleset`` (empty: every game, its first ruleset).
    daily_games: tuple[str, ...] = ()
    #: Deals in a day's set per game (default 8 for a game to a target, a game's counted deals).
    daily_deals: dict[str, int] = field(default_factory=dict)
    #: The bot level of every other seat of a day's table, and of the par (``--daily-bots``).
    daily_bots: str = "basic"

    #: Web Push (issue 41 item 4): the operator's contact that the VAPID claims name (``sub``,
    #: ``blot serve --push-contact``); push services write to it when the server misbehaves.
    push_contact: str = "mailto:blot@example.org"
    #: Push services besides the browsers' own (:data:`blot.server.push.sending.PUSH_SERVICES`)
    #: that subscriptions may name: a host (``https://`` only) or an ``http://host:port`` origin.
    push_services: tuple[str, ...] = ()

    def check_bots(self) -> None:
        """Start each bot program once: one that cannot play stops the server from starting."""
        from blot.bots.program import POOL
        from blot.games import SPECS

        for name, command in self.bots.items():
            if name in self.bot_games:
                continue
            program = POOL.take(command)
            games = tuple(g for g in program.hello.games if g in SPECS)
            POOL.give(program)
            if not games:
                raise BlotError(f"bot {name} ({command}) plays none of {', '.join(SPECS)}")
            self.bot_games[name] = games

    def levels(self, game: str) -> list[str]:
        """The bot programs offered for ``game``."""
        return [name for name, games in self.bot_games.items() if game in games]

    def bot_spec(self, level: str) -> str:
        """The bot spec of a level: a program's ``cmd:COMMAND`` for its name, else the level."""
        command = self.bots.get(level)
        return level if command is None else f"cmd:{command}"


def is_address(text: str) -> bool:
    """Whether ``text`` is an IP address (v4 or v6), not a name."""
    import ipaddress

    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def parse_bot_option(text: str, builtin: set[str]) -> tuple[str, str]:
    """``NAME=COMMAND`` of ``blot serve --bot``."""
    name, eq, command = text.partition("=")
    name = name.strip()
    if not eq or not command.strip():
        raise BlotError(f"--bot {text!r}: write NAME=COMMAND, e.g. --bot 'mybot=python3 my_bot.py'")
    if not name.replace("-", "").replace("_", "").isalnum() or len(name) > 30:
        raise BlotError(f"--bot {text!r}: a bot's name is a word of letters, digits, - and _")
    if name in builtin:
        raise BlotError(f"--bot {text!r}: {name} is the name of a built-in bot")
    return name, command.strip()
