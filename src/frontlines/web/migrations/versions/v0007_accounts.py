"""Accounts, their sessions and recovery codes, login limits, games held by accounts, ratings.

Revision ID: 0007
Revises: 0006

Everything here is new: tables, and three columns of ``games`` with defaults that the
release before this one (which does not name them) gets by itself, so it keeps working on
the new schema during a rolling deploy (docs/deploy.md):

* ``accounts``: a username as chosen, the key it is found and kept unique by (folded, its
  look-alike letters mapped: :mod:`frontlines.web.accounts`), the argon2 hash of its password;
* ``recovery_codes``: SHA-256 digests of the codes shown once at sign-up, each spent once;
* ``sessions``: the SHA-256 digest of each session cookie, its account, when it expires;
* ``auth_limits``: failed logins (and sign-ups) counted per account and per address, in the
  database so that every process counts the same attempts;
* ``games.account0``/``account1``: the account holding each seat (none: a seat token only),
  ``games.rated``: a rated game between two accounts;
* ``ratings``: one Glicko-2 rating per account and ruleset; ``rating_changes``: what each
  rated game did to each of its two players' ratings (the player page's graph).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("username", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(128), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("password_changed", sa.Float, nullable=False),
    )
    op.create_index("ix_accounts_name_key", "accounts", ["name_key"], unique=True)
    op.create_table(
        "recovery_codes",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column("used", sa.Float, nullable=True),
    )
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("ix_sessions_account_id", "sessions", ["account_id"])
    op.create_index("ix_sessions_expires", "sessions", ["expires"])
    op.create_table(
        "auth_limits",
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("count", sa.Integer, nullable=False),
        sa.Column("since", sa.Float, nullable=False),
    )
    op.create_index("ix_auth_limits_since", "auth_limits", ["since"])
    op.add_column("games", sa.Column("account0", sa.Integer, nullable=True))
    op.add_column("games", sa.Column("account1", sa.Integer, nullable=True))
    op.add_column("games", sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_index("ix_games_account0", "games", ["account0"])
    op.create_index("ix_games_account1", "games", ["account1"])
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("ruleset", sa.String(64), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("losses", sa.Integer, nullable=False),
        sa.Column("draws", sa.Integer, nullable=False),
        sa.Column("last", sa.Float, nullable=False),
    )
    op.create_index("ix_ratings_ruleset_rating", "ratings", ["ruleset", "rating"])
    op.create_table(
        "rating_changes",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("ruleset", sa.String(64), nullable=False),
        sa.Column("opponent_id", sa.Integer, nullable=False),
        sa.Column("score", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("rating_before", sa.Float, nullable=False),
        sa.Column("deviation_before", sa.Float, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
    )
    op.create_index("ix_rating_changes_account", "rating_changes", ["account_id", "ruleset", "at"])


def downgrade() -> None:
    op.drop_index("ix_rating_changes_account", table_name="rating_changes")
    op.drop_table("rating_changes")
    op.drop_index("ix_ratings_ruleset_rating", table_name="ratings")
    op.drop_table("ratings")
    op.drop_index("ix_games_account1", table_name="games")
    op.drop_index("ix_games_account0", table_name="games")
    # Plain DROP COLUMN (SQLite 3.35 and later): a copy of the table, as a batch would make,
    # would drop the old one and with it, through ON DELETE CASCADE, every stored move.
    for column in ("rated", "account1", "account0"):
        op.drop_column("games", column)
    op.drop_index("ix_auth_limits_since", table_name="auth_limits")
    op.drop_table("auth_limits")
    op.drop_index("ix_sessions_expires", table_name="sessions")
    op.drop_index("ix_sessions_account_id", table_name="sessions")
    op.drop_table("sessions")
    op.drop_table("recovery_codes")
    op.drop_index("ix_accounts_name_key", table_name="accounts")
    op.drop_table("accounts")
