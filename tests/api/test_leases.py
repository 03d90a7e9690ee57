"""Run leases in the real database (SQLite and PostgreSQL), the work store's in the API's tables: one claimant wins,
an expired lease is taken over, a cancelled run cannot be claimed and its episodes are gone."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from taumesh.api.database import make_engine, migrate
from taumesh.api.store import Store
from taumesh.api.tables import RunRow
from tests.helpers.clock import FakeClock


def queued_run(store: Store) -> str:
    row = RunRow(
        id=uuid.uuid4().hex,
        status="queued",
        env="retail",
        model="oracle",
        config={},
        request={},
        created_at=datetime.now(UTC),
    )
    return store.create_run(row).id


def test_one_worker_wins_the_claim_and_an_expired_lease_is_taken_over(database_url: str) -> None:
    engine = make_engine(database_url)
    migrate(engine)
    migrate(engine)  # a second start finds nothing to do
    clock = FakeClock()
    store = Store(engine, clock=clock)
    run_id = queued_run(store)
    assert run_id in store.claimable("worker-a") and run_id in store.claimable("worker-b")

    assert store.claim(run_id, "worker-a", ttl=0.5)
    assert not store.claim(run_id, "worker-b", ttl=0.5)
    assert run_id not in store.claimable("worker-b")
    assert store.renew(run_id, "worker-a", ttl=0.5) and not store.renew(run_id, "worker-b", ttl=0.5)
    row = store.get_run(run_id)
    assert row is not None and row.status == "running" and store.work.holds_run(run_id, "worker-a")

    clock.advance(0.49)
    assert run_id not in store.claimable("worker-b") and not store.claim(run_id, "worker-b", ttl=30)
    clock.advance(0.02)  # worker-a stopped renewing (crashed)
    assert run_id in store.claimable("worker-b")
    assert store.claim(run_id, "worker-b", ttl=30)
    assert not store.renew(run_id, "worker-a", ttl=0.5)  # worker-a learns it lost the run
    assert not store.finish(run_id, "worker-a", "completed")
    assert store.finish(run_id, "worker-b", "completed")
    assert run_id not in store.claimable("worker-c")


def test_cancelled_run_cannot_be_claimed_or_finished(database_url: str) -> None:
    store = Store(make_engine(database_url))
    migrate(store.engine)
    run_id = queued_run(store)
    assert store.claim(run_id, "worker-a", ttl=30)
    store.work.add_run(run_id, [("0", 0), ("1", 0)])
    assert [c.seq for c in store.work.claim(run_id, "worker-a:episodes", 2, ttl=30)] == [0, 1]
    cancelled = store.cancel(run_id)
    assert cancelled is not None and cancelled.status == "cancelled"
    assert not store.renew(run_id, "worker-a", ttl=30)
    assert not store.finish(run_id, "worker-a", "completed")
    assert not store.claim(run_id, "worker-b", ttl=30)
    assert not store.work.complete(run_id, "worker-a:episodes", 0, "{}")  # nothing left to record
    assert store.work.counts(run_id) == (0, 0)


def test_the_migrations_build_the_schema_the_tables_and_the_work_store_declare(database_url: str) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from taumesh.api.tables import Base
    from taumesh.orchestrator.scale.work_store import metadata as work_store

    engine = make_engine(database_url)
    migrate(engine)
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        differences = compare_metadata(context, [Base.metadata, work_store])
    assert [d for d in differences if d[0] != "remove_table" or d[1].name != "alembic_version"] == []


def test_migration_0003_downgrades_and_upgrades_again(database_url: str) -> None:
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import inspect

    from taumesh.api.database import MIGRATIONS

    engine = make_engine(database_url)
    migrate(engine)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0002")
    inspector = inspect(engine)
    assert {"lease_owner", "lease_expires_at"} <= {c["name"] for c in inspector.get_columns("runs")}
    assert "work_runs" not in inspector.get_table_names()
    migrate(engine)
    store = Store(engine)
    run_id = queued_run(store)
    assert store.claim(run_id, "worker-a", ttl=30)  # the work store's tables are back
    engine.dispose()
