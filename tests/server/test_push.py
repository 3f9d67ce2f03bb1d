"""Issue 41 item 4: notifications that reach a closed app (Web Push). The server's VAPID keys
are made once and kept; a browser subscribes; each kind is switchable; a person whose turn comes
at a table with no socket of theirs open is told through their push service (the tests' own,
:mod:`.push_service`, which checks the signature and decrypts the message as a browser would),
with words and a link and never a card; a subscription the push service says is gone (410) is
deleted; only the process that drives a table tells of its turns."""

from __future__ import annotations

import base64
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import delete

from blot.server.push import TURN_QUIET
from blot.server.table import Table
from blot.store.schema import push_quiet

from .conftest import PASSWORD, Account, Clock, Player, Socket, make_client, start_with_bots
from .push_service import CARD, PushService, Received


def of_kind(service: PushService, kind: str, seconds: float = 10.0) -> Received:
    """The first message of ``kind`` that reached the push service (others may come too: a
    person not at a table that started hears of their turn as well)."""
    deadline = time.monotonic() + seconds
    while not any(r.message["kind"] == kind for r in service.received):
        assert time.monotonic() < deadline, f"no {kind} message came"
        time.sleep(0.02)
    return next(r for r in service.received if r.message["kind"] == kind)


@pytest.fixture
def service() -> Iterator[PushService]:
    found = PushService()
    yield found
    found.close()


def test_vapid_keys_are_made_once_and_kept_in_the_database_across_restarts(database: Path | str) -> None:
    with make_client(database) as client:
        first = client.get("/api/push/key").json()["key"]
        assert client.get("/api/push/key").json()["key"] == first
    with make_client(database) as client:  # a restart: the same key, so browsers' subscriptions hold
        assert client.get("/api/push/key").json()["key"] == first
    raw = base64.urlsafe_b64decode(first + "=" * (-len(first) % 4))
    assert len(raw) == 65 and raw[0] == 4  # an uncompressed P-256 point: applicationServerKey


def test_a_subscription_to_an_address_that_is_no_push_service_is_refused(
    db: Path, service: PushService
) -> None:
    """The server posts only to the browsers' push services (and those its operator names): a
    client cannot make it post to any address it likes."""
    with make_client(db, push_services=(service.origin,)) as client:
        ani = Player(client, "Ani")
        good = service.subscription()
        for endpoint in ("http://10.0.0.1/push", "https://example.com/push", "ftp://fcm.googleapis.com/x"):
            r = client.post(
                "/api/push/subscriptions", json={**good, "endpoint": endpoint}, headers=ani.headers
            )
            assert r.status_code == 403 and r.json()["reason"] == "push_service_unknown", r.text
        r = client.post(
            "/api/push/subscriptions",
            json={**good, "keys": {"p256dh": "AAAA", "auth": "x"}},
            headers=ani.headers,
        )
        assert r.status_code == 400 and r.json()["reason"] == "push_key"
        r = client.post("/api/push/subscriptions", json={**good, "lang": "fr"}, headers=ani.headers)
        assert r.status_code == 400 and r.json()["reason"] == "push_lang"
        assert client.post("/api/push/subscriptions", json=good).status_code == 403  # nobody's
        assert client.get("/api/push/settings", headers=ani.headers).json()["subscriptions"] == 0
        assert ani.post("/api/push/subscriptions", good)["subscriptions"] == 1
        https = {**good, "endpoint": "https://fcm.googleapis.com/fcm/send/abc"}
        assert ani.post("/api/push/subscriptions", https)["subscriptions"] == 2


def test_each_kind_of_notification_is_switched_on_and_off_per_account(database: Path | str) -> None:
    with make_client(database) as client:
        ani, aram = Player(client, "Ani"), Player(client, "Aram")
        kinds = {"turn": True, "invitation": True, "event_table": True, "rematch": True}
        assert client.get("/api/push/settings", headers=ani.headers).json()["kinds"] == kinds
        r = client.put("/api/push/settings", json={"kinds": {"turn": False}}, headers=ani.headers)
        assert r.json()["kinds"] == {**kinds, "turn": False}
        r = client.put("/api/push/settings", json={"kinds": {"rematch": False}}, headers=ani.headers)
        assert r.json()["kinds"] == {**kinds, "turn": False, "rematch": False}
        r = client.put("/api/push/settings", json={"kinds": {"turn": True}}, headers=ani.headers)
        assert r.json()["kinds"] == {**kinds, "rematch": False}
        assert client.get("/api/push/settings", headers=aram.headers).json()["kinds"] == kinds  # his own
        bad = client.put("/api/push/settings", json={"kinds": {"cards": False}}, headers=ani.headers)
        assert bad.status_code == 400 and bad.json()["reason"] == "push_kind"
        bad = client.put("/api/push/settings", json={"kinds": {"turn": "no"}}, headers=ani.headers)
        assert bad.status_code == 400 and bad.json()["reason"] == "field_flag"
        assert client.get("/api/push/settings", headers=ani.headers).json()["kinds"] == {
            **kinds,
            "rematch": False,
        }


