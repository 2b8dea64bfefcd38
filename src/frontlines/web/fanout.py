"""Connections of the live games: bounded send queues, caps, message rates.

Why: every message used to be awaited in turn by whoever sent it, so one slow socket held
up a whole broadcast, and every join re-sent the view to every client of the game (the
cost grew with the square of the connections). Now:

* each connection has its own bounded queue and its own writer task; putting a message on
  a queue never waits, and a connection whose queue is full (a slow or dead consumer) is
  dropped with close code :data:`CLOSE_TOO_SLOW` instead of holding up anyone;
* a broadcast serialises a change once per audience (seat 0, seat 1, the pass-and-play
  device, spectators) and queues the same text on every connection of that audience;
* caps refuse a connection before it joins (spectators per game, connections per client
  address) and a token bucket limits the messages a connection may send; each refusal
  is an ``error`` message the page can show, then a close code and reason.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import deque
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from frontlines.web.seats import Role

# Close codes (4000-4999 belong to the application); the page turns them into words.
CLOSE_SPECTATORS_FULL = 4001
CLOSE_TOO_MANY_CONNECTIONS = 4002
CLOSE_TOO_MANY_MESSAGES = 4003
CLOSE_TOO_SLOW = 4004
# The standard code for "service restart": this process stops; the page reconnects at once
# (to any process of the server).
CLOSE_RESTART = 1012
RESTART_REASON = "server restarting; reconnect"

# Seconds a close frame may wait for a consumer that no longer reads.
CLOSE_WAIT = 2.0


@dataclass(frozen=True)
class Limits:
    """Caps on connections, with the defaults of ``frontlines serve`` (0: no cap)."""

    spectators_per_game: int = 1000
    connections_per_address: int = 32
    messages_per_second: float = 20.0
    # Messages a connection may send at once before the rate applies: enough for a script
    # that plays a whole game as fast as the server answers; a flood is thousands.
    message_burst: int = 100
    send_queue: int = 64  # messages waiting for a connection before it is dropped as too slow
    presence_every: float = 1.0  # seconds between "who is online" messages to spectators


@dataclass(frozen=True)
class LobbyLimits:
    """The lobby's caps (0: none) and times (:mod:`frontlines.web.lobby`), with the defaults
    of ``frontlines serve``."""

    seeks_per_connection: int = 3
    seeks_per_address: int = 10
    open_seeks: int = 5000  # seeks the lobby lists at once; a new one waits until fewer
    grace: float = 10.0  # seconds a seek outlives its creator's page (a reload, a reconnection)
    lease: float = 15.0  # seconds a process holds its creators' seeks without renewing them
    sweep_every: float = 2.0  # seconds between two sweeps for expired seeks
    flush_every: float = 0.05  # changes to the list reach the pages in batches this far apart
    keep_taken: float = 120.0  # seconds a taken seek's row stays (a creator's page coming back)


class Refused(Exception):
    """A connection over a cap: ``code`` for the page, ``close`` for the WebSocket."""

    def __init__(self, code: str, close: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.close = close
        self.message = message


class Sender(Protocol):
    """What a connection needs of its socket (a Starlette WebSocket in practice)."""

    async def send_text(self, data: str) -> None: ...

    async def receive(self) -> Mapping[str, Any]:
        """The next ASGI event: ``websocket.receive`` (``text`` or ``bytes``) or ``websocket.disconnect``."""
        ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


def dumps(data: Any) -> str:
    """The wire form of a message (compact, UTF-8 as is, like Starlette's ``send_json``)."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


@dataclass
class TokenBucket:
    """``rate`` messages a second on average, up to ``burst`` at once."""

    rate: float
    burst: int
    tokens: float = field(default=0.0)
    stamp: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        self.tokens = float(self.burst)

    def take(self) -> bool:
        if self.rate <= 0:
            return True
        now = time.monotonic()
        self.tokens = min(float(self.burst), self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Client:
    """One connection: its seat, its send queue and writer, why it was dropped if it was."""

    def __init__(self, sender: Sender, role: Role | None, address: str = "", *, queue: int = 64) -> None:
        self.sender = sender
        self.role = role  # None: a spectator
        self.address = address
        # A deque and one future for the writer to wait on, not an asyncio.Queue: a lobby
        # message goes to thousands of pages, and the queue's bookkeeping was a third of
        # the server's cost per page (benchmarks/bench_lobby.py --profile).
        self._queue: deque[str] = deque()
        self._most = max(1, queue)
        self._wake: asyncio.Future[None] | None = None
        self._writer: asyncio.Task[None] | None = None
        self.dropped: tuple[int, str] | None = None
        self.gone = asyncio.Event()  # dropped, or the socket failed: the connection ends
        self.stopped = asyncio.Event()  # the writer is done and the close frame sent (or given up)

    def send(self, text: str) -> None:
        """Queue a message; never waits. A full queue drops the connection."""
        if self.gone.is_set():
            return
        if len(self._queue) >= self._most:
            self.drop(CLOSE_TOO_SLOW, "too slow: messages piled up unread")
            return
        self._queue.append(text)
        wake = self._wake
        if wake is not None and not wake.done():
            wake.set_result(None)

    def send_json(self, data: Any) -> None:
        self.send(dumps(data))

    def drop(self, close: int, reason: str) -> None:
        if self.dropped is None:
            self.dropped = (close, reason)
        self.gone.set()

    def start(self) -> None:
        self._writer = asyncio.get_running_loop().create_task(self._write())

    async def _write(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                while self._queue:
                    await self.sender.send_text(self._queue.popleft())
                self._wake = loop.create_future()
                await self._wake
                self._wake = None
        except asyncio.CancelledError:
            raise
        except Exception:  # the socket closed under us; the connection ends
            self.gone.set()

    async def stop(self) -> None:
        """Stop the writer; say why with a close frame if the connection was dropped."""
        try:
            if self._writer is not None:
                self._writer.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await self._writer
            if self.dropped is not None:
                close, reason = self.dropped
                # A consumer that does not read may never take the close frame either.
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self.sender.close(close, reason), CLOSE_WAIT)
        finally:
            self.stopped.set()

    @property
    def queued(self) -> int:
        return len(self._queue)


# Connections a broadcast queues a message on before it lets the event loop run other work.
BROADCAST_SLICE = 100


class Broadcast:
    """Messages for every connection of a large audience (the lobby's pages), queued a slice
    at a time, in order.

    Why: queuing a message wakes that connection's writer, and the event loop runs every
    writer woken in one go before it looks at its timers again; thousands of pages at once
    held up a clock's flag, and every game's messages, for the whole broadcast. Queued
    :data:`BROADCAST_SLICE` at a time, the loop gets round to them in between. A message
    goes to the connections of the audience as it was when the message was sent: one that
    joins later was given the state as it stands then, and an older message after it would
    take it back."""

    def __init__(self, audience: Callable[[], Collection[Client]], *, slice_size: int = BROADCAST_SLICE) -> None:
        self.audience = audience
        self.slice_size = max(1, slice_size)
        self.sent = 0  # messages queued to connections
        self._outbox: deque[tuple[str, list[Client]]] = deque()
        self._task: asyncio.Task[None] | None = None

    def send(self, text: str) -> None:
        """Send ``text`` to every connection of the audience now; never waits."""
        self._outbox.append((text, list(self.audience())))
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._send_out())

    @property
    def busy(self) -> bool:
        return self._task is not None and not self._task.done()

    async def _send_out(self) -> None:
        while self._outbox:
            text, clients = self._outbox.popleft()
            for start in range(0, len(clients), self.slice_size):
                if start:
                    await asyncio.sleep(0)
                for client in clients[start:start + self.slice_size]:
                    client.send(text)
            self.sent += len(clients)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task


async def refuse(sender: Sender, refused: Refused) -> None:
    """Tell a refused connection why, in a message and in the close frame."""
    with contextlib.suppress(Exception):
        await sender.send_text(dumps({"type": "error", "code": refused.code, "message": refused.message}))
        await sender.close(refused.close, refused.message)
