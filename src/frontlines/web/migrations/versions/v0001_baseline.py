"""Baseline: the schema as it was when migrations began (games, actions, frontlines_meta).

Revision ID: 0001
Revises: (none)

On an empty database it creates the three tables. A database written before migrations
(by ``Base.metadata.create_all``, no ``alembic_version`` table) is *adopted* instead: its
tables are kept with their rows and brought to this schema, then Alembic records the
revision. That covers both earlier layouts, told apart by table ``frontlines_meta``:

* schema 2 (``frontlines_meta.schema = '2'``): already this schema; nothing to change;
* schema 1 (no ``frontlines_meta``; seat tokens in clear in ``token0``/``token1``): the
  columns become ``seat_hash0``/``seat_hash1`` holding the SHA-256 digests of the tokens
  (old seat links keep working, the file no longer holds them), ``invite_hash`` is added.

The tables are written out here rather than taken from the models, which move on with
later revisions.
"""

from __future__ import annotations

import hashlib

import sqlalchemy as sa
from alembic import op

from frontlines.web.database import DatabaseError

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

SCHEMA = "2"  # the value frontlines_meta has held since seats were hashed


def upgrade() -> None:
    bind = op.get_bind()
    tables = set(sa.inspect(bind).get_table_names())
    if "games" in tables:
        _adopt(bind, tables)
        return
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("ruleset", sa.String(64), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("setup", sa.Text, nullable=False),
        sa.Column("seat_hash0", sa.String(64), nullable=False),
        sa.Column("seat_hash1", sa.String(64), nullable=False),
        sa.Column("invite_hash", sa.String(64), nullable=False),
        sa.Column("name0", sa.String(64), nullable=False),
        sa.Column("name1", sa.String(64), nullable=False),
        sa.Column("opponent", sa.String(64), nullable=False),
        sa.Column("bot_seat", sa.Integer, nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("result", sa.String(16), nullable=False),
        sa.Column("reason", sa.String(32), nullable=False),
        sa.Column("termination", sa.String(32), nullable=False),
        sa.Column("loser", sa.Integer, nullable=True),
        sa.Column("plies", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ix_games_status", "games", ["status"])
    op.create_table(
        "actions",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("ply", sa.Integer, primary_key=True),
        sa.Column("text", sa.String(64), nullable=False),
    )
    _create_meta()


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_index("ix_games_status", table_name="games")
    op.drop_table("games")
    op.drop_table("frontlines_meta")


def _create_meta() -> None:
    meta = op.create_table(
        "frontlines_meta",
        sa.Column("key", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(64), nullable=False),
    )
    op.bulk_insert(meta, [{"key": "schema", "value": SCHEMA}])


def _adopt(bind: sa.Connection, tables: set[str]) -> None:
    """Bring a database written before migrations to this schema, rows and all."""
    version = None
    if "frontlines_meta" in tables:
        version = bind.scalar(sa.text("SELECT value FROM frontlines_meta WHERE key = 'schema'"))
    if version is not None and version != SCHEMA:
        raise DatabaseError(f"the database says schema {version}, which this version of frontlines does not know")
    inspector = sa.inspect(bind)
    if version is None:
        columns = {c["name"] for c in inspector.get_columns("games")}
        if "token0" in columns:
            _hash_seats(bind)
        if "frontlines_meta" in tables:
            op.execute(sa.text(f"INSERT INTO frontlines_meta (key, value) VALUES ('schema', '{SCHEMA}')"))
        else:
            _create_meta()
    # Schema 1 had no index on status; create_all never added one to an existing table.
    if "ix_games_status" not in {i["name"] for i in sa.inspect(bind).get_indexes("games")}:
        op.create_index("ix_games_status", "games", ["status"])


def _hash_seats(bind: sa.Connection) -> None:
    """Schema 1 kept the seat tokens in clear: keep their digests instead."""
    for seat in "01":
        op.execute(sa.text(f"DROP INDEX IF EXISTS ix_games_token{seat}"))
        op.execute(sa.text(f"ALTER TABLE games RENAME COLUMN token{seat} TO seat_hash{seat}"))
    op.execute(sa.text("ALTER TABLE games ADD COLUMN invite_hash VARCHAR(64) NOT NULL DEFAULT ''"))
    for game_id, t0, t1 in bind.execute(sa.text("SELECT id, seat_hash0, seat_hash1 FROM games")).all():
        bind.execute(sa.text("UPDATE games SET seat_hash0 = :h0, seat_hash1 = :h1 WHERE id = :id"),
                     {"h0": _digest(t0), "h1": _digest(t1), "id": game_id})


def _digest(token: str) -> str:
    # frontlines.web.seats.digest as it was written then (a revision must not change later).
    return hashlib.sha256(token.encode("ascii")).hexdigest() if token else ""