def test_your_turn_at_a_table_you_left_reaches_your_push_service_with_no_card(
    db: Path, service: PushService
) -> None:
    """Ani subscribes, starts a game against bots and closes the page: when her turn comes the
    push service receives one message, signed with the server's key and encrypted for her
    browser, that says whose turn and where, and holds no card."""
    with make_client(
        db, push_services=(service.origin,), grace=600.0, push_contact="mailto:op@blot.test"
    ) as client:
        ani = Player(client, "Ani")
        key = client.get("/api/push/key").json()["key"]
        ani.post("/api/push/subscriptions", {**service.subscription(), "lang": "hy"})
        table = start_with_bots(ani)
        [got] = service.wait(1)
        assert got.key == key and got.claims["sub"] == "mailto:op@blot.test"
        assert got.claims["aud"] == service.origin
        message = got.message
        assert message == {
            "kind": "turn",
            "title": "Ձեր հերթն է",
            "body": "Սեղանը, որից հեռացել եք, սպասում է ձեր քայլին։",
            "url": f"/table/{table}",
            "tag": f"turn-{table}",
        }
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            sock = Socket(ws, ani.token)
            sock.joined()
        assert sock.view is not None
        hand = sock.view["hand"]
        assert hand and not CARD.search(got.plaintext.decode())
        assert not any(card in got.plaintext.decode() for card in hand)


def test_a_turned_off_kind_and_a_subscription_the_push_service_says_is_gone(
    db: Path, service: PushService
) -> None:
    with make_client(db, push_services=(service.origin,), grace=600.0) as client:
        hub = client.app.state.hub
        ani = Player(client, "Ani")
        ani.post("/api/push/subscriptions", service.subscription())
        client.put("/api/push/settings", json={"kinds": {"turn": False}}, headers=ani.headers)
        start_with_bots(ani)
        client.portal.call(hub.push.drain)
        assert service.received == [] and hub.push.sent == 0
        client.put("/api/push/settings", json={"kinds": {"turn": True}}, headers=ani.headers)
        service.status = 410  # the browser unsubscribed: the push service says so
        start_with_bots(ani)
        service.wait(1)
        client.portal.call(hub.push.drain)
        assert client.get("/api/push/settings", headers=ani.headers).json()["subscriptions"] == 0
        assert hub.push.dropped == 1


def test_only_the_process_that_drives_a_table_tells_of_a_turn(db: Path, service: PushService) -> None:
    """In a cluster every process with a socket of the table follows it; the owner alone sends."""
    with make_client(db, push_services=(service.origin,), grace=600.0) as client:
        hub = client.app.state.hub
        ani = Player(client, "Ani")
        table_id = start_with_bots(ani)
        ani.post("/api/push/subscriptions", service.subscription())  # after the owner told nobody
        client.portal.call(hub.push.drain)
        # the owner's word of the start may have reached the new subscription: only what follows counts
        service.received.clear()
        log = client.portal.call(hub.read_log, table_id)
        follower = Table.rebuild(hub, table_id, "bazar-blot", log, driving=False)
        assert follower.game.to_act == 0 and not follower.seats[0].connected  # Ani's turn, away

        async def schedule(table: Table) -> None:
            table.start()
            table.turns.schedule()
            await hub.push.drain()
            table.turns.cancel()
            await table.stop()

        # the owner's quiet forgotten, in its memory and in the database: its word of the start
        # told nobody, or (its sending read the subscriptions late) told Ani and kept quiet
        hub.push._told.clear()
        client.portal.call(hub.write, lambda c: c.execute(delete(push_quiet)))
        client.portal.call(schedule, follower)
        assert service.received == []
        owner = Table.rebuild(hub, table_id, "bazar-blot", log, driving=True)
        client.portal.call(schedule, owner)
        assert len(service.received) == 1


