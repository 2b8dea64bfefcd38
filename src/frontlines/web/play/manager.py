"""The games in play of one server process: its parts, wired on one bus, and how they start
and stop (the drain).

The parts, each a module of this package (docs/web.md, "Server structure", has the map):
``games`` (the cache of games in memory), ``sync`` (keeping them in step with the other
processes), ``table`` (every change to a game), ``connections`` (admission, the read loop,
joining and leaving), ``presence`` (who is online, across processes), ``botturns`` (bot
moves and their leases), ``clocks`` (time left, flags), ``rematch`` (playing again). They share a :class:`~frontlines.web.play.process.Process` (the
store, the database threads, the bus, the caps, the stopping flag) and tell each other what
happened through its :class:`~frontlines.web.play.bus.Bus`.

:class:`Manager` is what the routes see (``app.py``, ``invites.py``, ``housekeeping.py``):
the parts' public calls under one name.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Protocol

from frontlines.web import cluster
from frontlines.web.fanout import CLOSE_RESTART, CLOSE_WAIT, RESTART_REASON, Client, Limits
from frontlines.web.play.botturns import BotTurns
from frontlines.web.play.bus import Bus
from frontlines.web.play.clocks import Clocks
from frontlines.web.play.connections import Connections
from frontlines.web.play.game import LiveGame
from frontlines.web.play.games import GameCache
from frontlines.web.play.presence import Presence
from frontlines.web.play.process import Process, database_threads
from frontlines.web.play.quick import QuickMessages
from frontlines.web.play.rematch import Rematch
from frontlines.web.play.sync import Sync
from frontlines.web.play.table import Table
from frontlines.web.store import Store
from frontlines.web.workers import Bots

log = logging.getLogger("frontlines.web")


class Drains(Protocol):
    """A concern outside the games (the lobby) that a stopping process drains with them:
    ``drain`` answers the connections it told to reconnect (the manager waits for their
    close frames with its own)."""

    async def drain(self) -> list[Client]: ...


class Manager:
    """Owns the games in play, the store's threads and the bots of one server process."""

    def __init__(self, store: Store, *, bots: Bots, cap: int = 256, bot_delay: float = 0.0,
                 limits: Limits | None = None, bot_lease: float = 10.0, clock_sweep: float = 1.0) -> None:
        origin = cluster.process_name()
        store.origin = origin  # the store signs the notices of its writes with it
        self.process = Process(store, Bus(origin), limits or Limits(), database_threads(store))
        # The order of the parts is the order they hear an event in: a game read too early
        # is caught up (sync) before its bot turn starts (bot turns).
        self.cache = GameCache(self.process, cap)
        self.sync = Sync(self.process, self.cache)
        self.table = Table(self.process, self.cache, self.sync)
        self.presence = Presence(self.process, self.cache)
        self.connections = Connections(self.process, self.presence, self.sync)
        self.bot_turns = BotTurns(self.process, self.cache, self.sync, self.table, bots,
                                  delay=bot_delay, lease=bot_lease)
        self.clocks = Clocks(self.process, self.cache, self.sync, self.table, sweep_every=clock_sweep)
        self.rematch = Rematch(self.process, self.cache, self.sync, self.table)
        self.quick = QuickMessages(self.process, self.cache)
        # What the routes use.
        self.store = store
        self.bus = self.process.bus
        self.origin = origin
        self.shared = store.shared
        self.limits = self.process.limits
        self.bots = bots
        self.db_executor = self.process.db_executor
        self.games = self.cache.games
        self.addresses = self.connections.addresses
        self.dropped = self.connections.dropped
        self.get = self.cache.get
        self.create = self.table.create
        self.act = self.table.act
        self.resign = self.table.resign
        self.set_name = self.table.set_name
        self.role_of = self.connections.role_of
        self.serve = self.connections.serve
        self.drains: list[Drains] = []  # drained with the games (the lobby: web/lobby.py)

    @property
    def draining(self) -> bool:
        """Stopping: no new connection is served and no new bot turn starts here."""
        return self.process.draining

    @draining.setter
    def draining(self, value: bool) -> None:
        self.process.draining = value

    @property
    def listener(self) -> cluster.Listener | None:
        return self.sync.listener

    @property
    def slowest_bot_s(self) -> float:
        return self.bot_turns.slowest_s

    async def broadcast(self, game: LiveGame) -> None:
        """Send every connection to ``game`` its view (after a change made outside the table)."""
        game.send_views()

    # --- starting and stopping ----------------------------------------------------------
    async def start(self) -> None:
        """On PostgreSQL: listen to the other processes' notices (first: moves made before
        the first LISTEN would never be heard of), sweep for bot turns that nobody holds,
        and say who is connected here now and then."""
        await self.sync.start()
        await self.bot_turns.start()
        await self.clocks.start()
        await self.presence.start()

    async def drain(self, grace: float) -> None:
        """A stopping process (SIGTERM), once it accepts no new connection: bot turns in
        progress get ``grace`` seconds to finish, the others are handed over; then every
        connection is told to reconnect (close code 1012), which the page does by itself,
        to whichever process the address leads to."""
        await self._stop_bots(grace)
        clients = [client for game in list(self.games.values()) for client in list(game.clients)]
        for client in clients:
            client.drop(CLOSE_RESTART, RESTART_REASON)
        for part in self.drains:
            try:
                clients += await part.drain()
            except Exception:
                log.exception("draining %s failed", type(part).__name__)
        # Each connection sends its own close frame; uvicorn's shutdown, next, would close the
        # sockets under them with a bare 1012 and the reason would be lost.
        if clients:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(*(c.stopped.wait() for c in clients)), CLOSE_WAIT + 1.0)

    async def _stop_bots(self, grace: float) -> None:
        self.process.draining = True
        await self.bot_turns.stop(grace)

    async def close(self, grace: float = 0.0) -> None:
        """Stop: as :meth:`drain` for the bot turns; the connections are gone already."""
        await self._stop_bots(grace)
        await self.clocks.stop()
        await self.presence.stop()
        await self.sync.stop()
        await self.bots.close()
        self.process.db_executor.shutdown(wait=True)
