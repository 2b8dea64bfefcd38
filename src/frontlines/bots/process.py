"""A subprocess spoken to in lines with deadlines: what both engine protocols run on.

A reader thread feeds a queue so that every read can wait with a deadline; a process that
hangs or dies raises :class:`~frontlines.bots.base.BotError` (``timeout``/``crash``).
:mod:`frontlines.bots.external` (our protocol) and :mod:`frontlines.bots.classic` (the
classic one) both host their engines through it.
"""

from __future__ import annotations

import collections
import os
import queue
import shlex
import subprocess
import sys
import threading
import time
from collections.abc import Sequence

from frontlines.bots.base import BotError

_EOF = object()


def split_command(command: str | Sequence[str]) -> list[str]:
    """A command line as an argument list; a leading ``frontlines`` runs this package's CLI."""
    args = shlex.split(command) if isinstance(command, str) else list(command)
    if not args:
        raise ValueError("empty bot command")
    # Run our own CLI with the current interpreter, so that no installed script is needed.
    if args[0] == "frontlines":
        args = [sys.executable, "-m", "frontlines.cli", *args[1:]]
    elif args[0] in ("python", "python3"):
        args = [sys.executable, *args[1:]]
    return args


class LineProcess:
    """A subprocess spoken to in ``\\n``-terminated lines, with timed reads."""

    def __init__(self, command: str | Sequence[str], *, cwd: str | None = None) -> None:
        self.args = split_command(command)
        env = dict(os.environ)
        env.setdefault("PYTHONUNBUFFERED", "1")
        try:
            self.proc = subprocess.Popen(
                self.args,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                cwd=cwd,
                env=env,
            )
        except OSError as exc:
            raise BotError("crash", f"cannot start {self.args[0]!r}: {exc}") from exc
        self._lines: queue.Queue[object] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=20)
        self.transcript: collections.deque[str] = collections.deque(maxlen=5000)  # for debugging a bot
        threading.Thread(target=self._pump_stdout, daemon=True).start()
        self._stderr_pump = threading.Thread(target=self._pump_stderr, daemon=True)
        self._stderr_pump.start()

    def _pump_stdout(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line.rstrip("\r\n"))
        self._lines.put(_EOF)

    def _pump_stderr(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self._stderr.append(line.rstrip("\r\n"))

    def stderr_tail(self) -> str:
        return " | ".join(list(self._stderr)[-3:])

    def alive(self) -> bool:
        return self.proc.poll() is None

    def _died(self, what: str) -> BotError:
        try:
            code = self.proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            code = None
        if code is not None:
            # The process is gone, so its stderr ends: let the reader take the last lines (a traceback)
            # into the detail. Waiting on the reader, not on the clock: a loaded machine may not have run it
            # yet. Bounded, for a grandchild that kept the pipe open.
            self._stderr_pump.join(timeout=2.0)
        tail = self.stderr_tail()
        detail = f"process exited (code {code}) {what}" + (f"; stderr: {tail}" if tail else "")
        return BotError("crash", detail)

    def send(self, line: str) -> None:
        self.transcript.append(f"> {line}")
        if self.proc.stdin is None or self.proc.poll() is not None:
            raise self._died(f"before {line.split(' ', 1)[0]!r} could be sent")
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError) as exc:
            raise self._died(f"while sending {line.split(' ', 1)[0]!r}") from exc

    def read(self, deadline: float, waiting_for: str) -> str:
        """The next line, or :class:`BotError` ``timeout``/``crash`` at ``deadline`` (monotonic)."""
        remaining = deadline - time.monotonic()
        try:
            item = self._lines.get(timeout=max(0.0, remaining))
        except queue.Empty:
            raise BotError("timeout", f"no answer within the time limit while waiting for {waiting_for}") from None
        if item is _EOF:
            self._lines.put(_EOF)  # keep reporting the end to later reads
            raise self._died(f"while the host waited for {waiting_for}")
        assert isinstance(item, str)
        self.transcript.append(f"< {item}")
        return item

    def drain(self) -> list[str]:
        """Lines already waiting (printed after an answer); the end-of-output mark stays queued."""
        out: list[str] = []
        while True:
            try:
                item = self._lines.get_nowait()
            except queue.Empty:
                return out
            if item is _EOF:
                self._lines.put(_EOF)
                return out
            assert isinstance(item, str)
            self.transcript.append(f"< {item} (late, ignored)")
            out.append(item)

    def close(self, quit_line: str | None = None, wait: float = 0.5) -> None:
        """Ask politely (``quit_line``), then terminate, then kill."""
        if self.proc.poll() is None and self.proc.stdin is not None:
            try:
                if quit_line is not None:
                    self.proc.stdin.write(quit_line + "\n")
                    self.proc.stdin.flush()
                # End of input is the other polite way to ask an engine to stop.
                self.proc.stdin.close()
            except (BrokenPipeError, OSError, ValueError):
                pass
        for stop in (None, self.proc.terminate, self.proc.kill):
            if stop is not None and self.proc.poll() is None:
                stop()
            try:
                self.proc.wait(timeout=wait)
                break
            except subprocess.TimeoutExpired:
                continue
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass


__all__ = ["LineProcess", "split_command"]
