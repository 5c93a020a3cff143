"""The schema as the releases before migrations left it: tables, seats, moves and snapshots.

A new database gets the four tables. A database made before migrations existed (it has ``hf_tables``
but no ``alembic_version``) keeps its rows: a table missing is created, and the columns added over
those releases (a table's ``public``, ``watch_hash``, ``host_hash`` and ``ended``, a seat's
``stand_in``; all nullable, so old rows read back with NULL there) are added where missing. Every later
change to the schema is a revision of its own after this one.

Revision ID: 0001
Revises:
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _tables() -> list[tuple[str, list[sa.Column[object]], list[sa.Constraint], set[str]]]:
    """Each table as this revision makes it: its name, columns, constraints, and the names of the
    columns that earlier releases added to an existing table (nullable ones)."""
    return [
        (
            "hf_tables",
            [
                sa.Column("id", sa.String(32), primary_key=True),
                sa.Column("created_at", sa.String(40), nullable=False),
                sa.Column("rules_source", sa.Text, nullable=False),
                sa.Column("players", sa.Integer, nullable=False),
                sa.Column("seed", sa.BigInteger, nullable=False),
                sa.Column("dealer", sa.Integer, nullable=False),
                sa.Column("finished", sa.Boolean, nullable=False),
                sa.Column("public", sa.Boolean, nullable=True),
                sa.Column("watch_hash", sa.String(64), nullable=True),
                sa.Column("host_hash", sa.String(64), nullable=True),
                sa.Column("ended", sa.String(16), nullable=True),
            ],
            [],
            {"public", "watch_hash", "host_hash", "ended"},
        ),
        (
            "hf_seats",
            [
                sa.Column("table_id", sa.String(32), sa.ForeignKey("hf_tables.id"), primary_key=True),
                sa.Column("seat", sa.Integer, primary_key=True),
                sa.Column("kind", sa.String(16), nullable=False),
                sa.Column("bot", sa.String(64), nullable=True),
                sa.Column("token_hash", sa.String(64), nullable=True),
                sa.Column("name", sa.String(64), nullable=True),
                sa.Column("stand_in", sa.String(64), nullable=True),
            ],
            [],
            {"stand_in"},
        ),
        (
            "hf_moves",
            [
                sa.Column("table_id", sa.String(32), sa.ForeignKey("hf_tables.id"), nullable=False),
                sa.Column("seq", sa.Integer, nullable=False),
                sa.Column("seat", sa.Integer, nullable=False),
                sa.Column("move", sa.Text, nullable=False),
                sa.Column("at", sa.String(40), nullable=False),
            ],
            [sa.PrimaryKeyConstraint("table_id", "seq", name="hf_moves_table_seq_key")],
            set(),
        ),
        (
            "hf_snapshots",
            [
                sa.Column("table_id", sa.String(32), sa.ForeignKey("hf_tables.id"), primary_key=True),
                sa.Column("version", sa.Integer, primary_key=True),
                sa.Column("data", sa.Text, nullable=False),
                sa.Column("at", sa.String(40), nullable=False),
            ],
            [],
            set(),
        ),
    ]


def upgrade() -> None:
    have = sa.inspect(op.get_bind())
    existing = set(have.get_table_names())
    for name, columns, constraints, added in _tables():
        if name not in existing:
            op.create_table(name, *columns, *constraints)
            continue
        present = {column["name"] for column in have.get_columns(name)}
        for column in columns:
            if column.name in added and column.name not in present:
                op.add_column(name, column)


def downgrade() -> None:
    for name, _columns, _constraints, _added in reversed(_tables()):
        op.drop_table(name)
