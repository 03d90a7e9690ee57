"""Runs belong to the key that created them; admin keys see every run.

Runs stored before this revision get no owner (``owner_key_id`` NULL): only admin keys see them. Their
``key_id`` stays as it was, a record of who sent the request, not a grant.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``runs.owner_key_id`` (NULL for existing runs) and ``api_keys.admin`` (false for existing keys)."""
    op.add_column("runs", sa.Column("owner_key_id", sa.String(40), nullable=True))
    op.create_index("ix_runs_owner_key_id", "runs", ["owner_key_id"])
    op.add_column("api_keys", sa.Column("admin", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    """Drop both columns."""
    with op.batch_alter_table("api_keys") as batch:
        batch.drop_column("admin")
    op.drop_index("ix_runs_owner_key_id", table_name="runs")
    with op.batch_alter_table("runs") as batch:
        batch.drop_column("owner_key_id")
