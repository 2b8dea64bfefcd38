"""The games this process holds in memory: a cache in front of the store.

Live games stay in memory behind an LRU cap; a game that falls out (or that was played
before a restart) is rebuilt from its setup notation and its stored actions. On PostgreSQL
the database is the authority and these copies catch up with other processes' writes
(:mod:`frontlines.web.play.sync`).

It also says whose turn it is in games it need not hold (:meth:`GameCache.whose_turn`, for
the home page's "waiting for you" list).

Publishes :class:`~frontlines.web.play.events.GameLoaded` when a game is read in.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

from frontlines.web.play.events import GameLoaded
from frontlines.web.play.game import LiveGame, rebuild
from frontlines.web.play.process import Process

TURNS_KEPT = 4096  # games whose turn is remembered without holding them


class GameCache:
    """``games``: the games in memory by id, least recently used first."""

    def __init__(self, process: Process, cap: int = 256) -> None:
        self.process = process
        self.cap = cap
        self.games: OrderedDict[str, LiveGame] = OrderedDict()
        self._loading: dict[str, asyncio.Future[LiveGame | None]] = {}
        self._missed: set[str] = set()  # games changed elsewhere while being read here
        # Whose turn it is in games read only to say so: id -> (plies, updated, seat to move).
        self._turns: OrderedDict[str, tuple[int, float, int | None]] = OrderedDict()

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

    async def whose_turn(self, rows: list[dict[str, Any]]) -> None:
        """Add ``to_move`` to games' summaries (``Store.list_games``): the seat whose turn it
        is in an active game, else None. A game in memory says it; another is read and
        rebuilt once per change (remembered by its ply and time of change, not held)."""
        todo: list[dict[str, Any]] = []
        for row in rows:
            row["to_move"] = None
            if row["status"] != "active":
                continue
            live = self.games.get(row["id"])
            known = self._turns.get(row["id"])
            if live is not None and live.ply == row["plies"] and live.stored.status == "active":
                row["to_move"] = None if live.state.is_terminal() else live.state.current_player()
            elif known is not None and known[:2] == (row["plies"], row["updated"]):
                row["to_move"] = known[2]
            else:
                todo.append(row)
        if not todo:
            return
        found = await self.process.db(self._read_turns, [row["id"] for row in todo])
        for row in todo:
            turn = found.get(row["id"])
            if turn is None or turn[:2] != (row["plies"], row["updated"]):
                continue  # gone, or changed since the summary was read: say nothing
            row["to_move"] = turn[2]
            self._turns[row["id"]] = turn
            self._turns.move_to_end(row["id"])
        while len(self._turns) > TURNS_KEPT:
            self._turns.popitem(last=False)

    def _read_turns(self, game_ids: list[str]) -> dict[str, tuple[int, float, int | None]]:
        """Whose turn it is in each game, read and rebuilt (on a database thread)."""
        out: dict[str, tuple[int, float, int | None]] = {}
        for game_id in game_ids:
            stored = self.process.store.load(game_id)
            if stored is None:
                continue
            state = rebuild(stored)
            out[game_id] = (len(stored.actions), stored.updated,
                            None if state.is_terminal() else state.current_player())
        return out
