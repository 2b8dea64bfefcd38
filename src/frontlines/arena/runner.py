"""Playing arena games: one game refereed with clocks and forfeits, and many games on workers.

The referee (:mod:`frontlines.core.referee`) plays each game. A bot failure never stops a
match: :class:`BotError` (timeout, crash, garbage, illegal) and any exception a built-in
bot raises end that game with the failing bot losing on ``time`` or by ``forfeit``, the
reason goes into the record, and the next game starts with a fresh engine process.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from frontlines.arena.backends import Backend, LocalBackend
from frontlines.arena.schedule import BotEntry, GameTask
from frontlines.bots.base import Bot
from frontlines.core.referee import MAX_ACTIONS, Referee, TimeControl


@dataclass
class ArenaGame:
    """One game of a match as the main process needs it (picklable): its place in the
    match, the referee's verdict and the record."""

    index: int
    pair: int
    seed: int
    players: tuple[str, str]
    winner: int | None  # seat; None for a draw
    reason: str
    detail: str = ""
    error_seat: int | None = None  # seat of the bot that failed, if one did
    error: str = ""  # its failure (timeout, crash, garbage, illegal, protocol)
    repairs: tuple[int, int] = (0, 0)  # per seat: invalid classic plays repaired, not forfeited
    decisions: int = 0
    seconds: float = 0.0
    record: dict[str, Any] = field(default_factory=dict)
    replays: int = 0  # times the game was played again from its deal because its worker died

    def score_of(self, name: str) -> float:
        """``name``'s score in this game (1, ½, 0)."""
        if self.winner is None:
            return 0.5
        return 1.0 if self.players[self.winner] == name else 0.0


def make_arena_bot(entry: BotEntry, protocol: str = "frontlines", seed: int | None = None, **external: Any) -> Bot:
    """Build a participant from its spec; ``protocol`` is what its ``cmd:`` engine speaks unless the spec says."""
    from frontlines.bots.registry import make_bot

    try:
        return make_bot(entry.spec, seed, protocol=protocol, **external)
    except ValueError as exc:
        raise ValueError(f"bot {entry.name}: {exc}") from None


def is_classic(entry: BotEntry, protocol: str) -> bool:
    """Does ``entry`` speak the classic protocol (so that its games follow the classic rules)?"""
    from frontlines.bots.registry import parse_spec

    return parse_spec(entry.spec, protocol).classic


def play_task(
    task: GameTask,
    bots: tuple[Bot, Bot],
    *,
    classic_rules: bool = False,
    max_actions: int = MAX_ACTIONS,
) -> ArenaGame:
    """Referee ``task`` between ``bots`` (seat order); never raises for a bot's failure.

    ``classic_rules``: a classic-protocol engine plays, so the game follows the classic
    engine's rules (its options, and the actions it takes by itself).
    """
    from frontlines.games import new_state

    options = dict(task.options)
    automatic = None
    if classic_rules:
        from frontlines.bots.classic import automatic_action, classic_game_options

        options = classic_game_options(task.ruleset, options)
        automatic = automatic_action
    state = new_state(task.ruleset, seed=task.seed, options=options or None)
    clock = None if task.time is None else TimeControl(task.time, task.increment)
    referee = Referee(state, time_control=clock, max_actions=max_actions)
    result = referee.play(bots, seed=task.seed, automatic=automatic)
    extra = {"Event": "frontlines arena", "Round": str(task.index + 1), "Deal": str(task.pair + 1), "Seed": str(task.seed)}
    if task.time is not None:
        extra["TimeControl"] = f"{task.time:g}+{task.increment:g}"
    if options:
        extra["Options"] = ",".join(f"{k}={v}" for k, v in sorted(options.items()))
    if result.failure is not None:
        extra["BotError"] = str(result.failure)
    # A classic-protocol bot counts the invalid plays it had repaired this game.
    repairs = (int(getattr(bots[0], "repairs", 0)), int(getattr(bots[1], "repairs", 0)))
    if any(repairs):
        extra["Repairs"] = f"{repairs[0]}-{repairs[1]}"
    return ArenaGame(
        index=task.index,
        pair=task.pair,
        seed=task.seed,
        players=task.players,
        winner=result.winner,
        reason=result.reason,
        detail=result.detail,
        error_seat=result.failed,
        error=str(result.failure or ""),
        repairs=repairs,
        decisions=sum(result.decisions),
        seconds=result.seconds,
        record=referee.record(task.players, extra).to_json(),
    )


