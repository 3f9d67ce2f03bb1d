"""Creating and upgrading the schema with Alembic (issue 39 item 3: the store's migrations), on
every start of the server; one process of a cluster migrates while the others wait."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Engine, inspect, text

if TYPE_CHECKING:
    from alembic.config import Config

#: The advisory lock that keeps two processes from migrating one PostgreSQL database at once.
MIGRATION_LOCK = 0x626C6F75


def migrate(engine: Engine) -> None:
    """Create or upgrade the schema to the newest Alembic revision.

    On SQLite, a migration that changes a table rebuilds it (Alembic's batch mode), which
    foreign keys would refuse: they are off while the migrations run, and checked after."""
    from alembic import command

    if _at_head(engine):
        return
    config = _config()
    sqlite = engine.dialect.name == "sqlite"
    with engine.connect() as connection:
        if sqlite:
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        try:
            with connection.begin():
                if engine.dialect.name == "postgresql":
                    # processes of a cluster start together: one migrates, the others wait for it
                    connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
                config.attributes["connection"] = connection
                command.upgrade(config, "head")
                if sqlite:
                    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
                    if broken:
                        raise RuntimeError(f"the migrated database breaks its foreign keys: {broken[:5]}")
        finally:
            if sqlite:
                connection.exec_driver_sql("PRAGMA foreign_keys=ON")
                connection.commit()


def _config() -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    return config


@cache
def _head() -> str | None:
    """The newest revision, read from the migration scripts once a process: reading them all
    costs tens of milliseconds, which every open of a current database (each test's server, each
    ``blot admin`` command) paid for nothing."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(_config()).get_current_head()


def _at_head(engine: Engine) -> bool:
    """Whether the database already stands at the newest revision (nothing to do; a migration
    finished by another process is committed before its revision is)."""
    with engine.connect() as connection:
        if not inspect(connection).has_table("alembic_version"):
            return False
        versions = connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    return versions == [_head()]
