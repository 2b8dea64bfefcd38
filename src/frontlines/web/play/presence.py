"""Who is online in a game, and how many watch it, across the processes.

A seat is online when a connection holds it on any process (a bot's seat always is); the
spectator count is the sum over the processes. Each process tells the others, with a
:class:`~frontlines.web.play.events.PresenceSaid` notice (nothing is stored), which seats of
a game are connected to it and how many watch there: when a seat comes or goes, when its
first connection to the game arrives (the others answer with theirs at once), at most once
every ``presence_every`` seconds while spectators come and go, and again every
:data:`PRESENCE_EVERY` seconds; what a process has not said for :data:`PRESENCE_TTL` seconds
no longer counts (it died without saying goodbye).

Here, a seat that comes or goes re-sends the seats their view (a handful of connections);
spectators, who may be thousands, get one small ``presence`` message, at most one per
``presence_every`` seconds.
"""

from __future__ import annotations

import asyncio
import logging
import time

from frontlines.web.fanout import Client
from frontlines.web.play.events import PresenceSaid
from frontlines.web.play.game import LiveGame
from frontlines.web.play.games import GameCache
from frontlines.web.play.process import Process
from frontlines.web.seats import Role

log = logging.getLogger("frontlines.web")

PRESENCE_EVERY = 10.0
PRESENCE_TTL = 3 * PRESENCE_EVERY


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("presence notice failed: %s", task.exception())


class Presence:
    def __init__(self, process: Process, cache: GameCache) -> None:
        self.process = process
        self.cache = cache
        self._heartbeat: asyncio.Task[None] | None = None
        process.bus.subscribe(PresenceSaid, self._heard)

    async def start(self) -> None:
        if self.process.shared:
            self._heartbeat = asyncio.get_running_loop().create_task(self._beat())

    async def stop(self) -> None:
        if self._heartbeat is not None:
            self._heartbeat.cancel()

    # --- connections here come and go (connections.py calls these) ----------------------
    def arrived(self, game: LiveGame, client: Client, was_online: list[bool], was_here: int) -> None:
        """``client`` joined ``game``; ``was_online`` and ``was_here`` are ``game.online()``
        and ``game.local_seats()`` from before."""
        if game.online() != was_online:
            self._changed(game, client)
        # The first connection here also asks: the others answer with their seats.
        if game.local_seats() != was_here or len(game.clients) == 1:
            self._announce(game)
        elif client.role is None:
            self._watching_changed(game)

    def departed(self, game: LiveGame, client: Client, was_online: list[bool], was_here: int) -> None:
        """``client`` left ``game`` (as :meth:`arrived`)."""
        if game.online() != was_online:
            self._changed(game, client)
        if game.local_seats() != was_here:
            self._announce(game)
        elif client.role is None:
            self._watching_changed(game)

    def _changed(self, game: LiveGame, joiner: Client | None) -> None:
        """A seat came or went: the seats get their view again now (not the one that came,
        which has just been sent its own), spectators a presence message soon."""
        texts: dict[Role | None, str] = {}
        for c in game.clients:
            if c.role is not None and c is not joiner:
                c.send(texts.get(c.role) or texts.setdefault(c.role, game.message_text(c.role)))
        if game.watching_here and game.presence_timer is None:
            game.presence_timer = asyncio.get_running_loop().call_later(
                self.process.limits.presence_every, self._send_presence, game)

    @staticmethod
    def _send_presence(game: LiveGame) -> None:
        game.presence_timer = None
        text = game.presence_text()
        for c in list(game.clients):
            if c.role is None:
                c.send(text)

    # --- telling the other processes ----------------------------------------------------
    def _announce(self, game: LiveGame) -> None:
        if self.process.shared:
            task = asyncio.get_running_loop().create_task(
                self.process.db(self.process.store.announce_presence, game.id, game.presence()))
            task.add_done_callback(_log_failure)

    def _watching_changed(self, game: LiveGame) -> None:
        """Spectators came or went here: the other processes hear of it within
        ``presence_every`` seconds, in one notice however many came (they may be thousands)."""
        if self.process.shared and game.watching_timer is None:
            game.watching_timer = asyncio.get_running_loop().call_later(
                self.process.limits.presence_every, self._announce_watching, game)

    def _announce_watching(self, game: LiveGame) -> None:
        game.watching_timer = None
        if not self.process.draining:
            self._announce(game)

    async def _beat(self) -> None:
        """Every PRESENCE_EVERY seconds: say again which seats are connected here, and drop
        what other processes have not said for PRESENCE_TTL (a process that died)."""
        while True:
            await asyncio.sleep(PRESENCE_EVERY)
            now = time.monotonic()
            for game in list(self.cache.games.values()):
                if game.presence():
                    self._announce(game)
                stale = [o for o, (_s, _w, heard) in game.remote.items() if now - heard > PRESENCE_TTL]
                if stale:
                    was = game.online()
                    for origin in stale:
                        del game.remote[origin]
                    if game.online() != was:
                        self._changed(game, None)

    # --- hearing the other processes ----------------------------------------------------
    def _heard(self, notice: PresenceSaid) -> None:
        """Another process said which seats of a game it serves and how many watch there
        (see :meth:`LiveGame.presence`): count them here."""
        game = self.cache.games.get(notice.game_id)
        if game is None:
            return
        presence, origin = notice.number, notice.origin
        was = game.online()
        new = origin not in game.remote
        if presence:
            game.remote[origin] = (presence & 3, presence >> 2, time.monotonic())
        else:
            game.remote.pop(origin, None)
        if game.online() != was:
            self._changed(game, None)
        if new and game.presence():  # a process new to this game: tell it ours without waiting
            self._announce(game)
