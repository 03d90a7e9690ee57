"""The engine for the configured URL, and Alembic's upgrade to the newest schema."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, event, make_url

from taumesh.api.private_files import private_file, tighten

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


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
    """Bring the database to the newest revision (no-op when it is there already)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.connect() as connection:
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
