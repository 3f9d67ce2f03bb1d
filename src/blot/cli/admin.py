"""``blot admin``: the accounts of ``blot serve``'s database, from the terminal: list them, reset a
password, disable or enable an account. Every change ends the account's sessions (a running
server notices within seconds)."""

from __future__ import annotations

import secrets
import sys
from collections.abc import Callable
from dataclasses import replace
from typing import TextIO

from sqlalchemy.engine import Connection

from blot.accounts import Passwords, check_password, username_key
from blot.cli.common import BadOption, BadUsage
from blot.errors import BlotError
from blot.printable import printable
from blot.store import Store
from blot.store import accounts as store


def _open(url: str) -> Store:
    return Store.open(url)


def _account(db: Store, username: str) -> store.Account:
    """The account, its username as the terminal may print it."""
    found = db.read(lambda c: store.find(c, username_key(username)))
    if found is None:
        raise BlotError(f"no account named {username!r}")
    return replace(found, username=printable(found.username))


def _change(url: str, username: str, write: Callable[[Connection, int], object]) -> store.Account:
    """Find the account, then ``write`` its change (given the account's id) in one transaction;
    the account, to name in what is printed."""
    db = _open(url)
    try:
        account = _account(db, username)
        db.write(lambda c: write(c, account.id))
    finally:
        db.close()
    return account


def list_accounts(url: str, out: TextIO | None = None) -> None:
    """One line per account: id, username, created, games played, disabled."""
    out = out or sys.stdout
    db = _open(url)
    try:
        rows = db.read(store.listing)
    finally:
        db.close()
    if not rows:
        print("no accounts yet", file=out)
        return
    names = [printable(r["username"]) for r in rows]
    width = max(len("username"), *(len(n) for n in names))
    print(f"{'id':>5}  {'username':<{width}}  {'created (UTC)':<16}  {'games':>5}  status", file=out)
    for r, name in zip(rows, names, strict=True):
        created = r["created_at"].strftime("%Y-%m-%d %H:%M")
        status = "disabled" if r["disabled"] else "active"
        print(f"{r['id']:>5}  {name:<{width}}  {created:<16}  {r['games']:>5}  {status}", file=out)


def reset_password(url: str, username: str, new: str | None = None, out: TextIO | None = None) -> None:
    """Give the account a new password (``new``, else a random one, printed once) and end its
    sessions."""
    out = out or sys.stdout
    password = check_password(new) if new is not None else secrets.token_urlsafe(12)
    hashed = Passwords().hash(password)
    db = _open(url)
    try:
        account = _account(db, username)

        def write(c: Connection) -> None:
            store.set_password(c, account.id, hashed)
            store.end_sessions(c, account.id)

        db.write(write)
    finally:
        db.close()
    if new is None:
        print(f"new password for {account.username}: {password}", file=out)
        print("tell it to them alone; they should change it after logging in", file=out)
    else:
        print(f"the password of {account.username} is changed; their sessions have ended", file=out)


def set_disabled(url: str, username: str, disabled: bool, out: TextIO | None = None) -> None:
    out = out or sys.stdout
    account = _change(url, username, lambda c, id_: store.set_disabled(c, id_, disabled))
    if disabled:
        print(f"{account.username} is disabled: they cannot log in, and their sessions have ended", file=out)
    else:
        print(f"{account.username} may log in again", file=out)


def set_silenced(url: str, username: str, silenced: bool, out: TextIO | None = None) -> None:
    """Take an account's voice at every table (``silenced``), or give it back (issue 26)."""
    from blot.store import chat, now

    out = out or sys.stdout
    account = _change(url, username, lambda c, id_: chat.set_silenced(c, id_, now() if silenced else None))
    if silenced:
        print(f"{account.username} may no longer talk at tables", file=out)
    else:
        print(f"{account.username} may talk at tables again", file=out)


def table_chat(url: str, table: str, out: TextIO | None = None) -> None:
    """Every message said at a table, removed ones marked: id, time, room, who, what."""
    from blot.store import chat

    out = out or sys.stdout
    db = _open(url)
    try:
        rows = db.read(lambda c: chat.of_table(c, table))
        known = bool(rows) or db.read(lambda c: Store.table_row(c, table)) is not None
    finally:
        db.close()
    if not known:  # a mistyped id is not a silent table
        raise BlotError(f"there is no table {printable(table)!r} in this database")
    if not rows:
        print(f"nothing was said at table {table!r}", file=out)
        return
    for r in rows:
        said = {"off": "(turned the chat off)", "on": "(turned the chat on)"}.get(r["kind"], r["body"])
        mark = "  [removed]" if r["removed"] else ""
        when = r["at"][:16].replace("T", " ")
        print(f"{r['id']:>6}  {when}  {r['room']:<10}  {_shown(r['name'])}: {_shown(said)}{mark}", file=out)


