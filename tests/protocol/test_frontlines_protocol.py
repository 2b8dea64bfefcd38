"""Our frontlines protocol: a real engine round trip, and every failure with scripted fakes."""

from __future__ import annotations

import io
import sys
import time
from typing import Any

import pytest
from protocol_helpers import fake

from frontlines.arena.runner import ArenaGame, play_task
from frontlines.arena.schedule import GameTask
from frontlines.bots.base import Bot, Clock
from frontlines.bots.engine import EngineServer, parse_spec
from frontlines.bots.external import GRACE, ExternalBot, make_external, parse_info
from frontlines.bots.process import LineProcess
from frontlines.bots.registry import make_bot
from frontlines.core.game import Action, View
from frontlines.core.record import GameRecord
from frontlines.games import new_state, parse_state

RULES = "battleline-basic"
# Limits a loaded machine never reaches (the default 10 s it could, starting Python): tests of
# something else must not lose a game to a slow start or a slow move.
PATIENT: dict[str, Any] = {"handshake_timeout": 300.0, "move_timeout": 300.0}


def task(seed: int = 3, time_s: float | None = None) -> GameTask:
    return GameTask(0, 0, RULES, seed, ("ext", "random"), (), time_s, 0.0)


def play(bot: Bot, seed: int = 3, time_s: float | None = None) -> ArenaGame:
    return play_task(task(seed, time_s), (bot, make_bot("random", 1)))


def test_round_trip_with_frontlines_bot_random() -> None:
    bot = ExternalBot("frontlines bot random --seed 5", **PATIENT)
    try:
        result = play(bot)
        assert result.error_seat is None, result.detail
        assert result.reason in ("breakthrough", "envelopment", "stall")
        assert bot.name == "random" and bot.author == "Frontlines"
        assert "spec" in bot.advertised and "time" in bot.info()
        # The same engine process plays a second game.
        proc = bot._proc
        again = play(bot, seed=4)
        assert again.error_seat is None and bot._proc is proc
        record = GameRecord.from_json(result.record)
        assert record.replay(parse_state).outcome() is not None
    finally:
        bot.close()


def test_external_bot_on_war_machine() -> None:
    bot = ExternalBot("frontlines bot random", **PATIENT)
    try:
        result = play_task(GameTask(0, 0, "warmachine", 2, ("ext", "random"), ()), (bot, make_bot("random", 1)))
        assert result.error_seat is None, result.detail
    finally:
        bot.close()


@pytest.fixture
def limits(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[float]]:
    """The seconds the host gives each wait for a line, by what it waits for: the limits it
    applies, checked as such rather than by how long a game took on this machine."""
    given: dict[str, list[float]] = {}
    read = LineProcess.read

    def spied(self: LineProcess, deadline: float, waiting_for: str) -> str:
        given.setdefault(waiting_for, []).append(deadline - time.monotonic())
        return read(self, deadline, waiting_for)

    monkeypatch.setattr(LineProcess, "read", spied)
    return given


@pytest.mark.parametrize(
    ("mode", "args", "kwargs", "error", "reason", "needle"),
    [
        ("hang", (), {"move_timeout": 0.5}, "timeout", "time", "time limit"),
        ("garbage", (), {}, "garbage", "forfeit", "I think"),
        ("illegal", (), {}, "illegal", "forfeit", "illegal action"),
        ("crash", ("2",), {}, "crash", "forfeit", "simulated crash"),
        ("slow", ("3",), {"handshake_timeout": 0.5}, "timeout", "time", "frontlinesok"),
        ("silent", (), {}, "crash", "forfeit", "exited"),
    ],
)
def test_failures_lose_the_game_with_the_reason_recorded(
    mode: str, args: tuple[str, ...], kwargs: dict[str, Any], error: str, reason: str, needle: str,
    limits: dict[str, list[float]],
) -> None:
    bot = ExternalBot(fake(mode, *args), **{**PATIENT, **kwargs})
    try:
        result = play(bot)
        if mode == "hang":  # the move was given the half second asked for, not the default
            assert max(limits["action"]) <= 0.5
        if mode == "slow":  # as was the handshake (the fake sleeps 3 s in it)
            assert max(limits["frontlinesok"]) <= 0.5
        assert result.error_seat == 0 and result.error == error
        assert result.winner == 1 and result.reason == reason
        assert needle in result.detail
        tags = result.record["tags"]
        assert tags["Termination"] == reason and tags["Loser"] == "0" and tags["BotError"] == error
        replayed = GameRecord.from_json(result.record).replay(parse_state).outcome()
        assert replayed is not None and replayed.winner == 1 and replayed.reason == reason
        assert bot._proc is None  # killed; the next game starts a new process
    finally:
        bot.close()


def test_slow_handshake_within_the_limit_plays() -> None:
    bot = ExternalBot(fake("slow", "0.3"), **PATIENT)
    try:
        result = play(bot)
        assert result.error_seat is None, result.detail
        assert bot.info().get("winprob") == 0.5
    finally:
        bot.close()


