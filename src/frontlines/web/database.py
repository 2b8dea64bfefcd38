"""Opening the database: the URL, the engine, connection errors, the SQLite one-process lock.

Everything that can go wrong before the server takes its first request is turned into a
:class:`DatabaseError` with a one-line message (a wrong URL, a database that does not
answer, a SQLite file another server holds), so ``frontlines serve`` and ``frontlines db``
print it and exit 2 instead of a traceback or a half-started server.

SQLite is the embedded single-process store: its file may be written by one server only
(two would each keep their own live games and bot turns in memory and overwrite each
other's view of them). A server that opens a SQLite file takes an exclusive ``flock`` on
``<file>.lock`` for as long as it runs; the kernel drops the lock when the process ends,
even by ``kill -9``, so a stale lock file is harmless. Within one process the lock is
counted, so tests and tools may open the same file more than once.
"""

from __future__ import annotations

import fcntl
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO, Any

from sqlalchemy import create_engine, event
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError, SQLAlchemyError

from frontlines.core.errors import FrontlinesError
from frontlines.web.logs import mask_url

# Seconds to wait for a PostgreSQL server that does not answer at all (a refused
# connection fails at once); a URL may set its own ``?connect_timeout=``.
CONNECT_TIMEOUT = 5
URL_HELP = "use sqlite:///FILE or postgresql://user:password@host/database"


class DatabaseError(FrontlinesError):
    """The database cannot be used as it is; the message says why in one line.

    A command exits 2 for it: a mistake to fix (the URL, the schema) before trying again."""

    exit_status = 2


class DatabaseUnavailable(DatabaseError):
    """The database did not answer or refused the connection: exit 1, since trying again
    later may work (a service manager restarts on 1 and need not on 2)."""

    exit_status = 1


def normalise_url(url: str) -> str:
    """Accept ``postgresql://`` and pick the psycopg 3 driver (SQLAlchemy defaults to psycopg2)."""
    if url.startswith("postgresql://"):
        return "postgresql+psycopg://" + url[len("postgresql://"):]
    if url.startswith("postgres://"):
        return "postgresql+psycopg://" + url[len("postgres://"):]
    return url


def parse_url(url: str) -> URL:
    """The URL as SQLAlchemy reads it, or a :class:`DatabaseError` saying what is wrong."""
    try:
        parsed = make_url(normalise_url(url.strip()))
    except (ArgumentError, ValueError):
        raise DatabaseError(f"not a database URL: {mask_url(url)!r} ({URL_HELP})") from None
    backend = parsed.get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        raise DatabaseError(f"unsupported database {backend!r} in {mask_url(url)!r} ({URL_HELP})")
    if backend == "postgresql" and parsed.get_driver_name() != "psycopg":
        raise DatabaseError(f"PostgreSQL is reached through psycopg 3: write {mask_url(url).split('://', 1)[0]}"
                            f" as postgresql:// ({URL_HELP})")
    if backend == "sqlite" and parsed.get_driver_name() != "pysqlite":
        raise DatabaseError(f"SQLite is reached through Python's own sqlite3: write sqlite:///FILE ({URL_HELP})")
    if backend == "postgresql" and not parsed.database:
        raise DatabaseError(f"no database name in {mask_url(url)!r} ({URL_HELP})")
    return parsed


def sqlite_file(url: str) -> str | None:
    """The absolute path of a SQLite database file; None for PostgreSQL or an in-memory database."""
    parsed = parse_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:") \
            or parsed.query.get("mode") == "memory":
        return None
    return os.path.realpath(str(parsed.database))


@dataclass(frozen=True)
class Pool:
    """A server process's PostgreSQL connections (SQLAlchemy's QueuePool): ``size`` kept
    open, up to ``overflow`` more under load (closed again when returned), and how long a
    request waits for one when all are taken before it fails (``timeout`` seconds). The
    defaults are SQLAlchemy's; ``frontlines serve --db-pool-size`` etc. set them."""

    size: int = 5
    overflow: int = 10
    timeout: float = 30.0

    def __post_init__(self) -> None:
        if self.size < 1 or self.overflow < 0 or self.timeout <= 0:
            raise DatabaseError(f"a connection pool needs size >= 1, overflow >= 0 and timeout > 0 (not {self})")

    @property
    def most(self) -> int:
        """The most connections the pool opens at once."""
        return self.size + self.overflow


