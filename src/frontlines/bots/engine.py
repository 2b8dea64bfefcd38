"""Engine side of our ``frontlines`` protocol: serve any :class:`Bot` over stdin/stdout.

``frontlines bot NAME`` ends up in :func:`serve`. The loop reads one command per line,
answers at once, and never writes anything but protocol lines to stdout (diagnostics go
to stderr). Unknown commands are ignored, so hosts may add commands later. The protocol
is specified in ``docs/protocol.md``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import IO, Any

from frontlines.bots.base import Bot, Clock
from frontlines.core.errors import FrontlinesError
from frontlines.core.game import View

AUTHOR = "Frontlines"


def _format_info(info: dict[str, Any]) -> str | None:
    """A bot's :meth:`Bot.info` as an ``info`` line (numbers and words only, one token each)."""
    fields: dict[str, str] = {}
    # Our bots say win_probability; the protocol's word is winprob.
    aliases = {"win_probability": "winprob", "seconds": "time"}
    for name, value in info.items():
        key = aliases.get(name, name)
        if key in fields or isinstance(value, bool) or not isinstance(value, int | float | str):
            continue
        text = f"{value:.4f}".rstrip("0").rstrip(".") if isinstance(value, float) else str(value)
        if key and text and key != "string" and not any(ch.isspace() for ch in key + text):
            fields[key] = text
    return "info " + " ".join(f"{k} {v}" for k, v in fields.items()) if fields else None


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``ismcts:time=0.5,iterations=9`` → ``("ismcts", {"time": "0.5", "iterations": "9"})``."""
    name, _, rest = spec.partition(":")
    opts: dict[str, str] = {}
    for part in rest.split(","):
        if part.strip():
            key, _, value = part.partition("=")
            opts[key.strip()] = value.strip()
    return name, opts


def build_spec(name: str, opts: dict[str, str]) -> str:
    return name + (":" + ",".join(f"{k}={v}" for k, v in opts.items()) if opts else "")


class EngineServer:
    """The command loop, kept separate from the streams so tests can drive it directly."""

    def __init__(
        self,
        spec: str,
        *,
        seed: int | None = None,
        factory: Callable[[str, int | None], Bot] | None = None,
        name: str | None = None,
        out: IO[str] | None = None,
        err: IO[str] | None = None,
    ) -> None:
        self.spec = spec
        self.seed = seed
        self.factory = factory or _default_factory
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.display_name = name
        self.bot = self.factory(spec, seed)
        self.view: View | None = None
        self.ruleset: str | None = None
        self.seat = 0

    def say(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()

    def warn(self, text: str) -> None:
        self.err.write(f"frontlines bot: {text}\n")
        self.err.flush()

    def _rebuild(self) -> None:
        self.bot.close()
        self.bot = self.factory(self.spec, self.seed)

    def _setoption(self, words: list[str]) -> None:
        # setoption name <N> value <V...>
        if len(words) < 3 or words[1] != "name":
            self.warn(f"bad setoption: {' '.join(words)}")
            return
        try:
            vi = words.index("value")
        except ValueError:
            vi = len(words)
        key = " ".join(words[2:vi])
        value = " ".join(words[vi + 1 :])
        try:
            if key == "spec":
                self.spec = value
            elif key == "seed":
                self.seed = None if value in ("", "none") else int(value)
            elif key == "name":
                self.display_name = value
                return
            else:
                base, opts = parse_spec(self.spec)
                opts[key] = value
                self.spec = build_spec(base, opts)
            self._rebuild()
        except (ValueError, FrontlinesError) as exc:
            self.warn(f"setoption {key}: {exc}")

    def _go(self, words: list[str]) -> None:
        if self.view is None:
            self.warn("go before position")
            return
        time_left: float | None = None
        inc = 0.0
        movetime: float | None = None
        i = 1
        while i + 1 < len(words):
            key, value = words[i], words[i + 1]
            try:
                if key == "time":
                    time_left = None if value in ("none", "inf") else float(value)
                elif key == "inc":
                    inc = float(value)
                elif key == "movetime":
                    movetime = float(value)
            except ValueError:
                self.warn(f"bad go value {key} {value}")
            i += 2
        if movetime is not None and time_left is None:
            time_left = movetime
        clock = Clock(time_left, inc) if time_left is not None else None
        started = time.monotonic()
        try:
            action = self.bot.choose(self.view, clock)
        except Exception as exc:
            # A bug in the bot should cost a move, not the whole engine: say so and play on.
            legal = self.view.legal_actions()
            if not legal:
                self.warn(f"bot failed ({type(exc).__name__}: {exc}) and no action is legal")
                return
            self.warn(f"bot failed ({type(exc).__name__}: {exc}); playing the first legal action")
            action = legal[0]
        info = dict(self.bot.info())
        info.setdefault("time", round(time.monotonic() - started, 3))
        line = _format_info(info)
        if line:
            self.say(line)
        self.say(f"action {self.view.action_to_text(action)}")

    def handle(self, line: str) -> bool:
        """Process one command; ``False`` when the engine should stop."""
        words = line.split()
        if not words:
            return True
        cmd = words[0]
        if cmd == "frontlines":
            self.say(f"id name {self.display_name or self.bot.name or self.spec}")
            self.say(f"id author {AUTHOR}")
            self.say(f"option name spec type string default {self.spec}")
            self.say(f"option name seed type int default {'none' if self.seed is None else self.seed}")
            _base, opts = parse_spec(self.spec)
            for key, value in opts.items():
                self.say(f"option name {key} type string default {value}")
            self.say("frontlinesok")
        elif cmd == "isready":
            self.say("readyok")
        elif cmd == "setoption":
            self._setoption(words)
        elif cmd == "newgame":
            if len(words) < 3 or words[2] not in ("0", "1"):
                self.warn(f"bad newgame: {line.strip()}")
                return True
            self.ruleset, self.seat = words[1], int(words[2])
            seed = self.seed
            if "seed" in words[3:-1]:
                try:
                    seed = int(words[words.index("seed", 3) + 1])
                except ValueError:
                    self.warn("bad newgame seed")
            self.view = None
            self.bot.new_game(self.ruleset, self.seat, seed)
        elif cmd == "position":
            text = line.strip()[len("position") :].strip()
            from frontlines.games import parse_view

            try:
                self.view = parse_view(text)
            except FrontlinesError as exc:
                self.view = None
                self.warn(f"cannot read position: {exc}")
        elif cmd == "go":
            self._go(words)
        elif cmd == "quit":
            return False
        # gameover, stop, and anything unknown: nothing to do (hosts may add commands).
        return True

    def serve(self, stream: IO[str] | None = None) -> int:
        source = stream or sys.stdin
        try:
            for line in source:
                if not self.handle(line):
                    break
        finally:
            self.bot.close()
        return 0


def _default_factory(spec: str, seed: int | None) -> Bot:
    from frontlines.bots.registry import make_bot

    return make_bot(spec, seed)


def serve(spec: str, seed: int | None = None, name: str | None = None) -> int:
    """Run the bot ``spec`` as a ``frontlines``-protocol engine on stdin/stdout."""
    return EngineServer(spec, seed=seed, name=name).serve()


__all__ = ["EngineServer", "build_spec", "parse_spec", "serve"]
