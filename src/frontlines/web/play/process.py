"""What every part of the server shares in one server process."""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from frontlines.web.fanout import Limits
from frontlines.web.play.bus import Bus
from frontlines.web.store import Store

log = logging.getLogger("frontlines.web")


@dataclass(eq=False)
class Process:
    """This server process as its parts see it: the store and the threads that call it, its
    name among the other processes (``origin``), its bus, the connection caps, and whether
    it is stopping (``draining``: no new bot turn starts here, nothing more is announced)."""

    store: Store
    bus: Bus
    limits: Limits
    db_executor: concurrent.futures.ThreadPoolExecutor
    draining: bool = False

    @property
    def origin(self) -> str:
        return self.bus.origin

    @property
    def shared(self) -> bool:
        """PostgreSQL: other processes may serve the same games (see :mod:`frontlines.web.cluster`)."""
        return self.store.shared

    async def db(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``fn(*args, **kwargs)`` on a database thread: the event loop never waits on the database."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.db_executor, lambda: fn(*args, **kwargs))

    async def sweep(self, every: float, due: Callable[[], list[str]], handle: Callable[[str], Awaitable[Any]],
                    what: str) -> None:
        """Every ``every`` seconds (±25 %, so that the processes do not all look at once):
        ``due()`` on a database thread, then ``handle`` each game id it answers, in turn. A
        failure (the database away a moment) is logged and the next round tries again."""
        while True:
            await asyncio.sleep(every * (0.75 + secrets.randbelow(500) / 1000))
            if self.draining:
                continue
            try:
                for game_id in await self.db(due):
                    await handle(game_id)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("sweeping %s failed", what)


def database_threads(store: Store) -> concurrent.futures.ThreadPoolExecutor:
    """SQLite takes one writer at a time: one thread queues the writes instead of many
    threads spinning on the file lock. PostgreSQL gets a few connections (no more threads
    than its pool could serve at once: the others would only wait there)."""
    workers = 1 if store.url.startswith("sqlite") else min(4, store.pool.most)
    return concurrent.futures.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="frontlines-db")
