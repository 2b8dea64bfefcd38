"""The web schema's migrations (Alembic), shipped inside the package.

Revisions live in ``versions/`` (one module each, in order); Alembic is driven through
its Python API from here, so an installed package needs no ``alembic.ini``:

* :func:`upgrade` brings a database to the newest revision (``frontlines db upgrade``),
  :func:`downgrade` takes it back to an earlier one (``frontlines db downgrade REV``).
  It is safe to run from several processes at once: on PostgreSQL the upgrade holds an
  advisory lock, on SQLite an immediate transaction, and the second finds nothing to do.
* :func:`status` says where a database stands; :func:`prepare` is what a server runs at
  start-up: upgrade when allowed (the SQLite default), else refuse a database that is not
  at the newest revision with a one-line :class:`~frontlines.web.database.DatabaseError`.

A database written before migrations (tables but no ``alembic_version``) is adopted by
the first revision with its rows (see ``versions/v0001_baseline.py``). A database at a
revision this code does not know was migrated by a newer frontlines: nothing here touches
it, and the error says so.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, inspect, text
from sqlalchemy.engine import Engine

from frontlines.web.database import (
    DatabaseError,
    DatabaseUnavailable,
    lock_sqlite,
    open_engine,
    reporting,
    unlock_sqlite,
)

HERE = Path(__file__).parent
# pg_advisory_xact_lock key held while upgrading ("frontlin" in ASCII): one upgrade at a time.
_UPGRADE_LOCK = 0x66726F6E746C696E
# Tables of the baseline; any of them without alembic_version is a database from before migrations.
_BASELINE_TABLES = frozenset({"games", "actions", "frontlines_meta"})
UPGRADE_HINT = "run `frontlines db upgrade` with the same --database first"


def config(connection: Connection | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    cfg.set_main_option("path_separator", "os")
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


@functools.cache
def _script() -> ScriptDirectory:
    return ScriptDirectory.from_config(config())


def heads() -> tuple[str, ...]:
    """The newest revision(s) this code knows (one, unless two branches are left unmerged)."""
    return tuple(sorted(_script().get_heads()))


@functools.cache
def known() -> frozenset[str]:
    return frozenset(r.revision for r in _script().walk_revisions())


@dataclass(frozen=True)
class Status:
    """Where a database stands against this code's revisions."""

    current: tuple[str, ...]  # revisions recorded in alembic_version; () if none
    heads: tuple[str, ...]
    tables: bool  # any frontlines table present

    @property
    def state(self) -> str:
        """``current``, ``empty``, ``unversioned`` (from before migrations), ``behind`` or ``newer``."""
        if any(rev not in known() for rev in self.current):
            return "newer"
        if set(self.current) == set(self.heads):
            return "current"
        if not self.current:
            return "unversioned" if self.tables else "empty"
        return "behind"

    def describe(self) -> str:
        at = ", ".join(self.current)
        head = ", ".join(self.heads)
        return {
            "current": f"at revision {head}, the newest",
            "empty": f"empty (no tables yet; the newest revision is {head})",
            "unversioned": f"from before migrations (no revision recorded; the newest is {head})",
            "behind": f"at revision {at}, older than this code's {head}",
            "newer": f"at revision {at}, which this version of frontlines does not know: a newer one migrated it",
        }[self.state]


def status(engine: Engine) -> Status:
    """Read the recorded revision (one short query; raises the driver's error if unreachable)."""
    with engine.connect() as conn:
        return _status(conn)


def _status(conn: Connection) -> Status:
    current = tuple(sorted(MigrationContext.configure(conn).get_current_heads()))
    tables = bool(current) or bool(_BASELINE_TABLES & set(inspect(conn).get_table_names()))
    return Status(current=current, heads=heads(), tables=tables)


def upgrade(url: str, target: str = "heads") -> tuple[Status, Status]:
    """Migrate the database at ``url`` to ``target`` (the newest by default); answer before and after."""
    return _migrate(url, "upgrade", target)


def downgrade(url: str, target: str) -> tuple[Status, Status]:
    """Take the database at ``url`` back to revision ``target`` (``base``: no tables at all,
    refused while any game is stored); answer before and after. What the later revisions
    added is dropped, their data with it."""
    if target != "base" and target not in known():
        raise DatabaseError(f"no revision {target!r}: this version of frontlines knows "
                            f"{', '.join(sorted(known()))} and base")
    return _migrate(url, "downgrade", target)


def _migrate(url: str, direction: str, target: str) -> tuple[Status, Status]:
    engine = open_engine(url, migrating=True)
    try:
        with reporting(url, "cannot reach the database", DatabaseUnavailable):
            conn = engine.connect()
        with reporting(url, f"cannot {direction} the database"), conn, conn.begin():
            # One migration at a time (on SQLite the transaction is BEGIN IMMEDIATE); what was
            # there before is read under the lock, so a second upgrade finds the first's work.
            if conn.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _UPGRADE_LOCK})
            before = _status(conn)
            if before.state == "newer":
                raise DatabaseError(f"the database schema is {before.describe()}; nothing was changed")
            if direction == "upgrade":
                command.upgrade(config(conn), target)
            else:
                _check_downgrade(conn, before, target)
                command.downgrade(config(conn), target)
            after = _status(conn)
    finally:
        engine.dispose()
    return before, after


def _check_downgrade(conn: Connection, before: Status, target: str) -> None:
    if not before.current:
        raise DatabaseError(f"the database schema is {before.describe()}: there is nothing to go back from")
    if target == before.current[0]:
        return
    if target != "base" and target not in {r.revision for r in _script().iterate_revisions(before.current[0], "base")}:
        raise DatabaseError(f"revision {target} is newer than the database's {before.current[0]}: "
                            "use `frontlines db upgrade` to go forward")
    if target == "base":
        games = int(conn.scalar(text("SELECT count(*) FROM games")) or 0)
        if games:
            raise DatabaseError(f"going back to base would drop every table and the {games} games in them; "
                                "nothing was changed (drop the database itself if that is what you want)")


def prepare(url: str, *, allow_upgrade: bool, engine: Engine | None = None) -> Status:
    """At start-up: the database must be at the newest revision; upgrade it if allowed.

    Raises :class:`DatabaseError` (one line) if the database cannot be reached, was
    migrated by newer code, or is not up to date and may not be upgraded here.
    """
    own = engine is None
    engine = engine or open_engine(url)
    try:
        with reporting(url, "cannot reach the database", DatabaseUnavailable):
            found = status(engine)
    finally:
        if own:
            engine.dispose()
    if found.state == "current":
        return found
    if found.state == "newer":
        raise DatabaseError(f"the database schema is {found.describe()}; run that version, or restore a backup")
    if not allow_upgrade:
        raise DatabaseError(f"the database schema is {found.describe()}: {UPGRADE_HINT}")
    return upgrade(url)[1]


def prepare_held(url: str, *, allow_upgrade: bool) -> str | None:
    """What a server checks before it binds its port: :func:`prepare` under this process's
    lock on a SQLite file, taken first so that a second process is refused before anything
    is read. Answers the lock's key for :func:`unlock_sqlite` (the lock is let go again if
    the database is not ready); raises :class:`DatabaseError` (one line)."""
    held = lock_sqlite(url)
    try:
        prepare(url, allow_upgrade=allow_upgrade)
    except BaseException:
        unlock_sqlite(held)
        raise
    return held
