"""``frontlines db``: create, migrate or copy the web app's database, or say where it stands.

``frontlines db upgrade`` is a step of every deploy on PostgreSQL (``frontlines serve``
refuses a database that is not at the newest revision there; with the embedded SQLite
default it upgrades by itself). ``frontlines db current`` prints the revision and exits 0
when the database is up to date, 1 when it is not. ``frontlines db copy --from URL --to
URL`` carries every game to another database (from SQLite to PostgreSQL, say).
``frontlines db downgrade REV`` takes the schema back to an earlier revision, for going
back to an older release (what the later revisions added is dropped).
"""

from __future__ import annotations

import argparse
import os
import sys

from frontlines.web.settings import DEFAULT_DATABASE  # standard library only: no web extra needed

HELP = ("Create or migrate the web database schema (upgrade, downgrade REV), show its revision (current), "
        "or copy every game to another database (copy --from URL --to URL).")


def add_database_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--database", default=os.environ.get("FRONTLINES_DATABASE", DEFAULT_DATABASE),
                        help=f"sqlite:///FILE (default {DEFAULT_DATABASE}; environment FRONTLINES_DATABASE) "
                             "or postgresql://user:pw@host/db")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=("upgrade", "current", "downgrade", "copy"),
                        help="upgrade: bring the schema to the newest revision (creates it in an empty "
                             "database); current: show the database's revision; downgrade REV: take the "
                             "schema back to revision REV (what later revisions added is dropped); copy: "
                             "copy every game from --from to --to")
    parser.add_argument("revision", nargs="?", help="downgrade: the revision to go back to (e.g. 0001)")
    add_database_argument(parser)
    parser.add_argument("--from", dest="source", metavar="URL",
                        help="copy: the database to read (default: --database); it is not changed")
    parser.add_argument("--to", dest="target", metavar="URL",
                        help="copy: the database to write; its schema is created or upgraded first")
    parser.add_argument("--append", action="store_true",
                        help="copy: into a target that already holds games (a game both hold stops the copy)")
    parser.add_argument("--batch", type=int, default=1000, metavar="ROWS",
                        help="copy: rows read and written at a time (default 1000)")


def run(args: argparse.Namespace) -> int:
    try:
        from frontlines.web import migrations
        from frontlines.web.database import (
            DatabaseError,
            DatabaseUnavailable,
            lock_sqlite,
            open_engine,
            reporting,
            unlock_sqlite,
        )
        from frontlines.web.logs import mask_url
    except ImportError as exc:  # the web stack is an optional extra
        print(f"frontlines db needs the web extra: pip install 'frontlines[web]' ({exc})")
        return 2
    if args.action == "downgrade" and args.revision is None:
        raise DatabaseError("frontlines db downgrade needs the revision to go back to, e.g. "
                            "`frontlines db downgrade 0001` (`frontlines db current` shows where the database is)")
    if args.action != "downgrade" and args.revision is not None:
        raise DatabaseError(f"frontlines db {args.action} takes no revision (got {args.revision!r})")
    if args.action == "copy":
        return _copy(args)
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
        if args.action == "downgrade":
            before, after = migrations.downgrade(args.database, args.revision)
        else:
            before, after = migrations.upgrade(args.database)
    finally:
        unlock_sqlite(held)
    if before.current == after.current:
        print(f"{where}: already {after.describe()}")
    else:
        print(f"{where}: was {before.describe()}; now {after.describe()}")
    return 0


def _copy(args: argparse.Namespace) -> int:
    from frontlines.web.database import DatabaseError
    from frontlines.web.dbcopy import copy_database
    from frontlines.web.logs import mask_url

    if not args.target:
        raise DatabaseError("frontlines db copy needs --to URL (the database to copy into)")
    source = args.source or args.database

    def progress(table: str, rows: int) -> None:
        print(f"\r{table}: {rows} rows", end="", file=sys.stderr, flush=True)

    shown = progress if sys.stderr.isatty() else None
    copied = copy_database(source, args.target, append=args.append, batch=args.batch, progress=shown)
    if shown is not None:
        print(file=sys.stderr)
    print(f"copied {copied.describe()} from {mask_url(source)} to {mask_url(args.target)}")
    return 0
