"""Persistence of the server (SQLAlchemy Core): players, tables and each table's append-only log
(accounts and sessions: :mod:`blot.store.accounts`; ratings and results: :mod:`blot.store.ratings`;
score sheets: :mod:`blot.store.scoresheets`).

SQLite in the user's data directory by default, PostgreSQL (or any SQLAlchemy URL) by choice.
The schema is created and upgraded by Alembic migrations (:func:`migrate`), run by the server
on every start. All methods here are blocking; the server calls them from worker threads, and
writes go through :class:`Writer`, which commits many tables' appends in one transaction.

The package is split by job (issue 39 item 3): :mod:`blot.store.urls` (where the database is),
:mod:`blot.store.tables` (:class:`Store`: the tables' rows and logs), :mod:`blot.store.migrate`
and :mod:`blot.store.writer`; the names below are kept here because most of the server and the
commands import them from ``blot.store``.
"""

from __future__ import annotations

from blot.paths import data_dir
from blot.store.migrate import migrate
from blot.store.schema import metadata
from blot.store.tables import Append, LogEntry, Store, iso, now
from blot.store.urls import StoreError, default_url, existing_url, safe_url
from blot.store.writer import Writer

__all__ = [
    "Append",
    "LogEntry",
    "Store",
    "StoreError",
    "Writer",
    "data_dir",
    "default_url",
    "existing_url",
    "iso",
    "metadata",
    "migrate",
    "now",
    "safe_url",
]
