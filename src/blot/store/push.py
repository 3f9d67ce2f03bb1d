"""Web Push (issue 41 item 4) in the server's database: the server's one VAPID key pair, each
browser's subscription and the kinds of notification each player turned off. Every function is
blocking and takes a SQLAlchemy connection."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from blot.store.schema import push_keys, push_quiet, push_settings, push_subscriptions

#: The most subscriptions one player keeps (a phone, a laptop, a tablet …); the oldest go first.
PER_PLAYER = 10


def keys(c: Connection, make: Callable[[], tuple[str, str]], at: datetime) -> tuple[str, str]:
    """The server's VAPID key pair (private, public): the stored one, or ``make()``'s written
    once; two servers making it at once keep the first one written."""
    columns = (push_keys.c.private_key, push_keys.c.public_key)
    row = c.execute(select(*columns).where(push_keys.c.id == 1)).first()
    if row is not None:
        return str(row.private_key), str(row.public_key)
    private, public = make()
    try:
        with c.begin_nested():
            c.execute(insert(push_keys).values(id=1, private_key=private, public_key=public, created_at=at))
    except IntegrityError:
        return keys(c, make, at)
    return private, public


def subscribe(
    c: Connection, player: int, endpoint: str, p256dh: str, auth: str, lang: str, at: datetime
) -> None:
    """Keep a browser's subscription for ``player`` (a browser's endpoint belongs to whoever
    subscribed it last), at most :data:`PER_PLAYER` of them."""
    c.execute(delete(push_subscriptions).where(push_subscriptions.c.endpoint == endpoint))
    c.execute(
        insert(push_subscriptions).values(
            player_id=player, endpoint=endpoint, p256dh=p256dh, auth=auth, lang=lang, created_at=at
        )
    )
    ids = c.execute(
        select(push_subscriptions.c.id)
        .where(push_subscriptions.c.player_id == player)
        .order_by(push_subscriptions.c.id.desc())
        .offset(PER_PLAYER)
    ).scalars()
    old = list(ids)
    if old:
        c.execute(delete(push_subscriptions).where(push_subscriptions.c.id.in_(old)))


def unsubscribe(c: Connection, player: int, endpoint: str) -> bool:
    """Forget ``player``'s subscription at ``endpoint``; answers whether there was one."""
    done = c.execute(
        delete(push_subscriptions).where(
            push_subscriptions.c.player_id == player, push_subscriptions.c.endpoint == endpoint
        )
    )
    return bool(done.rowcount)


def drop(c: Connection, endpoint: str) -> None:
    """The push service said the subscription is gone (404, 410): forget it."""
    c.execute(delete(push_subscriptions).where(push_subscriptions.c.endpoint == endpoint))


def count(c: Connection, player: int) -> int:
    """How many browsers ``player`` has subscribed."""
    n = c.execute(select(func.count()).where(push_subscriptions.c.player_id == player)).scalar()
    return int(n or 0)


def targets(c: Connection, players: Iterable[int], kind: str) -> list[dict[str, Any]]:
    """The subscriptions of those of ``players`` who did not turn ``kind`` off."""
    wanted = sorted(set(players))
    if not wanted:
        return []
    off = {
        int(r.player_id)
        for r in c.execute(select(push_settings).where(push_settings.c.player_id.in_(wanted)))
        if kind in (r.off or [])
    }
    heard = [p for p in wanted if p not in off]
    rows = c.execute(select(push_subscriptions).where(push_subscriptions.c.player_id.in_(heard)))
    return [
        {"player": r.player_id, "endpoint": r.endpoint, "p256dh": r.p256dh, "auth": r.auth, "lang": r.lang}
        for r in rows
    ]


def turned_off(c: Connection, player: int) -> list[str]:
    """The kinds of notification ``player`` turned off."""
    off = c.execute(select(push_settings.c.off).where(push_settings.c.player_id == player)).scalar()
    return sorted(off or [])


def turn_off(c: Connection, player: int, off: Iterable[str]) -> None:
    """Keep the kinds ``player`` turned off (every other kind is on)."""
    kinds = sorted(set(off))
    if c.execute(update(push_settings).where(push_settings.c.player_id == player).values(off=kinds)).rowcount:
        return
    c.execute(insert(push_settings).values(player_id=player, off=kinds))


def claim_turn(c: Connection, table_id: str, player: int, at: datetime, since: datetime) -> bool:
    """Whether ``player`` may hear "your turn" of ``table_id`` now: not if they heard of it (or
    of the event's table it is) after ``since``; if so, ``at`` is kept as the time they did. Two
    processes claiming at once (an owner and the one that took the table over) keep one row: the
    second's insert fails and it tells nobody. Rows older than ``since`` quiet nothing and go."""
    c.execute(delete(push_quiet).where(push_quiet.c.told_at <= since))
    try:
        with c.begin_nested():
            c.execute(insert(push_quiet).values(table_id=table_id, player_id=player, told_at=at))
    except IntegrityError:
        return False
    return True


def keep_quiet(c: Connection, table_id: str, players: Iterable[int], at: datetime) -> None:
    """``players`` were told of ``table_id`` at ``at`` (their event's table is ready): its "your
    turn" keeps quiet for them from then."""
    for player in sorted(set(players)):
        mine = (push_quiet.c.table_id == table_id, push_quiet.c.player_id == player)
        if c.execute(update(push_quiet).where(*mine).values(told_at=at)).rowcount:
            continue
        try:
            with c.begin_nested():
                c.execute(insert(push_quiet).values(table_id=table_id, player_id=player, told_at=at))
        except IntegrityError:  # another process kept it meanwhile: quiet either way
            pass


def forget_player(c: Connection, player: int) -> None:
    """A deleted account: its browsers' subscriptions (their push services' addresses and keys),
    its switched-off kinds and its quiet go, so nothing is sent to it and nothing of it is kept."""
    c.execute(delete(push_subscriptions).where(push_subscriptions.c.player_id == player))
    c.execute(delete(push_settings).where(push_settings.c.player_id == player))
    c.execute(delete(push_quiet).where(push_quiet.c.player_id == player))
