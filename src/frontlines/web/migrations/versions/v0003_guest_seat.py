"""The seat a friend game's invite is for: only the other seat, its creator's, may invite again.

Revision ID: 0003
Revises: 0002

Before the first move a player of a friend game may ask for a new invite (a lost link):
the seat it is for gets a new ticket and a new deal. Which seat that is was read off the
seat tokens (the one without), so once both were held the friend could "re-invite" the
creator, revoke the creator's token and take both seats. ``guest_seat`` remembers it from
the game's creation. Friend games already stored get it where it can still be told (one
seat without a token); where both seats are held it stays NULL and neither seat can invite
again (those games' seats are fixed).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("guest_seat", sa.Integer, nullable=True))
    op.execute(
        "UPDATE games SET guest_seat = CASE"
        " WHEN seat_hash0 = '' AND seat_hash1 <> '' THEN 0"
        " WHEN seat_hash1 = '' AND seat_hash0 <> '' THEN 1 END"
        " WHERE opponent = 'friend'"
    )


def downgrade() -> None:
    # A plain ALTER TABLE (SQLite has it since 3.35): a batch rebuild of "games" would drop the
    # table, and with it, through ON DELETE CASCADE, every game's actions.
    op.drop_column("games", "guest_seat")