class BotPool:
    """Bots of one worker (this process or another), built once and reused game after game."""

    def __init__(self, entries: Iterable[BotEntry], protocol: str, seed: int | None, external: dict[str, Any]) -> None:
        self.entries = {e.name: e for e in entries}
        self.protocol = protocol
        self.seed = seed
        self.external = external
        self.bots: dict[str, Bot] = {}

    def get(self, name: str) -> Bot:
        bot = self.bots.get(name)
        if bot is None:
            entry = self.entries[name]
            seed = None if self.seed is None else (self.seed * 7919 + sorted(self.entries).index(name))
            bot = make_arena_bot(entry, self.protocol, seed, **self.external)
            self.bots[name] = bot
        return bot

    def classic(self, task: GameTask) -> bool:
        return any(is_classic(self.entries[n], self.protocol) for n in task.players)

    def play(self, task: GameTask) -> ArenaGame:
        a, b = task.players
        if a == b:
            raise ValueError("a bot cannot play itself in one arena game (give it two names)")
        return play_task(task, (self.get(a), self.get(b)), classic_rules=self.classic(task))

    def close(self) -> None:
        for bot in self.bots.values():
            with contextlib.suppress(Exception):
                bot.close()
        self.bots.clear()


class Progress:
    """A one-line progress bar on stderr, redrawn at most five times a second."""

    def __init__(self, total: int | None, label: str = "games", stream: Any = None, enabled: bool = True) -> None:
        self.total = total
        self.label = label
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self.done = 0
        self.started = time.monotonic()
        self._drawn = 0.0
        self.note = ""

    def update(self, done: int, note: str = "") -> None:
        self.done = done
        self.note = note
        now = time.monotonic()
        if self.enabled and (now - self._drawn > 0.2 or done == self.total):
            self._drawn = now
            self.draw()

    def draw(self) -> None:
        elapsed = max(time.monotonic() - self.started, 1e-9)
        rate = self.done / elapsed
        if self.total:
            width = 30
            filled = int(width * self.done / self.total)
            eta = (self.total - self.done) / rate if rate > 0 else 0.0
            line = f"[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} {self.label}  {rate:.2f}/s  eta {eta:.0f}s"
        else:
            line = f"{self.done} {self.label}  {rate:.2f}/s"
        if self.note:
            line += f"  {self.note}"
        self.stream.write("\r" + line + " " * 4)
        self.stream.flush()

    def finish(self) -> None:
        if self.enabled:
            self.draw()
            self.stream.write("\n")
            self.stream.flush()


def run_games(
    entries: list[BotEntry],
    tasks: Iterator[GameTask],
    *,
    workers: int = 1,
    protocol: str = "frontlines",
    seed: int | None = None,
    external: dict[str, Any] | None = None,
    on_result: Callable[[ArenaGame], bool] | None = None,
    backend: Backend | None = None,
) -> list[ArenaGame]:
    """Play ``tasks`` on ``backend`` (default: this machine, in-process when ``workers`` is 1);
    ``on_result`` returning True stops early.

    Results come back in completion order; a stop still lets games in flight finish and
    reports them too (so a pair is never cut in half by the stop itself). A game that was
    played again because its worker died says so in :attr:`ArenaGame.replays`.
    """
    results: list[ArenaGame] = []

    def finished(task: GameTask, game: ArenaGame, replays: int) -> bool:
        if replays:
            game = replace(game, replays=replays)
        results.append(game)
        return on_result is not None and on_result(game)

    start = partial(BotPool, entries, protocol, seed, dict(external or {}))
    (backend or LocalBackend(workers)).run(start, tasks, finished)
    return results


__all__ = ["ArenaGame", "BotPool", "Progress", "is_classic", "make_arena_bot", "play_task", "run_games"]
