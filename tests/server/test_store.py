"""The database: Alembic migrations agree with the schema, the log is append-only, the writer
commits in groups and fails one write alone."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy.exc import IntegrityError

from blot.store import LogEntry, Store, Writer, default_url
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
