"""The games this process holds in memory: a cache in front of the store.

Live games stay in memory behind an LRU cap; a game that falls out (or that was played
before a restart) is rebuilt from its setup notation and its stored actions. On PostgreSQL
the database is the authority and these copies catch up with other processes' writes
(:mod:`frontlines.web.play.sync`).

Publishes :class:`~frontlines.web.play.events.GameLoaded` when a game is read in.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict

from frontlines.web.play.events import GameLoaded
from frontlines.web.play.game import LiveGame, rebuild
from frontlines.web.play.process import Process


class GameCache:
    """``games``: the games in memory by id, least recently used first."""

    def __init__(self, process: Process, cap: int = 256) -> None:
        self.process = process
        self.cap = cap
        self.games: OrderedDict[str, LiveGame] = OrderedDict()
        self._loading: dict[str, asyncio.Future[LiveGame | None]] = {}
        self._missed: set[str] = set()  # games changed elsewhere while being read here

    async def get(self, game_id: str) -> LiveGame | None:
        """The game in memory, read from the store if it is not (None: no such game)."""
        game = self.games.get(game_id)
        if game is not None:
            self.games.move_to_end(game_id)
            return game
        # One load per game even when many clients arrive at once after a restart.
        pending = self._loading.get(game_id)
        if pending is not None:
            return await pending
        future: asyncio.Future[LiveGame | None] = asyncio.get_running_loop().create_future()
        self._loading[game_id] = future
        try:
            loaded: LiveGame | None = await self.process.db(self.load, game_id)
            if loaded is not None:
                self.remember(loaded)
                self.process.bus.publish(GameLoaded(loaded, missed=game_id in self._missed))
            future.set_result(loaded)
            return loaded
        except BaseException as exc:
            future.set_exception(exc)
            raise
        finally:
            del self._loading[game_id]
            self._missed.discard(game_id)

    def missed(self, game_id: str) -> None:
        """A notice about a game that is not in memory: if it is being read right now, the
        read may be too early (its :class:`GameLoaded` says so)."""
        if game_id in self._loading:
            self._missed.add(game_id)

    def load(self, game_id: str) -> LiveGame | None:
        """The game as stored, rebuilt (on a database thread; not remembered)."""
        stored = self.process.store.load(game_id)
        if stored is None:
            return None
        return LiveGame(stored, rebuild(stored))

    def remember(self, game: LiveGame) -> None:
        self.games[game.id] = game
        self.games.move_to_end(game.id)
        if len(self.games) <= self.cap:
            return
        # Drop the least recently used games nobody is watching and no bot is playing;
        # they come back from the store when next asked for.
        for gid in list(self.games):
            if len(self.games) <= self.cap:
                break
            g = self.games[gid]
            if not g.clients and not g.bot_thinking and not g.lock.locked():
                del self.games[gid]
