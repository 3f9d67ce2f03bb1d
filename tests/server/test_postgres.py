"""The server on PostgreSQL: the same migrations (the accounts migration keeps old tokens), a game
resumed after a restart, a score sheet, accounts with a rated game, a profile and a deletion, a
finished game's analysis stored once.

Runs when ``BLOT_TEST_POSTGRES_URL`` names a PostgreSQL server whose user may create databases
(``.ci/run`` starts one); each test module gets a fresh database there.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Iterator
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, text

from blot.records import replay_record
from blot.store import Store
from blot.store.schema import metadata

from .conftest import PASSWORD, Account, Player, Socket, make_client, play_out, simple_choice, start_with_bots
from .postgres import fresh_database
from .test_analysis import finished_table, until_settled
from .test_store import upgrade_to

SERVER = os.environ.get("BLOT_TEST_POSTGRES_URL")
if not SERVER:
    if os.environ.get("BLOT_REQUIRE_POSTGRES"):  # set by .ci/run: there, no server is a failure
        raise RuntimeError("BLOT_TEST_POSTGRES_URL is not set")
    pytest.skip(
        "no PostgreSQL server (set BLOT_TEST_POSTGRES_URL; .ci/run starts one)", allow_module_level=True
    )


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    with fresh_database() as url:
        yield url


def test_migrations_create_exactly_the_schema_on_postgresql(pg_url: str) -> None:
    store = Store.open(pg_url)
    assert store.engine.dialect.name == "postgresql"
    with store.engine.connect() as c:
        assert compare_metadata(MigrationContext.configure(c), metadata) == []
    Store.open(pg_url)  # migrating again is a no-op


def test_a_game_is_stored_resumed_after_a_restart_and_finished(pg_url: str) -> None:
    with make_client(pg_url) as client:
        player = Player(client, "Ani")
        table = start_with_bots(player, "bazar-blot")
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            sock = Socket(ws, player.token)
            for _ in range(5):
                sock.play(0, simple_choice(sock.my_turn(0)))
            before, n = sock.my_turn(0), sock.n
    with make_client(pg_url) as client:  # a new server on the same database
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            sock = Socket(ws, player.token, since=n)
            snap = sock.receive()
            assert snap["n"] == n and snap["view"] == before
            while (view := sock.my_turn(0))["game_over"] is None:
                sock.play(0, simple_choice(view))
        record = client.get(f"/api/tables/{table}/record").json()
        result = replay_record(record).to_json()
        assert result["finished"] and result["totals"] == view["game_over"]["totals"]


def test_a_score_sheet_with_an_edit_and_its_history(pg_url: str) -> None:
    with make_client(pg_url) as client:
        sheet: dict[str, Any] = client.post("/api/scoresheets", json={"teams": ["A", "B"]}).json()
        deal = {"contract": {"team": 0, "level": 10, "strain": "H", "multiplier": 2}, "card_points": [98, 64]}
        first = client.post(
            f"/api/scoresheets/{sheet['id']}/deals", json={**deal, "declaration_points": [2, 0]}
        )
        assert first.status_code == 200 and first.json()["points"] == [38, 0]
        bad = client.post(f"/api/scoresheets/{sheet['id']}/deals", json={**deal, "card_points": [200, 0]})
        assert bad.status_code == 422
        edited = client.put(f"/api/scoresheets/{sheet['id']}/deals/1", json=deal)
        # now failed: the defenders take 2 x 10 + 16 (B-54)
        assert edited.status_code == 200 and edited.json()["points"] == [0, 36]
        whole = client.get(f"/api/scoresheets/{sheet['id']}").json()
        assert whole["totals"] == [0, 36] and len(whole["deals"]) == 1
        history = [h for h in whole["history"] if h["action"] in ("add", "replace")]
        assert [(h["action"], h["deal"]) for h in history] == [("add", 1), ("replace", 1)]
        assert history[1]["before"]["declaration_points"] == [2, 0]


def test_the_accounts_migration_keeps_every_guest_token_on_postgresql() -> None:
    with fresh_database() as url:
        upgrade_to(url, "0002")
        token = "an old guest token from before accounts"
        engine = create_engine(url)
        with engine.begin() as c:
            c.execute(
                text("INSERT INTO players (name, token_hash, created_at) VALUES ('Ani', :h, now())"),
                {"h": hashlib.sha256(token.encode()).hexdigest()},
            )
        engine.dispose()
        with make_client(url) as client:
            me = client.get("/api/me", headers={"Authorization": f"Bearer {token}"}).json()
            assert me == {"id": 1, "name": "Ani", "username": None, "bars": []}
            with client.app.state.hub.store.engine.connect() as c:
                assert compare_metadata(MigrationContext.configure(c), metadata) == []


def test_accounts_a_rated_game_and_a_deletion_on_postgresql(pg_url: str) -> None:
    with make_client(pg_url) as client:
        ani = Account(client, "Ani")
        assert client.post("/api/accounts", json={"username": "ANI", "password": PASSWORD}).status_code == 409
        table = ani.table("bazar-blot", rated=True, options={"target": 1})
        ani.post(f"/api/tables/{table}/fill-bots", {"level": "basic"})
        ani.post(f"/api/tables/{table}/start")
        play_out(client, table, {0: ani})
        board = client.get("/api/leaderboard?game=bazar-blot").json()["players"]
        assert {r["username"] for r in board} == {"Ani", "bot:basic"}
        profile = client.get("/api/players/ani").json()
        assert (
            profile["games"]["bazar-blot"]["rated_games"] == 1
            and len(profile["games"]["bazar-blot"]["history"]) == 1
        )
        deleted = client.request("DELETE", "/api/account", json={"password": PASSWORD}, headers=ani.headers)
        assert deleted.json() == {"ok": True}
        assert client.get(f"/api/tables/{table}/record").json()["players"][0] == "deleted player"
        assert {r["username"] for r in client.get("/api/leaderboard?game=bazar-blot").json()["players"]} == {
            "bot:basic"
        }


def test_a_finished_games_analysis_is_stored_once_on_postgresql(pg_url: str) -> None:
    with make_client(pg_url) as client:
        table = finished_table(Player(client, "Ani"), "bazar-blot", target=1)
        assert client.post(f"/api/tables/{table}/analysis").json()["status"] == "running"
        _, answer = until_settled(client, table)
        assert answer["status"] == "done" and answer["analysis"]["deals"], answer
    with make_client(pg_url) as client:  # a new server on the same database
        assert client.post(f"/api/tables/{table}/analysis").json() == answer
        assert client.app.state.hub.analyses.started == 0


def test_issue22_item9_a_second_server_on_one_postgresql_database_is_refused() -> None:
    """Without a broker, a second blot serve on the same PostgreSQL database is refused at start
    in one sentence naming --broker (it used to split the tables' writers)."""
    from .test_integrity import second_server_is_refused

    with fresh_database() as url:
        second_server_is_refused(url)


def test_an_event_on_postgresql(pg_url: str) -> None:
    """Issue 25 on PostgreSQL: a Swiss of bot pairs played into standings checked against the
    records, an account entered twice refused by the database, a round started twice at once
    started once."""
    import threading

    from .test_events import check_against_records, run_event

    with make_client(pg_url) as client:
        organizer = Account(client, "pg_organizer")
        body = {"name": "PG Swiss", "rounds": 2, "options": {"target": 51}}
        data = run_event(client, organizer, body, 4)
        assert data["status"] == "finished" and len(data["rounds"]) == 2
        check_against_records(client, data)
        ani, _ = Account(client, "pg_ani"), Account(client, "pg_gohar")
        event = organizer.post("/api/events", {"name": "PG Cup", "rounds": 2})["id"]
        ani.post(f"/api/events/{event}/entries", {"usernames": ["pg_ani", "pg_gohar"]})
        answer = ani.post(
            f"/api/events/{event}/entries", {"usernames": ["pg_ani", "pg_organizer"]}, status=409
        )
        assert answer["message"] == "pg_ani is already entered in this event"
        for _ in range(4):
            organizer.post(f"/api/events/{event}/entries", {"bot": "basic"})
        answers: list[Any] = []

        def start() -> None:
            answers.append(
                client.post(f"/api/events/{event}/rounds", json={"start": True}, headers=organizer.headers)
            )

        threads = [threading.Thread(target=start) for _ in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(a.status_code for a in answers) == [200, 409, 409]
        assert len(client.get(f"/api/events/{event}").json()["rounds"]) == 1


def test_issue24_a_batch_of_appends_is_fenced_table_by_table(pg_url: str) -> None:
    """The writer's batch of appends is fenced in one statement (issue 24 item 9): the tables this
    node owns under the epoch given are written, one that another node took (or an older epoch
    of its own) is refused alone, and nothing of it is written."""
    from datetime import UTC, datetime

    from blot.server.cluster.leases import SharedOwnership
    from blot.store import Append, LogEntry

    store = Store.open(pg_url)
    me, other = SharedOwnership("fence-me"), SharedOwnership("fence-other")
    now = datetime.now(UTC)
    row = {"game": "3-5-8", "settings": {}, "public": True, "status": "waiting", "seats": [], "last_seq": 0}
    ids = ["fence-mine", "fence-theirs", "fence-stale"]

    def setup(c: Any) -> dict[str, int | None]:
        for node in (me, other):
            node.beat(c, now, "")
        for t in ids:
            Store.insert_table(c, {"id": t, **row})
        return {
            "fence-mine": me.claim(c, "fence-mine", now),
            "fence-theirs": other.claim(c, "fence-theirs", now),
            "fence-stale": me.claim(c, "fence-stale", now),
        }

    epochs = store.write(setup)
    assert epochs == {"fence-mine": 1, "fence-theirs": 1, "fence-stale": 1}
    asked = {"fence-mine": 1, "fence-theirs": 1, "fence-stale": 0}  # an epoch this node lost since

    def write(c: Any) -> set[str]:
        refused = me.fenced(c, asked)
        Store.append_many(
            c, [Append(t, [LogEntry(1, "start", {})], {"last_seq": 1}) for t in ids if t not in refused]
        )
        return refused

    assert store.write(write) == {"fence-theirs", "fence-stale"}
    assert [len(store.log(t)) for t in ids] == [1, 0, 0]
    store.close()


def test_issue24_each_finished_game_is_analysed_once_by_two_processes() -> None:
    """Two processes of a cluster (two sessions of one PostgreSQL database, each with its own
    analyses) resume the same backlog of unanalysed games at once: each game is analysed by one
    of them, once (without the claims both analysed all six); a claim whose session dies (a
    process killed) is free for the other at once."""
    worker = (  # an analysis process that answers an empty document after 0.3 s
        "import json, sys, time; sys.stdin.read(); time.sleep(0.3); "
        "print(json.dumps({'done': {}, 'seconds': 0.3}))"
    )
    ids = [f"claim-{i}" for i in range(6)]
    seats = [{"player": 1, "name": "Ani"}]
    row = {
        "game": "3-5-8",
        "settings": {},
        "public": False,
        "status": "finished",
        "seats": seats,
        "last_seq": 1,
    }
    with fresh_database() as url:  # no other test's finished games
        analysed_once(url, ids, row, worker)


def analysed_once(pg_url: str, ids: list[str], row: dict[str, Any], worker: str) -> None:
    import asyncio
    import sys
    from collections.abc import Callable
    from datetime import UTC, datetime
    from typing import TypeVar

    from blot.server import analyses
    from blot.server.cluster.claims import AdvisoryClaims
    from blot.store import analyses as stored

    T = TypeVar("T")
    setup = Store.open(pg_url)
    setup.write(lambda c: [Store.insert_table(c, {"id": t, **row, "record": {"deals": []}}) for t in ids])
    assert sorted(setup.read(lambda c: stored.unanalysed(c, analyses.FORMAT, 100))) == ids

    class Services:
        def __init__(self) -> None:
            self.store = Store.open(pg_url)

        async def read(self, fn: Callable[[Any], T]) -> T:
            return await asyncio.to_thread(self.store.read, fn)

        async def write(self, fn: Callable[[Any], T]) -> T:
            return await asyncio.to_thread(self.store.write, fn)

        def now(self) -> datetime:
            return datetime.now(UTC)

    async def main() -> list[int]:
        processes = []
        for _ in range(2):
            services = Services()
            claims = AdvisoryClaims(services.store.engine)
            processes.append(analyses.Analyses(services, 2, [sys.executable, "-c", worker], True, claims))
        for one in processes:
            one.resume()
        deadline = asyncio.get_running_loop().time() + 60

        def busy(one: analyses.Analyses) -> bool:
            resuming = one._resuming is not None and not one._resuming.done()
            return resuming or bool(one.jobs or one._backlog)

        while any(busy(one) for one in processes):
            assert asyncio.get_running_loop().time() < deadline, "the backlog was not analysed"
            await asyncio.sleep(0.05)
        for one in processes:
            await one.close()
        return [one.started for one in processes]

    started = asyncio.run(main())
    assert sum(started) == len(ids), started
    assert setup.read(stored.count) == len(ids)

    one, two = AdvisoryClaims(Store.open(pg_url).engine), AdvisoryClaims(Store.open(pg_url).engine)
    held = one.claim("claim-0")
    assert held is not None and two.claim("claim-0") is None
    held.connection.invalidate()  # type: ignore[attr-defined]  # its session dies with its process
    deadline = time.monotonic() + 10  # the server ends the session (and its lock) when it notices
    while (again := two.claim("claim-0")) is None:
        assert time.monotonic() < deadline, "the lock of a dead session was never released"
        time.sleep(0.05)
    again.release()
    assert one.claim("claim-0") is not None
