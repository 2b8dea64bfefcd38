"""Connections to the games in play: who a token seats, the caps that admit or refuse a
connection, its read loop, and joining and leaving a game.

A connection is a :class:`~frontlines.web.fanout.Client` (its send queue and writer are
in :mod:`frontlines.web.fanout`). The caps: spectators per game (counted on this process),
connections per client address, and a token bucket of messages per connection; a refusal
is an ``error`` message, then a close code and reason.

Publishes :class:`~frontlines.web.play.events.Joined` (once the newcomer is counted, before
it is sent its view) and :class:`~frontlines.web.play.events.Left`; tells
:mod:`~frontlines.web.play.presence` of both.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from frontlines.web.fanout import (
    CLOSE_SPECTATORS_FULL,
    CLOSE_TOO_MANY_CONNECTIONS,
    CLOSE_TOO_MANY_MESSAGES,
    CLOSE_TOO_SLOW,
    Client,
    Refused,
    TokenBucket,
    refuse,
)
from frontlines.web.play.events import Joined, Left
from frontlines.web.play.game import LiveGame
from frontlines.web.play.presence import Presence
from frontlines.web.play.process import Process
from frontlines.web.play.sync import Sync
from frontlines.web.seats import Role

_DROP_CAUSES = {CLOSE_TOO_SLOW: "too_slow", CLOSE_TOO_MANY_MESSAGES: "too_many_messages"}


class Connections:
    def __init__(self, process: Process, presence: Presence, sync: Sync) -> None:
        self.process = process
        self.presence = presence
        self.sync = sync
        self.addresses: dict[str, int] = {}  # open connections by client address
        self.dropped: dict[str, int] = {}  # connections dropped or refused, by cause

    async def role_of(self, game: LiveGame, token: str | None, account: int | None = None) -> Role | None:
        """The role ``token`` holds, else the seat of ``account`` (a logged-in player's).
        A token this copy does not know, or an account while the game's invite is open here,
        may have been given a seat through another process a moment ago (an invite spent
        there): ask the database."""
        role = game.role_of(token, account)
        if role is None and self.process.shared and (token or (account is not None and game.stored.invite_hash)):
            async with game.lock:
                if await self.sync.catch_up(game):
                    game.send_views()
            role = game.role_of(token, account)
        return role

    def _count(self, why: str) -> None:
        self.dropped[why] = self.dropped.get(why, 0) + 1

    def admit(self, game: LiveGame, client: Client) -> None:
        """Raise :class:`Refused` for a connection over a cap."""
        lim = self.process.limits
        if client.role is None and lim.spectators_per_game and game.watching_here >= lim.spectators_per_game:
            raise Refused("spectators_full", CLOSE_SPECTATORS_FULL,
                          "this game has as many spectators as it can take; try again later")
        self.admit_address(client)

    def admit_address(self, client: Client) -> None:
        """Raise :class:`Refused` for a connection over its address's cap (games and the
        lobby count together)."""
        lim = self.process.limits
        if lim.connections_per_address and self.addresses.get(client.address, 0) >= lim.connections_per_address:
            raise Refused("too_many_connections", CLOSE_TOO_MANY_CONNECTIONS,
                          "too many connections from your address; close some and try again")

    async def refused(self, client: Client, exc: Refused) -> None:
        """Tell a connection refused by a cap why, and count it."""
        self._count(exc.code)
        await refuse(client.sender, exc)

    async def serve(self, game: LiveGame, client: Client, handle: Callable[[str], Awaitable[None]]) -> None:
        """Run one connection: admit it, send it the view, read its messages until it
        leaves, is dropped (too slow, too many messages) or its socket fails."""
        try:
            self.admit(game, client)
        except Refused as exc:
            await self.refused(client, exc)
            return
        await self.run(client, handle, joined=lambda: self.join(game, client), left=lambda: self.leave(game, client))

    async def run(self, client: Client, handle: Callable[[str], Awaitable[None]], *,
                  joined: Callable[[], None], left: Callable[[], None]) -> None:
        """Run an admitted connection (to a game, or to the lobby): ``joined`` once it is
        counted and its writer started, its messages to ``handle`` (at the message rate)
        until it leaves, is dropped or its socket fails, then ``left``."""
        self.addresses[client.address] = self.addresses.get(client.address, 0) + 1
        client.start()
        reader = asyncio.get_running_loop().create_task(self._read(client, handle))
        gone = asyncio.get_running_loop().create_task(client.gone.wait())
        try:
            joined()
            await asyncio.wait({reader, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            reader.cancel()
            gone.cancel()
            left()
            remaining = self.addresses.get(client.address, 1) - 1
            if remaining > 0:
                self.addresses[client.address] = remaining
            else:
                self.addresses.pop(client.address, None)
            if client.dropped is not None:
                self._count(_DROP_CAUSES.get(client.dropped[0], str(client.dropped[0])))
            await client.stop()

    async def _read(self, client: Client, handle: Callable[[str], Awaitable[None]]) -> None:
        bucket = TokenBucket(self.process.limits.messages_per_second, self.process.limits.message_burst)
        while True:
            try:
                frame = await client.sender.receive()
            except Exception:  # the socket is gone
                return
            if frame["type"] == "websocket.disconnect":
                return
            if not bucket.take():
                client.drop(CLOSE_TOO_MANY_MESSAGES, "too many messages; slow down")
                return
            # Shielded: a connection that ends must not cut a move off between its store
            # and its application. A binary frame is answered like any malformed message.
            await asyncio.shield(handle(frame.get("text") or ""))

    def join(self, game: LiveGame, client: Client) -> None:
        was, mine = game.online(), game.local_seats()
        game.clients.add(client)
        game.connected[client.role] = game.connected.get(client.role, 0) + 1
        self.process.bus.publish(Joined(game, client))  # e.g. a bot turn that failed starts again
        client.send(game.message_text(client.role))
        self.presence.arrived(game, client, was, mine)

    def leave(self, game: LiveGame, client: Client) -> None:
        if client not in game.clients:
            return
        was, mine = game.online(), game.local_seats()
        game.clients.discard(client)
        game.connected[client.role] = game.connected.get(client.role, 1) - 1
        self.presence.departed(game, client, was, mine)
        self.process.bus.publish(Left(game, client))
