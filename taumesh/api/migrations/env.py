"""Alembic environment: migrates the connection :func:`taumesh.api.database.migrate` hands over."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from taumesh.api.tables import Base
from taumesh.orchestrator.scale.work_store import metadata as work_store

connection: Connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=[Base.metadata, work_store], render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
