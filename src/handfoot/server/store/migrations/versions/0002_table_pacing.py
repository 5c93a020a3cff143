"""A table's pacing: the host's longest wait for people reading a finished hand's score
(``read_seconds``; NULL: the default) and whether the first hand waits for the invited people
(``waits``; NULL: it does not, as for every table made before this revision).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("hf_tables", sa.Column("read_seconds", sa.Integer, nullable=True))
    op.add_column("hf_tables", sa.Column("waits", sa.Boolean, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("hf_tables") as batch:
        batch.drop_column("waits")
        batch.drop_column("read_seconds")
