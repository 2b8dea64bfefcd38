"""The referee: moves, failures, clocks, the move limit, results and records."""

from __future__ import annotations

import doctest
from typing import Any

import pytest

import frontlines.core.referee
from frontlines.bots.base import BotError
from frontlines.core.errors import IllegalAction
from frontlines.core.game import Action, Termination, View
from frontlines.core.record import GameRecord
from frontlines.core.referee import Clock, Failure, PlayerError, Referee, TimeControl
from frontlines.games import new_state, parse_state


class FirstLegal:
    """Plays its first legal action; remembers what it was told."""

    def __init__(self) -> None:
        self.seats: list[int] = []
        self.clocks: list[Clock | None] = []
        self.results: list[tuple[str, str]] = []

    def new_game(self, ruleset: str, seat: int, seed: int | None = None) -> None:
        self.seats.append(seat)

    def choose(self, view: View, clock: Clock | None = None) -> Action:
        self.clocks.append(clock)
        return view.legal_actions()[0]

    def game_over(self, result: str, reason: str) -> None:
        self.results.append((result, reason))


class Failing(FirstLegal):
    """Fails on its ``when``-th decision with ``error``, or answers ``answer`` there."""

    def __init__(self, when: int, error: Exception | None = None, answer: Any = None) -> None:
        super().__init__()
        self.when, self.error, self.answer = when, error, answer

    def choose(self, view: View, clock: Clock | None = None) -> Action:
        if len(self.clocks) == self.when:
            if self.error is not None:
                raise self.error
            return self.answer
        return super().choose(view, clock)


def test_doctests() -> None:
    result = doctest.testmod(frontlines.core.referee)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("ruleset", ["battleline", "warmachine"])
def test_a_game_played_out_is_finished_and_its_record_replays(ruleset: str) -> None:
    players = (FirstLegal(), FirstLegal())
    referee = Referee(new_state(ruleset, seed=3))
    result = referee.play(players, seed=3)
    assert result.finished and result.failed is None and result.failure is None
    assert result.winner == referee.state.outcome().winner  # type: ignore[union-attr]
    assert result.actions == len(referee.state.history) and sum(result.decisions) <= result.actions
    assert [p.seats for p in players] == [[0], [1]]
    assert players[0].results == players[1].results == [(result.result, result.reason)]
    record = GameRecord.parse(referee.record(("a", "b"), {"Seed": "3"}).to_text())
    assert record.tags["Player1"] == "b" and record.tags["Seed"] == "3" and record.tags["Result"] == result.result
    assert record.replay(parse_state) == referee.state


def test_only_the_player_to_move_may_move_and_only_legally() -> None:
    referee = Referee(new_state("battleline", seed=1))
    mover = referee.to_move()
    assert mover is not None
    before = referee.state.to_notation()
    legal = referee.state.legal_actions()[0]
    with pytest.raises(IllegalAction, match="not player"):
        referee.move(1 - mover, legal)
    with pytest.raises(IllegalAction, match="not player"):
        referee.check(1 - mover, legal)
    with pytest.raises(IllegalAction, match="not legal"):
        referee.check(mover, ("no", "such", "action"))
    with pytest.raises(IllegalAction):
        referee.move(mover, ("no", "such", "action"))
    assert referee.state.to_notation() == before
    referee.check(mover, legal)
    referee.move(mover, legal)
    assert list(referee.state.history) == [legal]


