"""``blot serve``: its options, their checks, and the server started with them. Each option is
one alias here, so that the command reads as the list of what it takes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from blot.cli.common import BAD_USAGE, DataDirOption, fail, seconds

if TYPE_CHECKING:
    from blot.server.config import ServerConfig


def _duration(name: str, text: str) -> Any:
    """A duration option: seconds, 0 or more (:func:`blot.cli.common.seconds`)."""
    return typer.Option(name, callback=seconds, help=text)


def _many(name: str, text: str) -> Any:
    """An option that may be repeated."""
    return typer.Option(name, help=text)


Host = Annotated[str, typer.Option("--host", help="Address to listen on (0.0.0.0: every interface).")]
Port = Annotated[int, typer.Option("--port", min=1, max=65535, help="Port to listen on.")]
Db = Annotated[
    str | None,
    typer.Option(
        "--db", help="Database URL (default: SQLite in the data directory; postgresql+psycopg://...)."
    ),
]
Grace = Annotated[
    float, _duration("--grace", "Seconds a dropped player keeps the seat before a bot plays it.")
]
BotDelay = Annotated[float, _duration("--bot-delay", "Seconds a bot waits to move.")]
TrickPause = Annotated[float, _duration("--trick-pause", "Seconds a complete trick stays on the table.")]
DealPause = Annotated[float, _duration("--deal-pause", "Seconds a deal's result shows before the next deal.")]
Origins = Annotated[
    list[str] | None,
    _many("--origin", "Another origin allowed to use the server, e.g. https://blot.example (repeatable)."),
]
BotSeconds = Annotated[
    float, _duration("--bot-seconds", "Seconds a bot may think about a move before it is made for it.")
]
WaitingExpiry = Annotated[
    float,
    _duration("--waiting-expiry", "Seconds a waiting table lives with nobody connected before it is closed."),
]
HostLimit = Annotated[
    int, typer.Option("--host-limit", min=1, help="Open tables one player may host at once.")
]
Analyses = Annotated[
    int,
    typer.Option(
        "--analyses",
        min=1,
        max=16,
        help="Analyses of finished games run at once, each in a process of its own.",
    ),
]
Learn = Annotated[
    bool,
    typer.Option(
        "--learn/--no-learn",
        help="Analyse each game played with a person as it ends: accuracy per player, puzzles.",
    ),
]
WarmSolver = Annotated[
    bool,
    typer.Option(
        "--warm-solver/--no-warm-solver",
        help="Load the search bots' solver at start, in the background (a few seconds of CPU), "
        "so that the first search bot or analysis does not wait for it.",
    ),
]
Bots = Annotated[
    list[str] | None,
    _many("--bot", "NAME=COMMAND: a bot program (docs/bot-protocol.md) offered as a level; repeatable."),
]
Broker = Annotated[
    str | None,
    typer.Option(
        "--broker",
        help="redis://HOST:6379/0: run as one process of a cluster (several blot serve on one "
        "PostgreSQL database; docs/operators.md: Running several processes).",
    ),
]
Proxies = Annotated[
    list[str] | None,
    _many(
        "--trusted-proxy",
        "Address of a reverse proxy whose X-Forwarded-For is believed (repeatable); "
        "from anybody else it is ignored.",
    ),
]
Admins = Annotated[
    list[str] | None,
    _many(
        "--admin",
        "The username of an administrator (repeatable): the daily limit on public events "
        "does not apply to it.",
    ),
]
League = Annotated[
    bool,
    typer.Option(
        "--league",
        help="League rules at rated tables: a pair that suffered tars kapoot may not sit together "
        "for a year, and never after a second time.",
    ),
]

DailyZone = Annotated[
    str,
    typer.Option("--daily-zone", help="The zone whose midnight starts the day's deals (e.g. Asia/Yerevan)."),
]
DailyBots = Annotated[
    str, typer.Option("--daily-bots", help="The bot level of the day's deals' other seats.")
]
DailyGames = Annotated[
    list[str] | None,
    typer.Option(
        "--daily-game", help="A game (GAME or GAME/RULESET) offered as the day's deals; repeatable."
    ),
]
DailyDeals = Annotated[
    list[str] | None,
    typer.Option("--daily-deals", help="GAME=N: the day's deals of a game (default 8; 3-5-8: 9)."),
]

PushContact = Annotated[
    str,
    typer.Option(
        "--push-contact",
        help="A mailto: or https: address of the operator, named in Web Push's VAPID claims.",
    ),
]


def serve(
    host: Host = "127.0.0.1",
    port: Port = 8000,
    db: Db = None,
    data_dir: DataDirOption = None,
    grace: Grace = 60.0,
    bot_delay: BotDelay = 0.8,
    trick_pause: TrickPause = 1.0,
    deal_pause: DealPause = 4.0,
    origin: Origins = None,
    bot_seconds: BotSeconds = 10.0,
    waiting_expiry: WaitingExpiry = 1800.0,
    host_limit: HostLimit = 10,
    analyses: Analyses = 1,
    learn: Learn = True,
    warm_solver: WarmSolver = True,
    bot: Bots = None,
    broker: Broker = None,
    trusted_proxy: Proxies = None,
    admin: Admins = None,
    league: League = False,
    daily_zone: DailyZone = "UTC",
    daily_bots: DailyBots = "basic",
    daily_game: DailyGames = None,
    daily_deals: DailyDeals = None,
    push_contact: PushContact = "mailto:blot@example.org",
) -> None:
    """Play in the browser: start the server (lobby, tables, bots, replays) and print its address."""
    from blot.bots.program import POOL
    from blot.paths import data_dir as default_data_dir
    from blot.server.config import ServerConfig
    from blot.store import Store, default_url, safe_url

    origins, proxies, programs = _checked(origin, trusted_proxy, bot)
    url = db or default_url(data_dir)
    POOL.log_folder = data_dir or default_data_dir()  # the bot log, bots.log, beside the database
    Store.open(url).close()  # a database that cannot be opened is one line, before anything starts
    config = ServerConfig(
        db_url=url,
        grace=grace,
        bot_delay=bot_delay,
        trick_pause=trick_pause,
        deal_pause=deal_pause,
        origins=origins,
        hosts=_own_hosts(host),
        trusted_proxies=proxies,
        bot_move_seconds=bot_seconds,
        waiting_expiry=waiting_expiry,
        host_limit=host_limit,
        analysis_workers=analyses,
        learn=learn,
        warm_solver=warm_solver,
        broker_url=broker,
        address=f"{host}:{port}",
        bots=programs,
        league=league,
        admins=tuple(admin or ()),
        push_contact=push_contact,
        **_daily(daily_zone, daily_bots, daily_game, daily_deals, set(programs)),
    )
    _start(config, host, port, safe_url(url))


def _daily(
    zone: str, bots: str, games: list[str] | None, deals: list[str] | None, programs: set[str]
) -> dict[str, Any]:
    """The day's deals' options (issue 45), each checked (exit 2, naming the option)."""
    from zoneinfo import ZoneInfo

    from blot.errors import BlotError
    from blot.games import SPECS, spec

    if bots not in programs and any(bots not in g.bot_names() for g in SPECS.values()):
        fail(f"--daily-bots {bots!r}: not a bot level of every game, nor a --bot program", BAD_USAGE)
    try:
        ZoneInfo(zone)
    except (ValueError, KeyError, OSError):
        fail(f"--daily-zone {zone!r}: not a time zone (e.g. UTC, Asia/Yerevan)", BAD_USAGE)
    sizes: dict[str, int] = {}
    try:
        for item in games or ():
            name, _, ruleset = item.partition("/")
            spec(name).rules(ruleset or None, None)
        for item in deals or ():
            name, _, n = item.partition("=")
            if not n.isdigit() or not 1 <= int(n) <= 40:
                fail(f"--daily-deals {item!r}: write GAME=N, N from 1 to 40", BAD_USAGE)
            sizes[spec(name).name] = int(n)
    except BlotError as e:
        fail(f"--daily-game/--daily-deals: {e}", BAD_USAGE)
    return {"daily_zone": zone, "daily_bots": bots, "daily_games": tuple(games or ()), "daily_deals": sizes}


def _checked(
    origin: list[str] | None, trusted_proxy: list[str] | None, bot: list[str] | None
) -> tuple[tuple[str, ...], tuple[str, ...], dict[str, str]]:
    """The repeatable options, each checked (exit 2, naming the option, on a bad one)."""
    from blot.errors import BlotError
    from blot.games import SPECS
    from blot.server.config import is_address, parse_bot_option

    origins = tuple(origin or ())
    for one in origins:
        head, sep, rest = one.partition("://")
        if head not in ("http", "https") or not sep or not rest.strip("/"):
            fail(f"--origin is a scheme and a host, e.g. https://blot.example, not {one!r}", BAD_USAGE)
    proxies = tuple(trusted_proxy or ())
    for one in proxies:
        if not is_address(one):
            fail(f"--trusted-proxy is an IP address such as 127.0.0.1, not {one!r}", BAD_USAGE)
    builtin = {level for game in SPECS.values() for level in game.bots}
    try:
        programs = dict(parse_bot_option(text, builtin) for text in bot or [])
    except BlotError as e:
        fail(str(e), BAD_USAGE)
    return origins, proxies, programs


def _start(config: ServerConfig, host: str, port: int, shown_url: str) -> None:
    """Check the bot programs, claim the database, listen, say where, and run until stopped."""
    from blot.server import instance
    from blot.server.app import listen
    from blot.server.app import serve as run_server

    config.check_bots()
    instance.claim(config.db_url, shared=config.broker_url is not None)  # a second server alone is refused
    sock = listen(host, port)
    shown = "localhost" if host in ("0.0.0.0", "::") else host
    address = f"http://{shown}:{port}/"
    print(f"blot: open {address} in a browser (database: {shown_url}); Ctrl+C stops", flush=True)
    run_server(config, sock)


def _own_hosts(host: str) -> tuple[str, ...]:
    """The names this server answers to besides addresses and localhost: ``--host`` when it is
    a name, and the machine's own name (for the other devices of a network)."""
    import socket

    from blot.server.config import is_address

    names = {socket.gethostname().lower()}
    names.add(f"{socket.gethostname().lower()}.local")
    if not is_address(host):
        names.add(host.lower())
    return tuple(sorted(names))
