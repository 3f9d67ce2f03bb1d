"""Notifications that reach a closed app (issue 41 item 4): Web Push with the server's VAPID keys.

The first server that needs the keys makes them and keeps them in its database
(:func:`blot.store.push.keys`), so every process of a cluster and every restart signs with the
same ones and the browsers' subscriptions stay valid. A browser subscribes through the page
(``POST /api/push/subscriptions``); a player turns each kind off or on (``PUT
/api/push/settings``). A message holds words and a link only, never a card
(:mod:`blot.server.push.words`). Sending is an HTTP request per browser, made in this service's
own threads so that the event loop never waits for a push service; one that answers 404 or 410
(the browser unsubscribed) has its subscription deleted. The table's owner alone sends a table's
notifications (:meth:`Push.turn` is called by the process that drives it), so a cluster sends
each one once.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import functools
import json
import logging
from collections.abc import Callable, Coroutine, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any

from blot.server.errors import Refused
from blot.server.push import sending
from blot.server.push.words import KINDS, LANGS, message
from blot.server.services import Storage
from blot.store import push as rows

log = logging.getLogger("blot.server")

#: Seconds after a "your turn" notification of a table in which its player hears no other one of it.
TURN_QUIET = 300.0
#: The statuses with which a push service says the subscription is gone.
GONE = (404, 410)


class Push:
    """Keys, subscriptions, settings and sending (one per server, the hub's ``push``)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.config = storage.config
        self._keys: tuple[str, str] | None = None
        self._threads = ThreadPoolExecutor(max_workers=4, thread_name_prefix="blot-push")
        self._tasks: set[asyncio.Task[None]] = set()
        #: When each (table, player) last heard "your turn" (the server's clock).
        self._told: dict[tuple[str, int], float] = {}
        #: Messages posted and subscriptions dropped since the start (for tests and logs).
        self.sent = 0
        self.dropped = 0

    # --- keys ------------------------------------------------------------------------------------

    async def keys(self) -> tuple[str, str]:
        """The VAPID key pair (private, public), made and stored once."""
        if self._keys is None:
            at = self.storage.now()
            self._keys = await self.storage.write(lambda c: rows.keys(c, sending.new_keys, at))
        return self._keys

    async def public_key(self) -> str:
        """The public key the page subscribes with (``applicationServerKey``)."""
        return (await self.keys())[1]

    # --- subscriptions and settings ----------------------------------------------------------------

    async def subscribe(self, player: int, body: Mapping[str, Any]) -> dict[str, Any]:
        """Keep a browser's subscription (the body of ``PushSubscription.toJSON()`` and the
        page's ``lang``); answers the player's settings."""
        endpoint = body.get("endpoint")
        if not isinstance(endpoint, str) or not endpoint:
            raise Refused("malformed", "field_needed", "endpoint", field="endpoint")
        services = sending.PUSH_SERVICES + self.config.push_services
        if len(endpoint) > 1024 or not sending.allowed(endpoint, services):
            raise Refused("forbidden", "push_service_unknown", "endpoint")
        keys = body.get("keys")
        p256dh = _key(keys, "p256dh", 65)
        auth = _key(keys, "auth", 16)
        lang = body.get("lang", "en")
        if lang not in LANGS:
            raise Refused("malformed", "push_lang", "lang", langs=", ".join(LANGS))
        at = self.storage.now()
        await self.storage.write(lambda c: rows.subscribe(c, player, endpoint, p256dh, auth, str(lang), at))
        return await self.settings(player)

    async def unsubscribe(self, player: int, body: Mapping[str, Any]) -> dict[str, Any]:
        """Forget one of the player's browsers (the page turned notifications off)."""
        endpoint = body.get("endpoint")
        if not isinstance(endpoint, str) or not endpoint:
            raise Refused("malformed", "field_needed", "endpoint", field="endpoint")
        await self.storage.write(lambda c: rows.unsubscribe(c, player, endpoint))
        return await self.settings(player)

    async def settings(self, player: int) -> dict[str, Any]:
        """Each kind on or off, and how many of the player's browsers are subscribed."""

        def read(c: Any) -> tuple[list[str], int]:
            return rows.turned_off(c, player), rows.count(c, player)

        off, browsers = await self.storage.read(read)
        return {"kinds": {k: k not in off for k in KINDS}, "subscriptions": browsers}

    async def change_settings(self, player: int, body: Mapping[str, Any]) -> dict[str, Any]:
        """``{"kinds": {"turn": false, …}}``: the kinds named are turned off or on, the others
        stay as they were."""
        kinds = body.get("kinds")
        if not isinstance(kinds, dict):
            raise Refused("malformed", "field_needed", "kinds", field="kinds")
        for kind, on in kinds.items():
            if kind not in KINDS:
                raise Refused("malformed", "push_kind", "kinds", kind=str(kind)[:40], kinds=", ".join(KINDS))
            if not isinstance(on, bool):
                raise Refused("malformed", "field_flag", "kinds", field=f"kinds.{kind}")

        def write(c: Any) -> None:
            off = set(rows.turned_off(c, player))
            off |= {k for k, on in kinds.items() if not on}
            off -= {k for k, on in kinds.items() if on}
            rows.turn_off(c, player, off)

        await self.storage.write(write)
        return await self.settings(player)

    # --- sending -------------------------------------------------------------------------------

    def turn(self, table_id: str, player: int) -> None:
        """It is ``player``'s turn at a table where no socket of theirs is open: one notification,
        then none of that table for :data:`TURN_QUIET` seconds. This process's memory answers
        at once; the database (:func:`blot.store.push.claim_turn`) holds the quiet for a table's
        next owner after a take-over, which would otherwise tell the player again."""
        now = self.config.clock()
        key = (table_id, player)
        if now - self._told.get(key, -TURN_QUIET) < TURN_QUIET:
            return
        if len(self._told) > 10_000:
            self._told = {k: at for k, at in self._told.items() if now - at < TURN_QUIET}
        self._told[key] = now
        url, tag = f"/table/{table_id}", f"turn-{table_id}"
        self._spawn(functools.partial(self._send, [player], "turn", url, tag, {}, turn_of=table_id))

    def notify(self, players: Iterable[int], kind: str, url: str, tag: str, **parts: Any) -> None:
        """Send ``kind`` to every browser of ``players`` who did not turn it off, in the
        background: the caller never waits, and a failure is a line in the log. With a ``table``
        part (an event's table just opened) its "your turn" keeps quiet for :data:`TURN_QUIET`."""
        people = sorted({int(p) for p in players})
        if not people:
            return
        table = parts.pop("table", None)
        if table is not None:
            now = self.config.clock()
            self._told.update({(str(table), p): now for p in people})
        quiets = None if table is None else str(table)
        self._spawn(functools.partial(self._send, people, kind, url, tag, parts, quiets=quiets))

    def _spawn(self, work: Callable[[], Coroutine[Any, Any, None]]) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a table rebuilt in a thread): nobody to tell now
            return
        task = loop.create_task(work())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _send(
        self,
        players: list[int],
        kind: str,
        url: str,
        tag: str,
        parts: dict[str, Any],
        turn_of: str | None = None,
        quiets: str | None = None,
    ) -> None:
        """``turn_of``: a "your turn" at that table, sent only if the database's quiet allows;
        ``quiets``: the table whose "your turn" those told now do not hear for a while."""
        try:
            targets = await self.storage.read(lambda c: rows.targets(c, players, kind))
            if not targets:
                return
            at = self.storage.now()
            if turn_of is not None:
                since = at - timedelta(seconds=TURN_QUIET)
                claim = functools.partial(
                    rows.claim_turn, table_id=turn_of, player=players[0], at=at, since=since
                )
                if not await self.storage.write(claim):
                    return
            if quiets is not None:
                heard = {int(t["player"]) for t in targets}
                await self.storage.write(
                    functools.partial(rows.keep_quiet, table_id=quiets, players=heard, at=at)
                )
            private, _ = await self.keys()
            loop = asyncio.get_running_loop()
            for target in targets:
                data = json.dumps(message(kind, target["lang"], url, tag, **parts), ensure_ascii=False)
                status = await loop.run_in_executor(
                    self._threads, sending.send, target, data, private, self.config.push_contact
                )
                if status in GONE:
                    await self.storage.write(functools.partial(rows.drop, endpoint=target["endpoint"]))
                    self.dropped += 1
                elif 200 <= status < 300:
                    self.sent += 1
        except Exception:
            log.exception("web push of %s failed", kind)

    async def drain(self) -> None:
        """Wait for the notifications under way (tests, and a server that stops)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        await self.drain()
        self._threads.shutdown(wait=False)


def _key(keys: Any, name: str, size: int) -> str:
    """A browser's key of the subscription (base64url), checked by its decoded size."""
    field = f"keys.{name}"
    value = keys.get(name) if isinstance(keys, dict) else None
    if not isinstance(value, str) or not value or len(value) > 128:
        raise Refused("malformed", "field_needed", field, field=field)
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) != size:
        raise Refused("malformed", "push_key", field, field=field, size=size)
    return value
