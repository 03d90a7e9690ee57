"""The engine for the configured URL, and Alembic's upgrade to the newest schema."""

from __future__ import annotations

import fcntl
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, event, make_url

from taumesh.api.private_files import private_file, tighten

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
MIGRATION_LOCK_KEY = 0x7461756D657368
"""PostgreSQL advisory lock key that API replicas migrating one database take in turn ("taumesh" in ASCII)."""


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets its file (0600), WAL, foreign keys and a generous busy timeout.

    WAL and the timeout let several uvicorn workers write the same file without "database is locked". The file is
    created before SQLite opens it, so that neither it nor its ``-wal`` and ``-shm`` (which SQLite gives the
    database's mode) are ever readable by others; found wider, they are tightened (:mod:`taumesh.api.private_files`).
    """
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True)
    if parsed.database and parsed.database != ":memory:" and not parsed.database.startswith("file:"):
        database = Path(parsed.database)
        private_file(database)
        for suffix in ("-wal", "-shm", "-journal"):
            tighten(database.with_name(database.name + suffix))
    engine = create_engine(url, connect_args={"timeout": 30})

    @event.listens_for(engine, "connect")
    def _pragmas(connection: Any, _record: Any) -> None:
        cursor = connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    return engine


def migrate(engine: Engine) -> None:
    """Bring the database to the newest revision (no-op when it is there already).

    Replicas starting together (a Deployment's pods, several uvicorn workers) take turns: unserialized, two created
    Alembic's version table at once and one failed to start (``table alembic_version already exists``); the one
    after the first finds the database at the newest revision and changes nothing.
    """
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.connect() as connection, _one_migrator_at_a_time(connection):
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:  # SQLite alters a table by rebuilding it: dropping the old one must not cascade to its children
            _foreign_keys(connection, on=False)
        try:
            with connection.begin():
                config.attributes["connection"] = connection
                command.upgrade(config, "head")
        finally:
            if sqlite:
                _foreign_keys(connection, on=True)


def _foreign_keys(connection: Connection, *, on: bool) -> None:
    """Switch SQLite's foreign-key enforcement (a no-op inside a transaction, so outside one)."""
    connection.exec_driver_sql(f"PRAGMA foreign_keys={'ON' if on else 'OFF'}")
    connection.commit()


@contextmanager
def _one_migrator_at_a_time(connection: Connection) -> Iterator[None]:
    """Hold the database's migration lock: PostgreSQL's advisory lock, or a lock file beside an SQLite file."""
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql(f"SELECT pg_advisory_lock({MIGRATION_LOCK_KEY})")
        connection.commit()
        try:
            yield
        finally:
            connection.exec_driver_sql(f"SELECT pg_advisory_unlock({MIGRATION_LOCK_KEY})")
            connection.commit()
        return
    database = connection.engine.url.database if connection.dialect.name == "sqlite" else None
    if not database or database == ":memory:" or database.startswith("file:"):
        yield  # one process alone reaches it
        return
    lock = Path(database).with_name(Path(database).name + ".migrate-lock")
    private_file(lock)
    with lock.open("a") as handle:  # flock: every process of this kernel (containers sharing a volume too)
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
