"""Accounts on the server: sign up, log in, log out, change the password, delete the account.

A login answers a token used exactly like a guest's (``Authorization: Bearer`` and the websocket
``hello``). Passwords are checked against Argon2id hashes in a worker thread (hashing takes a
tenth of a second on purpose), and logins are limited per account (failed attempts) and per
address (every attempt, sign-ups included) over a sliding window. No answer, log line or error
holds a password, a hash or a token, but the owner's new token in the answer that made it.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from blot.accounts import Passwords, check_password, check_username, username_key
from blot.errors import BlotError
from blot.server.errors import RateLimited, Refused
from blot.server.limits import Limit
from blot.store import accounts as store

if TYPE_CHECKING:
    from blot.server.hub import Hub

WRONG = "wrong username or password"


def _minutes(seconds: float) -> str:
    minutes = max(1, round(seconds / 60))
    return "1 minute" if minutes == 1 else f"{minutes} minutes"


def _text(body: Mapping[str, Any], key: str) -> str:
    value = body.get(key)
    if not isinstance(value, str) or not value:
        raise Refused("malformed", f"{key} is needed", key)
    if len(value) > 200:
        raise Refused("malformed", f"{key} is too long", key)
    return value


class AccountService:
    """The account commands of one server (the hub owns it)."""

    def __init__(self, hub: Hub) -> None:
        config = hub.config
        self.hub = hub
        self.passwords = Passwords(config.password_profile)
        self.per_account = Limit(config.account_attempts, config.login_window, config.clock)
        self.per_address = Limit(config.address_attempts, config.login_window, config.clock)

    def _address_gate(self, address: str) -> None:
        wait = self.per_address.wait(address)
        if wait > 0:
            raise RateLimited(
                f"too many login attempts from this address: try again in {_minutes(wait)}", wait
            )
        self.per_address.hit(address)

    def _account_gate(self, key: str) -> None:
        wait = self.per_account.wait(key)
        if wait > 0:
            raise RateLimited(f"too many failed logins for this account: try again in {_minutes(wait)}", wait)

    async def _check(self, account: store.Account | None, password: str, key: str) -> store.Account:
        """The account if ``password`` is its own; a failure counts against the account."""
        ok = await asyncio.to_thread(
            self.passwords.verify, None if account is None else account.password_hash, password
        )
        if not ok or account is None:
            self.per_account.hit(key)
            raise Refused("unauthorized", WRONG)
        return account

    def _new_token(self) -> tuple[str, str]:
        from blot.server.hub import token_hash

        token = secrets.token_urlsafe(24)
        return token, token_hash(token)

    # --- commands --------------------------------------------------------------------------------

    async def sign_up(
        self, body: Mapping[str, Any], address: str, token: str | None, device: str | None = None
    ) -> dict[str, Any]:
        """A new account, logged in; a guest's token in the request makes that guest the account
        (its games are the account's from now on)."""
        self._address_gate(address)
        try:
            username = check_username(body.get("username"))
            password = check_password(body.get("password"))
        except BlotError as e:
            raise Refused.of(e) from None
        if username_key(password) == username_key(username):
            raise Refused("malformed", "the password must not be the username", "password")
        key = username_key(username)
        guest = await self.hub.who(token)
        guest_id = guest.id if guest is not None and guest.username is None else None
        hashed = await asyncio.to_thread(self.passwords.hash, password)
        new_token, new_hash = self._new_token()
        at = self.hub.now()

        def write(c: Connection) -> int:
            if store.find(c, key) is not None:
                raise Refused("conflict", f"the username {username} is taken", "username")
            player = store.create(c, username, key, hashed, at, guest_id)
            store.add_session(c, player, new_hash, at)
            if device is not None:
                store.see_device(c, player, device, at)
            return player

        try:
            player = await self.hub.writer.run(write)
        except IntegrityError:
            raise Refused("conflict", f"the username {username} is taken", "username") from None
        if guest_id is not None:
            self.hub.forget(guest_id)
        return {"id": player, "username": username, "name": username, "token": new_token}

    async def login(self, body: Mapping[str, Any], address: str, device: str | None = None) -> dict[str, Any]:
        username = _text(body, "username")
        password = _text(body, "password")
        key = username_key(username)
        self._account_gate(key)
        self._address_gate(address)
        account = await self.hub.read(lambda c: store.find(c, key))
        account = await self._check(account, password, key)
        if account.disabled:
            raise Refused("forbidden", "this account is disabled")
        self.per_account.clear(key)
        new_token, new_hash = self._new_token()
        at = self.hub.now()
        rehash = None
        if account.password_hash and self.passwords.needs_rehash(account.password_hash):
            rehash = await asyncio.to_thread(self.passwords.hash, password)

        def write(c: Connection) -> None:
            store.add_session(c, account.id, new_hash, at)
            if device is not None:
                store.see_device(c, account.id, device, at)
            if rehash is not None:
                store.set_password(c, account.id, rehash)

        await self.hub.writer.run(write)
        return {**account.to_json(), "token": new_token}

    async def _account_of(self, token: str | None) -> store.Account:
        me = await self.hub.who(token)
        if me is None:
            raise Refused("forbidden", "a player token is needed")
        if me.username is None:
            raise Refused("forbidden", "this is a guest: sign up or log in first")
        account = await self.hub.read(lambda c: store.by_id(c, me.id))
        if account is None or account.disabled:
            raise Refused("forbidden", "a player token is needed")
        return account

    async def logout(self, token: str | None) -> dict[str, Any]:
        account = await self._account_of(token)
        assert token is not None
        from blot.server.hub import token_hash

        await self.hub.writer.run(lambda c: store.end_session(c, token_hash(token)))
        self.hub.forget(account.id)
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
        self._account_gate(key)
        await self._check(account, current, key)
        if username_key(new) == key:
            raise Refused("malformed", "the password must not be the username", "new_password")
        hashed = await asyncio.to_thread(self.passwords.hash, new)
        from blot.server.hub import token_hash

        keep = token_hash(token)

        def write(c: Connection) -> None:
            store.set_password(c, account.id, hashed)
            store.end_sessions(c, account.id, keep=keep)

        await self.hub.writer.run(write)
        self.hub.forget(account.id)
        return {"ok": True}

    async def delete(self, token: str | None, body: Mapping[str, Any]) -> dict[str, Any]:
        """Delete the account (its password confirms it): its games stay under "deleted player"."""
        account = await self._account_of(token)
        password = _text(body, "password")
        key = username_key(account.username)
        self._account_gate(key)
        await self._check(account, password, key)
        busy = self.hub.unfinished_seat(account.id)
        if busy is not None:
            raise Refused(
                "conflict", f"you sit at table {busy}, whose game is not over: leave it or finish it first"
            )
        at = self.hub.now()
        touched = await self.hub.writer.run(lambda c: store.delete_account(c, account.id, at))
        self.hub.forget(account.id)
        await self.hub.reload_tables(touched)
        return {"ok": True}
