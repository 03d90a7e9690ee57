"""The run leases move into the one work store: its tables join the API's database.

A run's lease (its coordinator's, one executor of one uvicorn worker) is ``work_runs``' row, and its episodes are
leased from ``work_episodes``, as ``taumesh run --workers``'s are (:mod:`taumesh.orchestrator.scale.work_store`).
``runs.lease_owner`` and ``runs.lease_expires_at`` go: a run leased when the database is upgraded is taken over by
the next executor, its stored results kept.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``work_runs`` and ``work_episodes`` as the work store declares them; drop the runs' lease columns."""
    op.create_table(
        "work_runs",
        sa.Column("run_id", sa.String(80), primary_key=True),
        sa.Column("spec", sa.Text, nullable=True),
        sa.Column("owner", sa.String(200), nullable=True),
        sa.Column("lease_expires", sa.Float, nullable=True),
        sa.Column("recorded", sa.Integer, nullable=False),
    )
    op.create_table(
        "work_episodes",
        sa.Column("run_id", sa.String(80), sa.ForeignKey("work_runs.run_id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("task_id", sa.String(100), nullable=False),
        sa.Column("trial", sa.Integer, nullable=False),
        sa.Column("owner", sa.String(200), nullable=True),
        sa.Column("lease_expires", sa.Float, nullable=True),
        sa.Column("claims", sa.Integer, nullable=False),
        sa.Column("result", sa.Text, nullable=True),
        sa.Column("finished", sa.Integer, nullable=True),
    )
    op.create_index("ix_work_episodes_finished", "work_episodes", ["run_id", "finished"])
    op.create_index("ix_work_episodes_owner", "work_episodes", ["owner"])
    with op.batch_alter_table("runs") as batch:
        batch.drop_column("lease_expires_at")
        batch.drop_column("lease_owner")


def downgrade() -> None:
    """Give the runs their lease columns back (every run unleased) and drop the work store's tables."""
    with op.batch_alter_table("runs") as batch:
        batch.add_column(sa.Column("lease_owner", sa.String(80)))
        batch.add_column(sa.Column("lease_expires_at", sa.DateTime(timezone=True)))
    op.drop_index("ix_work_episodes_owner", table_name="work_episodes")
    op.drop_index("ix_work_episodes_finished", table_name="work_episodes")
    op.drop_table("work_episodes")
    op.drop_table("work_runs")
