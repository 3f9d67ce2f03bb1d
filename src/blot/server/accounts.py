"""Players on the server: guests, sessions and accounts (sign up, log in, log out, change the
password, delete the account), and the checks that are about people (who may sit at a rated
table, two players of one browser).

A guest is a name and a token; a login answers a token used exactly like a guest's
(``Authorization: Bearer`` and the websocket ``hello``). Only a token's SHA-256 is stored. The
player of a token is remembered for :data:`CACHE_SECONDS`; the open sockets' sessions are checked
every ``session_check_seconds`` (and at once after a logout, a new password or a deletion served
here), and a socket whose session ended is told so and closed. Passwords are checked against
Argon2id hashes in a worker thread (hashing takes a tenth of a second on purpose); the limits per
account and per address are :class:`~blot.server.limits.Limits`. No answer, log line or error
holds a password, a hash or a token, but the owner's new token in the answer that made it.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from blot import league
from blot.accounts import Passwords, check_guest_name, check_password, check_username, username_key
from blot.errors import BlotError
from blot.server.connection import dumps
from blot.server.errors import Refused
from blot.server.limits import Limits
from blot.server.periodic import every
from blot.server.services import Storage, TableDirectory
from blot.store import accounts as store
from blot.store.accounts import Who

log = logging.getLogger("blot.server")

WRONG = "wrong_login"
#: Seconds a token's player is remembered without asking the database.
CACHE_SECONDS = 5.0
CACHE_LIMIT = 50_000
#: The message a connection gets when its session ends (logout, new password, disabled or
#: deleted account) before it is closed.
SESSION_ENDED = Refused("unauthorized", "session_ended").to_json()


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def clean_name(name: Any) -> str:
    """A guest's name as shown, by the rules of :func:`blot.accounts.check_guest_name`."""
    try:
        return check_guest_name(name)
    except BlotError as e:
        raise Refused.of(e) from None


def _text(body: Mapping[str, Any], key: str) -> str:
    value = body.get(key)
    if not isinstance(value, str) or not value:
        raise Refused("malformed", "field_needed", key, field=key)
    if len(value) > 200:
        raise Refused("malformed", "field_too_long", key, field=key)
    return value


def _new_token() -> tuple[str, str]:
    token = secrets.token_urlsafe(24)
    return token, token_hash(token)


