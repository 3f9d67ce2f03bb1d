"""Alembic's environment: run the migrations on the connection that :func:`blot.store.migrate`
hands over (there is no alembic.ini; the server migrates its database itself on start)."""

from __future__ import annotations

from alembic import context

from blot.store.schema import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
