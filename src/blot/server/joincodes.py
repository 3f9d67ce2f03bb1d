"""Join codes for a club night (issue 41 item 10; docs/players.md, *Club nights*).

An event's organizer or a table's host hands out a code: whoever types it (or opens its link,
``/join/{code}``) is signed in without a password, as a guest with the name they choose (or the
one the code gives), until the code's time on the server's clock. A code serves at most ``uses``
people and its maker may revoke it, which ends the sessions of everybody who came in with it.
A use is not counted against the address's guests (the code's own uses bound it), so that a
venue behind one address is not locked out; a wrong code counts as a failed login of the
address (:meth:`blot.server.limits.Limits.missed`), so codes cannot be guessed from one.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.engine import Connection

from blot.server.accounts import AccountService, clean_name, token_hash
from blot.server.errors import Refused
from blot.server.services import Storage
from blot.server.tables import Tables
from blot.store import joincodes as rows
from blot.store import tournaments as event_rows

#: Letters and digits that cannot be taken for one another when read aloud or off a board.
ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
LENGTH = 8
#: The most people one code may sign in, and the longest it may last (a night).
USES_LIMIT = 200
HOURS_LIMIT = 24


def normal(code: Any) -> str | None:
    """A code as typed (any case, spaces or dashes between) in its stored form, or None."""
    if not isinstance(code, str) or len(code) > 40:
        return None
    text = "".join(ch for ch in code.upper() if ch not in " -")
    if len(text) != LENGTH or any(ch not in ALPHABET for ch in text):
        return None
    return text


def _iso(at: datetime) -> str:
    return at.isoformat()


def _aware(at: datetime) -> datetime:
    """SQLite gives naive datetimes back: they were stored in UTC."""
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def _goto(row: Mapping[str, Any]) -> str:
    if row["event_id"] is not None:
        return f"/event/{row['event_id']}"
    return f"/table/{row['table_id']}"


def _uses(body: Mapping[str, Any]) -> int:
    value = body.get("uses", 60)
    if type(value) is not int or not 1 <= value <= USES_LIMIT:
        raise Refused("malformed", "join_code_uses", "uses", n=USES_LIMIT)
    return value


def _hours(body: Mapping[str, Any]) -> float:
    value = body.get("hours", 6)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise Refused("malformed", "join_code_hours", "hours", n=HOURS_LIMIT)
    if not 0 < value <= HOURS_LIMIT:
        raise Refused("malformed", "join_code_hours", "hours", n=HOURS_LIMIT)
    return float(value)


class JoinCodes:
    """Make, list, revoke and use join codes (the routes: :mod:`blot.server.routes.joincodes`)."""

    def __init__(self, storage: Storage, accounts: AccountService, tables: Tables) -> None:
        self.storage = storage
        self.accounts = accounts
        self.tables = tables

    def view(self, row: Mapping[str, Any], *, mine: bool = False) -> dict[str, Any]:
        """A code as its maker sees it (``mine``) or as the one about to use it does."""
        out: dict[str, Any] = {
            "code": row["code"],
            "link": f"/join/{row['code']}",
            "name": row["name"],
            "until": _iso(_aware(row["until"])),
            "left": max(0, int(row["uses"]) - int(row["used"])),
            "event": row["event_id"],
            "table": row["table_id"],
            "goto": _goto(row),
        }
        if mine:
            revoked = row["revoked_at"]
            out.update(
                uses=row["uses"], used=row["used"], revoked=None if revoked is None else _iso(_aware(revoked))
            )
        return out

    async def _check_maker(self, player: int, body: Mapping[str, Any]) -> tuple[str | None, str | None]:
        """The event or the table a new code is for: refused unless ``player`` organizes that
        event or hosts that table."""
        event, table = body.get("event"), body.get("table")
        if (event is None) == (table is None):
            raise Refused("malformed", "join_code_target")
        if event is not None:
            if not isinstance(event, str) or len(event) > 24:
                raise Refused("not_found", "no_such_event")
            found = await self.storage.read(
                lambda c: None if event_rows.event_row(c, event) is None else event_rows.organizers(c, event)
            )
            if found is None:
                raise Refused("not_found", "no_such_event")
            if player not in found:
                raise Refused("forbidden", "join_code_not_yours")
            return event, None
        if not isinstance(table, str) or len(table) > 24:
            raise Refused("not_found", "no_such_table")
        row = await self.storage.read(lambda c: self.tables.store.table_row(c, table))
        if row is None:
            raise Refused("not_found", "no_such_table")
        if row["host"] != player:
            raise Refused("forbidden", "join_code_not_yours")
        return None, table

    async def create(self, player: int, body: Mapping[str, Any]) -> dict[str, Any]:
        """A new code: ``{"event"}`` or ``{"table"}``, ``"uses"`` (1–200, 60 unless given),
        ``"hours"`` (at most 24, 6 unless given), ``"name"`` (optional: the name each person it
        signs in gets; else each chooses one)."""
        event, table = await self._check_maker(player, body)
        uses, hours = _uses(body), _hours(body)
        name = body.get("name")
        given = None if name is None else clean_name(name)
        now = self.storage.now()
        row = {
            "code": "".join(secrets.choice(ALPHABET) for _ in range(LENGTH)),
            "created_by": player,
            "event_id": event,
            "table_id": table,
            "name": given,
            "uses": uses,
            "used": 0,
            "until": now + timedelta(hours=hours),
            "created_at": now,
            "revoked_at": None,
        }
        await self.storage.write(lambda c: rows.insert_code(c, row))
        return self.view(row, mine=True)

    async def mine(self, player: int) -> list[dict[str, Any]]:
        return [self.view(r, mine=True) for r in await self.storage.read(lambda c: rows.codes_of(c, player))]

    async def _row(self, code: Any, address: str | None = None) -> dict[str, Any]:
        """The code's row; a code nobody made counts against ``address`` (a guess)."""
        limits = self.accounts.limits
        if address is not None:
            await limits.guessing(address)
        key = normal(code)
        row = None if key is None else await self.storage.read(lambda c: rows.code_row(c, key))
        if row is None:
            if address is not None:
                await limits.missed(address)
            raise Refused("not_found", "join_code_unknown")
        return row

    def _check_open(self, row: Mapping[str, Any]) -> None:
        if row["revoked_at"] is not None:
            raise Refused("forbidden", "join_code_revoked")
        if _aware(row["until"]) <= self.storage.now():
            raise Refused("forbidden", "join_code_expired")
        if row["used"] >= row["uses"]:
            raise Refused("forbidden", "join_code_used_up")

    async def show(self, code: Any, address: str) -> dict[str, Any]:
        """What the join page shows before the code is used."""
        row = await self._row(code, address)
        self._check_open(row)
        return self.view(row)

    async def use(
        self, code: Any, body: Mapping[str, Any], address: str, device: str | None
    ) -> dict[str, Any]:
        """Sign a person in with ``code``: ``{"name"}`` unless the code gives one. The answer is
        a guest's (``id``, ``name``, ``token``) with the session's end (``until``) and where to
        go (``goto``)."""
        row = await self._row(code, address)
        self._check_open(row)
        name = row["name"] if row["name"] is not None else clean_name(body.get("name"))
        if row["name"] is None:
            await self.accounts.guest_may_take(name)
        token = secrets.token_urlsafe(24)
        key, now, until = token_hash(token), self.storage.now(), _aware(row["until"])

        def write(c: Connection) -> int | None:
            if not rows.take_use(c, row["code"], now):
                return None
            player = rows.new_player(c, row["code"], name, key, now, until)
            if device is not None:
                from blot.store import accounts as account_rows

                account_rows.see_device(c, player, device, now)
            return player

        player = await self.storage.write(write)
        if player is None:  # another took the last use, or it ended meanwhile
            self._check_open(await self._row(row["code"]))
            raise Refused("forbidden", "join_code_used_up")
        return {"id": player, "name": name, "token": token, "until": _iso(until), "goto": _goto(row)}

    async def revoke(self, player: int, code: Any) -> dict[str, Any]:
        """Revoke a code its maker made: nobody more may use it, and the sessions it opened end."""
        row = await self._row(code)
        if row["created_by"] != player:
            raise Refused("forbidden", "join_code_not_maker")
        at = self.storage.now()
        people = await self.storage.write(lambda c: rows.revoke(c, row["code"], at))
        for person in people:
            self.accounts.forget(person)
        return self.view({**row, "revoked_at": at}, mine=True)
