"""Bot turns: a bot's moves in the games it plays, and on PostgreSQL the lease that says
which process plays each turn.

A bot turn starts when a bot is to move in a game held here: when the game is created or
read in, when a connection joins (a turn that failed, say on a database hiccup, starts
again), after a person's move. The bot works in a worker (:mod:`frontlines.web.workers`)
on its own view, seeded by game and ply so that a turn played again is the same move; its
answer is played through the table like anyone's. A bot that raises, answers an illegal
move or runs out of time forfeits.

Several processes on one PostgreSQL (:mod:`frontlines.web.cluster`): a row of
``bot_leases`` exists while a bot is to move in a game. This module is a write hook of the
table, so the write of the move that makes a bot's turn due takes that turn's lease, for
this process, in the same transaction (a stopping process leaves it free), and the bot's
last move of the turn deletes it. The lease is renewed while the bot thinks. Every process
sweeps for leases that nobody renewed (their process died or hung) and plays those turns;
a stopping process releases its turns, and a
:class:`~frontlines.web.play.events.BotTurnReleased` notice tells the others to take them
at once.

Hears :class:`~frontlines.web.play.events.GameCreated`, ``GameLoaded``, ``Joined``,
``MovePlayed`` (each may make a turn start) and ``BotTurnReleased``; publishes
``MovePlayed`` for the bot's moves (through the table).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import Callable

from sqlalchemy.orm import Session

from frontlines.core.referee import Failure
from frontlines.web import cluster
from frontlines.web.play.events import BotTurnReleased, GameCreated, GameLoaded, Joined, MovePlayed
from frontlines.web.play.game import GameError, LiveGame
from frontlines.web.play.games import GameCache
from frontlines.web.play.process import Process
from frontlines.web.play.sync import Sync
from frontlines.web.play.table import Table, Write
from frontlines.web.workers import BotFault, Bots

log = logging.getLogger("frontlines.web")


class BotTurns:
    def __init__(self, process: Process, cache: GameCache, sync: Sync, table: Table, bots: Bots, *,
                 delay: float = 0.0, lease: float = 10.0) -> None:
        self.process = process
        self.cache = cache
        self.sync = sync
        self.table = table
        self.bots = bots
        self.delay = delay  # seconds a bot waits before it moves, so that a person sees the table change
        self.lease = lease
        self.leases = cluster.Leases(process.store, process.origin, lease) if process.shared else None
        self.held: set[str] = set()  # games whose bot-turn lease this process holds
        self._sweeper: asyncio.Task[None] | None = None
        # The slowest bot decision seen, for the load benchmark and /api/stats.
        self.slowest_s = 0.0
        table.add_hook(self)
        bus = process.bus
        bus.subscribe(GameCreated, lambda event: self.maybe_start(event.game))
        bus.subscribe(GameLoaded, lambda event: self.maybe_start(event.game))
        bus.subscribe(Joined, lambda event: self.maybe_start(event.game))
        bus.subscribe(MovePlayed, lambda event: self.maybe_start(event.game))
        bus.subscribe(BotTurnReleased, self._released)

    async def start(self) -> None:
        """On PostgreSQL: sweep for bot turns that nobody holds."""
        if self.leases is not None:
            # Take over bot turns whose lease nobody renews (their process died or stopped).
            self._sweeper = asyncio.get_running_loop().create_task(
                self.process.sweep(self.lease / 3, self.leases.expired, self._take_over, "bot-turn leases"))

    # --- the lease in the table's writes (a write hook) ---------------------------------
    @staticmethod
    def _bot_next(write: Write) -> bool:
        bot_seat = write.game.stored.bot_seat
        return bot_seat is not None and write.to_move == bot_seat

    def joins(self, write: Write) -> Callable[[Session], None] | None:
        """What a write to a bot game does to its bot-turn lease, in the same transaction:
        this process takes the turn the write makes due, or no turn is due any more."""
        if not self.process.shared or write.game.stored.bot_seat is None:
            return None
        game_id, ply = write.game.id, write.ply
        if self._bot_next(write) and self.process.draining:  # stopping: the turn is left free for another process
            return lambda s: cluster.hold(s, game_id, "", ply, None)
        if self._bot_next(write):
            return lambda s: cluster.hold(s, game_id, self.process.origin, ply, self.lease)
        return lambda s: cluster.drop(s, game_id)

    def committed(self, write: Write) -> None:
        if not self.process.shared or write.game.stored.bot_seat is None:
            return
        if self._bot_next(write) and not self.process.draining:
            self.held.add(write.game.id)
        else:
            self.held.discard(write.game.id)

    # --- turns ----------------------------------------------------------------------
    def maybe_start(self, game: LiveGame) -> None:
        """Start the bot's turn if it is the bot's to move and no turn runs here already."""
        seat = game.stored.bot_seat
        if seat is None or game.stored.status != "active" or game.state.is_terminal():
            return
        if game.state.current_player() != seat:
            return
        if game.bot_thinking:
            return
        if self.process.draining:
            return
        game.bot_task = asyncio.get_running_loop().create_task(self._turns_logged(game, seat))

    async def _turns_logged(self, game: LiveGame, seat: int) -> None:
        try:
            if self.leases is None:
                await self._turns(game, seat)
            else:
                await self._leased_turns(game, seat, self.leases)
        except asyncio.CancelledError:
            raise
        except GameError as exc:  # a forfeit that lost a race: the other process's write stands
            log.warning("game %s: bot turn given up: %s", game.id, exc.message)
        except Exception:  # e.g. the database is down; the next connection restarts the bot
            log.exception("game %s: bot turn failed", game.id)

    async def _leased_turns(self, game: LiveGame, seat: int, leases: cluster.Leases) -> None:
        """A bot turn on a shared database: only with its lease, renewed while the bot thinks."""
        if game.id not in self.held:
            if not await self.process.db(leases.take, game.id, game.ply):
                return  # another process plays this turn; its move will be announced
            self.held.add(game.id)
        try:
            await self._turns(game, seat)
        finally:
            if game.id in self.held:  # the turn was not played out (stopping, a fault): hand it over
                self.held.discard(game.id)
                with contextlib.suppress(Exception):
                    await asyncio.shield(self.process.db(leases.release, game.id))

    async def _turns(self, game: LiveGame, seat: int) -> None:
        spec = game.stored.opponent[4:]
        loop = asyncio.get_running_loop()
        while game.stored.status == "active" and game.state.current_player() == seat and not game.state.is_terminal():
            ply = game.ply
            # Seeded by game and ply so a bot's choice does not depend on server history.
            seed = int.from_bytes(hashlib.sha256(f"{game.id}:{ply}".encode()).digest()[:8], "big") >> 1
            view = game.state.clone().view(seat)
            started = loop.time()
            if self.delay:
                await asyncio.sleep(self.delay)
            # The lease is renewed while the bot thinks, and only then: a renewal must not
            # race the move's own write, which hands the lease on or drops it.
            renewer = None if self.leases is None else loop.create_task(self._renew(game.id, self.leases))
            try:
                # A worker that dies is replaced and asked again inside; only the bot's own
                # fault comes out as BotFault. WorkerLost (the server's fault) propagates:
                # logged, the game waits, and the next connection starts the bot again.
                text = await self.bots.choose(spec, seed, seat, view)
            except BotFault as exc:
                # The server's time limit on a bot is no clock: past it, the bot forfeits
                # (its worker is stuck), as when it raises.
                await self._forfeit(game, seat, ply, Failure.CRASH, str(exc))
                return
            finally:
                if renewer is not None:
                    renewer.cancel()
            self.slowest_s = max(self.slowest_s, loop.time() - started)
            async with game.lock:
                if game.ply != ply or game.stored.status != "active":
                    return  # the game moved on (a resignation) while the bot thought
                try:
                    await self.table.play(game, text, seat)
                except GameError as exc:
                    if exc.code in ("stale", "game_over"):
                        return  # another process played this turn first, or the game ended
                    bad = exc.message
                else:
                    bad = ""
            if bad:
                await self._forfeit(game, seat, ply, Failure.ILLEGAL, bad)
                return
            self.table.moved(game, seat)

    async def _forfeit(self, game: LiveGame, seat: int, ply: int, failure: Failure, detail: str) -> None:
        async with game.lock:
            if game.ply != ply or game.stored.status != "active":
                return
            game.referee.fail(seat, failure, detail)
            await self.table.finish(game)
        game.send_views()

    # --- leases ---------------------------------------------------------------------
    async def _renew(self, game_id: str, leases: cluster.Leases) -> None:
        while True:
            await asyncio.sleep(self.lease / 3)
            try:
                kept = await self.process.db(leases.renew, game_id)
            except Exception:  # the database is away for a moment: try again next time
                log.warning("game %s: renewing the bot turn's lease failed", game_id)
                continue
            if not kept:
                # Another process took the turn over (this one was too slow): whichever
                # stores the move first wins; the other finds the game moved on.
                log.warning("game %s: the bot turn's lease was lost", game_id)
                self.held.discard(game_id)
                return

    def _released(self, notice: BotTurnReleased) -> None:
        """A stopping process handed a bot turn over: take it now."""
        if not self.process.draining:
            asyncio.get_running_loop().create_task(self._take_over(notice.game_id))

    async def _take_over(self, game_id: str) -> None:
        """Play a bot turn whose lease is free, if the bot is still to move in that game."""
        if self.leases is None or self.process.draining:
            return
        game = await self.cache.get(game_id)
        if game is None:
            return
        if game.bot_thinking:
            return  # this process plays the turn already
        self.held.discard(game_id)  # held but not played here (a fault): take it afresh
        async with game.lock:
            await self.sync.catch_up(game)  # decide on the stored game, not on a stale copy
        seat = game.stored.bot_seat
        if seat is None or game.stored.status != "active" or game.state.is_terminal() \
                or game.state.current_player() != seat:
            await self.process.db(self.leases.forget, game_id)
        else:
            self.maybe_start(game)

    # --- stopping -------------------------------------------------------------------
    async def stop(self, grace: float) -> None:
        """The process is draining (no new turn starts): turns in progress get ``grace``
        seconds to finish (on a shared database; alone on SQLite the next start resumes
        them), then are cancelled, which hands their leases over."""
        if self._sweeper is not None:
            self._sweeper.cancel()
        running = [g.bot_task for g in self.cache.games.values() if g.bot_task is not None and not g.bot_task.done()]
        if running and grace > 0 and self.process.shared:
            await asyncio.wait(running, timeout=grace)
        for task in running:
            task.cancel()  # a leased turn releases its lease on the way out
        if running and self.process.shared:
            await asyncio.gather(*running, return_exceptions=True)