@pytest.mark.parametrize(
    ("bad", "failure", "reason", "detail"),
    [
        (Failing(2, error=ValueError("boom")), Failure.CRASH, "forfeit", "crash: ValueError: boom"),
        (Failing(2, error=BotError("garbage", "said hello")), Failure.GARBAGE, "forfeit", "garbage: said hello"),
        (Failing(2, error=PlayerError(Failure.TIMEOUT, "no answer")), Failure.TIMEOUT, "time", "timeout: no answer"),
        (Failing(2, answer="R99@9"), Failure.ILLEGAL, "forfeit", "illegal: "),
        (Failing(2, answer=["unhashable"]), Failure.ILLEGAL, "forfeit", "illegal: "),
    ],
)
def test_a_failing_player_loses_and_the_record_says_why(bad: Failing, failure: Failure, reason: str, detail: str) -> None:
    referee = Referee(new_state("battleline", seed=2))
    other = FirstLegal()
    result = referee.play((other, bad))
    assert (result.failed, result.failure, result.winner, result.reason) == (1, failure, 0, reason)
    assert result.detail.startswith(detail) and result.decisions[1] == 3
    tags = referee.record(("first", "bad")).tags
    assert (tags["Termination"], tags["Loser"], tags["Result"]) == (reason, "1", "1-0")
    assert GameRecord.parse(referee.record().to_text()).replay(parse_state) == referee.state


def test_a_player_that_fails_to_start_loses_before_the_first_move() -> None:
    class Broken(FirstLegal):
        def new_game(self, ruleset: str, seat: int, seed: int | None = None) -> None:
            raise RuntimeError("no such file")

    referee = Referee(new_state("warmachine", seed=1))
    result = referee.play((FirstLegal(), Broken()))
    assert (result.failed, result.failure, result.winner, result.actions) == (1, Failure.CRASH, 0, 0)
    assert result.detail == "crash: new_game raised RuntimeError: no such file"


def test_clocks_count_down_and_overspending_loses_on_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fake clock: every decision of seat 1 takes 2 s, of seat 0 nothing."""

    class Tick:
        now = 0.0

        def perf_counter(self) -> float:
            return self.now

    tick = Tick()
    monkeypatch.setattr(frontlines.core.referee, "time", tick)

    class Slow(FirstLegal):
        def choose(self, view: View, clock: Clock | None = None) -> Action:
            tick.now += 2.0
            return super().choose(view, clock)

    fast, slow = FirstLegal(), Slow()
    referee = Referee(new_state("battleline", seed=5), time_control=TimeControl(5.0, 0.5))
    result = referee.play((fast, slow))
    # seat 1 has 5 s, spends 2 s a decision and gets 0.5 s back: spending all that is left is
    # allowed (the third decision), spending more is not (the fourth)
    assert [c.time_left if c else None for c in slow.clocks] == [5.0, 3.5, 2.0, 0.5]
    assert [c.time_left if c else None for c in fast.clocks] == [5.0 + 0.5 * i for i in range(len(fast.clocks))]
    assert (result.failed, result.failure, result.reason) == (1, Failure.TIMEOUT, "time")
    assert result.detail.startswith("timeout: clock ran out") and result.think[1] == 8.0 and result.longest[1] == 2.0


def test_the_move_limit_stops_a_game_unfinished() -> None:
    players = (FirstLegal(), FirstLegal())
    referee = Referee(new_state("battleline", seed=4), max_actions=25)
    result = referee.play(players)
    assert (result.finished, result.stopped, result.reason, result.result, result.winner) == (False, True, Termination.LIMIT, "*", None)
    assert result.actions == 25 and referee.to_move() is None and not referee.state.is_terminal()
    with pytest.raises(IllegalAction, match="over"):
        referee.move(referee.state.current_player() or 0, referee.state.legal_actions()[0])
    assert players[0].results == [("*", Termination.LIMIT)]
    assert referee.record().tags["Result"] == "*" and "Termination" not in referee.record().tags


def test_undo_moves_can_be_taken_back_and_resigning_ends_the_game() -> None:
    referee = Referee(new_state("battleline", seed=6), undo=True, max_actions=None)
    start = referee.state.to_notation()
    referee.turn(FirstLegal())
    referee.state.pop()
    assert referee.state.to_notation() == start
    referee.resign(1)
    outcome = referee.state.outcome()
    assert outcome is not None and (outcome.winner, outcome.reason) == (0, "resignation")
    referee.fail(0, Failure.CRASH, "too late")  # the game is over: nothing changes
    assert referee.result().failed is None and referee.state.outcome() == outcome
