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
* **Bot turns.** A row of ``bot_leases`` exists while a bot is to move in a game. The
  process that holds it (``owner``, until ``expires``, by the database's clock) runs the
  turn and renews it while the bot thinks; the row is written in the same transaction as
  the move that made the turn due, and deleted with the bot's last move of the turn. A
  process that dies stops renewing; once the lease has expired, another process's sweep
  takes it with one conditional upsert and plays the turn. Bots are seeded by game and
  ply, so the turn played again is the same move, and the ply guard stores it once.
* **Stopping.** On SIGTERM a process stops accepting connections, lets bot turns in
  progress finish for a moment, releases the others (a notice ``l`` tells the other
  processes to take them at once), and closes its WebSockets with code 1012 ("service
  restart"); the page reconnects by itself, to whichever process the address leads to.

SQLite is one process by construction: none of this runs there.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import signal
import socket
import threading
from collections.abc import Awaitable, Callable
from types import FrameType
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import ColumnElement

from frontlines.web.store import CHANNEL, BotLease, Store, _changed

log = logging.getLogger("frontlines.web")


def process_name() -> str:
    """This process among the others: host, pid and a few random characters (a pid is
    reused after a restart; a lease or a notice of the old process must not look ours)."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(3)}"


def _db_now() -> ColumnElement[Any]:
    # The database's clock, not the processes': hosts may disagree by more than a lease.
    return func.extract("epoch", func.clock_timestamp())


# --- leases (each runs inside a transaction of the caller) ---------------------------------
def hold(s: Session, game_id: str, owner: str, ply: int, seconds: float | None) -> None:
    """The writer of the move that makes a bot's turn due takes that turn's lease at once
    (``seconds`` None: leaves it free for any process, as a stopping one does)."""
    expires = 0.0 if seconds is None else _db_now() + seconds
    stmt = pg_insert(BotLease).values(game_id=game_id, owner=owner, ply=ply, expires=expires)
    s.execute(stmt.on_conflict_do_update(index_elements=[BotLease.game_id], set_={
        "owner": stmt.excluded.owner, "ply": stmt.excluded.ply, "expires": stmt.excluded.expires}))


def drop(s: Session, game_id: str) -> None:
    """No bot turn is due in this game any more (a person is to move, or the game is over)."""
    s.execute(delete(BotLease).where(BotLease.game_id == game_id))


class Leases:
    """Bot-turn leases of one process, in their own short transactions."""

    def __init__(self, store: Store, owner: str, seconds: float) -> None:
        self.store = store
        self.owner = owner
        self.seconds = seconds

    def take(self, game_id: str, ply: int) -> bool:
        """Take the turn at ``ply`` if it is free: expired, released, ours already, or left
        over from an earlier ply (its holder lost a race). Atomic: one taker wins."""
        stmt = pg_insert(BotLease).values(game_id=game_id, owner=self.owner, ply=ply,
                                          expires=_db_now() + self.seconds)
        stmt = stmt.on_conflict_do_update(
            index_elements=[BotLease.game_id],
            set_={"owner": stmt.excluded.owner, "ply": stmt.excluded.ply, "expires": stmt.excluded.expires},
            where=(BotLease.expires < _db_now()) | (BotLease.owner == self.owner) | (BotLease.ply < ply))
        # RETURNING says whether the row was written (an upsert's rowcount is not reliable
        # through the driver).
        with self.store.engine.begin() as conn:
            return conn.execute(stmt.returning(BotLease.game_id)).first() is not None

    def renew(self, game_id: str) -> bool:
        """Keep a turn while the bot thinks; False if it was lost (expired and taken)."""
        with self.store.engine.begin() as conn:
            return _changed(conn.execute(update(BotLease).where(
                BotLease.game_id == game_id, BotLease.owner == self.owner,
            ).values(expires=_db_now() + self.seconds))) == 1

    def release(self, game_id: str) -> None:
        """Hand the turn over now (this process stops, or its bot could not move): any
        other process may take it, and is told so at once."""
        with self.store.engine.begin() as conn:
            done = conn.execute(update(BotLease).where(BotLease.game_id == game_id, BotLease.owner == self.owner)
                                .values(owner="", expires=0.0))
            if _changed(done):
                conn.execute(select(func.pg_notify(CHANNEL, f"l {game_id} -1 {self.owner}")))

    def forget(self, game_id: str) -> None:
        """Drop an expired lease of a game where no bot turn is due after all."""
        with self.store.engine.begin() as conn:
            conn.execute(delete(BotLease).where(BotLease.game_id == game_id, BotLease.expires < _db_now()))

    def expired(self, limit: int = 50) -> list[str]:
        """Games whose bot turn nobody holds: their process died, stopped, or never began it."""
        with self.store.engine.begin() as conn:
            return list(conn.scalars(select(BotLease.game_id).where(BotLease.expires < _db_now())
                                     .order_by(BotLease.expires).limit(limit)))


# --- events ------------------------------------------------------------------------------------
def libpq_url(url: str) -> str:
    """The SQLAlchemy URL as psycopg itself takes it (no ``+psycopg`` driver suffix)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


async def drain(app: Any, grace: float, servers: Any = ()) -> None:
    """The polite stop, before the server closes what is left: no new connection (the
    listening ``servers`` closed), ``/readyz`` 503, bot turns handed over, every client told
    to reconnect (:meth:`Manager.drain`)."""
    for server in servers:
        server.close()  # no new connection from here on
    app.state.stopping = True  # /readyz says so to the load balancer
    manager = getattr(app.state, "manager", None)
    if manager is not None:
        try:
            await manager.drain(grace)
        except Exception:
            log.exception("draining failed; stopping anyway")


def run_server(app: Any, *, grace: float, sockets: list[socket.socket] | None = None, **config: Any) -> None:
    """``uvicorn.run`` with a drain on the way out: when told to stop, the process first
    stops accepting connections, then hands its bot turns over and tells its clients to
    reconnect (:func:`drain`), and only then lets uvicorn close what is left. ``sockets``:
    bound already (the port checked before start-up), else uvicorn binds host and port."""
    import uvicorn

    class DrainingServer(uvicorn.Server):
        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            await drain(app, grace, self.servers)
            await super().shutdown(sockets)

    app.state.drains_itself = True  # the lifespan need not hook the signals (see drain_on_signals)
    server = DrainingServer(uvicorn.Config(app, **config))
    server.run(sockets=sockets)
    if not server.started:
        raise SystemExit(3)


def drain_on_signals(app: Any, grace: float) -> Callable[[], None]:
    """Under a server that is not :func:`run_server` (``uvicorn …:app_from_env --factory``,
    or uvicorn's worker under gunicorn): drain first on SIGTERM or SIGINT, then pass the
    signal on. Called from the lifespan's start-up; answers what undoes it.

    uvicorn's own shutdown closes every WebSocket with a bare 1012 and only then ends the
    lifespan, where the bot turns would be handed over. uvicorn handles these signals with
    ``signal.signal(sig, server.handle_exit)`` while it runs (the lifespan starts inside
    that), so its handler is wrapped here: the drain runs on the event loop, with uvicorn's
    listening sockets closed first, and uvicorn is told to exit once it is done. A second
    signal goes straight to uvicorn (a second Ctrl-C still forces the exit). Nothing is
    hooked off the main thread (a server run in a thread, as in tests: signals never reach
    it) or under a server whose handlers are not uvicorn's.
    """
    if getattr(app.state, "drains_itself", False) or threading.current_thread() is not threading.main_thread():
        return lambda: None
    loop = asyncio.get_running_loop()
    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGTERM, signal.SIGINT)}
    owners = {getattr(h, "__self__", None) for h in previous.values()}
    owner = owners.pop() if len(owners) == 1 else None
    if owner is None or not hasattr(owner, "should_exit") or \
            not all(getattr(h, "__name__", "") == "handle_exit" for h in previous.values()):
        log.info("not under uvicorn's signal handling: SIGTERM stops the server without draining first")
        return lambda: None
    scheduled: list[int] = []
    started: list[asyncio.Task[None]] = []  # the drain (held here: the loop keeps only a weak reference)

    async def drain_then_exit(sig: int) -> None:
        try:
            await drain(app, grace, getattr(owner, "servers", ()))
        finally:
            owner.handle_exit(sig, None)

    def on_signal(sig: int, frame: FrameType | None) -> None:
        if scheduled:
            owner.handle_exit(sig, frame)
            return
        scheduled.append(sig)
        loop.call_soon_threadsafe(lambda: started.append(loop.create_task(drain_then_exit(sig))))

    for sig in previous:
        signal.signal(sig, on_signal)

    def undo() -> None:
        for sig, handler in previous.items():
            if signal.getsignal(sig) is on_signal:
                signal.signal(sig, handler)

    return undo


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
            kind, game_id, ply, origin = payload.split(" ", 3)  # see Store._announce
            self.on_notice(kind, game_id, int(ply), origin)
        except Exception:  # one odd notice must not stop the listening
            log.exception("game event %r could not be handled", payload)
