"""Bot-turn leases: which server process plays a bot's turn, until when.

Revision ID: 0002
Revises: 0001

A row exists while a bot is to move in a game (see :mod:`frontlines.web.cluster`). Only
several processes on one PostgreSQL database use it; the table is created everywhere so
that every database has the same schema.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bot_leases",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("ply", sa.Integer, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("ix_bot_leases_expires", "bot_leases", ["expires"])


def downgrade() -> None:
    op.drop_index("ix_bot_leases_expires", table_name="bot_leases")
    op.drop_table("bot_leases")