def test_game_clock_flags_a_slow_engine(limits: dict[str, list[float]]) -> None:
    bot = ExternalBot(fake("hang"), handshake_timeout=PATIENT["handshake_timeout"], move_timeout=30)
    try:
        result = play(bot, time_s=0.4)
        # the move had what was left on its clock (and the host's grace), not the move limit
        assert max(limits["action"]) <= 0.4 + GRACE
        assert result.error == "timeout" and result.reason == "time"
    finally:
        bot.close()


def test_a_failed_engine_is_restarted_for_the_next_game() -> None:
    bot = ExternalBot(fake("crash", "3"), **PATIENT)
    try:
        first = play(bot, seed=1)
        second = play(bot, seed=2)
        assert first.error == second.error == "crash"
        assert first.decisions > 1 and second.decisions > 1  # each game got a fresh process that played
    finally:
        bot.close()


def test_built_in_bot_exception_is_a_forfeit() -> None:
    class Broken(Bot):
        def choose(self, view: View, clock: Clock | None = None) -> Action:
            raise RuntimeError("boom")

    result = play(Broken())
    assert result.error == "crash" and result.reason == "forfeit" and "boom" in result.detail


def test_make_external_protocols() -> None:
    assert isinstance(make_external("x"), ExternalBot)
    with pytest.raises(ValueError):
        make_external("x", protocol="uci")


def test_parse_info() -> None:
    assert parse_info(["winprob", "0.62", "iterations", "4000", "pv", "R7@3", "string", "deep", "thoughts"]) == {
        "winprob": 0.62, "iterations": 4000, "pv": "R7@3", "string": "deep thoughts",
    }


def test_engine_server_dialogue() -> None:
    out, err = io.StringIO(), io.StringIO()
    server = EngineServer("random", seed=1, out=out, err=err)
    state = new_state(RULES, seed=7)
    seat = state.current_player()
    assert seat is not None
    view = state.view(seat)
    lines = [
        "frontlines", "setoption name seed value 9", "isready", f"newgame {RULES} {seat} seed 7",
        f"position {view.to_notation()}", "go time 5 inc 0.1", "bogus command", "gameover 1-0 x",
    ]
    for line in lines:
        assert server.handle(line)
    assert not server.handle("quit")
    said = out.getvalue().splitlines()
    assert said[0] == "id name random" and "frontlinesok" in said and "readyok" in said
    action_line = said[-1]
    assert action_line.startswith("action ")
    assert view.parse_action(action_line.split()[1]) in view.legal_actions()
    assert server.seed == 9


def test_engine_server_rebuilds_on_options() -> None:
    built: list[str] = []

    def factory(spec: str, seed: int | None) -> Bot:
        built.append(spec)
        return make_bot("random", seed)

    server = EngineServer("ismcts:time=0.5", factory=factory, out=io.StringIO(), err=io.StringIO())
    server.handle("setoption name iterations value 50")
    assert built[-1] == "ismcts:time=0.5,iterations=50"
    server.handle("setoption name spec value heuristic")
    assert built[-1] == "heuristic"
    assert parse_spec("a:b=1, c=2") == ("a", {"b": "1", "c": "2"})


def test_engine_warns_on_bad_position_and_go() -> None:
    err = io.StringIO()
    server = EngineServer("random", out=io.StringIO(), err=err)
    server.handle("position nonsense here")
    server.handle("go")
    assert "cannot read position" in err.getvalue() and "go before position" in err.getvalue()


def test_bot_command_rejects_a_bad_spec() -> None:
    import subprocess

    proc = subprocess.run([sys.executable, "-m", "frontlines.cli", "bot", "nosuchbot"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "unknown bot" in proc.stderr


def test_engine_survives_a_failing_bot() -> None:
    class Broken(Bot):
        def choose(self, view: View, clock: Clock | None = None) -> Action:
            raise RuntimeError("boom")

    out, err = io.StringIO(), io.StringIO()
    server = EngineServer("x", factory=lambda spec, seed: Broken(), out=out, err=err)
    state = new_state(RULES, seed=2)
    seat = state.current_player()
    assert seat is not None
    view = state.view(seat)
    server.handle(f"position {view.to_notation()}")
    server.handle("go")
    assert out.getvalue().splitlines()[-1] == f"action {view.action_to_text(view.legal_actions()[0])}"
    assert "boom" in err.getvalue()


def test_info_line_from_bot_info() -> None:
    from frontlines.bots.engine import _format_info

    line = _format_info({"win_probability": 0.62346, "seconds": 0.5, "time": 0.6, "iterations": 40,
                         "top": [("R7@3", 2, 0.5)], "forced": False, "move": "R7@3"})
    assert line == "info winprob 0.6235 time 0.5 iterations 40 move R7@3"
    assert line is not None and parse_info(line.split()[1:])["winprob"] == 0.6235
