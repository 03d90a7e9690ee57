"""The work store's shared ``--provider-limit``: the workers of a run and the call slots they lease.

``work_workers`` holds each live worker's heartbeat and its model-call figures; ``work_permits`` holds one row per
call slot of a provider's cap, leased to a worker as episodes are (:mod:`taumesh.orchestrator.scale.work_store`).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``work_workers`` and ``work_permits`` as the work store declares them."""
    op.create_table(
        "work_workers",
        sa.Column("run_id", sa.String(80), sa.ForeignKey("work_runs.run_id", ondelete="CASCADE"), primary_key=True),
        sa.Column("owner", sa.String(200), primary_key=True),
        sa.Column("lease_expires", sa.Float, nullable=True),
        sa.Column("stats", sa.Text, nullable=True),
    )
    op.create_table(
        "work_permits",
        sa.Column("run_id", sa.String(80), sa.ForeignKey("work_runs.run_id", ondelete="CASCADE"), primary_key=True),
        sa.Column("provider", sa.String(100), primary_key=True),
        sa.Column("slot", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("owner", sa.String(200), nullable=True),
        sa.Column("lease_expires", sa.Float, nullable=True),
    )
    op.create_index("ix_work_permits_owner", "work_permits", ["owner"])


def downgrade() -> None:
    """Drop the workers' and the call slots' tables."""
    op.drop_index("ix_work_permits_owner", table_name="work_permits")
    op.drop_table("work_permits")
    op.drop_table("work_workers")
