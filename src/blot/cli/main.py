"""The ``blot`` command. Each command imports what it needs when it runs, so that every command
starts fast; errors are one plain line on standard error, never a traceback."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from blot.errors import BlotError
from blot.games import names

if TYPE_CHECKING:
    from collections.abc import Callable

    from blot.games import GameSpec

app = typer.Typer(
    name="blot",
    help="Bazar Blot and 3-5-8: play, replay and simulate.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)

#: The games, as the help names them, and the one commands play when none is named.
GAMES_HELP = " or ".join(names()) + "."
DEFAULT_GAME = names()[0]

# Options that several commands share, each with one help text.
GameOption = Annotated[str, typer.Option("--game", help=GAMES_HELP)]
SeedOption = Annotated[int, typer.Option("--seed", help="Seed of the deals and the bots.")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]
DbOption = Annotated[str | None, typer.Option("--db", help="Database URL (default: the one of blot serve).")]
RecordOption = Annotated[
    int | None,
    typer.Option("--record", min=1, help="In a file of one record per line: only this record (from 1)."),
]
DataDirOption = Annotated[
    Path | None, typer.Option("--data-dir", help="Folder of the default SQLite file (or $BLOT_DATA_DIR).")
]

#: Exit statuses (README: Command line): bad input (a record, a file, a database) 1, a bad command line 2,
#: interrupted (Ctrl-C) 130.
BAD_INPUT, BAD_USAGE, INTERRUPTED = 1, 2, 130


def fail(message: str, code: int = 1) -> NoReturn:
    """Print ``error: message`` on standard error and exit. The message is kept on one line:
    a control character (a new line in a file name, an escape code in a record) is written as
    its escape (:func:`blot.printable.printable`)."""
    from blot.printable import printable

    print(f"error: {printable(message)}", file=sys.stderr)
    raise SystemExit(code)


def check_game(game: str) -> GameSpec:
    """The game named on the command line (a bad name is a bad command line: exit 2)."""
    from blot.games import spec

    try:
        return spec(game)
    except BlotError as e:
        fail(str(e), BAD_USAGE)


def check_bots(
    game: GameSpec, text: str, option: str, most: int, each: str = "one per computer player"
) -> list[str]:
    """The bot specs of an option, each checked against its bot's settings (exit 2 when one is
    unknown or out of range, before anything is played)."""
    from blot.bots import check_bot, split_bot_specs

    try:
        specs = split_bot_specs(text)
    except BlotError as e:
        fail(f"{option}: {e}", BAD_USAGE)
    if not specs:
        fail(f"{option} names at least one bot, e.g. basic", BAD_USAGE)
    if len(specs) > most == 1:
        fail(f"{option} names one bot, e.g. heuristic or pimc:samples=20", BAD_USAGE)
    if len(specs) > most:
        fail(f"{option} names at most {most} bots in {game.title}, {each}: e.g. basic,random", BAD_USAGE)
    for one in specs:
        try:
            check_bot(game, one)
        except BlotError as e:
            fail(f"{option}: {e}", BAD_USAGE)
    return specs


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        print(f"blot {version('blot')}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option("--version", help="Print blot's version and exit.", callback=_version, is_eager=True),
    ] = False,
) -> None:
    """Bazar Blot and 3-5-8: play, replay and simulate."""


@app.command()
def replay(
    file: Annotated[
        str,
        typer.Argument(
            help="A game record (docs/format.md), or a file of one record per line; - reads standard input."
        ),
    ],
    record: RecordOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object per record.")] = False,
) -> None:
    """Replay and check game records, then print their results."""
    from blot.cli.replay import run

    run(file, record, as_json)


@app.command()
def simulate(
    game: GameOption = DEFAULT_GAME,
    games: Annotated[int, typer.Option("--games", min=1, help="How many full games.")] = 100,
    seed: SeedOption = 0,
    bots: Annotated[str, typer.Option("--bots", help="Bots by seat in turn, e.g. random,basic.")] = "basic",
    records: Annotated[
        Path | None, typer.Option("--records", help="Write one record per line (JSON Lines) here.")
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Play full games between bots and report speed and statistics."""
    from blot.cli.simulate import run

    game_spec = check_game(game)
    specs = check_bots(game_spec, bots, "--bots", game_spec.seats, "one per seat in turn")
    run(game_spec.name, games, seed, specs, records, as_json)


