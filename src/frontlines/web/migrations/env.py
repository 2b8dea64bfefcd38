"""Alembic's entry point for the web schema's migrations.

Run through :mod:`frontlines.web.migrations` (``frontlines db upgrade``), which opens the
connection, holds the upgrade lock and hands the connection over in
``config.attributes["connection"]``; there is no ``alembic.ini`` to run it from.
"""

from __future__ import annotations

from alembic import context

from frontlines.web.store import Base


def run() -> None:
    connection = context.config.attributes.get("connection")
    if connection is None or context.is_offline_mode():
        raise RuntimeError("the web schema is migrated by `frontlines db upgrade`, on a live connection")
    # SQLite alters most things by copying the table ("batch" mode); a revision that uses
    # op.batch_alter_table then runs unchanged on both databases.
    context.configure(connection=connection, target_metadata=Base.metadata,
                      render_as_batch=connection.dialect.name == "sqlite", compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


run()
