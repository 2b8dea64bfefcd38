"""The referee: one game between two players, by the rules and the clock.

Every place that plays a game (``frontlines selfplay``, the arena, the terminal and the
web) lets a :class:`Referee` decide what a move, a failure, a resignation or the clock
does to the game:

* Only the player to move may move, and only a legal action: :meth:`Referee.move` raises
  :class:`~frontlines.core.errors.IllegalAction` otherwise and changes nothing.
* A player that fails (:class:`PlayerError`: it crashed, hung, answered garbage or an
  illegal action) loses at once: on ``time`` when its clock ran out, else by ``forfeit``.
  The outcome's detail says what happened (``"crash: ValueError: ..."``), and so does
  the record (``Termination``, ``Loser``, ``Detail`` tags).
* A :class:`TimeControl` gives each player a budget for the game plus an increment per
  decision; a player is shown its :class:`Clock` and loses on time if it overspends.
* The move limit, for games nobody watches (bots against bots): a game that reaches
  ``max_actions`` actions is stopped and left unfinished, reason ``limit``, result ``*``;
  nobody loses. No ruleset comes near it (a Battle Line game takes well under 200
  actions), so only a bug gets there, and blaming whoever happens to be on move then
  would be arbitrary. Games with people at the table have no limit.

A game between two players that pick their first legal action:

>>> from frontlines.games import new_state
>>> class FirstLegal:
...     def new_game(self, ruleset, seat, seed=None): pass
...     def choose(self, view, clock=None): return view.legal_actions()[0]
>>> referee = Referee(new_state("battleline", seed=1))
>>> result = referee.play((FirstLegal(), FirstLegal()))
>>> result.finished, result.actions == len(referee.state.history), result.failed
(True, True, None)
>>> short = Referee(new_state("battleline", seed=1), max_actions=10).play((FirstLegal(), FirstLegal()))
>>> f"{short.reason} {short.result} after {short.actions} actions"
'limit * after 10 actions'
>>> referee.record(("first", "first")).tags["Player0"]
'first'
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from frontlines.core.errors import FrontlinesError, IllegalAction
from frontlines.core.game import Action, Outcome, State, Termination, View
from frontlines.core.record import GameRecord, result_text

# Actions after which a game between bots is stopped, unfinished (see the module text).
MAX_ACTIONS = 20000


class Failure(StrEnum):
    """How a player failed; the word records and arena tables show."""

    TIMEOUT = "timeout"  # the clock ran out, or no answer in time
    CRASH = "crash"  # an exception, or the engine's process died
    GARBAGE = "garbage"  # an answer that is not an action
    ILLEGAL = "illegal"  # an action the rules do not allow now
    PROTOCOL = "protocol"  # an engine broke its protocol's order of messages


class PlayerError(Exception):
    """A player failed; the referee ends its game with that player losing."""

    def __init__(self, reason: Failure | str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = Failure(reason)
        self.detail = detail


@dataclass(frozen=True, slots=True)
class Clock:
    """Time control seen by the player about to move (seconds)."""

    time_left: float | None = None
    increment: float = 0.0

    def budget(self, moves_left_guess: int = 20) -> float | None:
        """A simple share of the remaining time for one decision."""
        if self.time_left is None:
            return None
        return max(0.01, self.time_left / max(1, moves_left_guess) + 0.8 * self.increment)


@dataclass(frozen=True)
class TimeControl:
    """Each player's time for the whole game, and what every decision adds back."""

    seconds: float
    increment: float = 0.0


class Player(Protocol):
    """What the referee asks of a player (every :class:`~frontlines.bots.base.Bot` is one)."""

    def new_game(self, ruleset: str, seat: int, seed: int | None = None) -> None: ...

    def choose(self, view: View, clock: Clock | None = None) -> Action: ...


@dataclass(frozen=True)
class GameResult:
    """How one refereed game went, per seat where it matters (picklable)."""

    outcome: Outcome | None
    stopped: bool = False  # at the move limit
    failed: int | None = None  # the seat of the player that failed, if one did
    failure: Failure | None = None
    actions: int = 0
    decisions: tuple[int, int] = (0, 0)  # choices asked of each player
    think: tuple[float, float] = (0.0, 0.0)  # seconds each player spent choosing
    longest: tuple[float, float] = (0.0, 0.0)  # each player's slowest decision
    seconds: float = 0.0  # the whole game, wall clock

    @property
    def winner(self) -> int | None:
        return None if self.outcome is None else self.outcome.winner

    @property
    def reason(self) -> Termination:
        if self.outcome is not None:
            return self.outcome.reason
        return Termination.LIMIT if self.stopped else Termination.UNFINISHED

    @property
    def detail(self) -> str:
        return "" if self.outcome is None else self.outcome.detail

    @property
    def finished(self) -> bool:
        return self.outcome is not None

    @property
    def result(self) -> str:
        """``1-0``, ``0-1``, ``1/2-1/2`` or ``*`` (unfinished), as records write it."""
        return result_text(self.outcome)