def test_a_deleted_account_keeps_no_push_subscription(db: Path, service: PushService) -> None:
    """Deleting an account deletes its browsers' subscriptions (their push services' addresses
    and keys) and settings: nothing is kept of it, nothing is sent to it."""
    from sqlalchemy import func, select

    from blot.store.schema import push_settings, push_subscriptions

    with make_client(db, push_services=(service.origin,)) as client:
        ani, boris = Account(client, "Ani"), Account(client, "Boris")
        for person in (ani, boris):
            person.post("/api/push/subscriptions", service.subscription(person.username))
            client.put("/api/push/settings", json={"kinds": {"rematch": False}}, headers=person.headers)
        answer = client.request("DELETE", "/api/account", json={"password": PASSWORD}, headers=ani.headers)
        assert answer.json() == {"ok": True}
        with client.app.state.hub.store.engine.connect() as c:
            left = [
                c.execute(select(func.count()).where(t.c.player_id == p.id)).scalar()
                for t in (push_subscriptions, push_settings)
                for p in (ani, boris)
            ]
        assert left == [0, 1, 0, 1]  # Boris's stay


def test_a_new_owner_after_a_take_over_keeps_the_quiet_of_your_turn(
    database: Path | str, service: PushService
) -> None:
    """The 5 minutes' quiet after a "your turn" is in the database, not in the process that told
    it: a server that takes the table over (here: the next one started on the same database)
    tells Ani nothing more until the quiet is over, then once."""
    clock = Clock()
    settings = {"push_services": (service.origin,), "grace": 600.0, "clock": clock}

    with make_client(database, **settings) as client:
        ani = Player(client, "Ani")
        ani.post("/api/push/subscriptions", service.subscription())
        table_id = start_with_bots(ani)
        service.wait(1)
        log = client.portal.call(client.app.state.hub.read_log, table_id)
    with make_client(database, **settings) as other:  # the table's next owner: nothing in its memory
        hub = other.app.state.hub

        async def schedule() -> None:
            """Ani's turn, her seat away, at the table as the new owner rebuilt it."""
            table = Table.rebuild(hub, table_id, "bazar-blot", log, driving=True)
            table.start()
            table.turns.schedule()
            await hub.push.drain()
            table.turns.cancel()
            await table.stop()

        other.portal.call(schedule)
        assert len(service.received) == 1
        clock.now += TURN_QUIET + 1
        other.portal.call(schedule)
        assert [r.message["tag"] for r in service.wait(2)] == [f"turn-{table_id}"] * 2


def test_an_invitation_a_rematch_and_an_event_table_reach_the_push_service(
    db: Path, service: PushService
) -> None:
    """The other kinds (issue 41 item 4): a friend's invitation, a rematch asked by the person one
    played with, and one's table of an event's round, each with words and the table's link."""
    from .test_friends import befriend

    with make_client(db, push_services=(service.origin,), grace=600.0) as client:
        ani, boris = Account(client, "Ani"), Account(client, "Boris")
        befriend(ani, boris)
        boris.post("/api/push/subscriptions", {**service.subscription("boris"), "lang": "ru"})
        table = ani.table()
        ani.post(f"/api/tables/{table}/invitations", {"username": "boris"})
        [invited] = service.wait(1)
        assert invited.message == {
            "kind": "invitation",
            "title": "Приглашение",
            "body": "Ani приглашает вас за свой стол.",
            "url": f"/table/{table}",
            "tag": f"invite-{table}",
        }
        boris.post(f"/api/tables/{table}/sit", {"seat": 2})
        ani.post(f"/api/tables/{table}/fill-bots", {"level": "random"})
        ani.post(f"/api/tables/{table}/start")
        for person in (ani, boris):  # the game ends by agreement (a played one takes long)
            person.post(f"/api/tables/{table}/end", {"agree": True})
        service.received.clear()
        ani.post(f"/api/tables/{table}/rematch")  # Boris decides at the finished game's table
        asked = of_kind(service, "rematch")
        assert asked.message["url"] == f"/table/{table}"
        assert asked.message["body"] == "Ani предлагает реванш."

        service.received.clear()
        organizer = Account(client, "organizer")
        body = {"name": "Blato", "game": "3-5-8", "format": "round_robin", "rounds": 1, "online": True}
        event = organizer.post("/api/events", body)["id"]
        boris.post(f"/api/events/{event}/entries", {"usernames": ["boris"]})
        for _ in range(2):
            organizer.post(f"/api/events/{event}/entries", {"bot": "basic"})
        organizer.post(f"/api/events/{event}/rounds", {"start": True})
        ready = of_kind(service, "event_table").message
        assert ready["body"] == "Blato, тур 1: ваш стол готов."
        tables = client.get(f"/api/events/{event}").json()["rounds"][0]["tables"]
        assert ready["url"] in {f"/table/{t['table']}" for t in tables}
