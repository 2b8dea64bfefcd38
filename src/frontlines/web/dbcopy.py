"""Copying every game from one database to another (``frontlines db copy``).

What an operator who outgrows the embedded SQLite file needs: the games, their moves and
whatever else the store holds (accounts, their sessions, ratings), in a PostgreSQL database
(or back). Rows are copied table
by table in the order their foreign keys need, in batches, all into one transaction of
the target: a copy that fails half-way leaves the target as it was.

Both databases must be at this code's newest revision, so that the same columns mean the
same thing on both sides: the source is never changed (an older one is refused, with the
command that upgrades it), the target is upgraded first (an empty one gets the schema).
A target that already holds games is refused unless ``append`` is given; then a game that
both hold stops the copy and nothing is written.

The source's SQLite file is locked like a server's while it is read, so a running server
cannot write in the middle of the copy; a PostgreSQL source is read in one repeatable-read
transaction, a consistent snapshot even while servers write to it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import Table, func, select, text
from sqlalchemy.engine import Connection, make_url

from frontlines.web import migrations
from frontlines.web.database import (
    DatabaseError,
    DatabaseUnavailable,
    lock_sqlite,
    normalise_url,
    open_engine,
    reporting,
    unlock_sqlite,
)
from frontlines.web.logs import mask_url
from frontlines.web.store import Base

# Written by the migrations themselves (the schema marker of the baseline), not by the store.
MIGRATION_TABLES = frozenset({"frontlines_meta"})
# Rows that live only as long as a page that is connected (the lobby's open seeks): a copy,
# made with the server stopped, has none worth carrying.
PASSING_TABLES = frozenset({"seeks"})
BATCH = 1000


def tables() -> list[Table]:
    """The tables a copy carries, parents before children."""
    return [t for t in Base.metadata.sorted_tables if t.name not in MIGRATION_TABLES | PASSING_TABLES]


@dataclass
class Copied:
    """Rows copied per table, in copy order."""

    counts: dict[str, int]

    def describe(self) -> str:
        """``games: 3, actions: 120, …``: the games and their moves first, then the rest."""
        first = [name for name in ("games", "actions", "bot_leases") if name in self.counts]
        rest = [name for name in self.counts if name not in first]
        return ", ".join(f"{name}: {self.counts[name]}" for name in first + rest)


def copy_database(source: str, target: str, *, append: bool = False, batch: int = BATCH,
                  progress: Callable[[str, int], None] | None = None) -> Copied:
    """Copy every row of the store's tables from ``source`` to ``target`` (both URLs).

    ``progress(table, rows so far)`` is called after each batch. Raises
    :class:`DatabaseError` (one line) for anything that stops the copy; the target is then
    as it was (apart from the schema, if it was upgraded first).
    """
    if batch < 1:
        raise DatabaseError("the batch size must be at least 1")
    if _same_database(source, target):
        raise DatabaseError(f"the source and the target are the same database ({mask_url(source)})")
    held = [lock_sqlite(source)]  # no server writes to a SQLite source meanwhile
    try:
        held.append(lock_sqlite(target))
        return _copy(source, target, append=append, batch=batch, progress=progress)
    finally:
        for key in held:
            unlock_sqlite(key)


def _same_database(a: str, b: str) -> bool:
    from frontlines.web.database import parse_url, sqlite_file

    parse_url(a), parse_url(b)  # a wrong URL is said as such first
    file_a, file_b = sqlite_file(a), sqlite_file(b)
    if file_a is not None or file_b is not None:
        return file_a == file_b
    ua, ub = make_url(normalise_url(a)), make_url(normalise_url(b))
    return (ua.host, ua.port or 5432, ua.database) == (ub.host, ub.port or 5432, ub.database)


def _copy(source: str, target: str, *, append: bool, batch: int,
          progress: Callable[[str, int], None] | None) -> Copied:
    src_engine = open_engine(source)
    try:
        with reporting(source, "cannot reach the source database", DatabaseUnavailable):
            found = migrations.status(src_engine)
        if found.state != "current":
            hint = "" if found.state == "newer" else \
                f": run `frontlines db upgrade --database {mask_url(source)}` first"
            raise DatabaseError(f"the source database {mask_url(source)} is {found.describe()}{hint}")
        # The target gets the schema (or is brought to it); one newer than this code is refused there.
        migrations.upgrade(target)
        dst_engine = open_engine(target)
        try:
            with reporting(source, "cannot read the source database", DatabaseUnavailable):
                src = src_engine.connect()
            with reporting(target, "cannot reach the target database", DatabaseUnavailable):
                dst = dst_engine.connect()
            with src, dst, reporting(target, "cannot copy into the target database"):
                if src.dialect.name == "postgresql":
                    src = src.execution_options(isolation_level="REPEATABLE READ")
                with src.begin(), dst.begin():
                    if not append:
                        _refuse_non_empty(dst, target)
                    counts = {t.name: _copy_table(src, dst, t, batch, progress) for t in tables()}
                    if dst.dialect.name == "postgresql":
                        _advance_sequences(dst)
        finally:
            dst_engine.dispose()
    finally:
        src_engine.dispose()
    return Copied(counts)


def _refuse_non_empty(dst: Connection, target: str) -> None:
    held = {t.name: int(dst.scalar(select(func.count()).select_from(t)) or 0) for t in tables()}
    if any(held.values()):
        rows = ", ".join(f"{name}: {n}" for name, n in held.items() if n)
        raise DatabaseError(f"the target database {mask_url(target)} is not empty ({rows}): copy into an empty "
                            "database, or add --append to add the source's games to those")


def _advance_sequences(dst: Connection) -> None:
    """Ids copied as they were (accounts' ids, which games and ratings refer to) leave
    PostgreSQL's sequence where it was: move it past the largest, or the next account made
    there would be given an id that is taken."""
    for table in tables():
        for column in table.primary_key.columns:
            if column.autoincrement is True:
                dst.execute(text(f"SELECT setval(pg_get_serial_sequence('{table.name}', '{column.name}'),"
                                 f" coalesce((SELECT max({column.name}) FROM {table.name}), 0) + 1, false)"))


def _copy_table(src: Connection, dst: Connection, table: Table, batch: int,
                progress: Callable[[str, int], None] | None) -> int:
    # In primary-key order, a batch at a time (a server-side cursor on PostgreSQL): memory
    # stays one batch however large the database.
    order = list(table.primary_key.columns)
    result = src.execution_options(yield_per=batch).execute(select(table).order_by(*order))
    copied = 0
    for rows in result.partitions(batch):
        dst.execute(table.insert(), [dict(row._mapping) for row in rows])
        copied += len(rows)
        if progress is not None:
            progress(table.name, copied)
    return copied
