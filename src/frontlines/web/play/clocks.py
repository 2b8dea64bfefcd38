"""Clocks: the time each player has, kept by the server by the database's clock, and the
flag when it runs out, whichever process notices first.

The arithmetic is :mod:`frontlines.web.timecontrol` (live Fischer clocks and correspondence
days a move; a player's first turn free). This part keeps it in the database and acts on it:

* **A write hook of the table.** A game with a clock gets a row of ``clocks`` in the
  transaction that creates it. Every move rewrites that row in the move's own transaction:
  the time the move took (by the database's clock) is charged to the mover and stored with
  the action (``actions.spent``), the increment or the day budget comes back at the end of
  a turn, and the next player's clock starts with its deadline. So no crash can store a
  move without its clock, or a clock without its move. A move that arrives after the
  mover's deadline is refused in that transaction (nothing of it is stored) and the flag
  is stored instead. An ending (a resignation, a flag) stops the clocks in its own
  transaction; a flag is stored only if the database's clock says the deadline has passed
  and the game still stands at that ply.
* **Timers and a sweep.** The process that wrote a move sets a timer for the new deadline;
  a process that reads a game in sets one too, a moment later. Every process also sweeps
  the table every ``sweep_every`` seconds for deadlines that passed more than
  :data:`SWEEP_GRACE` ago (their process died, or the game is not in anyone's memory), as
  bot turns sweep their leases. Whoever flags first stores it (the table's ply guard); the
  others find the game over. So a killed process's games are flagged within about
  ``sweep_every + SWEEP_GRACE`` seconds of their deadline, and nothing is stored twice.
* **Readings.** The view message carries ``clock`` (:func:`~frontlines.web.timecontrol.reading`):
  each seat's time left when the message was made and whose clock runs; pages count down
  from there.

Hears :class:`~frontlines.web.play.events.GameLoaded` (arm a timer),
:class:`~frontlines.web.play.events.MoveStored` / ``GameStored`` (another process wrote: its
timer is the one that counts), :class:`~frontlines.web.play.events.GameEnded` (disarm).
"""

from __future__ import annotations

import asyncio
import logging
import statistics
import time
from collections import deque
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from frontlines.core.referee import Failure
from frontlines.web.play.events import GameEnded, GameLoaded, GameStored, MoveStored
from frontlines.web.play.game import GameError, LiveGame
from frontlines.web.play.games import GameCache
from frontlines.web.play.process import Process
from frontlines.web.play.sync import Sync
from frontlines.web.play.table import Table, Write, WriteRefused
from frontlines.web.store import ActionRow, ClockRow
from frontlines.web.timecontrol import ClockState, Control, advance, control_of, ran_out, start, stopped

log = logging.getLogger("frontlines.web")

# Seconds past a deadline before a sweep flags it: the timer of the process that wrote the
# last move flags it on the dot; the sweeps are there for a process that died.
SWEEP_GRACE = 0.25
# Seconds after the deadline a process that only read the game in flags it (its writer's
# timer goes first; two tries cost nothing but a refused write).
READER_DELAY = 0.1


