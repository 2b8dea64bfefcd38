"""Host side of the engine protocols: an external program playing as a :class:`Bot`.

The program runs as a subprocess (:class:`~frontlines.bots.process.LineProcess`); we
write commands to its stdin and read its stdout one line at a time, each read with a
deadline: a bot that hangs, dies, answers garbage or an illegal action raises :class:`BotError`
from :meth:`ExternalBot.choose` (or :meth:`ExternalBot.new_game` for the handshake), and
the process is killed so that the next game starts a fresh one.

The protocol itself is specified in ``docs/protocol.md``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from frontlines.bots.base import Bot, BotError, Clock
from frontlines.bots.process import LineProcess
from frontlines.core.errors import NotationError
from frontlines.core.game import Action, View

# Seconds allowed for the handshake (``frontlines`` ... ``frontlinesok``, ``isready``).
HANDSHAKE_TIMEOUT = 10.0
# Per-move limit when the game has no clock; keeps a hung bot from blocking a match forever.
MOVE_TIMEOUT = 10.0
# Extra seconds over the clock before the host calls a move late: pipes and process
# scheduling are not free, and the arena's own clock is the real judge.
GRACE = 0.25


def parse_info(words: list[str]) -> dict[str, Any]:
    """``info winprob 0.62 iterations 4000 pv R7@3`` → ``{"winprob": 0.62, ...}``.

    Pairs of key and value; a number is kept as a number; ``string`` takes the rest.
    """
    out: dict[str, Any] = {}
    i = 0
    while i < len(words):
        key = words[i]
        if key == "string":
            out["string"] = " ".join(words[i + 1 :])
            break
        if i + 1 >= len(words):
            out[key] = True
            break
        raw = words[i + 1]
        value: Any = raw
        try:
            value = int(raw)
        except ValueError:
            try:
                value = float(raw)
            except ValueError:
                value = raw
        out[key] = value
        i += 2
    return out


class ExternalBot(Bot):
    """An engine speaking our ``frontlines`` protocol (``docs/protocol.md``)."""

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        seed: int | None = None,
        options: dict[str, str] | None = None,
        handshake_timeout: float = HANDSHAKE_TIMEOUT,
        move_timeout: float = MOVE_TIMEOUT,
        cwd: str | None = None,
    ) -> None:
        self.command = command
        self.seed = seed
        self.options = dict(options or {})
        self.handshake_timeout = handshake_timeout
        self.move_timeout = move_timeout
        self.cwd = cwd
        self.name = "external"
        self.author = ""
        self.advertised: dict[str, str] = {}  # option name -> default, as the engine announced
        self._proc: LineProcess | None = None
        self._last_info: dict[str, Any] = {}

    # --- process life ---------------------------------------------------------------
    def _start(self) -> LineProcess:
        proc = LineProcess(self.command, cwd=self.cwd)
        self._proc = proc
        deadline = time.monotonic() + self.handshake_timeout
        proc.send("frontlines")
        while True:
            line = proc.read(deadline, "frontlinesok")
            words = line.split()
            if not words:
                continue
            if words[0] == "frontlinesok":
                break
            if words[:2] == ["id", "name"] and len(words) > 2:
                self.name = " ".join(words[2:])
            elif words[:2] == ["id", "author"]:
                self.author = " ".join(words[2:])
            elif words[:2] == ["option", "name"] and len(words) > 2:
                default = ""
                if "default" in words:
                    default = " ".join(words[words.index("default") + 1 :])
                self.advertised[words[2]] = default
            elif words[0] in ("id", "option", "info"):
                continue
            else:
                raise BotError("protocol", f"unexpected handshake line {line[:80]!r}")
        options = dict(self.options)
        if self.seed is not None and "seed" in self.advertised:
            options.setdefault("seed", str(self.seed))
        for key, value in options.items():
            proc.send(f"setoption name {key} value {value}")
        return proc

    def _ready(self, proc: LineProcess, timeout: float) -> None:
        proc.send("isready")
        deadline = time.monotonic() + timeout
        while True:
            line = proc.read(deadline, "readyok")
            if line.strip() == "readyok":
                return
            if line.split()[:1] in ([], ["info"]):
                continue
            raise BotError("protocol", f"expected readyok, got {line[:80]!r}")

    def _fail(self, error: BotError) -> BotError:
        # A failed engine is never trusted again: the next game starts a new process.
        self.close()
        return error

    def handshake(self) -> None:
        """Start the engine now (normally done lazily by :meth:`new_game`)."""
        if self._proc is None or not self._proc.alive():
            try:
                proc = self._start()
                self._ready(proc, self.handshake_timeout)
            except BotError as exc:
                raise self._fail(exc) from None

    # --- Bot ------------------------------------------------------------------------
    def new_game(self, ruleset: str, seat: int, seed: int | None = None) -> None:
        self.handshake()
        assert self._proc is not None
        try:
            self._proc.send(f"newgame {ruleset} {seat}" + (f" seed {seed}" if seed is not None else ""))
            self._ready(self._proc, self.handshake_timeout)
        except BotError as exc:
            raise self._fail(exc) from None

    def choose(self, view: View, clock: Clock | None = None) -> Action:
        if self._proc is None or not self._proc.alive():
            self.handshake()
        proc = self._proc
        assert proc is not None
        self._last_info = {}
        go = "go"
        if clock is not None and clock.time_left is not None:
            go += f" time {clock.time_left:.3f} inc {clock.increment:.3f}"
            limit = clock.time_left + GRACE
        else:
            limit = self.move_timeout
        try:
            # Leftovers of the last decision (e.g. a late info line) must not answer this one.
            proc.drain()
            proc.send(f"position {view.to_notation()}")
            proc.send(go)
            deadline = time.monotonic() + limit
            while True:
                line = proc.read(deadline, "action")
                words = line.split()
                if not words:
                    continue
                if words[0] == "info":
                    self._last_info.update(parse_info(words[1:]))
                    continue
                if words[0] != "action" or len(words) != 2:
                    raise BotError("garbage", f"expected 'action <text>', got {line[:80]!r}")
                text = words[1]
                try:
                    action = view.parse_action(text)
                except NotationError as exc:
                    raise BotError("garbage", f"unreadable action {text!r}: {exc}") from None
                if action not in view.legal_actions():
                    raise BotError("illegal", f"illegal action {text!r}")
                return action
        except BotError as exc:
            raise self._fail(exc) from None

    def game_over(self, result: str, reason: str) -> None:
        """Tell the engine how the game ended (informative; engines may ignore it)."""
        if self._proc is not None and self._proc.alive():
            try:
                self._proc.send(f"gameover {result} {reason}")
            except BotError:
                self.close()

    def info(self) -> dict[str, Any]:
        return dict(self._last_info)

    def close(self) -> None:
        if self._proc is not None:
            self._proc.close("quit")
            self._proc = None


def make_external(command: str, protocol: str = "frontlines", seed: int | None = None, **kwargs: Any) -> Bot:
    """An external engine as a bot: ``protocol`` is ``frontlines`` (ours) or ``classic``."""
    if protocol == "frontlines":
        kwargs.pop("repair", None)  # only the classic protocol repairs plays
        return ExternalBot(command, seed=seed, **kwargs)
    if protocol == "classic":
        from frontlines.bots.classic import ClassicExternalBot

        return ClassicExternalBot(command, **kwargs)
    raise ValueError(f"unknown protocol {protocol!r}; use frontlines or classic")


__all__ = ["ExternalBot", "make_external", "parse_info"]