class Referee:
    """One game: its state, the players' clocks and what they spent, and how it ended.

    ``undo`` makes moves with ``State.push`` so that the caller may ``pop`` them (the
    terminal's take-back); ``initial`` is the starting position when ``state`` is not it.
    """

    def __init__(
        self,
        state: State,
        *,
        time_control: TimeControl | None = None,
        max_actions: int | None = MAX_ACTIONS,
        undo: bool = False,
        initial: State | None = None,
    ) -> None:
        self.state = state
        self.initial = (initial or state).clone()
        self.time_control = time_control
        self.max_actions = max_actions
        self.undo = undo
        start = None if time_control is None else time_control.seconds
        self.clocks: list[float | None] = [start, start]
        self.decisions = [0, 0]
        self.think = [0.0, 0.0]
        self.longest = [0.0, 0.0]
        self.failed: int | None = None
        self.failure: Failure | None = None
        self.stopped = False
        self._began = time.perf_counter()

    # --- questions ------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.stopped or self.state.is_terminal()

    def to_move(self) -> int | None:
        """The seat that must act now; ``None`` when the game is over."""
        return None if self.over else self.state.current_player()

    def check(self, seat: int, action: Action) -> None:
        """Raise :class:`IllegalAction` unless ``seat`` may play ``action`` now (changes nothing)."""
        mover = self.to_move()
        if mover != seat:
            raise IllegalAction("the game is over" if mover is None else f"it is not player {seat + 1}'s turn")
        if not self.state.is_legal(action):
            raise IllegalAction(f"{action!r} is not legal now")

    # --- what players do ------------------------------------------------------------
    def move(self, seat: int, action: Action) -> None:
        """Play ``action`` for ``seat``; :class:`IllegalAction` (nothing changes) if it may not."""
        mover = self.to_move()
        if mover != seat:
            raise IllegalAction("the game is over" if mover is None else f"it is not player {seat + 1}'s turn")
        # apply and push check legality themselves and leave the state untouched when not
        if self.undo:
            self.state.push(action)
        else:
            self.state.apply(action)
        if self.max_actions is not None and len(self.state.history) >= self.max_actions and not self.state.is_terminal():
            self.stopped = True

    def fail(self, seat: int, failure: Failure, detail: str) -> None:
        """``seat`` failed: it loses on time or by forfeit (nothing happens once the game is over)."""
        if self.over:
            return
        self.failed, self.failure = seat, failure
        reason = Termination.TIME if failure is Failure.TIMEOUT else Termination.FORFEIT
        self.state.resign(seat, reason, f"{failure}: {detail}"[:500])

    def resign(self, seat: int) -> None:
        if not self.over:
            self.state.resign(seat, Termination.RESIGNATION)

    # --- a game between players the referee asks in turn ----------------------------
    def start(self, players: Sequence[Player], seed: int | None = None) -> None:
        """Tell each player its seat; a player that fails here loses before the first move."""
        for seat, player in enumerate(players):
            try:
                player.new_game(self.state.ruleset, seat, seed)
            except PlayerError as exc:
                self.fail(seat, exc.reason, exc.detail)
                return
            except Exception as exc:  # a built-in bot's bug must not stop a match
                self.fail(seat, Failure.CRASH, f"new_game raised {type(exc).__name__}: {exc}")
                return

    def turn(self, player: Player, automatic: Callable[[View], Action | None] | None = None) -> None:
        """One action of the player to move, who sees only its own view and its clock.

        ``automatic`` may answer for the player (the classic protocol's forced moves); such
        an action is not a decision and costs no time.
        """
        seat = self.to_move()
        if seat is None:
            return
        view = self.state.view(seat)
        if automatic is not None:
            forced = automatic(view)
            if forced is not None:
                self.move(seat, forced)
                return
        self.decisions[seat] += 1
        left = self.clocks[seat]
        increment = 0.0 if self.time_control is None else self.time_control.increment
        began = time.perf_counter()
        try:
            action = player.choose(view, None if left is None else Clock(left, increment))
        except PlayerError as exc:
            self.fail(seat, exc.reason, exc.detail)
            return
        except Exception as exc:
            self.fail(seat, Failure.CRASH, f"{type(exc).__name__}: {exc}")
            return
        spent = time.perf_counter() - began
        self.think[seat] += spent
        self.longest[seat] = max(self.longest[seat], spent)
        if left is not None:
            if spent > left:
                self.fail(seat, Failure.TIMEOUT, f"clock ran out ({spent:.2f}s used, {left:.2f}s left)")
                return
            self.clocks[seat] = left - spent + increment
        try:
            self.move(seat, action)
        except FrontlinesError as exc:
            self.fail(seat, Failure.ILLEGAL, str(exc))
        except Exception as exc:  # unhashable or foreign objects
            self.fail(seat, Failure.ILLEGAL, f"{type(exc).__name__}: {exc}")

    def play(
        self,
        players: Sequence[Player],
        *,
        seed: int | None = None,
        automatic: Callable[[View], Action | None] | None = None,
    ) -> GameResult:
        """Play the game out between ``players`` (seat order); a player's failure never raises."""
        self.start(players, seed)
        while (seat := self.to_move()) is not None:
            self.turn(players[seat], automatic)
        result = self.result()
        for player in players:  # engines like to hear the result; it changes nothing
            over = getattr(player, "game_over", None)
            if callable(over):
                with contextlib.suppress(Exception):
                    over(result.result, result.reason)
        return result

    # --- the result -----------------------------------------------------------------
    def result(self) -> GameResult:
        return GameResult(
            outcome=self.state.outcome(),
            stopped=self.stopped,
            failed=self.failed,
            failure=self.failure,
            actions=len(self.state.history),
            decisions=(self.decisions[0], self.decisions[1]),
            think=(self.think[0], self.think[1]),
            longest=(self.longest[0], self.longest[1]),
            seconds=time.perf_counter() - self._began,
        )

    def record(self, players: tuple[str, str] = ("", ""), extra: Mapping[str, str] | None = None) -> GameRecord:
        """The game record from the initial position (``extra`` tags after the standard ones)."""
        return GameRecord.from_state(self.initial, self.state, players=players, extra=extra)


__all__ = [
    "MAX_ACTIONS",
    "Clock",
    "Failure",
    "GameResult",
    "Player",
    "PlayerError",
    "Referee",
    "TimeControl",
]
