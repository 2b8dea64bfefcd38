"""Several ``frontlines serve`` processes on one PostgreSQL database, acting as one server.

Nothing but PostgreSQL is shared between the processes:

* **Events.** Every write to a game sends a small notice on :data:`~frontlines.web.store.CHANNEL`
  (``pg_notify`` in the writing transaction, so it is delivered at commit, in commit order,
  and never for a write that was rolled back). Each process listens on one dedicated
  connection (:class:`Listener`) and, for a game it holds in memory, reads what changed
  from the tables: a notice carries only the kind of change, the game id, the ply and
  which process wrote it.
* **Moves.** The database serialises them: an action is stored only if the game row still
  stands at the ply before it (see :meth:`Store.append_action`); the loser of a race gets
  ``StaleGame``, reloads and answers its client with the fresh state.
* **Bot turns.** Bots are seeded by game and ply, so any process that holds a game may
  play its bot's turn: the same move, stored once (the ply guard refuses the second).

SQLite is one process by construction: none of this runs there.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable

from sqlalchemy.engine import make_url

from frontlines.web.store import CHANNEL

log = logging.getLogger("frontlines.web")


def process_name() -> str:
    """This process among the others: host, pid and a few random characters (a pid is
    reused after a restart; a lease or a notice of the old process must not look ours)."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(3)}"


# --- events ------------------------------------------------------------------------------------
def libpq_url(url: str) -> str:
    """The SQLAlchemy URL as psycopg itself takes it (no ``+psycopg`` driver suffix)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class Listener:
    """One dedicated PostgreSQL connection that LISTENs on the games channel.

    ``on_notice(kind, game_id, ply, origin)`` is called for every notice, on the event loop;
    ``on_gap()`` after a reconnection, since notices sent meanwhile are lost: the caller
    then reads every game it holds again.
    """

    def __init__(self, url: str, on_notice: Callable[[str, str, int, str], None],
                 on_gap: Callable[[], Awaitable[None]]) -> None:
        self.url = libpq_url(url)
        self.on_notice = on_notice
        self.on_gap = on_gap
        self.connected = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def start(self, wait: float = 10.0) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())
        # Moves made before the first LISTEN would never be heard of; wait for it.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.connected.wait(), wait)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def _run(self) -> None:
        import psycopg

        pause = 0.5
        first = True
        while True:
            try:
                # Keepalives: a database host that vanishes must not leave us waiting forever.
                async with await psycopg.AsyncConnection.connect(
                        self.url, autocommit=True, keepalives=1, keepalives_idle=10, keepalives_interval=5,
                        keepalives_count=3) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.connected.set()
                    pause = 0.5
                    if not first:
                        log.info("listening to game events again")
                        await self.on_gap()
                    first = False
                    async for notice in conn.notifies():
                        self._dispatch(notice.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.connected.clear()
                log.warning("game events: %s; listening again in %.1f s", str(exc).strip() or type(exc).__name__,
                            pause)
            await asyncio.sleep(pause)
            pause = min(pause * 2, 10.0)

    def _dispatch(self, payload: str) -> None:
        try:
            kind, game_id, ply, origin = payload.split(" ", 3)
            self.on_notice(kind, game_id, int(ply), origin)
        except Exception:  # one odd notice must not stop the listening
            log.exception("game event %r could not be handled", payload)
