"""The API's database tables (SQLAlchemy 2 declarative); Alembic migrations in ``migrations/`` create them."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, Float, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utcnow() -> datetime:
    """Now, in UTC."""
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """Declarative base of the API's tables."""


class RunRow(Base):
    """A benchmark run requested over the API and its state; which worker holds it is the work store's lease."""

    __tablename__ = "runs"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    """queued, running, completed, failed or cancelled."""
    env: Mapped[str] = mapped_column(String(100), index=True)
    model: Mapped[str] = mapped_column(String(200), index=True)
    """The agent's model name, or its strategy when it has none (``oracle``): what ``/scores?model=`` matches."""
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The orchestrator's RunConfig as JSON."""
    request: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The request as the caller sent it (validated), returned as ``config_used``."""
    key_id: Mapped[str | None] = mapped_column(String(40))
    """The key that sent the request (recorded since the first schema)."""
    owner_key_id: Mapped[str | None] = mapped_column(String(40), index=True)
    """The key the run belongs to: only it (and admin keys) see the run. None: a run from before owners
    (migration 0002), visible to admin keys only."""
    total_episodes: Mapped[int | None] = mapped_column(Integer)
    metrics: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class ResultRow(Base):
    """One finished episode of a run: at most one per (run, task, trial)."""

    __tablename__ = "results"
    __table_args__ = (UniqueConstraint("run_id", "task_id", "trial", name="uq_results_run_task_trial"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    run_id: Mapped[str] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), index=True)
    task_id: Mapped[str] = mapped_column(String(100))
    trial: Mapped[int] = mapped_column(Integer)
    reward: Mapped[float | None] = mapped_column(Float)
    cost_usd: Mapped[float] = mapped_column(Float, default=0.0)
    info: Mapped[dict[str, Any]] = mapped_column(JSON)
    traj: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class EventRow(Base):
    """A progress event of a run, streamed by ``GET /api/v1/runs/{id}/events`` in id order."""

    __tablename__ = "events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    run_id: Mapped[str] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), index=True)
    type: Mapped[str] = mapped_column(String(32))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ApiKeyRow(Base):
    """An API key: its public id and the SHA-256 of the whole token, never the token."""

    __tablename__ = "api_keys"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    token_sha256: Mapped[str] = mapped_column(String(64))
    admin: Mapped[bool] = mapped_column(Boolean, default=False)
    """An admin key sees every run, whoever owns it."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