@app.command()
def play(
    game: Annotated[str, typer.Argument(help=GAMES_HELP)],
    seed: Annotated[int | None, typer.Option("--seed", help="Seed of the deals and the bots.")] = None,
    bots: Annotated[str, typer.Option("--bots", help="The computer players' bot.")] = "basic",
    seat: Annotated[
        int, typer.Option("--seat", help="Your seat; the first deal is dealt so that you call first.")
    ] = 0,
) -> None:
    """Play a whole game in the terminal against bots."""
    game_spec = check_game(game)
    if seat not in range(game_spec.seats):
        fail(f"--seat is a seat from 0 to {game_spec.seats - 1} in {game_spec.title}, not {seat}", BAD_USAGE)
    check_bots(game_spec, bots, "--bots", game_spec.seats - 1)
    from blot.cli.terminal import play as play_in_terminal

    play_in_terminal(game_spec.name, seed, bots, seat)


@app.command("score-deal")
def score_deal(
    contract: Annotated[str | None, typer.Option("--contract", help="The bid, e.g. 10H, 12NT, 25S.")] = None,
    team: Annotated[
        int | None, typer.Option("--team", help="The contracting team (or the team at fault).")
    ] = None,
    contra: Annotated[bool, typer.Option("--contra", help="The bid was contra'd (x2).")] = False,
    redouble: Annotated[bool, typer.Option("--redouble", help="The contra was redoubled (x4).")] = False,
    card_points: Annotated[
        str | None, typer.Option("--card-points", help="Team 0,team 1 card points; one may be left out: 98,")
    ] = None,
    kapoot: Annotated[int | None, typer.Option("--kapoot", help="The team that took every trick.")] = None,
    alone: Annotated[
        bool, typer.Option("--alone", help="Kanach: the declarer took every trick himself.")
    ] = False,
    declarations: Annotated[
        str | None, typer.Option("--declarations", help="Counting declaration points, team 0,team 1.")
    ] = None,
    belote: Annotated[int | None, typer.Option("--belote", help="The team holding belote-rebelote.")] = None,
    void: Annotated[bool, typer.Option("--void", help="A void deal (all passed, four sevens).")] = False,
    penalty: Annotated[
        str | None, typer.Option("--penalty", help="misdeal or misplay (B-72), with --team.")
    ] = None,
    ruleset: Annotated[
        str | None, typer.Option("--ruleset", help="The ruleset (default: the game's first, league).")
    ] = None,
    kanach: Annotated[bool, typer.Option("--kanach", help="Allow the 30 (kanach) bid.")] = False,
    as_json: JsonOption = False,
) -> None:
    """Score one deal of a real-table game (the score sheet's rules, B-50 … B-55, B-72)."""
    from blot.bazar.rules import Rules
    from blot.cli.score_deal import entry_from_flags, run

    entry = entry_from_flags(
        void=void,
        penalty=penalty,
        contract=contract,
        team=team,
        multiplier=4 if redouble else 2 if contra else 1,
        card_points=card_points,
        kapoot=kapoot,
        alone=alone,
        declarations=declarations,
        belote=belote,
    )
    run(entry, Rules.from_record(ruleset, {"kanach": kanach}), as_json)


@app.command("scoresheet")
def scoresheet(
    db: DbOption = None,
    data_dir: DataDirOption = None,
    sheet: Annotated[str | None, typer.Option("--sheet", help="Open this sheet (its id).")] = None,
    new: Annotated[bool, typer.Option("--new", help="Start a new sheet.")] = False,
    teams: Annotated[
        str | None, typer.Option("--teams", help="A new sheet's team names: 'Team A,Team B'.")
    ] = None,
    ruleset: Annotated[
        str | None,
        typer.Option("--ruleset", help="A new sheet's ruleset (default: the game's first, league)."),
    ] = None,
    kanach: Annotated[bool, typer.Option("--kanach", help="A new sheet allows the 30 (kanach) bid.")] = False,
    target: Annotated[int, typer.Option("--target", help="A new sheet's game target.")] = 301,
    by: Annotated[
        str | None, typer.Option("--by", help="Your name in the sheet's history (default: terminal).")
    ] = None,
) -> None:
    """Keep the score sheet (Davtar) of a game played with real cards, in blot serve's database."""
    from blot.cli.scoresheet import scoresheet as keep_sheet

    keep_sheet(
        _db(db, data_dir),
        sheet_id=sheet,
        new=new,
        teams=teams,
        ruleset=ruleset,
        kanach=kanach,
        target=target,
        by=by,
    )


