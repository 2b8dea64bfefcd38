"""Keeping a public server tidy: abandoned games leave the live list; game creation is rate limited.

Abandoned games are marked, never deleted: a game with moves is a record someone may
want, and even an empty one costs one row. A game counts as abandoned when nobody has
moved in it for a while: ``unstarted_after`` seconds after its creation if it has no move
(a friend who never came), ``idle_after`` seconds after its last move otherwise. A game
with a seated player connected right now is left alone, however long they think.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from frontlines.web.play.events import GameEnded
from frontlines.web.play.manager import Manager

log = logging.getLogger("frontlines.web")


@dataclass
class RateLimit:
    """A token bucket per client address: ``per_minute`` new games, bursts of as many.

    IPv6 clients are counted per /64 (one home or host usually holds a whole /64).
    ``per_minute <= 0`` turns the limit off.
    """

    per_minute: float
    max_clients: int = 100_000

    def __post_init__(self) -> None:
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key -> (tokens, stamp)

    @staticmethod
    def key(address: str | None) -> str:
        if not address:
            return "?"
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return address
        if isinstance(ip, ipaddress.IPv6Address):
            if ip.ipv4_mapped is not None:
                return str(ip.ipv4_mapped)
            return str(ipaddress.ip_network(f"{ip}/64", strict=False))
        return str(ip)

    def take(self, address: str | None, now: float | None = None) -> float:
        """Spend one token; answer 0 if allowed, else the seconds until one is free."""
        if self.per_minute <= 0:
            return 0.0
        now = time.monotonic() if now is None else now
        key = self.key(address)
        capacity = max(1.0, self.per_minute)
        tokens, stamp = self._buckets.pop(key, (capacity, now))
        tokens = min(capacity, tokens + (now - stamp) * self.per_minute / 60.0)
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            return (1.0 - tokens) * 60.0 / self.per_minute
        self._buckets[key] = (tokens - 1.0, now)
        while len(self._buckets) > self.max_clients:  # the oldest idle address goes first
            self._buckets.popitem(last=False)
        return 0.0


async def abandon_idle(manager: Manager, *, unstarted_after: float, idle_after: float) -> list[str]:
    """One sweep: mark idle games abandoned (in the store and in memory); answer their ids."""
    now = time.time()
    # Games someone sits at, or a bot is thinking in, are not abandoned.
    busy = {gid for gid, g in manager.games.items()
            if any(c.role is not None for c in g.clients) or (g.bot_task is not None and not g.bot_task.done())
            or g.lock.locked()}
    loop = asyncio.get_running_loop()
    ids: list[str] = await loop.run_in_executor(manager.db_executor, lambda: manager.store.abandon_idle(
        unstarted_before=now - unstarted_after, idle_before=now - idle_after, keep=busy))
    for gid in ids:
        game = manager.games.get(gid)
        if game is not None:
            async with game.lock:
                if game.stored.status == "active":
                    game.stored.status = "abandoned"
                    manager.bus.publish(GameEnded(game, here=True))
            await manager.broadcast(game)
    if ids:
        log.info("%d idle games marked abandoned", len(ids))
    return ids


async def sweep_forever(manager: Manager, *, unstarted_after: float, idle_after: float,
                        also: Callable[[], Awaitable[object]] | None = None) -> None:
    """Sweep now and then: every tenth of the shorter time, at most every minute; ``also``
    (forgetting expired sessions and old login counts) with each sweep."""
    period = max(1.0, min(60.0, min(unstarted_after, idle_after) / 10))
    while True:
        try:
            await abandon_idle(manager, unstarted_after=unstarted_after, idle_after=idle_after)
            if also is not None:
                await also()
        except asyncio.CancelledError:
            raise
        except Exception:  # the database may be away for a moment; try again next time
            log.exception("sweeping idle games failed")
        await asyncio.sleep(period)
