"""``blot admin``: the commands of the accounts, the talk and the League's register of
``blot serve``'s database (their work is in :mod:`blot.cli.admin`, imported when one runs)."""

from __future__ import annotations

import functools
import inspect
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from blot.cli.common import DataDirOption, DbOption, existing_database

admin = typer.Typer(
    help="The accounts of blot serve's database: list them, reset a password, disable or enable one; "
    "the talk at its tables: silence an account, list a table's messages, remove one; the League: "
    "an event's organizers, the courts' members, the register of decisions.",
    no_args_is_help=True,
)

#: The account a command is about (its username, any case).
Account = Annotated[str, typer.Argument(help="The account (any case).")]

#: The options every admin command takes after its own: the database, as blot serve finds it.
_DATABASE = [
    inspect.Parameter("db", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=DbOption),
    inspect.Parameter("data_dir", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=DataDirOption),
]


def _command(name: str, help: str | None = None) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Register ``blot admin NAME``: the function's first parameter is the database's URL, which
    the command finds from --db and --data-dir (declared here once for every admin command; a
    database that does not exist is refused, never created), its other parameters are the
    command's own arguments and options."""

    def register(work: Callable[..., None]) -> Callable[..., None]:
        own = list(inspect.signature(work, eval_str=True).parameters.values())[1:]

        @functools.wraps(work)
        def command(*args: Any, db: str | None = None, data_dir: Path | None = None, **kw: Any) -> None:
            work(existing_database(db, data_dir), *args, **kw)

        command.__signature__ = inspect.Signature([*own, *_DATABASE])  # type: ignore[attr-defined]
        admin.command(name, help=help)(command)
        return work

    return register


@_command("list")
def admin_list(url: str) -> None:
    """List every account: id, username, when it was made, games played, active or disabled."""
    from blot.cli.admin import list_accounts

    list_accounts(url)


@_command("reset-password")
def admin_reset_password(
    url: str,
    username: Account,
    password_stdin: Annotated[
        bool, typer.Option("--password-stdin", help="Read the new password from standard input.")
    ] = False,
) -> None:
    """Give an account a new password (a random one, printed once, unless --password-stdin) and
    end its sessions."""
    from blot.cli.admin import reset_password

    new = sys.stdin.readline().rstrip("\r\n") if password_stdin else None
    reset_password(url, username, new)


def _account_switch(name: str, help: str, setting: str, value: bool) -> None:
    """``blot admin disable`` and ``enable`` (``setting`` "disabled"), ``silence`` and
    ``unsilence`` ("silenced"): one command but for the account's setting and its value."""

    def switch(url: str, username: Account) -> None:
        from blot.cli import admin as accounts

        change = accounts.set_disabled if setting == "disabled" else accounts.set_silenced
        change(url, username, value)

    _command(name, help)(switch)


_account_switch(
    "disable", "Disable an account: it can no longer log in, and its sessions end.", "disabled", True
)
_account_switch("enable", "Let a disabled account log in again.", "disabled", False)
_account_switch("silence", "Take an account's voice at every table (it may still play).", "silenced", True)
_account_switch("unsilence", "Let a silenced account talk at tables again.", "silenced", False)


@_command("chat")
def admin_chat(
    url: str, table: Annotated[str, typer.Argument(help="The table's id (from its address /table/ID).")]
) -> None:
    """List every message said at a table: id, time, room, who and what (removed ones marked)."""
    from blot.cli.admin import table_chat

    table_chat(url, table)


@_command("chat-remove")
def admin_chat_remove(
    url: str, message: Annotated[int, typer.Argument(help="The message's id (from blot admin chat).")]
) -> None:
    """Remove a message from its table's talk: pages opened from now on no longer show it."""
    from blot.cli.admin import remove_message

    remove_message(url, message)


@_command("organizer")
def admin_organizer(
    url: str,
    event_id: Annotated[str, typer.Argument(help="The event (its id, from its link).")],
    username: Annotated[str, typer.Argument(help="The account that will organize it too.")],
) -> None:
    """Make an account an organizer of an event."""
    from blot.cli.admin import add_organizer

    add_organizer(url, event_id, username)


@_command("court")
def admin_court(
    url: str,
    username: Account,
    court: Annotated[
        str, typer.Argument(help="sages (the Court of Sages) or conduct (the Court of Conduct).")
    ],
) -> None:
    """Make an account a member of one of the League's courts: it then sees and answers the
    questions the referees send to it, without the players' names."""
    from blot.cli.admin import add_court_member

    add_court_member(url, username, court)


@_command("decision")
def admin_decision(
    url: str,
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
) -> None:
    """Publish a decision of the Court of Conduct in the League's register (L-10); with --kind a
    dishonour (L-9), the same record a member of the Court writes on the site, whose bar is
    enforced."""
    from blot.cli.admin import publish_decision

    publish_decision(
        url,
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


@_command("forgive")
def admin_forgive(
    url: str,
    number: Annotated[int, typer.Argument(help="The dishonour's number in the register.")],
    date: Annotated[str, typer.Argument(help="The date the Court forgave it, YYYY-MM-DD.")],
) -> None:
    """Mark a dishonour forgiven: the Court of Conduct found its penance sufficient (L-10); its
    bar is lifted."""
    from blot.cli.admin import forgive_decision

    forgive_decision(url, number, date)
