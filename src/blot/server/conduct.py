"""The Court of Conduct's dishonours on the record (L-9, L-10; issue 38 item 6).

A member of the Court of Conduct (``court_members``) records a dishonour, on one of the court's
cases or on its own: its kind (L-9), the accounts it names, the penance (a warning, a bar until a
date, a bar for life), the explanation the Court publishes, and whether the names are published;
later the Court may find the penance sufficient and forgive it. ``blot admin decision`` writes
the same record for an operator. A dishonour's bar is enforced as a tars kapoot's is
(:func:`blot.league.dishonour_bars`): the account takes no seat at a public or rated table and
enters no event until the day it ends, for life, or until forgiven.

Everything here runs inside one transaction (:meth:`Hub.write`); bad input is one sentence
(:class:`Refused`) and writes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from blot.league import KINDS, PENANCES, Bar, DishonourBar
from blot.reasons import Reason
from blot.server.errors import Refused
from blot.store import courts as rows

#: At most this many accounts in one dishonour, and these many characters of text.
ACCOUNTS_LIMIT, EXPLANATION_LIMIT, CONCERNS_LIMIT = 4, 4000, 200


@dataclass(frozen=True)
class Dishonour:
    """A dishonour as checked, before its accounts and case are looked up."""

    kind: str
    usernames: tuple[str, ...]
    penance: str
    until: str | None
    explanation: str
    concerns: str
    case: int | None
    publish_names: bool


def bar_refusal(bar: Bar | DishonourBar) -> Reason:
    """The sentence that refuses a seat or an entry a bar forbids, written here so that the
    page says it in its reader's language (blot.server.reasons); the same words as the bar's own
    :meth:`~blot.league.Bar.sentence` (a test holds them together)."""
    if isinstance(bar, DishonourBar):
        name, number = bar.name, bar.decision
        if bar.until is None:
            return Reason("dishonour_bar_life", name=name, decision=number)
        return Reason("dishonour_bar_until", name=name, decision=number, until=bar.until)
    a, b = bar.names
    if bar.until is None:
        return Reason("tars_bar_never", a=a, b=b)
    since, until = bar.first.date().isoformat(), bar.until.date().isoformat()
    return Reason("tars_bar_until", a=a, b=b, since=since, until=until)


def check(body: Mapping[str, Any], today: str) -> Dishonour:
    """A dishonour from a request's body (or the command line's options), or the first fault."""
    kind = body.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        raise Refused("malformed", "dishonour_kind", "kind")
    names = body.get("usernames")
    if (
        not isinstance(names, list)
        or not 1 <= len(names) <= ACCOUNTS_LIMIT
        or not all(isinstance(n, str) and n.strip() for n in names)
    ):
        raise Refused("malformed", "dishonour_accounts", "usernames")
    penance = body.get("penance")
    if penance not in PENANCES:
        raise Refused("malformed", "dishonour_penance", "penance")
    until = body.get("until")
    if penance == "bar":
        if not isinstance(until, str) or not _is_day(until) or until <= today:
            raise Refused("malformed", "dishonour_until", "until")
    elif until is not None:
        raise Refused("malformed", "dishonour_until_only_bar", "until")
    explanation = body.get("explanation")
    if not isinstance(explanation, str) or not explanation.strip() or len(explanation) > EXPLANATION_LIMIT:
        raise Refused("malformed", "dishonour_explanation", "explanation")
    concerns = body.get("concerns", "")
    if not isinstance(concerns, str) or len(concerns) > CONCERNS_LIMIT:
        raise Refused("malformed", "dishonour_concerns", "concerns")
    case = body.get("case")
    if case is not None and (not isinstance(case, int) or isinstance(case, bool) or case < 1):
        raise Refused("malformed", "dishonour_case", "case")
    publish = body.get("publish_names", True)
    if not isinstance(publish, bool):
        raise Refused("malformed", "publish_names_flag", "publish_names")
    return Dishonour(
        kind,
        tuple(n.strip() for n in names),
        str(penance),
        until,
        explanation.strip(),
        concerns.strip(),
        case,
        publish,
    )


def _is_day(text: str) -> bool:
    try:
        return date.fromisoformat(text).isoformat() == text
    except ValueError:
        return False


def check_member(c: Connection, player: int) -> None:
    if "conduct" not in rows.courts_of(c, player):
        raise Refused("forbidden", "conduct_members_only")


def record(c: Connection, found: Dishonour, decided_on: str, by: int | None, at: datetime) -> int:
    """Write the dishonour (its accounts and case looked up here); answers its number."""
    from blot.accounts import username_key
    from blot.store import accounts as account_rows

    accounts: list[account_rows.Account] = []
    for typed in found.usernames:
        account = account_rows.find(c, username_key(typed))
        if account is None or account.username is None:
            raise Refused("not_found", "no_such_account", "usernames", name=typed)
        if account.id not in [a.id for a in accounts]:
            accounts.append(account)
    concerns = found.concerns
    if found.case is not None:
        case = rows.case(c, found.case)
        if case is None or case["court"] != "conduct":
            raise Refused("not_found", "conduct_no_such_case", "case")
        if case["event_table"] is not None:  # a fair-play case (issue 43) has no event
            concerns = concerns or _event_name(c, int(case["event_table"]))
    if not concerns:
        raise Refused("malformed", "dishonour_concerns_needed", "concerns")
    return rows.insert_decision(
        c,
        decided_on,
        found.explanation,
        concerns,
        at,
        kind=found.kind,
        accounts=[a.id for a in accounts],
        names=[a.username for a in accounts] if found.publish_names else None,
        penance=found.penance,
        until=found.until,
        case_id=found.case,
        recorded_by=by,
    )


def _event_name(c: Connection, event_table: int) -> str:
    """The event a case came from, as the register names it (not its table: L-5)."""
    from blot.store.schema import event_tables, events

    row = c.execute(
        select(events.c.name)
        .join(event_tables, event_tables.c.event_id == events.c.id)
        .where(event_tables.c.id == event_table)
    ).first()
    return "" if row is None else str(row.name)


def forgive(c: Connection, number: int, on: str, by: int | None) -> None:
    """The Court finds the penance sufficient (L-10): the dishonour is forgiven, its bar lifted."""
    found = rows.decision(c, number)
    if found is None or found["kind"] is None:
        raise Refused("not_found", "no_such_dishonour")
    if not rows.forgive(c, number, on, by):
        raise Refused("conflict", "dishonour_forgiven")


def published(c: Connection, today: str) -> list[dict[str, Any]]:
    """The register's decisions, newest first: a dishonour with its kind, penance, the names the
    Court publishes (never the accounts it keeps unnamed), whether its bar is in force, and the
    day it was forgiven."""
    out = []
    for d in rows.decisions(c):
        barring = d["penance"] in ("bar", "life") and d["forgiven_on"] is None
        out.append(
            {
                "id": d["id"],
                "date": d["decided_on"],
                "decision": d["decision"],
                "concerns": d["concerns"],
                "kind": d["kind"],
                "penance": d["penance"],
                "until": d["until"],
                "names": list(d["names"] or []),
                "case": d["case_id"] is not None,
                "forgiven": d["forgiven_on"],
                "in_force": barring and (d["until"] is None or d["until"] > today),
            }
        )
    return out


__all__ = ["Dishonour", "bar_refusal", "check", "check_member", "forgive", "published", "record"]