event = typer.Typer(help="League events: standings of an exported event.", no_args_is_help=True)
app.add_typer(event, name="event")


@event.command("standings")
def event_standings(
    file: Annotated[Path, typer.Argument(help="An exported event: the JSON of GET /api/events/ID.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the standings as JSON.")] = False,
) -> None:
    """Print the standings of an exported event, recomputed from its rounds (match points, then
    the tie-breaks of its format)."""
    from blot.cli.event import print_standings

    print_standings(file, as_json)


def _seconds(value: float) -> float:
    """A duration option: a finite number of seconds, 0 or more."""
    import math

    if not math.isfinite(value) or value < 0:
        raise typer.BadParameter(f"a number of seconds, 0 or more, not {value}")
    return value


admin = typer.Typer(
    help="The accounts of blot serve's database: list them, reset a password, disable or enable one; "
    "the talk at its tables: silence an account, list a table's messages, remove one.",
    no_args_is_help=True,
)
app.add_typer(admin, name="admin")


def _db(db: str | None, data_dir: Path | None) -> str:
    from blot.store import default_url

    return db or default_url(data_dir)


def _existing_db(db: str | None, data_dir: Path | None) -> str:
    """As :func:`_db`, for commands that only read or change what is there: a database that does
    not exist is refused, never created."""
    from blot.store import existing_url

    return existing_url(db, data_dir)


@admin.command("list")
def admin_list(db: DbOption = None, data_dir: DataDirOption = None) -> None:
    """List every account: id, username, when it was made, games played, active or disabled."""
    from blot.cli.admin import list_accounts

    list_accounts(_existing_db(db, data_dir))


@admin.command("reset-password")
def admin_reset_password(
    username: Annotated[str, typer.Argument(help="The account (any case).")],
    password_stdin: Annotated[
        bool, typer.Option("--password-stdin", help="Read the new password from standard input.")
    ] = False,
    db: DbOption = None,
    data_dir: DataDirOption = None,
) -> None:
    """Give an account a new password (a random one, printed once, unless --password-stdin) and
    end its sessions."""
    from blot.cli.admin import reset_password

    url = _existing_db(db, data_dir)
    new = sys.stdin.readline().rstrip("\r\n") if password_stdin else None
    reset_password(url, username, new)


def _account_switch(disabled: bool) -> Callable[..., None]:
    """``blot admin disable`` and ``enable``: one command but for what it sets."""

    def switch(
        username: Annotated[str, typer.Argument(help="The account (any case).")],
        db: DbOption = None,
        data_dir: DataDirOption = None,
    ) -> None:
        from blot.cli.admin import set_disabled

        set_disabled(_existing_db(db, data_dir), username, disabled)

    return switch


admin.command("disable", help="Disable an account: it can no longer log in, and its sessions end.")(
    _account_switch(True)
)
admin.command("enable", help="Let a disabled account log in again.")(_account_switch(False))


def _voice_switch(silenced: bool) -> Callable[..., None]:
    """``blot admin silence`` and ``unsilence``."""

    def switch(
        username: Annotated[str, typer.Argument(help="The account (any case).")],
        db: DbOption = None,
        data_dir: DataDirOption = None,
    ) -> None:
        from blot.cli.admin import set_silenced

        set_silenced(_existing_db(db, data_dir), username, silenced)

    return switch


admin.command("silence", help="Take an account's voice at every table (it may still play).")(
    _voice_switch(True)
)
admin.command("unsilence", help="Let a silenced account talk at tables again.")(_voice_switch(False))


@admin.command("chat")
def admin_chat(
    table: Annotated[str, typer.Argument(help="The table's id (from its address /table/ID).")],
    db: DbOption = None,
    data_dir: DataDirOption = None,
) -> None:
    """List every message said at a table: id, time, room, who and what (removed ones marked)."""
    from blot.cli.admin import table_chat

    table_chat(_existing_db(db, data_dir), table)


