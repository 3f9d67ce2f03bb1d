"""The database's one :class:`~sqlalchemy.MetaData`, which every table module of the store
defines its tables on (:mod:`blot.store.schema` gathers them all)."""

from __future__ import annotations

from sqlalchemy import MetaData

metadata = MetaData()
