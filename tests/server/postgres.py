"""A fresh PostgreSQL database per test or module, on the server ``BLOT_TEST_POSTGRES_URL`` names
(its user may create databases; .ci/run starts one), dropped afterwards."""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

SERVER = os.environ.get("BLOT_TEST_POSTGRES_URL")


@contextmanager
def fresh_database() -> Iterator[str]:
    from sqlalchemy import create_engine, exc, text
    from sqlalchemy.engine import make_url

    assert SERVER is not None
    name = f"blot_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(SERVER, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(SERVER).set(database=name).render_as_string(hide_password=False)
    finally:
        # FORCE ends the test's own sessions left open; a session of another role (a background
        # worker of the server's) cannot be ended so and is waited for: the database is dropped
        # once it has gone, or left behind (a test database, not a failure of the test)
        for attempt in range(10):
            try:
                with admin.connect() as c:
                    c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
                break
            except exc.ProgrammingError:
                time.sleep(0.5 * (attempt + 1))
        admin.dispose()
