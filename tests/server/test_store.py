"""The database: Alembic migrations agree with the schema, the log is append-only, the writer
commits in groups and fails one write alone."""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from blot.store import Append, LogEntry, Store, Writer, default_url
from blot.store.schema import metadata


def test_migrations_create_exactly_the_schema(tmp_path: Path) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 'a.sqlite3'}")
    with store.engine.connect() as c:
        diff = compare_metadata(MigrationContext.configure(c), metadata)
    assert diff == []
    Store.open(f"sqlite:///{tmp_path / 'a.sqlite3'}")  # migrating again is a no-op


def test_default_database_lives_in_the_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BLOT_DATA_DIR", str(tmp_path / "data"))
    url = default_url()
    assert url == f"sqlite:///{tmp_path / 'data' / 'blot.sqlite3'}" and (tmp_path / "data").is_dir()


def test_writer_groups_writes_and_a_bad_one_fails_alone(tmp_path: Path) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 'w.sqlite3'}")
    row = {"game": "3-5-8", "settings": {}, "public": True, "status": "waiting", "seats": [], "last_seq": 0}

    async def main() -> list[object]:
        writer = Writer(store)
        await writer.run(lambda c: Store.insert_table(c, {"id": "t", **row}))
        writes = [
            writer.run(
                lambda c, i=i: Store.append(c, "t", [LogEntry(i, "sit", {"seat": i})], {"last_seq": i})
            )
            for i in (1, 2, 2, 3)  # the second 2 breaks the log's primary key
        ]
        results = await asyncio.gather(*writes, return_exceptions=True)
        writer.close()
        return results

    results = asyncio.run(main())
    assert [isinstance(r, IntegrityError) for r in results] == [False, False, True, False]
    assert [e.seq for e in store.log("t")] == [1, 2, 3]


def test_appends_waiting_together_are_written_together_and_a_refused_one_alone(tmp_path: Path) -> None:
    """Issue 24 item 9: the appends of the tables that moved while the writer was busy are one
    INSERT of every log line and one UPDATE run over every row (two statements, not two per
    table); an append its ``write_all`` refuses fails alone."""
    import threading

    from sqlalchemy import event

    store = Store.open(f"sqlite:///{tmp_path / 'w.sqlite3'}")
    row = {"game": "3-5-8", "settings": {}, "public": True, "status": "waiting", "seats": [], "last_seq": 0}
    statements: list[str] = []
    calls: list[list[str]] = []

    def write_all(c: Connection, appends: list[Append]) -> list[ValueError | None]:
        calls.append([a.table_id for a in appends])
        store.append_many(c, [a for a in appends if a.table_id != "refused"])
        return [ValueError("refused") if a.table_id == "refused" else None for a in appends]

    async def main() -> list[object]:
        writer = Writer(store)
        ids = ["a", "b", "refused", "c"]
        await writer.run(lambda c: [Store.insert_table(c, {"id": t, **row}) for t in ids])
        event.listen(store.engine, "before_cursor_execute", lambda *a: statements.append(a[2].split()[0]))
        busy, release = threading.Event(), threading.Event()
        blocker = asyncio.ensure_future(writer.run(lambda c: (busy.set(), release.wait(10))))
        await asyncio.to_thread(busy.wait, 10)  # the writer is busy: the appends wait together
        lines = {t: [LogEntry(1, "start", {}), LogEntry(2, "deal", {"n": i})] for i, t in enumerate(ids)}
        appends = [
            writer.run_together(write_all, Append(t, lines[t], {"last_seq": 2, "status": "playing"}))
            for t in ids
        ]
        await asyncio.sleep(0.1)
        release.set()
        await blocker
        results = await asyncio.gather(*appends, return_exceptions=True)
        writer.close()
        return results

    results = asyncio.run(main())
    assert [type(r).__name__ for r in results] == ["NoneType", "NoneType", "ValueError", "NoneType"]
    assert calls == [["a", "b", "refused", "c"]]
    assert statements == ["INSERT", "UPDATE"]  # and the blocker's nothing
    for t in ("a", "b", "c"):
        assert [e.seq for e in store.log(t)] == [1, 2]
        assert store.table(t)["status"] == "playing"  # type: ignore[index]
    assert store.log("refused") == [] and store.table("refused")["status"] == "waiting"  # type: ignore[index]


def test_the_accounts_migration_keeps_every_guest_token(tmp_path: Path) -> None:
    """0003 moves each player's token hash into ``sessions``: nobody is logged out."""
    from .conftest import make_client

    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    upgrade_to(url, "0002")
    token = "an old guest token from before accounts"
    engine = create_engine(url)
    with engine.begin() as c:
        c.execute(
            text(
                "INSERT INTO players (name, token_hash, created_at) VALUES ('Ani', :h, '2025-01-01 00:00:00')"
            ),
            {"h": hashlib.sha256(token.encode()).hexdigest()},
        )
    engine.dispose()
    with make_client(tmp_path / "old.sqlite3") as client:
        me = client.get("/api/me", headers={"Authorization": f"Bearer {token}"}).json()
        assert me == {"id": 1, "name": "Ani", "username": None, "bars": []}
        with client.app.state.hub.store.engine.connect() as c:
            assert compare_metadata(MigrationContext.configure(c), metadata) == []


def test_the_skeletons_migration_fills_the_accounts_made_before(tmp_path: Path) -> None:
    """0006 computes the skeleton of every existing username, so that a look-alike of an account
    made before it is refused too (issue 22)."""
    from .conftest import PASSWORD, make_client

    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    upgrade_to(url, "0005")
    engine = create_engine(url)
    with engine.begin() as c:
        c.execute(
            text(
                "INSERT INTO players (name, username, username_key, password_hash, created_at) "
                "VALUES ('KATE', 'KATE', 'kate', 'x', '2025-01-01 00:00:00'), "
                "('a guest', NULL, NULL, NULL, '2025-01-01 00:00:00')"
            )
        )
    engine.dispose()
    with make_client(tmp_path / "old.sqlite3") as client:
        answer = client.post("/api/accounts", json={"username": "КАТЕ", "password": PASSWORD})
        assert answer.status_code == 409
        assert answer.json()["message"] == "the username КАТЕ is too like KATE, which is taken"
        with client.app.state.hub.store.engine.connect() as c:
            assert compare_metadata(MigrationContext.configure(c), metadata) == []
            rows = c.execute(text("SELECT name, username_skeleton FROM players ORDER BY id")).all()
    assert [tuple(r) for r in rows] == [("KATE", "kate"), ("a guest", None)]


def upgrade_to(url: str, revision: str) -> None:
    from alembic import command
    from alembic.config import Config

    import blot.store

    config = Config()
    config.set_main_option("script_location", str(Path(blot.store.__file__).parent / "migrations"))
    engine = create_engine(url)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
    engine.dispose()
