"""Runs, results, events and API keys.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the four tables."""
    tz = sa.DateTime(timezone=True)
    op.create_table(
        "runs",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("env", sa.String(100), nullable=False, index=True),
        sa.Column("model", sa.String(200), nullable=False, index=True),
        sa.Column("config", sa.JSON, nullable=False),
        sa.Column("request", sa.JSON, nullable=False),
        sa.Column("key_id", sa.String(40)),
        sa.Column("total_episodes", sa.Integer),
        sa.Column("metrics", sa.JSON),
        sa.Column("error", sa.Text),
        sa.Column("created_at", tz, nullable=False),
        sa.Column("started_at", tz),
        sa.Column("finished_at", tz),
        sa.Column("lease_owner", sa.String(80)),
        sa.Column("lease_expires_at", tz),
    )
    op.create_table(
        "results",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("run_id", sa.String(40), sa.ForeignKey("runs.id", ondelete="CASCADE"), nullable=False, index=True),
        sa.Column("task_id", sa.String(100), nullable=False),
        sa.Column("trial", sa.Integer, nullable=False),
        sa.Column("reward", sa.Float),
        sa.Column("cost_usd", sa.Float, nullable=False),
        sa.Column("info", sa.JSON, nullable=False),
        sa.Column("traj", sa.JSON, nullable=False),
        sa.Column("created_at", tz, nullable=False),
        sa.UniqueConstraint("run_id", "task_id", "trial", name="uq_results_run_task_trial"),
    )
    op.create_table(
        "events",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("run_id", sa.String(40), sa.ForeignKey("runs.id", ondelete="CASCADE"), nullable=False, index=True),
        sa.Column("type", sa.String(32), nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("created_at", tz, nullable=False),
    )
    op.create_table(
        "api_keys",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("token_sha256", sa.String(64), nullable=False),
        sa.Column("created_at", tz, nullable=False),
        sa.Column("revoked_at", tz),
    )


def downgrade() -> None:
    """Drop the four tables."""
    for table in ("api_keys", "events", "results", "runs"):
        op.drop_table(table)