def open_engine(url: str, *, migrating: bool = False, pool: Pool | None = None) -> Engine:
    """An engine for ``url``; nothing is connected yet.

    ``migrating`` makes SQLite transactions real ones that also cover DDL (``BEGIN
    IMMEDIATE``; Python's driver otherwise commits before each CREATE or ALTER), so a
    migration that fails leaves the file as it was, and two upgrades never interleave.
    ``pool`` sizes a PostgreSQL engine's connection pool (SQLite, one process and one
    writer, keeps SQLAlchemy's own).
    """
    parsed = parse_url(url)
    kwargs: dict[str, Any] = {}
    if parsed.get_backend_name() == "sqlite":
        # Worker threads share the engine; the busy timeout rides over short write locks.
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
    else:
        kwargs["pool_pre_ping"] = True
        if pool is not None:
            kwargs.update(pool_size=pool.size, max_overflow=pool.overflow, pool_timeout=pool.timeout)
        if "connect_timeout" not in parsed.query:
            kwargs["connect_args"] = {"connect_timeout": CONNECT_TIMEOUT}
    try:
        engine = create_engine(parsed, **kwargs)
    except (NoSuchModuleError, ImportError, ArgumentError) as exc:
        raise DatabaseError(f"cannot use {mask_url(url)!r}: {one_line(exc)}") from None
    if parsed.get_backend_name() == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
        if migrating:
            event.listen(engine, "connect", _sqlite_manual_transactions)
            event.listen(engine, "begin", _sqlite_begin_immediate)
    return engine


@contextmanager
def reporting(url: str, doing: str, error: type[DatabaseError] = DatabaseError) -> Iterator[None]:
    """Turn a driver's error while ``doing`` something with the database into one line."""
    try:
        yield
    except DatabaseError:
        raise
    except SQLAlchemyError as exc:
        raise error(f"{doing} {mask_url(url)}: {one_line(exc)}") from None


def one_line(exc: BaseException) -> str:
    """A driver error's own words on one line, without SQLAlchemy's statement and link."""
    if isinstance(exc, DBAPIError) and exc.orig is not None:
        text = str(exc.orig)
    else:
        text = str(exc).split("\n(Background on this error", 1)[0].split("\n[SQL:", 1)[0]
    return " ".join(text.split()) or type(exc).__name__


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL lets readers (page loads) go on while a move is written; NORMAL sync is durable
    # enough for a game server and much faster than FULL.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _sqlite_manual_transactions(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.isolation_level = None  # the driver issues no BEGIN/COMMIT of its own


def _sqlite_begin_immediate(connection: Any) -> None:
    connection.exec_driver_sql("BEGIN IMMEDIATE")


# --- SQLite: one server process per file ----------------------------------------------------
@dataclass
class _Held:
    file: IO[str]
    count: int


_held: dict[str, _Held] = {}
_held_guard = threading.Lock()


def lock_sqlite(url: str) -> str | None:
    """Take this process's lock on the SQLite file of ``url`` (nothing for PostgreSQL).

    Answers the key to give :func:`unlock_sqlite`; a :class:`DatabaseError` if another
    process holds the file.
    """
    path = sqlite_file(url)
    if path is None:
        return None
    with _held_guard:
        if path in _held:
            _held[path].count += 1
            return path
        lock_path = path + ".lock"
        try:
            handle = open(lock_path, "a+", encoding="ascii")  # noqa: SIM115 (kept open while held)
        except OSError as exc:
            raise DatabaseError(f"cannot open the SQLite database {path}: {exc.strerror or exc}") from None
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.seek(0)
            holder = handle.read().strip()
            handle.close()
            who = f" (pid {holder})" if holder.isdigit() else ""
            raise DatabaseError(
                f"the SQLite database {path} is in use by another frontlines process{who}; SQLite serves one "
                "process: stop that one first, or use PostgreSQL to run several (docs/deploy.md)") from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        _held[path] = _Held(handle, 1)
        return path


def unlock_sqlite(key: str | None) -> None:
    if key is None:
        return
    with _held_guard:
        held = _held.get(key)
        if held is None:
            return
        held.count -= 1
        if held.count == 0:
            del _held[key]
            held.file.close()  # closing the last descriptor drops the flock