class AccountService:
    """The players of one server (the hub owns it)."""

    def __init__(self, storage: Storage, limits: Limits, tables: TableDirectory) -> None:
        self.storage = storage
        self.config = storage.config
        self.limits = limits
        self.tables = tables
        self.passwords = Passwords(self.config.password_profile)
        self._players: dict[str, tuple[Who, float]] = {}
        self._background: set[asyncio.Task[None]] = set()

    # --- sessions --------------------------------------------------------------------------------

    async def who(self, token: str | None) -> Who | None:
        """The player of a token (a guest or an account), or None. Answers are cached for
        :data:`CACHE_SECONDS`: a session ended by another process (``blot admin``) stops working
        within that."""
        if not token or len(token) > 200:
            return None
        key = token_hash(token)
        clock = self.config.clock
        cached = self._players.get(key)
        if cached is not None and 0 <= clock() - cached[1] < CACHE_SECONDS:
            return cached[0]
        now = self.storage.now()
        found = await self.storage.read(lambda c: store.who(c, key, now))
        if found is None:
            self._players.pop(key, None)
        else:
            if len(self._players) > CACHE_LIMIT:
                self._players.clear()
            self._players[key] = (found, clock())
        return found

    async def player(self, token: str | None) -> tuple[int, str] | None:
        found = await self.who(token)
        return None if found is None else (found.id, found.name)

    def forget(self, player: int) -> None:
        """Drop the cached sessions of ``player`` (after a logout, a new password, a deletion)
        and close at once the connections whose session ended with it."""
        for key in [k for k, (w, _) in self._players.items() if w.id == player]:
            del self._players[key]
        task = asyncio.get_running_loop().create_task(self.check_sessions())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def check_sessions(self) -> None:
        """Close every connection whose session has ended, here or in another process
        (``blot admin disable``): within ``session_check_seconds`` of the end."""
        open_sockets = [s for s in self.tables.sockets() if s.session is not None]
        keys = {s.session for s in open_sockets if s.session is not None}
        if not keys:
            return
        now = self.storage.now()
        live = await self.storage.read(lambda c: store.live_sessions(c, keys, now))
        ended = [s for s in open_sockets if s.session not in live]
        text = dumps(SESSION_ENDED)
        for socket in ended:
            self._players.pop(socket.session or "", None)
            socket.push(text)
            socket.stop()

    async def check_sessions_forever(self) -> None:
        failed = "the check of open sessions failed; tried again soon"
        await every(self.config.session_check_seconds, self.check_sessions, failed, logging.DEBUG)

    # --- guests ----------------------------------------------------------------------------------

    async def new_guest(
        self, name: Any, address: str = "unknown", device: str | None = None
    ) -> dict[str, Any]:
        """A guest: a name and a token (kept by the browser); one address may make
        ``guests_per_address`` of them in ``guest_window`` seconds."""
        checked = clean_name(name)
        await self.guest_may_take(checked)
        await self.limits.guest(address)
        token, key = _new_token()
        at = self.storage.now()

        def write(c: Connection) -> int:
            player = store.new_guest(c, checked, key, at)
            if device is not None:
                store.see_device(c, player, device, at)
            return player

        player = await self.storage.write(write)
        self._players[key] = (Who(player, checked), self.config.clock())
        return {"id": player, "name": checked, "token": token}

    async def rename(self, token: str, name: Any) -> dict[str, Any]:
        me = await self.who(token)
        if me is None:
            raise Refused("forbidden", "token_unknown")
        if me.username is not None:
            raise Refused("conflict", "account_name_is_username")
        checked = clean_name(name)
        await self.guest_may_take(checked)
        await self.not_playing(me.id, "name")
        await self.storage.write(lambda c: store.rename(c, me.id, checked))
        self.forget(me.id)
        return {"id": me.id, "name": checked}

    async def guest_may_take(self, name: str) -> None:
        """Refuse a guest's name that an account holds, in any case or letters that look like it
        (one skeleton, :func:`blot.accounts.skeleton`): a guest cannot pass for an account
        (issue 38 item 2). A guest who took a name before an account did keeps it; the talk at
        the tables marks guests (:mod:`blot.server.chat`)."""
        other = await self.storage.read(lambda c: store.look_alike(c, name))
        if other is not None:
            raise Refused("conflict", "name_of_account", "name", name=name, other=other)

    async def not_playing(self, player: int, what: str) -> None:
        """Refuse to change how a player is shown (``what``: ``name`` or ``avatar``) while they sit
        at a table whose game is being played: a change mid-game is a signal to the partner, so it
        may reach others only from the next game on (issue 38 item 2, L-9)."""
        table = await self.storage.read(lambda c: store.playing_at(c, player))
        if table is not None and what == "avatar":
            raise Refused("conflict", "avatar_in_game", table=table)
        if table is not None:
            raise Refused("conflict", "name_in_game", table=table)

    async def me(self, token: str | None) -> dict[str, Any]:
        """Who a token is: ``{"id", "name", "username", "bars"}`` (bars: the bars in force that
        name this account: a dishonour's, and with ``--league`` a tars kapoot's)."""
        me = await self.who(token)
        if me is None:
            raise Refused("forbidden", "token_unknown")
        bars: list[dict[str, Any]] = []
        if me.username is not None:
            now = self.storage.now()
            with_league = self.config.league

            def read(c: Connection) -> list[league.Bar | league.DishonourBar]:
                tars = league.bars_of(c, me.id, now) if with_league else []
                return [*league.dishonour_bars(c, [me.id], now), *tars]

            bars = [b.to_json() for b in await self.storage.read(read)]
        return {"id": me.id, "name": me.name, "username": me.username, "bars": bars}

    # --- who may sit where -------------------------------------------------------------------------

    async def is_guest(self, player: int) -> bool:
        return await self.storage.read(lambda c: store.is_guest(c, player))

    async def check_browser(self, player: int, others: Mapping[int, str], device: str | None) -> None:
        """Refuse to seat ``player`` at a table where one of ``others`` (player -> name) used a
        browser that ``player`` used too (``device``, the browser of this request, is remembered
        first): two accounts of one person, or two players of one browser, at one table."""
        at = self.storage.now()

        def check(c: Connection) -> int | None:
            if device is not None:
                store.see_device(c, player, device, at)
            return store.sharing_browser(c, player, others)

        clash = await self.storage.write(check)
        if clash is not None:
            raise Refused("forbidden", "same_browser", name=others[clash])

    async def check_rated(self, people: list[int], newcomer: int | None = None) -> None:
        """Refuse a rated table's seating: every person must have an account (the League's bars
        are :meth:`check_bars`', for public tables too)."""
        ids = sorted(set(people))

        def check(c: Connection) -> set[int]:
            return {a.id for a in (store.by_id(c, i) for i in ids) if a is not None and not a.disabled}

        found = await self.storage.read(check)
        if set(ids) - found:
            raise Refused("forbidden", "rated_accounts_only")

    async def check_bars(
        self, seats: Mapping[int, int], teams: Sequence[Sequence[int]], newcomer: int | None = None
    ) -> None:
        """Refuse a public or rated table's seating (seat -> person) that a bar forbids (L-3,
        L-10; :func:`blot.league.seating_bar`): an account barred by a dishonour, or with
        ``--league`` two partners barred by a tars kapoot (``newcomer``: only the bars that name
        this person)."""
        now = self.storage.now()
        tars = self.config.league
        found = await self.storage.read(
            lambda c: league.seating_bar(c, seats, teams, now, tars=tars, newcomer=newcomer)
        )
        if found is not None:
            from blot.server.conduct import bar_refusal

            raise Refused("forbidden", bar_refusal(found))

    # --- accounts --------------------------------------------------------------------------------

    async def _check(
        self, account: store.Account | None, password: str, key: str, address: str | None = None
    ) -> store.Account:
        """The account if ``password`` is its own; a failure counts against the account (and
        against ``address``, for a login)."""
        ok = await asyncio.to_thread(
            self.passwords.verify, None if account is None else account.password_hash, password
        )
        if not ok or account is None:
            await self.limits.failed(key, address)
            raise Refused("unauthorized", WRONG)
        return account

    async def sign_up(
        self, body: Mapping[str, Any], address: str, token: str | None, device: str | None = None
    ) -> dict[str, Any]:
        """A new account, logged in; a guest's token in the request makes that guest the account
        (its games are the account's from now on)."""
        await self.limits.login(address)
        try:
            username = check_username(body.get("username"))
            password = check_password(body.get("password"))
        except BlotError as e:
            raise Refused.of(e) from None
        if username_key(password) == username_key(username):
            raise Refused("malformed", "password_is_username", "password")
        key = username_key(username)
        guest = await self.who(token)
        guest_id = guest.id if guest is not None and guest.username is None else None
        hashed = await asyncio.to_thread(self.passwords.hash, password)
        new_token, new_hash = _new_token()
        at = self.storage.now()

        def write(c: Connection) -> int:
            if store.find(c, key) is not None:
                raise Refused("conflict", "username_taken", "username", name=username)
            alike = store.look_alike(c, username)
            if alike is not None:
                raise Refused("conflict", "username_too_like", "username", name=username, other=alike)
            player = store.create(c, username, key, hashed, at, guest_id)
            store.add_session(c, player, new_hash, at)
            if device is not None:
                store.see_device(c, player, device, at)
            return player

        try:
            player = await self.storage.write(write)
        except IntegrityError:
            raise Refused("conflict", "username_taken", "username", name=username) from None
        if guest_id is not None:
            self.forget(guest_id)
        return {"id": player, "username": username, "name": username, "token": new_token}

    async def login(self, body: Mapping[str, Any], address: str, device: str | None = None) -> dict[str, Any]:
        username = _text(body, "username")
        password = _text(body, "password")
        key = username_key(username)
        await self.limits.account(key)
        await self.limits.login(address)
        account = await self.storage.read(lambda c: store.find(c, key))
        account = await self._check(account, password, key, address)
        if account.disabled:
            raise Refused("forbidden", "account_disabled")
        await self.limits.succeeded(key)
        new_token, new_hash = _new_token()
        at = self.storage.now()
        rehash = None
        if account.password_hash and self.passwords.needs_rehash(account.password_hash):
            rehash = await asyncio.to_thread(self.passwords.hash, password)

        def write(c: Connection) -> None:
            store.add_session(c, account.id, new_hash, at)
            if device is not None:
                store.see_device(c, account.id, device, at)
            if rehash is not None:
                store.set_password(c, account.id, rehash)

        await self.storage.write(write)
        return {**account.to_json(), "token": new_token}

    async def _account_of(self, token: str | None) -> store.Account:
        me = await self.who(token)
        if me is None:
            raise Refused("forbidden", "token_needed")
        if me.username is None:
            raise Refused("forbidden", "guest_not_account")
        account = await self.storage.read(lambda c: store.by_id(c, me.id))
        if account is None or account.disabled:
            raise Refused("forbidden", "token_needed")
        return account

    async def logout(self, token: str | None) -> dict[str, Any]:
        account = await self._account_of(token)
        assert token is not None
        await self.storage.write(lambda c: store.end_session(c, token_hash(token)))
        self.forget(account.id)
        return {"ok": True}

    async def change_password(self, token: str | None, body: Mapping[str, Any]) -> dict[str, Any]:
        """A new password; every other session of the account ends (this one stays)."""
        account = await self._account_of(token)
        assert token is not None
        current = _text(body, "password")
        try:
            new = check_password(body.get("new_password"), "new_password")
        except BlotError as e:
            raise Refused.of(e) from None
        key = username_key(account.username)
        await self.limits.account(key)
        await self._check(account, current, key)
        if username_key(new) == key:
            raise Refused("malformed", "password_is_username", "new_password")
        hashed = await asyncio.to_thread(self.passwords.hash, new)
        keep = token_hash(token)

        def write(c: Connection) -> None:
            store.set_password(c, account.id, hashed)
            store.end_sessions(c, account.id, keep=keep)

        await self.storage.write(write)
        self.forget(account.id)
        return {"ok": True}

    async def delete(self, token: str | None, body: Mapping[str, Any]) -> dict[str, Any]:
        """Delete the account (its password confirms it): its games stay under "deleted player"."""
        account = await self._account_of(token)
        password = _text(body, "password")
        key = username_key(account.username)
        await self.limits.account(key)
        await self._check(account, password, key)
        busy = await self.tables.unfinished_seat(account.id)
        if busy is not None:
            raise Refused("conflict", "account_still_seated", table=busy)
        at = self.storage.now()
        touched = await self.storage.write(lambda c: store.delete_account(c, account.id, at))
        self.forget(account.id)
        await self.tables.reload(touched)
        return {"ok": True}
