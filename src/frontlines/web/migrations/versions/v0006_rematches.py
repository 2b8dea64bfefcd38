"""Rematches: each finished game's rematch, who agreed and the new game once made.

Revision ID: 0006
Revises: 0005

Table ``rematches`` (see :mod:`frontlines.web.play.rematch`); a new table only.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rematches",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("offers", sa.Integer, nullable=False),
        sa.Column("declined", sa.Integer, nullable=True),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("game", sa.String(32), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("rematches")