@admin.command("chat-remove")
def admin_chat_remove(
    message: Annotated[int, typer.Argument(help="The message's id (from blot admin chat).")],
    db: DbOption = None,
    data_dir: DataDirOption = None,
) -> None:
    """Remove a message from its table's talk: pages opened from now on no longer show it."""
    from blot.cli.admin import remove_message

    remove_message(_existing_db(db, data_dir), message)


@admin.command("organizer")
def admin_organizer(
    event_id: Annotated[str, typer.Argument(help="The event (its id, from its link).")],
    username: Annotated[str, typer.Argument(help="The account that will organize it too.")],
    db: DbOption = None,
    data_dir: DataDirOption = None,
) -> None:
    """Make an account an organizer of an event."""
    from blot.cli.admin import add_organizer

    add_organizer(_existing_db(db, data_dir), event_id, username)


@admin.command("court")
def admin_court(
    username: Annotated[str, typer.Argument(help="The account.")],
    court: Annotated[
        str, typer.Argument(help="sages (the Court of Sages) or conduct (the Court of Conduct).")
    ],
    db: DbOption = None,
    data_dir: DataDirOption = None,
) -> None:
    """Make an account a member of one of the League's courts: it then sees and answers the
    questions the referees send to it, without the players' names."""
    from blot.cli.admin import add_court_member

    add_court_member(_existing_db(db, data_dir), username, court)


@admin.command("decision")
def admin_decision(
    date: Annotated[str, typer.Argument(help="The date of the decision, YYYY-MM-DD.")],
    concerns: Annotated[str, typer.Argument(help="The event or game it concerns.")],
    decision: Annotated[str, typer.Argument(help="The decision, as the Court publishes it.")],
    kind: Annotated[
        str | None,
        typer.Option(
            "--kind", help="A dishonour (L-9): signals, stakes, cheating, barred_pair or arranged_loss."
        ),
    ] = None,
    account: Annotated[
        list[str] | None, typer.Option("--account", help="An account the dishonour names (repeat it).")
    ] = None,
    penance: Annotated[
        str | None, typer.Option("--penance", help="warning, bar (with --until) or life.")
    ] = None,
    until: Annotated[
        str | None, typer.Option("--until", help="The day a bar for a period ends, YYYY-MM-DD.")
    ] = None,
    case: Annotated[
        int | None, typer.Option("--case", help="The Court of Conduct's case it decides.")
    ] = None,
    withhold_names: Annotated[
        bool, typer.Option("--withhold-names", help="Publish the dishonour without the accounts' names.")
    ] = False,
    db: DbOption = None,
    data_dir: DataDirOption = None,
) -> None:
    """Publish a decision of the Court of Conduct in the League's register (L-10); with --kind a
    dishonour (L-9), the same record a member of the Court writes on the site, whose bar is
    enforced."""
    from blot.cli.admin import publish_decision

    publish_decision(
        _existing_db(db, data_dir),
        date,
        concerns,
        decision,
        kind=kind,
        accounts=account,
        penance=penance,
        until=until,
        case=case,
        publish_names=not withhold_names,
    )


@admin.command("forgive")
def admin_forgive(
    number: Annotated[int, typer.Argument(help="The dishonour's number in the register.")],
    date: Annotated[str, typer.Argument(help="The date the Court forgave it, YYYY-MM-DD.")],
    db: DbOption = None,
    data_dir: DataDirOption = None,
) -> None:
    """Mark a dishonour forgiven: the Court of Conduct found its penance sufficient (L-10); its
    bar is lifted."""
    from blot.cli.admin import forgive_decision

    forgive_decision(_existing_db(db, data_dir), number, date)


