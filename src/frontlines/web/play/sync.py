"""Keeping the games in this process's memory in step with the database.

On PostgreSQL several server processes may serve the same games (:mod:`frontlines.web.cluster`):
the database is the authority, and a process's games in memory are a cache that catches up
when another process announces a change (a :class:`~frontlines.web.play.events.MoveStored`
or :class:`~frontlines.web.play.events.GameStored` notice), when a write finds the game has
moved on (the table's ``stale`` path), or when a token this copy does not know may have
been given elsewhere.

This module owns the listening connection, the bus's way in from the other processes
(:meth:`Bus.hear <frontlines.web.play.bus.Bus.hear>` is its ``on_notice``); the way out is
each write's own ``pg_notify`` (``Store._announce``). It publishes
:class:`~frontlines.web.play.events.NoticesLost` when the listener had to connect again,
and :class:`~frontlines.web.play.events.GameEnded` (``here=False``) when a copy reads an
ending another process stored.
"""

from __future__ import annotations

import asyncio
import logging

from frontlines.core.errors import FrontlinesError
from frontlines.web import cluster
from frontlines.web.play.events import GameEnded, GameLoaded, GameStored, MoveStored, NoticesLost
from frontlines.web.play.game import LiveGame
from frontlines.web.play.games import GameCache
from frontlines.web.play.process import Process
from frontlines.web.store import StoredGame

log = logging.getLogger("frontlines.web")

# What a copy takes over from the stored row when it catches up (the actions apart).
_ROW_FIELDS = ("seat_hashes", "invite_hash", "names", "status", "result", "reason", "termination", "loser", "clock",
               "rematch", "accounts")


class Sync:
    def __init__(self, process: Process, cache: GameCache) -> None:
        self.process = process
        self.cache = cache
        self.listener: cluster.Listener | None = None
        bus = process.bus
        bus.subscribe(MoveStored, self._stored)
        bus.subscribe(GameStored, self._stored)
        bus.subscribe(NoticesLost, self._lost)
        bus.subscribe(GameLoaded, self._loaded)

    async def start(self) -> None:
        """On PostgreSQL: listen to the other processes' notices (waits until listening:
        moves made before the first LISTEN would never be heard of)."""
        if not self.process.shared:
            return
        self.listener = cluster.Listener(self.process.store.url, self.process.bus.hear, self._gap)
        await self.listener.start()

    async def stop(self) -> None:
        if self.listener is not None:
            await self.listener.stop()

    async def _gap(self) -> None:
        self.process.bus.publish(NoticesLost())

    # --- what the notices set off -------------------------------------------------------
    def _stored(self, notice: MoveStored | GameStored) -> None:
        game = self.cache.games.get(notice.game_id)
        if game is None:
            self.cache.missed(notice.game_id)  # read afresh when next asked for (or read again now)
            return
        if isinstance(notice, MoveStored) and notice.ply <= game.ply:
            return
        self.refresh_soon(game)

    def _lost(self, _: NoticesLost) -> None:
        """Notices were lost while the listener was away: read every game held again."""
        for game in list(self.cache.games.values()):
            self.refresh_soon(game)

    def _loaded(self, event: GameLoaded) -> None:
        if event.missed:
            self.refresh_soon(event.game)

    def refresh_soon(self, game: LiveGame) -> None:
        game.dirty = True
        if game.refresher is None or game.refresher.done():
            game.refresher = asyncio.get_running_loop().create_task(self._refresh(game))

    async def _refresh(self, game: LiveGame) -> None:
        # Notices that arrive during a read set ``dirty`` again: read until none did.
        while game.dirty:
            game.dirty = False
            try:
                async with game.lock:
                    changed = await self.catch_up(game)
            except Exception:
                log.exception("game %s: catching up failed", game.id)
                return
            if changed:
                game.send_views()

    # --- reading what others stored -----------------------------------------------------
    async def catch_up(self, game: LiveGame) -> bool:
        """Read what other processes stored since this copy was made; answer whether
        anything changed. Caller holds the game lock."""
        fresh: StoredGame | None = await self.process.db(self.process.store.load_since, game.id, game.ply)
        if fresh is None:
            return False
        stored = game.stored
        if fresh.setup != stored.setup:  # a re-invite dealt again: start from the new deal
            await self.reload(game)
            return True
        was_active = stored.status == "active"
        changed = bool(fresh.actions)
        try:
            for text in fresh.actions:
                game.state.apply(game.state.parse_action(text))
                stored.actions.append(text)
        except FrontlinesError:
            log.exception("game %s: a stored action does not apply here; reading the whole game", game.id)
            await self.reload(game)
            return True
        for name in _ROW_FIELDS:
            if getattr(stored, name) != getattr(fresh, name):
                setattr(stored, name, getattr(fresh, name))
                changed = True
        if stored.termination and stored.loser is not None and not game.state.is_terminal():
            game.state.resign(stored.loser, stored.termination)  # resigned through another process
        self._unseat_revoked(game)
        self._ended_elsewhere(game, was_active)
        return changed

    async def reload(self, game: LiveGame) -> None:
        """Replace the copy in memory with the game as stored. Caller holds the game lock."""
        loaded: LiveGame | None = await self.process.db(self.cache.load, game.id)
        if loaded is None:
            return
        was_active = game.stored.status == "active"
        game.stored, game.state = loaded.stored, loaded.state
        game._views.clear()
        self._unseat_revoked(game)
        self._ended_elsewhere(game, was_active)

    @staticmethod
    def _unseat_revoked(game: LiveGame) -> None:
        """A seat whose token was revoked elsewhere (a re-invite) is watched from now on."""
        for client in list(game.clients):
            seat = None if client.role is None else client.role.seat
            if seat is not None and not game.hotseat and not game.stored.seat_hashes[seat]:
                game.reseat(client, None)

    def _ended_elsewhere(self, game: LiveGame, was_active: bool) -> None:
        if was_active and game.stored.status != "active":
            self.process.bus.publish(GameEnded(game, here=False))
