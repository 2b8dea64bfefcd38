"""The lobby's open seeks.

Revision ID: 0005
Revises: 0004

A row is a seek: a player waiting in the lobby for anyone to play them, with the game they
want (ruleset, options, clock, rated or not, their seat if they chose one), the name they
show, their account if they have one, and the SHA-256 digest of the seat token their page
already holds (the game made when someone takes the seek seats them with it, on whichever
process takes it). ``owner`` and ``expires`` are a lease, by the database's clock, as bot
turns have: the process holding the creator's page renews it; a creator who leaves stops
the renewal and any process's sweep deletes the seek once it has expired. ``game_id`` is set
(once, by one conditional write) when the seek is taken. See :mod:`frontlines.web.lobby`.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "seeks",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("ruleset", sa.String(64), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("clock", sa.String(16), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("account", sa.Integer, nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("game_seat", sa.Integer, nullable=True),
    )
    op.create_index("ix_seeks_expires", "seeks", ["expires"])


def downgrade() -> None:
    op.drop_index("ix_seeks_expires", table_name="seeks")
    op.drop_table("seeks")