@app.command()
def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on (0.0.0.0: every interface).")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="Port to listen on.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            "--db", help="Database URL (default: SQLite in the data directory; postgresql+psycopg://...)."
        ),
    ] = None,
    data_dir: DataDirOption = None,
    grace: Annotated[
        float,
        typer.Option(
            "--grace",
            callback=_seconds,
            help="Seconds a dropped player keeps the seat before a bot plays it.",
        ),
    ] = 60.0,
    bot_delay: Annotated[
        float, typer.Option("--bot-delay", callback=_seconds, help="Seconds a bot waits to move.")
    ] = 0.8,
    trick_pause: Annotated[
        float,
        typer.Option("--trick-pause", callback=_seconds, help="Seconds a complete trick stays on the table."),
    ] = 1.0,
    deal_pause: Annotated[
        float,
        typer.Option(
            "--deal-pause", callback=_seconds, help="Seconds a deal's result shows before the next deal."
        ),
    ] = 4.0,
    origin: Annotated[
        list[str] | None,
        typer.Option(
            "--origin",
            help="Another origin allowed to use the server, e.g. https://blot.example (repeatable).",
        ),
    ] = None,
    bot_seconds: Annotated[
        float,
        typer.Option(
            "--bot-seconds",
            callback=_seconds,
            help="Seconds a bot may think about a move before it is made for it.",
        ),
    ] = 10.0,
    waiting_expiry: Annotated[
        float,
        typer.Option(
            "--waiting-expiry",
            callback=_seconds,
            help="Seconds a waiting table lives with nobody connected before it is closed.",
        ),
    ] = 1800.0,
    host_limit: Annotated[
        int, typer.Option("--host-limit", min=1, help="Open tables one player may host at once.")
    ] = 10,
    analyses: Annotated[
        int,
        typer.Option(
            "--analyses",
            min=1,
            max=16,
            help="Analyses of finished games run at once, each in a process of its own.",
        ),
    ] = 1,
    learn: Annotated[
        bool,
        typer.Option(
            "--learn/--no-learn",
            help="Analyse each game played with a person as it ends: accuracy per player, puzzles.",
        ),
    ] = True,
    bot: Annotated[
        list[str] | None,
        typer.Option(
            "--bot", help="NAME=COMMAND: a bot program (docs/bot-protocol.md) offered as a level; repeatable."
        ),
    ] = None,
    broker: Annotated[
        str | None,
        typer.Option(
            "--broker",
            help="redis://HOST:6379/0: run as one process of a cluster (several blot serve on one "
            "PostgreSQL database; docs/operators.md: Running several processes).",
        ),
    ] = None,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            "--trusted-proxy",
            help="Address of a reverse proxy whose X-Forwarded-For is believed (repeatable); "
            "from anybody else it is ignored.",
        ),
    ] = None,
    admin: Annotated[
        list[str] | None,
        typer.Option(
            "--admin",
            help="The username of an administrator (repeatable): the daily limit on public events "
            "does not apply to it.",
        ),
    ] = None,
    league: Annotated[
        bool,
        typer.Option(
            "--league",
            help="League rules at rated tables: a pair that suffered tars kapoot may not sit together "
            "for a year, and never after a second time.",
        ),
    ] = False,
) -> None:
    """Play in the browser: start the server (lobby, tables, bots, replays) and print its address."""
    from blot.bots.program import POOL
    from blot.games import SPECS
    from blot.paths import data_dir as default_data_dir
    from blot.server.app import listen
    from blot.server.app import serve as run_server
    from blot.server.config import ServerConfig, is_address, parse_bot_option
    from blot.store import Store, default_url, safe_url

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
    programs = dict(parse_bot_option(text, builtin) for text in bot or [])
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
        warm_solver=True,
        broker_url=broker,
        address=f"{host}:{port}",
        bots=programs,
        league=league,
        admins=tuple(admin or ()),
    )
    config.check_bots()
    from blot.server import instance

    instance.claim(url, shared=broker is not None)  # a second server alone is refused in one sentence
    sock = listen(host, port)
    shown = "localhost" if host in ("0.0.0.0", "::") else host
    address = f"http://{shown}:{port}/"
    print(f"blot: open {address} in a browser (database: {safe_url(url)}); Ctrl+C stops", flush=True)
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


@app.command()
def solve(
    file: Annotated[
        str,
        typer.Argument(
            help="A Bazar Blot record (docs/format.md), or a file of one record per line; "
            "- reads standard input."
        ),
    ],
    deal: Annotated[int, typer.Option("--deal", min=1, help="Which deal, counting from 1.")] = 1,
    after: Annotated[
        int, typer.Option("--after", min=0, help="Solve after this many cards of its play.")
    ] = 0,
    record: RecordOption = None,
    as_json: JsonOption = False,
) -> None:
    """Double-dummy value of each legal card of the seat to act in a recorded deal."""
    from blot.cli.solve import run

    run(file, deal, after, as_json, record)


