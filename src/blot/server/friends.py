"""Friends and invitations (issue 41 item 2): an account asks another by username, the other
accepts by asking back; either may remove the other or block them; friends see who of them is
online and at which public table; a player invites a friend to a table he sits at (or hosts)
that has a free seat.

Only accounts have friends (a guest is a name for one browser). A block hides the blocker: to
the blocked account he is as an unknown username (asking or inviting him is answered "no such
player"). An invitation is shown to the invitee until he dismisses it, sits at its table, the
table fills or starts, or :data:`INVITATION_SECONDS` pass (the server's clock). Nothing here
reads a game's state: no card can leave through it.

Who is *online*: an account with a table's socket open in this process, or whose page asked for
its friends within :data:`ONLINE_SECONDS` (every page of blot asks every 20 seconds while open).
In a cluster the times of asking are kept in Redis, so a friend whose page asks another process
is online here too; while Redis cannot be reached, each process counts its own visitors.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from blot.accounts import username_key
from blot.server.errors import RateLimited, Refused
from blot.server.limits import Limit, MemoryWindow, RedisWindow, Window
from blot.store import friends as store
from blot.store.accounts import Who

if TYPE_CHECKING:
    from blot.server.hub import Hub

#: Seconds an invitation is shown to its invitee.
INVITATION_SECONDS = 3600.0
#: Seconds after a page last asked for its friends that its account still counts as online.
ONLINE_SECONDS = 60.0
#: Seconds a pass over the open tables (who sits where) answers every friends list of this
#: process: every open page asks every 20 s, and the pass reads every open table.
SEATED_SECONDS = 5.0
#: The cluster's times of asking: a sorted set of account ids scored by the server's clock.
SEEN_KEY = "blot:friends:seen"

log = logging.getLogger("blot.server")
#: Invitations one account may send in :data:`INVITE_WINDOW` seconds.
INVITES_PER_WINDOW = 30
INVITE_WINDOW = 600.0


@dataclass(frozen=True)
class Invitation:
    """A sent invitation: what its answer says and what a notifier needs (issue 41 item 4's Web
    Push: ``invitee``'s account, the inviter's username and the table; never a card)."""

    id: int
    table: str
    game: str
    inviter: int
    inviter_name: str
    invitee: int
    invitee_name: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "table": self.table, "game": self.game, "to": self.invitee_name}


def _free_seat(seats: Any) -> bool:
    return any(isinstance(s, dict) and s.get("player") is None and not s.get("bot") for s in seats or [])


def _sits(seats: Any, player: int) -> bool:
    return any(isinstance(s, dict) and s.get("player") == player for s in seats or [])


class Friends:
    """The friends of one server's accounts (made with the app: :func:`friends_of`)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.clock = hub.config.clock
        #: When each account's page last asked for its friends (the server's clock).
        self.seen: dict[int, float] = {}
        #: Who sits where at the open tables, and when that was read (the server's clock).
        self._seated: tuple[float, dict[int, dict[str, Any]]] = (-SEATED_SECONDS, {})
        redis = getattr(hub.cluster.broker, "redis", None)
        self.redis = redis
        self.invites: Window = (
            RedisWindow(redis, "invitations", INVITES_PER_WINDOW, INVITE_WINDOW, self.clock)
            if redis is not None
            else MemoryWindow(Limit(INVITES_PER_WINDOW, INVITE_WINDOW, self.clock))
        )

    # --- who ------------------------------------------------------------------------------------

    async def account(self, token: str | None) -> Who:
        """The account of ``token``; a guest (or nobody) is refused: friends are for accounts."""
        who = await self.hub.accounts.who(token)
        if who is None:
            raise Refused("forbidden", "token_needed")
        if who.username is None:
            raise Refused("forbidden", "friends_accounts_only")
        return who

    async def other(self, me: Who, username: Any) -> store.Person:
        """The account named ``username``, as ``me`` may know it: an unknown username, and an
        account that blocked ``me``, are "no such player"; ``me`` himself is refused."""
        if not isinstance(username, str) or not username.strip():
            raise Refused("malformed", "field_needed", "username", field="username")
        if len(username) > 200:
            raise Refused("malformed", "field_too_long", "username", field="username")
        key = username_key(username)
        found = await self.hub.read(lambda c: store.account(c, key))
        if found is None:
            raise Refused("not_found", "no_such_player")
        if found.id == me.id:
            raise Refused("conflict", "friend_yourself")
        if await self.hub.read(lambda c: store.status(c, found.id, me.id)) == store.BLOCKED:
            raise Refused("not_found", "no_such_player")
        return found

    # --- the list --------------------------------------------------------------------------------

    async def listing(self, me: Who) -> dict[str, Any]:
        """``{"friends", "asked", "asking", "blocked", "invitations"}``: friends with ``online``
        and ``table`` (a public table's id where they sit, else null; ``playing`` says whether
        they sit at any table), the requests either way, whom ``me`` blocked, and the live
        invitations to ``me``."""
        now = self.clock()
        rows = await self.hub.read(lambda c: store.relations(c, me.id))
        ids = [r["id"] for r in rows if r["status"] == store.FRIEND]
        seen = await self._seen(me.id, ids, now)
        where = await self._where(now)
        connected = {s.player for s in self.hub.registry.sockets()}
        out: dict[str, list[dict[str, Any]]] = {"friends": [], "asked": [], "asking": [], "blocked": []}
        for r in rows:
            person = {"username": r["username"], "name": r["name"]}
            if r["status"] != store.FRIEND:
                out[r["status"] if r["status"] != store.ASKED else "asked"].append(person)
                continue
            at = where.get(r["id"])
            online = r["id"] in connected or now - seen.get(r["id"], -1e18) < ONLINE_SECONDS
            person |= {
                "online": online,
                "playing": at is not None,
                "table": at["table"] if at is not None and at["public"] else None,
                "game": at["game"] if at is not None and at["public"] else None,
            }
            out["friends"].append(person)
        return {**out, "invitations": await self.invitations(me)}

    async def _where(self, now: float) -> dict[int, dict[str, Any]]:
        """Who sits where at the open tables, read at most every :data:`SEATED_SECONDS` (a friend
        who just sat shows there within those seconds)."""
        at, where = self._seated
        if now - at >= SEATED_SECONDS:
            where = await self.hub.read(store.seated)
            self._seated = (now, where)
        return where

    async def _seen(self, me: int, ids: list[int], now: float) -> dict[int, float]:
        """``me`` asks now; when each of ``ids`` last asked: the cluster's times in Redis, or this
        process's own while there is no Redis (or it cannot be reached)."""
        if self.redis is not None:
            try:
                pipe = self.redis.pipeline()
                pipe.zadd(SEEN_KEY, {str(me): now})
                pipe.zremrangebyscore(SEEN_KEY, 0, now - ONLINE_SECONDS)
                pipe.zmscore(SEEN_KEY, [str(i) for i in ids] or [str(me)])
                scores = (await pipe.execute())[2]
                return {i: float(t) for i, t in zip(ids, scores, strict=False) if t is not None}
            except Exception:
                log.warning("who is online cannot reach the broker: this process's visitors only")
        self.seen[me] = now
        if len(self.seen) > 50_000:
            self.seen = {k: v for k, v in self.seen.items() if now - v < ONLINE_SECONDS}
        return {i: self.seen[i] for i in ids if i in self.seen}

    async def invitations(self, me: Who) -> list[dict[str, Any]]:
        """The invitations to ``me`` still open: not dismissed, younger than
        :data:`INVITATION_SECONDS`, to a table still waiting with a free seat where ``me`` does
        not sit yet; one per table (the newest)."""
        since = self.hub.now() - timedelta(seconds=INVITATION_SECONDS)
        rows = await self.hub.read(lambda c: store.invitations_to(c, me.id, since))
        out: list[dict[str, Any]] = []
        tables: set[str] = set()
        for r in rows:
            if r["status"] != "waiting" or not _free_seat(r["seats"]) or _sits(r["seats"], me.id):
                continue
            if r["table_id"] in tables:
                continue
            tables.add(r["table_id"])
            out.append(
                {
                    "id": r["id"],
                    "table": r["table_id"],
                    "game": r["game"],
                    "from": r["username"],
                    "name": r["name"],
                    "at": r["created_at"].isoformat(),
                }
            )
        return out

    # --- changes ---------------------------------------------------------------------------------

    async def ask(self, me: Who, username: Any) -> dict[str, Any]:
        """Ask ``username`` to be friends, or accept his request: ``{"username", "status"}``
        (``asked`` or ``friend``)."""
        other = await self.other(me, username)
        at = self.hub.now()
        state = await self.hub.write(lambda c: store.ask(c, me.id, other.id, at))
        return {"username": other.username, "status": state}

    async def remove(self, me: Who, username: Any) -> dict[str, Any]:
        """Remove a friend, withdraw a request, decline one, or lift a block."""
        other = await self.other(me, username)
        await self.hub.write(lambda c: store.remove(c, me.id, other.id))
        return {"username": other.username, "status": None}

    async def block(self, me: Who, username: Any) -> dict[str, Any]:
        """Block ``username``: no friendship or request either way, and he cannot find ``me``."""
        other = await self.other(me, username)
        at = self.hub.now()
        await self.hub.write(lambda c: store.block(c, me.id, other.id, at))
        return {"username": other.username, "status": store.BLOCKED}

    async def invite(self, me: Who, table_id: str, username: Any) -> Invitation:
        """Invite a friend to ``table_id``, where ``me`` sits or which he hosts, waiting with a
        free seat. At most :data:`INVITES_PER_WINDOW` in :data:`INVITE_WINDOW` seconds. This is
        where a notifier (Web Push, issue 41 item 4) is called with the answer."""
        other = await self.other(me, username)
        if await self.hub.read(lambda c: store.status(c, me.id, other.id)) != store.FRIEND:
            raise Refused("forbidden", "invite_friends_only", name=other.username)
        row = await self.hub.db(self.hub.store.table, table_id)
        if row is None:
            raise Refused("not_found", "no_such_table")
        if not _sits(row["seats"], me.id) and row.get("host") != me.id:
            raise Refused("forbidden", "invite_not_seated")
        if _sits(row["seats"], other.id):
            raise Refused("conflict", "invite_already_seated", name=other.username)
        if row["status"] != "waiting" or not _free_seat(row["seats"]):
            raise Refused("conflict", "invite_no_free_seat")
        key = str(me.id)
        wait = await self.invites.wait(key)
        if wait > 0:
            raise RateLimited("invite_limit", wait)
        await self.invites.hit(key)
        at = self.hub.now()
        made = await self.hub.write(lambda c: store.invite(c, table_id, me.id, other.id, at))
        inviter = me.username or me.name
        return Invitation(made, table_id, str(row["game"]), me.id, inviter, other.id, other.username)

    async def dismiss(self, me: Who, invitation: int) -> None:
        if not await self.hub.write(lambda c: store.dismiss(c, me.id, invitation)):
            raise Refused("not_found", "no_such_invitation")


def friends_of(hub: Hub, state: Any) -> Friends:
    """The app's :class:`Friends` (kept in ``app.state``; made on first use)."""
    found = getattr(state, "friends", None)
    if not isinstance(found, Friends) or found.hub is not hub:
        found = Friends(hub)
        state.friends = found
    return found
