"""Clocks: the time each action took, and each game's clock (its control, where it stands).

Revision ID: 0004
Revises: 0003

``actions.spent`` (NULL for the actions before it) and table ``clocks`` (one row per game
with a clock; see :mod:`frontlines.web.play.clocks`). The games table is left alone: on
SQLite a column is dropped by copying the table, and dropping the old ``games`` would take
every action with it (their foreign key cascades).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.add_column(sa.Column("spent", sa.Float, nullable=True))
    op.create_table(
        "clocks",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("control", sa.String(16), nullable=False),
        sa.Column("ply", sa.Integer, nullable=False),
        sa.Column("since", sa.Float, nullable=False),
        sa.Column("left0", sa.Float, nullable=True),
        sa.Column("left1", sa.Float, nullable=True),
        sa.Column("running", sa.Integer, nullable=True),
        sa.Column("deadline", sa.Float, nullable=True),
        sa.Column("to_move", sa.Integer, nullable=True),
        sa.Column("moved", sa.Integer, nullable=False),
    )
    op.create_index("ix_clocks_deadline", "clocks", ["deadline"])


def downgrade() -> None:
    op.drop_index("ix_clocks_deadline", table_name="clocks")
    op.drop_table("clocks")
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("spent")