def remove_message(url: str, message: int, out: TextIO | None = None) -> None:
    """Remove a message from its table's talk: pages opened from now on do not show it."""
    from blot.store import chat, now

    out = out or sys.stdout
    db = _open(url)
    try:
        done = db.write(lambda c: chat.remove(c, message, now()))
    finally:
        db.close()
    if not done:
        raise BlotError(f"there is no message {message} still shown")
    print(f"message {message} is removed", file=out)


def _shown(text: str) -> str:
    """Text typed by players as a terminal may print it: control characters escaped."""
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode() for ch in text)


def add_organizer(url: str, event_id: str, username: str, out: TextIO | None = None) -> None:
    """Make an account an organizer of an event (issue 25)."""
    from blot.store import tournaments as rows

    out = out or sys.stdout
    db = _open(url)
    try:
        account = _account(db, username)
        event = db.read(lambda c: rows.event_row(c, event_id))
        if event is None:
            raise BlotError(f"no event {printable(event_id)!r}")
        added = db.write(lambda c: rows.add_organizer(c, event_id, account.id))
    finally:
        db.close()
    name = printable(str(event["name"]))
    if added:
        print(f"{account.username} now organizes {name}", file=out)
    else:
        print(f"{account.username} already organizes {name}", file=out)


#: The option of ``blot admin decision`` behind each field of a dishonour that may be refused.
DECISION_OPTIONS = {
    "kind": "--kind",
    "usernames": "--account",
    "penance": "--penance",
    "until": "--until",
    "case": "--case",
}

COURTS = {"sages": "the Court of Sages", "conduct": "the Court of Conduct"}


def add_court_member(url: str, username: str, court: str, out: TextIO | None = None) -> None:
    """Make an account a member of one of the League's courts (L-5)."""
    from blot.store import courts as rows

    out = out or sys.stdout
    if court not in COURTS:
        raise BadUsage(f"no court {printable(court)!r}: use sages or conduct")
    account = _change(url, username, lambda c, id_: rows.add_court_member(c, id_, court))
    print(f"{account.username} sits on {COURTS[court]}", file=out)


def publish_decision(
    url: str,
    date: str,
    concerns: str,
    decision: str,
    out: TextIO | None = None,
    *,
    kind: str | None = None,
    accounts: list[str] | None = None,
    penance: str | None = None,
    until: str | None = None,
    case: int | None = None,
    publish_names: bool = True,
) -> None:
    """A decision of the Court of Conduct, published in the League's register (L-10). With a
    ``kind`` it is a dishonour (L-9), the same record a member of the Court writes through the
    server (:mod:`blot.server.conduct`): its accounts, penance, bar and case."""
    from datetime import UTC, datetime

    from blot.server import conduct
    from blot.server.errors import Refused
    from blot.store import courts as rows

    out = out or sys.stdout
    try:
        day = datetime.strptime(date, "%Y-%m-%d").date().isoformat()
    except ValueError:
        raise BadUsage(f"the date {printable(date)!r} is not a date such as 2026-05-01") from None
    for what, text, limit in (("what it concerns", concerns, 200), ("the decision", decision, 4000)):
        if not text.strip():
            raise BadUsage(f"{what} is needed")
        if len(text) > limit:
            raise BadUsage(f"{what} has at most {limit} characters")
    dishonour = None
    if kind is not None or accounts or penance is not None or until is not None or case is not None:
        body = {
            "kind": kind,
            "usernames": accounts or [],
            "penance": penance,
            "until": until,
            "explanation": decision,
            "concerns": concerns,
            "case": case,
            "publish_names": publish_names,
        }
        try:
            dishonour = conduct.check(body, day)
        except Refused as e:  # every field it checks is an option of the command line: exit 2
            option = DECISION_OPTIONS.get(getattr(e, "field", None) or "")
            raise BadUsage(str(e)) if option is None else BadOption(option, str(e)) from None
    db = _open(url)
    at = datetime.now(UTC)
    try:
        if dishonour is None:
            number = db.write(lambda c: rows.insert_decision(c, day, decision.strip(), concerns.strip(), at))
        else:
            found = dishonour
            number = db.write(lambda c: conduct.record(c, found, day, None, at))
    except Refused as e:
        raise BlotError(e.message) from None
    finally:
        db.close()
    print(f"decision {number} of {day} is published in the register", file=out)


def forgive_decision(url: str, number: int, date: str, out: TextIO | None = None) -> None:
    """The Court of Conduct finds a dishonour's penance sufficient (L-10): forgiven, its bar lifted."""
    from datetime import datetime

    from blot.server import conduct
    from blot.server.errors import Refused

    out = out or sys.stdout
    try:
        day = datetime.strptime(date, "%Y-%m-%d").date().isoformat()
    except ValueError:
        raise BadUsage(f"the date {printable(date)!r} is not a date such as 2026-05-01") from None
    db = _open(url)
    try:
        db.write(lambda c: conduct.forgive(c, number, day, None))
    except Refused as e:
        raise BlotError(e.message) from None
    finally:
        db.close()
    print(f"dishonour {number} is forgiven as of {day}", file=out)
