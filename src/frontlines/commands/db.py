"""``frontlines db``: create or migrate the web app's database schema (Alembic), or say where it stands.

``frontlines db upgrade`` is a step of every deploy on PostgreSQL (``frontlines serve``
refuses a database that is not at the newest revision there; with the embedded SQLite
default it upgrades by itself). ``frontlines db current`` prints the revision and exits 0
when the database is up to date, 1 when it is not.
"""

from __future__ import annotations

import argparse
import os

from frontlines.web.settings import DEFAULT_DATABASE  # standard library only: no web extra needed

HELP = "Create or migrate the web database schema (upgrade), or show its revision (current)."


def add_database_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--database", default=os.environ.get("FRONTLINES_DATABASE", DEFAULT_DATABASE),
                        help=f"sqlite:///FILE (default {DEFAULT_DATABASE}; environment FRONTLINES_DATABASE) "
                             "or postgresql://user:pw@host/db")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=("upgrade", "current"),
                        help="upgrade: bring the schema to the newest revision (creates it in an empty "
                             "database); current: show the database's revision")
    add_database_argument(parser)


def run(args: argparse.Namespace) -> int:
    try:
        from frontlines.web import migrations
        from frontlines.web.database import DatabaseUnavailable, lock_sqlite, open_engine, reporting, unlock_sqlite
        from frontlines.web.logs import mask_url
    except ImportError as exc:  # the web stack is an optional extra
        print(f"frontlines db needs the web extra: pip install 'frontlines[web]' ({exc})")
        return 2
    where = mask_url(args.database)
    if args.action == "current":
        engine = open_engine(args.database)
        try:
            with reporting(args.database, "cannot reach the database", DatabaseUnavailable):
                found = migrations.status(engine)
        finally:
            engine.dispose()
        print(f"{where}: {found.describe()}")
        return 0 if found.state == "current" else 1
    held = lock_sqlite(args.database)  # not under a running SQLite server's feet
    try:
        before, after = migrations.upgrade(args.database)
    finally:
        unlock_sqlite(held)
    if before.state == "current":
        print(f"{where}: already {after.describe()}")
    else:
        print(f"{where}: was {before.describe()}; now {after.describe()}")
    return 0