@app.command()
def analyse(
    file: Annotated[
        str,
        typer.Argument(
            help="A game record (docs/format.md), or a file of one record per line, analysed record "
            "by record; - reads standard input."
        ),
    ],
    deal: Annotated[
        int | None, typer.Option("--deal", min=1, help="Only this deal, counting from 1.")
    ] = None,
    record: RecordOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object per record.")] = False,
) -> None:
    """Value every card of a recorded game by double-dummy: each card's loss, the dd table."""
    from blot.cli.analyse import run

    run(file, deal, as_json, record)


puzzles = typer.Typer(
    help="Puzzles mined from finished games: mine them from records into blot serve's database, "
    "export them as JSON lines.",
    no_args_is_help=True,
)
app.add_typer(puzzles, name="puzzles")


@puzzles.command("mine")
def puzzles_mine(
    files: Annotated[
        list[str],
        typer.Argument(
            help="Game records (docs/format.md), or files of one record per line; - reads standard input."
        ),
    ],
    db: DbOption = None,
    data_dir: DataDirOption = None,
) -> None:
    """Analyse every finished game of the files and keep its puzzles in the database."""
    from blot.cli.puzzles import mine

    mine(files, _db(db, data_dir))


@puzzles.command("export")
def puzzles_export(
    game: Annotated[str | None, typer.Option("--game", help="Only this game's puzzles.")] = None,
    db: DbOption = None,
    data_dir: DataDirOption = None,
) -> None:
    """Write every puzzle as one JSON object per line (docs/protocol.md, "Puzzle lines")."""
    from blot.cli.puzzles import export

    export(_existing_db(db, data_dir), None if game is None else check_game(game).name)


@app.command()
def arena(
    game: GameOption = DEFAULT_GAME,
    a: Annotated[str, typer.Option("--a", help="Bot A, NAME[:key=value,...].")] = "heuristic",
    b: Annotated[str, typer.Option("--b", help="Bot B, NAME[:key=value,...].")] = "basic",
    deals: Annotated[int, typer.Option("--deals", min=1, help="Duplicate deals to play.")] = 100,
    seed: SeedOption = 0,
    games: Annotated[
        int,
        typer.Option("--games", min=0, help="Play this many full games instead and report A's win rate."),
    ] = 0,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs",
            min=1,
            help="Worker processes, at most the machine's cores (the result does not change).",
        ),
    ] = 1,
    dd_loss: Annotated[
        bool,
        typer.Option("--dd-loss", help="Also value every card by double-dummy: each side's loss per deal."),
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Bot A against bot B on duplicate deals: mean margin per deal with a 95% interval."""
    import os

    from blot.cli.arena import arena as run_arena

    game_spec = check_game(game)
    (a_spec,) = check_bots(game_spec, a, "--a", 1, "bot A")
    (b_spec,) = check_bots(game_spec, b, "--b", 1, "bot B")
    if dd_loss and games:
        fail("--dd-loss measures duplicate deals: leave out --games", 2)
    jobs = min(jobs, os.cpu_count() or 1)
    run_arena(game_spec.name, a_spec, b_spec, deals, seed, games, jobs, as_json, dd_loss)


def _notice(text: str) -> None:
    print(f"blot: {text}", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``blot`` console script."""
    from blot import notice

    notice.hook = _notice
    command = typer.main.get_command(app)
    try:
        command.main(args=argv, prog_name="blot", standalone_mode=False)
    except BlotError as e:
        fail(str(e), BAD_INPUT)
    except (KeyboardInterrupt, typer.Abort):
        print(file=sys.stderr)
        raise SystemExit(INTERRUPTED) from None
    except BrokenPipeError:
        raise SystemExit(BAD_INPUT) from None
    except RecursionError:
        fail("the input is nested too deeply to be read", BAD_INPUT)
    except Exception as e:
        # Click's errors (typer vendors click in recent releases, so they are recognised by
        # their shape): a usage error exits 2, any other 1, each as one line.
        code = getattr(e, "exit_code", None)
        if not isinstance(code, int) or not hasattr(e, "format_message"):
            raise
        if type(e).__name__ == "NoArgsIsHelpError":  # ``blot``, ``blot admin``: their help
            print(e.format_message())
            raise SystemExit(0) from None
        fail(_usage_message(e), code)


def _usage_message(e: Exception) -> str:
    message = " ".join(e.format_message().split())  # type: ignore[attr-defined]
    ctx = getattr(e, "ctx", None)
    if ctx is None:
        return message
    return f"{message} (see '{ctx.command_path} --help')"


if __name__ == "__main__":
    main()
