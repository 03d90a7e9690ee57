"""Every read and write of the API's database: runs and their leases, results, events, API keys."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import ColumnElement, Engine, and_, func, or_, select, true, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from taumesh.api.caller import Caller
from taumesh.api.tables import ApiKeyRow, EventRow, ResultRow, RunRow, utcnow
from taumesh.orchestrator.results.figures import run_usage
from taumesh.orchestrator.results.records import RunResult
from taumesh.orchestrator.scale.work_store import Clock, WorkStore, work_runs

ACTIVE = ("queued", "running")
"""Statuses of a run that still has work to do."""
TERMINAL = ("completed", "failed", "cancelled")
KEY_PREFIX = "tmk_"
NO_TOKEN = ""
"""The digest of a key no token names: a SHA-256 is 64 hex digits, never empty."""


def as_utc(moment: datetime | None) -> datetime | None:
    """SQLite returns naive datetimes: they were written in UTC."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


def token_digest(token: str) -> str:
    """The SHA-256 (hex) that identifies a token in the database."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Store:
    """The API's database, one short transaction per call (safe from several threads and processes)."""

    def __init__(self, engine: Engine, clock: Clock = time.time) -> None:
        self.engine = engine
        self.sessions = sessionmaker(engine, expire_on_commit=False)
        self.work = WorkStore(engine=engine, clock=clock)
        """The runs' leases and their episodes' (the one work store, its tables created by the migrations)."""

    def session(self) -> Session:
        return self.sessions()

    # runs

    def create_run(self, row: RunRow) -> RunRow:
        with self.session() as session, session.begin():
            session.add(row)
        return row

    def get_run(self, run_id: str) -> RunRow | None:
        """The run, whoever owns it (the executor's view; routes use :meth:`visible_run`)."""
        with self.session() as session:
            return session.get(RunRow, run_id)

    def visible_run(self, run_id: str, caller: Caller) -> RunRow | None:
        """The run if ``caller`` may see it (its owner, or an admin key); None otherwise, as for no run at all."""
        with self.session() as session:
            return session.scalar(select(RunRow).where(RunRow.id == run_id, visible_to(caller)))

    def list_runs(self, caller: Caller, limit: int, offset: int, status: str | None = None) -> tuple[list[RunRow], int]:
        """A page of the runs ``caller`` may see, newest first, and how many there are in all."""
        where = [visible_to(caller), *([RunRow.status == status] if status else [])]
        with self.session() as session:
            total = session.scalar(select(func.count()).select_from(RunRow).where(*where)) or 0
            rows = session.scalars(
                select(RunRow).where(*where).order_by(RunRow.created_at.desc(), RunRow.id).limit(limit).offset(offset)
            )
            return list(rows), total

    def latest_run(
        self, caller: Caller, models: Iterable[str], env: str, accept: Callable[[RunRow], bool] | None = None
    ) -> RunRow | None:
        """The newest completed run of ``caller``'s on ``env`` with a model label in ``models`` (``accept`` taking it).

        ``caller``'s runs: its own, or all for an admin key.
        """
        with self.session() as session:
            rows = session.scalars(
                select(RunRow)
                .where(
                    RunRow.model.in_(list(models)),
                    RunRow.env == env,
                    RunRow.status == "completed",
                    visible_to(caller),
                )
                .order_by(RunRow.finished_at.desc())
            )
            return next((row for row in rows if accept is None or accept(row)), None)

    # leases: the work store's run leases (:mod:`taumesh.orchestrator.scale.work_store`), on this database

    def claimable(self, owner: str) -> list[str]:
        """Ids of unfinished runs whose lease is free, expired or already ours, oldest first."""
        lease = work_runs.c
        free = or_(lease.owner.is_(None), lease.owner == owner, lease.lease_expires < self.work.clock())
        with self.session() as session:
            rows = session.scalars(
                select(RunRow.id)
                .outerjoin(work_runs, lease.run_id == RunRow.id)
                .where(RunRow.status.in_(ACTIVE), free)
                .order_by(RunRow.created_at)
            )
            return list(rows)

    def claim(self, run_id: str, owner: str, ttl: float) -> bool:
        """Take the run's lease (of several workers, exactly one wins) and mark the run running."""
        if not self.work.claim_run(run_id, owner, ttl):
            return False
        with self.session() as session, session.begin():
            started = session.execute(
                update(RunRow)
                .where(RunRow.id == run_id, RunRow.status.in_(ACTIVE))
                .values(status="running", started_at=func.coalesce(RunRow.started_at, utcnow()))
                .execution_options(synchronize_session=False)
            )
        if started.rowcount != 1:  # type: ignore[attr-defined]
            self.work.delete_run(run_id)  # finished or cancelled meanwhile: nothing to lease
            return False
        return True

    def renew(self, run_id: str, owner: str, ttl: float) -> bool:
        """Extend our lease; False when the run was cancelled, finished or taken over."""
        row = self.get_run(run_id)
        return row is not None and row.status == "running" and self.work.renew_run(run_id, owner, ttl)

    def release(self, run_id: str, owner: str) -> None:
        """Give the lease up (a worker shutting down): another worker, or the next start, resumes the run."""
        self.work.release_run(run_id, owner)

    def set_total(self, run_id: str, total: int) -> None:
        with self.session() as session, session.begin():
            session.execute(update(RunRow).where(RunRow.id == run_id).values(total_episodes=total))

    def finish(
        self, run_id: str, owner: str, status: str, metrics: dict[str, Any] | None = None, error: str | None = None
    ) -> bool:
        """Record the run's end and drop its lease and episodes, unless it ended meanwhile or is not ours."""
        if not self.work.holds_run(run_id, owner):
            return False
        with self.session() as session, session.begin():
            done = session.execute(
                update(RunRow)
                .where(RunRow.id == run_id, RunRow.status == "running")
                .values(status=status, metrics=metrics, error=error, finished_at=utcnow())
                .execution_options(synchronize_session=False)
            )
        ended = bool(done.rowcount == 1)  # type: ignore[attr-defined]
        if ended:
            self.work.delete_run(run_id)  # its results are in ``results`` now
        return ended

    def cancel(self, run_id: str) -> RunRow | None:
        """Mark an unfinished run cancelled (its worker notices at its next lease renewal)."""
        with self.session() as session, session.begin():
            cancelled = session.execute(
                update(RunRow)
                .where(RunRow.id == run_id, RunRow.status.in_(ACTIVE))
                .values(status="cancelled", finished_at=utcnow())
                .execution_options(synchronize_session=False)
            )
            row = session.get(RunRow, run_id)
        if cancelled.rowcount == 1:  # type: ignore[attr-defined]
            self.work.delete_run(run_id)  # the episodes in flight find nothing to record
        return row

    # results and events

    def add_result(self, run_id: str, result: RunResult) -> bool:
        """Store an episode's result; False (nothing written) when that (task, trial) is stored already."""
        agent, user = run_usage([result])  # interrupted attempts' spend included
        row = ResultRow(
            run_id=run_id,
            task_id=str(result.task_id),
            trial=result.trial,
            reward=result.reward,
            cost_usd=agent.cost_usd + user.cost_usd,
            info=result.info,
            traj=result.traj,
        )
        try:
            with self.session() as session, session.begin():
                session.add(row)
        except IntegrityError:
            return False
        return True

    def results(self, run_id: str, limit: int | None = None, offset: int = 0) -> list[ResultRow]:
        with self.session() as session:
            query = select(ResultRow).where(ResultRow.run_id == run_id).order_by(ResultRow.id).offset(offset)
            return list(session.scalars(query.limit(limit) if limit is not None else query))

    def rewards_and_costs(self, run_id: str) -> list[tuple[float | None, float]]:
        """(reward, cost) of every stored episode: what progress events aggregate."""
        with self.session() as session:
            rows = session.execute(select(ResultRow.reward, ResultRow.cost_usd).where(ResultRow.run_id == run_id))
            return [(reward, cost) for reward, cost in rows]

    def outcomes(self, run_id: str) -> list[tuple[str, float | None, float]]:
        """(task id, reward, cost) of every stored episode: what a run's metrics count."""
        with self.session() as session:
            rows = session.execute(
                select(ResultRow.task_id, ResultRow.reward, ResultRow.cost_usd).where(ResultRow.run_id == run_id)
            )
            return [(task_id, reward, cost) for task_id, reward, cost in rows]

    def result_count(self, run_id: str) -> int:
        with self.session() as session:
            count = session.scalar(select(func.count()).select_from(ResultRow).where(ResultRow.run_id == run_id))
            return count or 0

    def add_event(self, run_id: str, kind: str, data: dict[str, Any]) -> None:
        with self.session() as session, session.begin():
            session.add(EventRow(run_id=run_id, type=kind, data=data))

    def events_after(self, run_id: str, after: int) -> list[EventRow]:
        with self.session() as session:
            return list(
                session.scalars(
                    select(EventRow).where(and_(EventRow.run_id == run_id, EventRow.id > after)).order_by(EventRow.id)
                )
            )

    # API keys

    def create_key(self, name: str, admin: bool = False) -> tuple[ApiKeyRow, str]:
        """A new key and its token (``tmk_<id>.<secret>``), shown once: only its SHA-256 is stored.

        An ``admin`` key sees every run; any other key sees only the runs it created.
        """
        key_id = KEY_PREFIX + secrets.token_hex(6)
        token = f"{key_id}.{secrets.token_urlsafe(32)}"
        row = ApiKeyRow(id=key_id, name=name, token_sha256=token_digest(token), admin=admin)
        with self.session() as session, session.begin():
            session.add(row)
        return row, token

    def list_keys(self) -> Sequence[ApiKeyRow]:
        with self.session() as session:
            return list(session.scalars(select(ApiKeyRow).order_by(ApiKeyRow.created_at)))

    def revoke_key(self, key_id: str) -> bool:
        with self.session() as session, session.begin():
            revoked = session.execute(
                update(ApiKeyRow)
                .where(ApiKeyRow.id == key_id, ApiKeyRow.revoked_at.is_(None))
                .values(revoked_at=utcnow())
                .execution_options(synchronize_session=False)
            )
            return bool(revoked.rowcount == 1)  # type: ignore[attr-defined]

    def ensure_tokenless_key(self, key_id: str, name: str) -> None:
        """Create the key ``key_id`` unless it exists (revoked or not): a non-admin key that no token matches.

        Local mode's key (:mod:`taumesh.api.local_mode`); several workers may create it at once, one succeeds.
        """
        with self.session() as session:
            if session.get(ApiKeyRow, key_id) is not None:
                return
        try:
            with self.session() as session, session.begin():
                session.add(ApiKeyRow(id=key_id, name=name, token_sha256=NO_TOKEN, admin=False))
        except IntegrityError:
            pass  # another worker created it between the read and the write

    def active_key(self, key_id: str) -> Caller | None:
        """The caller of the key ``key_id`` unless it is missing or revoked (no token: local mode's key)."""
        with self.session() as session:
            row = session.get(ApiKeyRow, key_id)
        if row is None or row.revoked_at is not None:
            return None
        return Caller(key_id=key_id, admin=row.admin)

    def verify_key(self, token: str) -> Caller | None:
        """The caller of a valid, unrevoked token; None otherwise (compared in constant time)."""
        key_id, _, _ = token.partition(".")
        if not key_id.startswith(KEY_PREFIX):
            return None
        with self.session() as session:
            row = session.get(ApiKeyRow, key_id)
        if row is None or row.revoked_at is not None:
            return None
        if not hmac.compare_digest(row.token_sha256, token_digest(token)):
            return None
        return Caller(key_id=key_id, admin=row.admin)


def visible_to(caller: Caller) -> ColumnElement[bool]:
    """The runs ``caller`` may see: all for an admin key, its own for any other (never a run without owner)."""
    return true() if caller.admin else RunRow.owner_key_id == caller.key_id