class Clocks:
    def __init__(self, process: Process, cache: GameCache, sync: Sync, table: Table, *,
                 sweep_every: float = 1.0) -> None:
        self.process = process
        self.cache = cache
        self.sync = sync
        self.table = table
        self.sweep_every = sweep_every
        # The database's clock minus this host's (seconds), as last measured: what this
        # process's timers and readings add to time.time().
        self.offset = 0.0
        # what a write's part wrote, for committed(): the clocks, and how late a flag was
        self._pending: dict[str, tuple[ClockState, float | None]] = {}
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._sweeper: asyncio.Task[None] | None = None
        # How late flags stored here were (database seconds past the deadline), for /api/stats.
        self.late: deque[float] = deque(maxlen=1000)
        self.flagged = 0
        table.add_hook(self)
        bus = process.bus
        bus.subscribe(GameLoaded, lambda event: self.arm(event.game, later=READER_DELAY))
        bus.subscribe(MoveStored, lambda notice: self._written_elsewhere(notice.game_id))
        bus.subscribe(GameStored, lambda notice: self._written_elsewhere(notice.game_id))
        bus.subscribe(GameEnded, lambda event: self.disarm(event.game.id))

    async def start(self) -> None:
        # Flag games whose clock ran out and that no timer here flagged: their process died,
        # or nobody holds them in memory.
        self._sweeper = asyncio.get_running_loop().create_task(
            self.process.sweep(self.sweep_every, self._due_rows, self.flag, "clocks"))

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        for task in list(self._tasks):
            task.cancel()

    def now(self) -> float:
        """The database's clock, as this process estimates it."""
        return time.time() + self.offset

    def _db_now(self, s: Any) -> float:
        now = self.process.store.now(s)
        self.offset = now - time.time()
        return now

    # --- the write hook -------------------------------------------------------------------
    def joins(self, write: Write) -> Callable[[Session], None] | None:
        control = control_of(write.game.stored.time_control)
        if control is None:
            return None
        game_id = write.game.id
        if write.what == "create":
            bot_seat = write.game.stored.bot_seat
            clocked = (bot_seat != 0, bot_seat != 1)  # a bot's seat has no clock

            def created(s: Session) -> None:
                state = start(control, clocked=clocked, now=self._db_now(s), to_move=write.to_move)
                row = ClockRow(game_id=game_id, control=str(control))
                row.set(state)
                s.add(row)
                self._pending[game_id] = (state, None)

            return created
        if write.what == "move":
            return lambda s: self._move(s, control, write)
        return lambda s: self._end(s, write)

    def _move(self, s: Session, control: Control, write: Write) -> None:
        game_id, seat = write.game.id, write.seat
        assert seat is not None
        row = s.get(ClockRow, game_id)
        if row is None:
            return
        step = advance(control, row.state(), now=self._db_now(s), mover=seat, next_to_move=write.to_move)
        if step.out_of_time:
            async def settle(game: LiveGame) -> None:
                if await self._flag_locked(game, seat):
                    game.send_views()

            raise WriteRefused("out_of_time", "your time ran out before this move arrived", settle)
        state = replace(step.state, ply=write.ply)
        row.set(state)
        s.execute(update(ActionRow).where(ActionRow.game_id == game_id, ActionRow.ply == write.ply)
                  .values(spent=round(step.spent, 3)))
        self._pending[game_id] = (state, None)

    def _end(self, s: Session, write: Write) -> None:
        row = s.get(ClockRow, write.game.id)
        if row is None:
            return
        state, now = row.state(), self._db_now(s)
        ending = write.ending or {}
        flag = ending.get("termination") == "time"
        if flag and not (ran_out(state, now) and state.running == ending.get("loser") and state.ply == write.ply):
            raise WriteRefused("not_out_of_time", "the clock has not run out")
        final = stopped(state, now, flag=flag)
        row.set(final)
        self._pending[write.game.id] = (final, now - state.deadline if flag and state.deadline is not None else None)

    def committed(self, write: Write) -> None:
        pending = self._pending.pop(write.game.id, None)
        if pending is None:
            return
        state, late = pending
        if late is not None:
            self.late.append(late)
            self.flagged += 1
        write.game.stored.clock = state
        write.game.clock_offset = self.offset
        if state.deadline is None:
            self.disarm(write.game.id)
        else:
            self.arm(write.game)

    # --- timers ---------------------------------------------------------------------------
    def arm(self, game: LiveGame, later: float = 0.0) -> None:
        """Flag ``game`` when its running clock runs out (``later`` seconds after)."""
        self.disarm(game.id)
        game.clock_offset = self.offset
        state = game.stored.clock
        if state is None or state.deadline is None or game.stored.status != "active" or self.process.draining:
            return
        delay = max(0.0, state.deadline - self.now() + later)
        self._timers[game.id] = asyncio.get_running_loop().call_later(delay, self._due, game.id)

    def disarm(self, game_id: str) -> None:
        handle = self._timers.pop(game_id, None)
        if handle is not None:
            handle.cancel()

    def _written_elsewhere(self, game_id: str) -> None:
        # Another process stored a move or an ending: its timer counts now (and the sweep
        # is there if it dies).
        self.disarm(game_id)

    def _due(self, game_id: str) -> None:
        self._timers.pop(game_id, None)
        task = asyncio.get_running_loop().create_task(self.flag(game_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # --- flagging -------------------------------------------------------------------------
    async def flag(self, game_id: str) -> bool:
        """Flag the game if its running clock has run out (by the database's clock); True if
        this process stored the flag. Anything else is left as it is, with a timer again
        for a clock that has not run out."""
        try:
            game = await self.cache.get(game_id)
            if game is None:
                return False
            async with game.lock:
                await self.sync.catch_up(game)  # decide on the stored game, not a stale copy
                state = game.stored.clock
                if state is not None and state.running is not None and game.stored.status != "active":
                    await self.process.db(self._stop_row, game_id)  # ended outside the table (abandoned)
                    return False
                if game.stored.status != "active" or state is None or state.running is None:
                    return False
                flagged = ran_out(state, self.now()) and await self._flag_locked(game, state.running)
            if flagged:
                game.send_views()
            else:
                self.arm(game, later=0.02)
            return flagged
        except asyncio.CancelledError:
            raise
        except Exception:  # the database may be away a moment: the sweep tries again
            log.exception("game %s: flagging failed", game_id)
            return False

    async def _flag_locked(self, game: LiveGame, seat: int) -> bool:
        """Store that ``seat`` lost on time (the caller holds the game's lock)."""
        if game.stored.status != "active" or game.referee.over:
            return False
        game.referee.fail(seat, Failure.TIMEOUT, f"the clock ran out ({game.stored.time_control})")
        try:
            await self.table.finish(game)  # only at this ply, and only once the deadline passed
        except GameError as exc:  # another process moved or flagged first (the copy is reloaded)
            log.debug("game %s: flag not stored: %s", game.id, exc.message)
            return False
        return True

    def _stop_row(self, game_id: str) -> None:
        with self.process.store.engine.begin() as conn:
            conn.execute(update(ClockRow).where(ClockRow.game_id == game_id).values(running=None, deadline=None))

    def _due_rows(self, limit: int = 100) -> list[str]:
        with self.process.store.engine.begin() as conn:
            now = self._db_now(conn)
            return list(conn.scalars(select(ClockRow.game_id).where(ClockRow.deadline < now - SWEEP_GRACE)
                                     .order_by(ClockRow.deadline).limit(limit)))

    def stats(self) -> dict[str, Any]:
        """Flags stored by this process and how late they were (ms past the deadline)."""
        late = sorted(self.late)
        return {"flagged": self.flagged,
                "late_ms_median": round(statistics.median(late) * 1000, 1) if late else None,
                "late_ms_max": round(late[-1] * 1000, 1) if late else None}
