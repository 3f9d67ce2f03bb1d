"""``blot admin``: the commands of the accounts, the talk and the League's register of
``blot serve``'s database (their work is in :mod:`blot.cli.admin`, imported when one runs)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from blot.cli.common import DataDirOption, DbOption, existing_database

if TYPE_CHECKING:
    from collections.abc import Callable

admin = typer.Typer(
    help="The accounts of blot serve's database: list them, reset a password, disable or enable one; "
    "the talk at its tables: silence an account, list a table's messages, remove one; the League: "
    "an event's organizers, the courts' members, the register of decisions.",
    no_args_is_help=True,
)


@admin.command("list")
def admin_list(db: DbOption = None, data_dir: DataDirOption = None) -> None:
    """List every account: id, username, when it was made, games played, active or disabled."""
    from blot.cli.admin import list_accounts

    list_accounts(existing_database(db, data_dir))


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

    url = existing_database(db, data_dir)
    new = sys.stdin.readline().rstrip("\r\n") if password_stdin else None
    reset_password(url, username, new)


def _account_switch(setting: str, value: bool) -> Callable[..., None]:
    """``blot admin disable`` and ``enable`` (``setting`` "disabled"), ``silence`` and
    ``unsilence`` ("silenced"): one command but for the account's setting and its value."""

    def switch(
        username: Annotated[str, typer.Argument(help="The account (any case).")],
        db: DbOption = None,
        data_dir: DataDirOption = None,
    ) -> None:
        from blot.cli import admin as accounts

        change = accounts.set_disabled if setting == "disabled" else accounts.set_silenced
        change(existing_database(db, data_dir), username, value)

    return switch


admin.command("disable", help="Disable an account: it can no longer log in, and its sessions end.")(
    _account_switch("disabled", True)
)
admin.command("enable", help="Let a disabled account log in again.")(_account_switch("disabled", False))


admin.command("silence", help="Take an account's voice at every table (it may still play).")(
    _account_switch("silenced", True)
)
admin.command("unsilence", help="Let a silenced account talk at tables again.")(
    _account_switch("silenced", False)
)


@admin.command("chat")
def admin_chat(
    table: Annotated[str, typer.Argument(help="The table's id (from its address /table/ID).")],
    db: DbOption = None,
    data_dir: DataDirOption = None,
) -> None:
    """List every message said at a table: id, time, room, who and what (removed ones marked)."""
    from blot.cli.admin import table_chat

    table_chat(existing_database(db, data_dir), table)


@admin.command("chat-remove")
def admin_chat_remove(
    message: Annotated[int, typer.Argument(help="The message's id (from blot admin chat).")],
    db: DbOption = None,
    data_dir: DataDirOption = None,
) -> None:
    """Remove a message from its table's talk: pages opened from now on no longer show it."""
    from blot.cli.admin import remove_message

    remove_message(existing_database(db, data_dir), message)


@admin.command("organizer")
def admin_organizer(
    event_id: Annotated[str, typer.Argument(help="The event (its id, from its link).")],
    username: Annotated[str, typer.Argument(help="The account that will organize it too.")],
    db: DbOption = None,
    data_dir: DataDirOption = None,
) -> None:
    """Make an account an organizer of an event."""
    from blot.cli.admin import add_organizer

    add_organizer(existing_database(db, data_dir), event_id, username)


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

    add_court_member(existing_database(db, data_dir), username, court)


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
        existing_database(db, data_dir),
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

    forgive_decision(existing_database(db, data_dir), number, date)
