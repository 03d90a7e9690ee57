"""API replicas starting together migrate one database in turn: none fails on a table another just created.

A Deployment's API pods (and several uvicorn workers) each migrate at start. Unserialized, two created Alembic's
version table at once and one pod failed (``table alembic_version already exists``), seen when the deploy tier
started the scale-out overlay's two API replicas on one claim.
"""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import pytest
import sqlalchemy

from taumesh.api.database import make_engine, migrate
from tests.helpers.api import create_database, running_postgres

MIGRATORS = 6


def _migrate_after(url: str, start: multiprocessing.synchronize.Barrier) -> None:
    engine = make_engine(url)
    start.wait()
    migrate(engine)
    engine.dispose()


def migrate_together(url: str) -> list[int | None]:
    """``MIGRATORS`` processes, released at once, each migrating ``url``; their exit codes.

    Forked from a fork server that imported this module once (single-threaded, unlike pytest's process): spawned,
    each of the six imported alembic, SQLAlchemy and the test helpers again, ~1.5 s of CPU apiece.
    """
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([__name__])
    start = context.Barrier(MIGRATORS)
    processes = [context.Process(target=_migrate_after, args=(url, start)) for _ in range(MIGRATORS)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(timeout=120)
    return [process.exitcode for process in processes]


def tables(url: str) -> set[str]:
    engine = make_engine(url)
    try:
        return set(sqlalchemy.inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_sqlite_replicas_migrate_one_file_in_turn(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'api.sqlite3'}"
    assert migrate_together(url) == [0] * MIGRATORS
    assert "alembic_version" in tables(url)


@pytest.mark.slow
def test_postgresql_replicas_migrate_one_database_in_turn() -> None:
    with running_postgres() as postgres:
        url = create_database(postgres, "migrate_together")
        assert migrate_together(url) == [0] * MIGRATORS
        assert "alembic_version" in tables(url)
