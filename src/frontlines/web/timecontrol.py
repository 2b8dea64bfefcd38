"""Game clocks of the web app: the time controls and their arithmetic (no I/O).

Two kinds of control (:class:`Control`):

* **live**, Fischer: each player has ``base`` seconds for the game and gets ``increment``
  seconds back at the end of each of their turns. Written ``"300+3"`` (seconds, as the PGN
  ``TimeControl`` tag writes it): five minutes and three seconds a move.
* **days**, correspondence: each turn may take up to ``days`` days; a turn's unused time
  is not kept. Written ``"3d"``.

A *turn* is a run of actions by one player (a Battle Line turn is a card played, the
claims, the draw): time is charged for every action, the increment (or the day budget
again) comes when the turn passes to the other player. **A player's first turn is free**:
their clock starts once they have finished one turn, as on lichess, so that a friend who
opens the invite link late, or a person who reads the table first, loses nothing.

A game with a clock keeps a :class:`ClockState`: the seat whose clock runs, since when, the
deadline, and what each player had left at that moment. Times are seconds since the epoch
*by the database's clock* (several processes on several hosts may serve one game). The
server moves the state on with :func:`advance` in the transaction of every move, and
flags with :func:`flagged` when a deadline has passed (:mod:`frontlines.web.play.clocks`).

>>> c = Control.parse("300+3")
>>> s = start(c, clocked=(True, True), now=0.0)
>>> s = advance(c, s, now=10.0, mover=0, next_to_move=1).state   # seat 0's first turn: free
>>> s = advance(c, s, now=25.0, mover=1, next_to_move=0).state   # seat 1's first turn: free
>>> s.running, s.deadline
(0, 325.0)
>>> step = advance(c, s, now=45.0, mover=0, next_to_move=1)     # 20 s, then 3 s back
>>> step.spent, step.state.left, step.state.running, step.state.deadline
(20.0, (283.0, 300.0), 1, 345.0)
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass, replace
from typing import Any, Literal

# What a time control may be (wider than the home page's presets, narrow enough that a
# number in a request cannot overflow anything or keep a game open for a year).
LIVE_BASE = (15, 3 * 3600)  # seconds a player has for the game
LIVE_INCREMENT = (0, 180)  # seconds a turn gives back
DAYS = (1, 14)  # days a turn may take
DAY = 86400.0

_LIVE = re.compile(r"(\d{1,5})\+(\d{1,3})")
_DAYS = re.compile(r"(\d{1,2})d")


@dataclass(frozen=True)
class Control:
    """A game's time control: ``live`` (``base`` seconds a player, ``increment`` back per
    turn) or ``days`` (``base`` seconds a turn: days times 86,400)."""

    kind: Literal["live", "days"]
    base: float
    increment: float = 0.0

    @classmethod
    def parse(cls, text: str) -> Control | None:
        """``"300+3"``, ``"3d"``; ``""`` is no clock (None). ValueError for anything else,
        saying what a control may be."""
        text = text.strip()
        if not text:
            return None
        if m := _LIVE.fullmatch(text):
            base, increment = int(m.group(1)), int(m.group(2))
            if not LIVE_BASE[0] <= base <= LIVE_BASE[1] or not LIVE_INCREMENT[0] <= increment <= LIVE_INCREMENT[1]:
                raise ValueError(f"a live clock is {LIVE_BASE[0]} to {LIVE_BASE[1]} seconds plus 0 to "
                                 f"{LIVE_INCREMENT[1]} a move, as \"300+3\"")
            return cls("live", float(base), float(increment))
        if m := _DAYS.fullmatch(text):
            days = int(m.group(1))
            if not DAYS[0] <= days <= DAYS[1]:
                raise ValueError(f"a correspondence clock is {DAYS[0]} to {DAYS[1]} days a move, as \"3d\"")
            return cls("days", days * DAY)
        raise ValueError('a clock is "" (none), "<seconds>+<increment>" (live, as "300+3") or "<days>d" (as "3d")')

    def __str__(self) -> str:
        if self.kind == "days":
            return f"{round(self.base / DAY)}d"
        return f"{round(self.base)}+{round(self.increment)}"

    @property
    def days(self) -> int:
        return round(self.base / DAY) if self.kind == "days" else 0

    def to_dict(self) -> dict[str, Any]:
        return {"control": str(self), "kind": self.kind, "base": self.base, "increment": self.increment}


@functools.lru_cache(maxsize=64)
def control_of(text: str) -> Control | None:
    """The control a game stores (``StoredGame.time_control``); None for none or one this
    release cannot read."""
    try:
        return Control.parse(text)
    except ValueError:
        return None


@dataclass(frozen=True)
class ClockState:
    """Where a game's clocks stand, as of ``since`` (database seconds since the epoch).

    ``left``: seconds each seat had at ``since`` (None: that seat has no clock, a bot's);
    ``running``: the seat whose clock runs now (None: none, as in a player's first turn or
    once the game is over); ``deadline``: when it runs out (``since`` plus its time left);
    ``to_move``: the seat to move (its clock may not run yet); ``moved``: bit per seat that
    has finished a turn; ``ply``: the game's ply this state was written at."""

    ply: int
    since: float
    left: tuple[float | None, float | None]
    running: int | None = None
    deadline: float | None = None
    to_move: int | None = None
    moved: int = 0

    def time_left(self, seat: int, now: float) -> float | None:
        """Seconds ``seat`` has at ``now`` (never below 0; None: no clock)."""
        left = self.left[seat]
        if left is None:
            return None
        if seat == self.running:
            left -= now - self.since
        return max(0.0, left)


def start(control: Control, *, clocked: tuple[bool, bool], now: float, to_move: int | None = 0) -> ClockState:
    """A new game's clocks: ``clocked`` says which seats have one (a bot's seat has none)."""
    left = tuple(control.base if on else None for on in clocked)
    return ClockState(ply=0, since=now, left=(left[0], left[1]), to_move=to_move)


@dataclass(frozen=True)
class Step:
    """What one action does to the clocks: the seconds it took (by the database's clock,
    from the action before; charged or not), the new state, and whether the mover's time
    had run out before it arrived (then the action must be refused)."""

    spent: float
    state: ClockState
    out_of_time: bool = False


def _with(state: ClockState, left: list[float | None], **changes: Any) -> ClockState:
    return replace(state, left=(left[0], left[1]), **changes)


def advance(control: Control, state: ClockState, *, now: float, mover: int, next_to_move: int | None) -> Step:
    """``mover`` acted at ``now`` and ``next_to_move`` is to move after it (None: the game
    ended with it). The mover's running clock is charged; at the end of a turn it gets its
    increment (live) or its day budget again (days), and the next player's clock starts
    unless that is their first turn."""
    spent = max(0.0, now - state.since)
    if state.running == mover and state.deadline is not None and now > state.deadline:
        return Step(spent, state, out_of_time=True)
    left = list(state.left)
    moved = state.moved
    charged = state.running == mover and left[mover] is not None
    if charged:
        left[mover] = max(0.0, (left[mover] or 0.0) - spent)
    if next_to_move != mover:  # the turn passes (or the game is over)
        if charged and next_to_move is not None:
            left[mover] = control.base if control.kind == "days" else (left[mover] or 0.0) + control.increment
        moved |= 1 << mover
    runner = next_to_move
    if runner is None or left[runner] is None or not moved & (1 << runner):
        runner = None
    deadline = None if runner is None else now + (left[runner] or 0.0)
    return Step(spent, _with(state, left, ply=state.ply + 1, since=now, running=runner, deadline=deadline,
                             to_move=next_to_move, moved=moved))


def ran_out(state: ClockState, now: float) -> bool:
    """The running clock has reached its deadline by ``now``."""
    return state.running is not None and state.deadline is not None and now >= state.deadline


def stopped(state: ClockState, now: float, *, flag: bool = False) -> ClockState:
    """The clocks once the game is over at ``now`` (a resignation, a flag): the running
    clock is charged up to ``now`` (to 0 when it flags) and nothing runs any more."""
    left = list(state.left)
    if state.running is not None:
        left[state.running] = 0.0 if flag else state.time_left(state.running, now)
    return _with(state, left, since=now, running=None, deadline=None, to_move=None)


def reading(control: Control, state: ClockState, now: float) -> dict[str, Any]:
    """What the pages are told: the control, each seat's time left as of ``now`` (the page
    counts the running one down from when the message arrives), which one runs and who is
    to move. Rounded to milliseconds."""
    left = [state.time_left(seat, now) for seat in (0, 1)]
    return {**control.to_dict(), "left": [None if x is None else round(x, 3) for x in left],
            "running": state.running, "to_move": state.to_move}


def clock_text(seconds: float) -> str:
    """A clock as a person reads it in English logs and records: ``4:59``, ``1:02:03``,
    ``9.4`` under ten seconds, ``2d 3h`` past a day."""
    if seconds >= DAY:
        days, rest = divmod(int(seconds), int(DAY))
        return f"{days}d {rest // 3600}h"
    if seconds < 10:
        return f"{math.floor(seconds * 10) / 10:.1f}"
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


__all__ = ["DAY", "ClockState", "Control", "Step", "advance", "clock_text", "control_of", "ran_out", "reading", "start", "stopped"]
