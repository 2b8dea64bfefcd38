"""Games being played: in-memory states backed by the store, connections, bot turns.

Live games stay in memory behind an LRU cap; a game that falls out (or that was played
before a restart) is rebuilt from its setup notation and its stored actions.

On PostgreSQL several server processes may serve the same games (:mod:`frontlines.web.cluster`):
the database is the authority, and a process's games in memory are a cache that catches
up when another process announces a change, or when a write finds the game has moved on.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import hashlib
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy.orm import Session

from frontlines.core.errors import FrontlinesError, IllegalAction
from frontlines.core.reasons import english
from frontlines.core.referee import Failure
from frontlines.games import game_module
from frontlines.web import cluster, seats
from frontlines.web.fanout import (
    CLOSE_RESTART,
    CLOSE_SPECTATORS_FULL,
    CLOSE_TOO_MANY_CONNECTIONS,
    CLOSE_TOO_MANY_MESSAGES,
    CLOSE_TOO_SLOW,
    CLOSE_WAIT,
    RESTART_REASON,
    Client,
    Limits,
    Refused,
    TokenBucket,
    refuse,
)
from frontlines.web.play.game import MAX_NAME, OPPONENTS, GameError, LiveGame, ending_of, rebuild
from frontlines.web.seats import Role
from frontlines.web.store import GameClosed, StaleGame, Store, StoredGame
from frontlines.web.workers import BotFault, Bots

log = logging.getLogger("frontlines.web")

# Several processes on one PostgreSQL: each says which seats of its games are connected to
# it when that changes and again every PRESENCE_EVERY seconds; what a process has not said
# for PRESENCE_TTL seconds no longer counts (it died without saying goodbye).
PRESENCE_EVERY = 10.0
PRESENCE_TTL = 3 * PRESENCE_EVERY


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("presence notice failed: %s", task.exception())


_DROP_CAUSES = {CLOSE_TOO_SLOW: "too_slow", CLOSE_TOO_MANY_MESSAGES: "too_many_messages"}


# --- all games --------------------------------------------------------------------------
class Manager:
    """Owns the live games, the store and the bots."""

    def __init__(self, store: Store, *, bots: Bots, cap: int = 256, bot_delay: float = 0.0,
                 limits: Limits | None = None, bot_lease: float = 10.0) -> None:
        self.store = store
        # PostgreSQL: other processes may serve the same games (see frontlines.web.cluster).
        self.shared = store.shared
        self.origin = cluster.process_name()
        store.origin = self.origin
        self.bot_lease = bot_lease
        self.leases = cluster.Leases(store, self.origin, bot_lease) if self.shared else None
        self.held: set[str] = set()  # games whose bot-turn lease this process holds
        self.listener: cluster.Listener | None = None
        self._lease_sweeper: asyncio.Task[None] | None = None
        self._presence_task: asyncio.Task[None] | None = None
        self.draining = False  # stopping: no new bot turn starts here
        self.bots = bots
        self.limits = limits or Limits()
        self.addresses: dict[str, int] = {}  # open connections by client address
        self.dropped: dict[str, int] = {}  # connections dropped or refused, by cause
        self.cap = cap
        self.bot_delay = bot_delay
        self.games: OrderedDict[str, LiveGame] = OrderedDict()
        self._loading: dict[str, asyncio.Future[LiveGame | None]] = {}
        self._missed: set[str] = set()  # games changed elsewhere while being read here
        # The slowest bot decision seen, for the load benchmark and /api/stats.
        self.slowest_bot_s = 0.0
        # SQLite takes one writer at a time: one thread queues the writes instead of many
        # threads spinning on the file lock. PostgreSQL gets a few connections (no more
        # threads than its pool could serve at once: the others would only wait there).
        workers = 1 if store.url.startswith("sqlite") else min(4, store.pool.most)
        self.db_executor = concurrent.futures.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="frontlines-db")

    async def _db(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.db_executor, lambda: fn(*args, **kwargs))

    async def start(self) -> None:
        """On PostgreSQL: listen to the other processes' changes and sweep for bot turns
        that nobody holds."""
        if not self.shared:
            return
        self.listener = cluster.Listener(self.store.url, self._notice, self._gap)
        await self.listener.start()
        self._lease_sweeper = asyncio.get_running_loop().create_task(self._sweep_leases())
        self._presence_task = asyncio.get_running_loop().create_task(self._presence_heartbeat())

    # --- other processes' changes -----------------------------------------------------
    def _notice(self, kind: str, game_id: str, ply: int, origin: str) -> None:
        if origin == self.origin:
            return
        if kind == "l":  # a stopping process handed a bot turn over: take it now
            if not self.draining:
                asyncio.get_running_loop().create_task(self._take_over(game_id))
            return
        game = self.games.get(game_id)
        if kind == "p":
            if game is not None:
                self._heard_presence(game, origin, ply)
            return
        if game is None:
            if game_id in self._loading:  # being read right now: the read may be too early
                self._missed.add(game_id)
            return  # nobody here holds it: it is read afresh when next asked for
        if kind == "m" and ply <= game.ply:
            return
        self._refresh_soon(game)

    def _heard_presence(self, game: LiveGame, origin: str, presence: int) -> None:
        """Another process said which seats of ``game`` it serves and how many watch there
        (see :meth:`LiveGame.presence`): count them here."""
        was = game.online()
        new = origin not in game.remote
        if presence:
            game.remote[origin] = (presence & 3, presence >> 2, time.monotonic())
        else:
            game.remote.pop(origin, None)
        if game.online() != was:
            self._presence_changed(game, None)
        if new and game.presence():  # a process new to this game: tell it ours without waiting
            self._announce_presence(game)

    def _announce_presence(self, game: LiveGame) -> None:
        if self.shared:
            task = asyncio.get_running_loop().create_task(
                self._db(self.store.announce_presence, game.id, game.presence()))
            task.add_done_callback(_log_failure)

    def _watching_changed(self, game: LiveGame) -> None:
        """Spectators came or went here: the other processes hear of it within
        ``presence_every`` seconds, in one notice however many came (they may be thousands)."""
        if self.shared and game.watching_timer is None:
            game.watching_timer = asyncio.get_running_loop().call_later(
                self.limits.presence_every, self._announce_watching, game)

    def _announce_watching(self, game: LiveGame) -> None:
        game.watching_timer = None
        if not self.draining:
            self._announce_presence(game)

    async def _presence_heartbeat(self) -> None:
        """Every PRESENCE_EVERY seconds: say again which seats are connected here, and drop
        what other processes have not said for PRESENCE_TTL (a process that died)."""
        while True:
            await asyncio.sleep(PRESENCE_EVERY)
            now = time.monotonic()
            for game in list(self.games.values()):
                if game.presence():
                    self._announce_presence(game)
                stale = [o for o, (_s, _w, heard) in game.remote.items() if now - heard > PRESENCE_TTL]
                if stale:
                    was = game.online()
                    for origin in stale:
                        del game.remote[origin]
                    if game.online() != was:
                        self._presence_changed(game, None)

    async def _gap(self) -> None:
        """Notices were lost while the listener was away: read every game held again."""
        for game in list(self.games.values()):
            self._refresh_soon(game)

    def _refresh_soon(self, game: LiveGame) -> None:
        game.dirty = True
        if game.refresher is None or game.refresher.done():
            game.refresher = asyncio.get_running_loop().create_task(self._refresh(game))

    async def _refresh(self, game: LiveGame) -> None:
        # Notices that arrive during a read set ``dirty`` again: read until none did.
        while game.dirty:
            game.dirty = False
            try:
                async with game.lock:
                    changed = await self._catch_up(game)
            except Exception:
                log.exception("game %s: catching up failed", game.id)
                return
            if changed:
                await self.broadcast(game)

    async def _catch_up(self, game: LiveGame) -> bool:
        """Read what other processes stored since this copy was made; answer whether
        anything changed. Caller holds the game lock."""
        fresh: StoredGame | None = await self._db(self.store.load_since, game.id, game.ply)
        if fresh is None:
            return False
        stored = game.stored
        if fresh.setup != stored.setup:  # a re-invite dealt again: start from the new deal
            await self._reload(game)
            return True
        changed = bool(fresh.actions)
        try:
            for text in fresh.actions:
                game.state.apply(game.state.parse_action(text))
                stored.actions.append(text)
        except FrontlinesError:
            log.exception("game %s: a stored action does not apply here; reading the whole game", game.id)
            await self._reload(game)
            return True
        for name in ("seat_hashes", "invite_hash", "names", "status", "result", "reason", "termination", "loser"):
            if getattr(stored, name) != getattr(fresh, name):
                setattr(stored, name, getattr(fresh, name))
                changed = True
        if stored.termination and stored.loser is not None and not game.state.is_terminal():
            game.state.resign(stored.loser, stored.termination)  # resigned through another process
        self._unseat_revoked(game)
        return changed

    async def _reload(self, game: LiveGame) -> None:
        """Replace the copy in memory with the game as stored. Caller holds the game lock."""
        loaded: LiveGame | None = await self._db(self._load_sync, game.id)
        if loaded is None:
            return
        game.stored, game.state = loaded.stored, loaded.state
        game._views.clear()
        self._unseat_revoked(game)

    def _unseat_revoked(self, game: LiveGame) -> None:
        """A seat whose token was revoked elsewhere (a re-invite) is watched from now on."""
        for client in list(game.clients):
            seat = None if client.role is None else client.role.seat
            if seat is not None and not game.hotseat and not game.stored.seat_hashes[seat]:
                game.reseat(client, None)

    # --- creating and finding games -------------------------------------------------
    async def create(self, *, ruleset: str, options: dict[str, str], opponent: str, name: str,
                     seat: int, seed: int | None = None, other_name: str = "") -> tuple[LiveGame, str, str | None]:
        """A new game; returns it, the creator's token and (for a friend) the invite token.
        ``other_name`` names the other seat in pass and play (both players are at this device)."""
        from frontlines.games import new_state
        from frontlines.games import ruleset as find_ruleset

        if opponent not in OPPONENTS:
            raise GameError("bad_request", f"unknown opponent {opponent!r}")
        rs = find_ruleset(ruleset)
        try:
            resolved = rs.resolve_options(options)
        except ValueError as exc:
            raise GameError("bad_request", str(exc)) from exc
        # The deal comes from the operating system's secure source unless the caller passes a
        # seed (the app allows that only behind a server setting, and never for friend games).
        state = new_state(ruleset, seed=secrets.randbits(256) if seed is None else seed, options=resolved)
        game_id = secrets.token_urlsafe(9)
        mine = seats.new_token()
        # A friend's seat starts empty: it gets its own token when the invite ticket is spent.
        invite = seats.new_token() if opponent == "friend" else None
        if opponent == "hotseat":
            hashes = (seats.digest(mine), seats.digest(mine))
        else:
            hashes = (seats.digest(mine), "") if seat == 0 else ("", seats.digest(mine))
        invite_hash = seats.digest(invite) if invite else ""
        clean = " ".join(name.split())[:MAX_NAME]
        other = " ".join(other_name.split())[:MAX_NAME] if opponent == "hotseat" else ""
        names = (clean, other) if seat == 0 else (other, clean)
        bot_seat = 1 - seat if opponent.startswith("bot:") else None
        if bot_seat is not None:
            names = (names[0] or opponent[4:], names[1]) if bot_seat == 0 else (names[0], names[1] or opponent[4:])
        setup = state.to_notation()
        bot_first = bot_seat is not None and state.current_player() == bot_seat
        await self._db(self.store.create_game, game_id=game_id, ruleset=ruleset, options=resolved, setup=setup,
                       seat_hashes=hashes, invite_hash=invite_hash, names=names, opponent=opponent, bot_seat=bot_seat,
                       also=self._lease_writer(game_id, bot_seat, 0, bot_first))
        if bot_first and self.shared:
            self.held.add(game_id)
        stored = StoredGame(id=game_id, ruleset=ruleset, options=resolved, setup=setup, seat_hashes=hashes,
                            invite_hash=invite_hash, names=names, opponent=opponent, bot_seat=bot_seat,
                            status="active", result="*", reason="", termination="", loser=None,
                            created=0.0, updated=0.0)
        game = LiveGame(stored, state)
        self._remember(game)
        self._maybe_bot(game)
        return game, mine, invite

    async def get(self, game_id: str) -> LiveGame | None:
        game = self.games.get(game_id)
        if game is not None:
            self.games.move_to_end(game_id)
            return game
        # One load per game even when many clients arrive at once after a restart.
        pending = self._loading.get(game_id)
        if pending is not None:
            return await pending
        future: asyncio.Future[LiveGame | None] = asyncio.get_running_loop().create_future()
        self._loading[game_id] = future
        try:
            loaded: LiveGame | None = await self._db(self._load_sync, game_id)
            if loaded is not None:
                self._remember(loaded)
                if game_id in self._missed:
                    self._refresh_soon(loaded)
                self._maybe_bot(loaded)
            future.set_result(loaded)
            return loaded
        except BaseException as exc:
            future.set_exception(exc)
            raise
        finally:
            del self._loading[game_id]
            self._missed.discard(game_id)

    def _load_sync(self, game_id: str) -> LiveGame | None:
        stored = self.store.load(game_id)
        if stored is None:
            return None
        return LiveGame(stored, rebuild(stored))

    async def role_of(self, game: LiveGame, token: str | None) -> Role | None:
        """The role ``token`` holds. A token this copy does not know may have been given
        through another process a moment ago (an invite spent there): ask the database."""
        role = game.role_of(token)
        if role is None and token and self.shared:
            async with game.lock:
                if await self._catch_up(game):
                    await self.broadcast(game)
            role = game.role_of(token)
        return role

    def _remember(self, game: LiveGame) -> None:
        self.games[game.id] = game
        self.games.move_to_end(game.id)
        if len(self.games) <= self.cap:
            return
        # Drop the least recently used games nobody is watching and no bot is playing;
        # they come back from the store when next asked for.
        for gid in list(self.games):
            if len(self.games) <= self.cap:
                break
            g = self.games[gid]
            if not g.clients and (g.bot_task is None or g.bot_task.done()) and not g.lock.locked():
                del self.games[gid]

    # --- connections ----------------------------------------------------------------
    def _count(self, why: str) -> None:
        self.dropped[why] = self.dropped.get(why, 0) + 1

    def admit(self, game: LiveGame, client: Client) -> None:
        """Raise :class:`Refused` for a connection over a cap."""
        lim = self.limits
        if client.role is None and lim.spectators_per_game and game.watching_here >= lim.spectators_per_game:
            raise Refused("spectators_full", CLOSE_SPECTATORS_FULL,
                          "this game has as many spectators as it can take; try again later")
        if lim.connections_per_address and self.addresses.get(client.address, 0) >= lim.connections_per_address:
            raise Refused("too_many_connections", CLOSE_TOO_MANY_CONNECTIONS,
                          "too many connections from your address; close some and try again")

    async def serve(self, game: LiveGame, client: Client, handle: Callable[[str], Awaitable[None]]) -> None:
        """Run one connection: admit it, send it the view, read its messages until it
        leaves, is dropped (too slow, too many messages) or its socket fails."""
        try:
            self.admit(game, client)
        except Refused as exc:
            self._count(exc.code)
            await refuse(client.sender, exc)
            return
        self.addresses[client.address] = self.addresses.get(client.address, 0) + 1
        client.start()
        reader = asyncio.get_running_loop().create_task(self._read(client, handle))
        gone = asyncio.get_running_loop().create_task(client.gone.wait())
        try:
            self.join(game, client)
            await asyncio.wait({reader, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            reader.cancel()
            gone.cancel()
            self.leave(game, client)
            left = self.addresses.get(client.address, 1) - 1
            if left > 0:
                self.addresses[client.address] = left
            else:
                self.addresses.pop(client.address, None)
            if client.dropped is not None:
                self._count(_DROP_CAUSES.get(client.dropped[0], str(client.dropped[0])))
            await client.stop()

    async def _read(self, client: Client, handle: Callable[[str], Awaitable[None]]) -> None:
        bucket = TokenBucket(self.limits.messages_per_second, self.limits.message_burst)
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
        self._maybe_bot(game)  # a bot turn that failed (database hiccup) starts again
        client.send(game.message_text(client.role))
        if game.online() != was:
            self._presence_changed(game, client)
        # The first connection here also asks: the others answer with their seats.
        if game.local_seats() != mine or len(game.clients) == 1:
            self._announce_presence(game)
        elif client.role is None:
            self._watching_changed(game)

    def leave(self, game: LiveGame, client: Client) -> None:
        if client not in game.clients:
            return
        was, mine = game.online(), game.local_seats()
        game.clients.discard(client)
        game.connected[client.role] = game.connected.get(client.role, 1) - 1
        if game.online() != was:
            self._presence_changed(game, client)
        if game.local_seats() != mine:
            self._announce_presence(game)
        elif client.role is None:
            self._watching_changed(game)

    def _presence_changed(self, game: LiveGame, joiner: Client | None) -> None:
        """A seat came or went. Joins do not re-send views to everyone: the seats (a
        handful of connections) get theirs again now; spectators, who may be thousands,
        get one small "presence" message, at most one per ``presence_every`` seconds."""
        texts: dict[Role | None, str] = {}
        for c in game.clients:
            if c.role is not None and c is not joiner:
                c.send(texts.get(c.role) or texts.setdefault(c.role, game.message_text(c.role)))
        if game.watching_here and game.presence_timer is None:
            game.presence_timer = asyncio.get_running_loop().call_later(
                self.limits.presence_every, self._send_presence, game)

    def _send_presence(self, game: LiveGame) -> None:
        game.presence_timer = None
        text = game.presence_text()
        for c in list(game.clients):
            if c.role is None:
                c.send(text)

    async def broadcast(self, game: LiveGame) -> None:
        """The change to every connection: serialised once per audience, queued on each
        connection. Nothing in it awaits, so it never waits for a connection and no other
        change can come between two connections' copies."""
        texts: dict[Role | None, str] = {}
        for c in list(game.clients):
            text = texts.get(c.role)
            if text is None:
                text = texts[c.role] = game.message_text(c.role)
            c.send(text)

    # --- moves ----------------------------------------------------------------------
    async def act(self, game: LiveGame, role: Role | None, text: Any, expected_ply: Any = None) -> None:
        """Validate and play ``text`` for ``role``; raise :class:`GameError` (nothing changes)."""
        if not isinstance(text, str) or not text or len(text) > 64:
            raise GameError("malformed", "an action must be a short string")
        if expected_ply is not None and not isinstance(expected_ply, int):
            raise GameError("malformed", "ply must be an integer")
        async with game.lock:
            if role is None:
                raise GameError("spectator", "spectators cannot move")
            if game.stored.status != "active" or game.state.is_terminal():
                raise GameError("game_over", "the game is over")
            if expected_ply is not None and expected_ply != game.ply:
                raise GameError("stale", f"the game is at ply {game.ply}, not {expected_ply}")
            seat = game.seat_to_act(role)
            if seat is None:
                raise GameError("not_your_turn", "it is not your turn")
            await self._apply(game, text, seat)
        await self.broadcast(game)
        self._maybe_bot(game)

    async def _apply(self, game: LiveGame, text: str, seat: int) -> None:
        """Parse, validate, store, apply. Caller holds the game lock.

        The store takes the action only at the ply this copy stands at; if another process
        moved first, this copy catches up, every connection gets the fresh state, and the
        mover is told the move was not played (``stale``)."""
        state = game.state
        try:
            action = state.parse_action(text)
        except FrontlinesError as exc:
            raise GameError("illegal", f"cannot read {text!r}: {exc}") from exc
        except Exception as exc:  # a parser should not crash, but a bad message must not either
            raise GameError("illegal", f"cannot read {text!r}") from exc
        try:
            game.referee.check(seat, action)
        except IllegalAction as exc:
            # The rule that forbids it, for the mover: reasons speak of the table and the
            # mover's own hand only, never of a hidden card.
            why = state.why_not(action)
            words = game_module(state.game).reason_words
            reason = why.to_dict(words) if why is not None else None
            message = f"{text!r} is not legal now"
            if why is not None:
                message += f": {english(why, words)}"
            raise GameError("illegal", message, reason) from exc
        canonical = state.action_to_text(action)
        ply = game.ply + 1
        # What the action leads to, stored with it: the result if it ends the game, and the
        # bot's turn if it is the bot's to move next.
        state.push(action)
        ending = ending_of(state) if state.is_terminal() else None
        bot_next = ending is None and state.current_player() == game.stored.bot_seat
        state.pop()
        try:
            await self._db(self.store.append_action, game.id, ply, canonical, ending=ending,
                           also=self._lease_writer(game.id, game.stored.bot_seat, ply, bot_next))
        except (GameClosed, StaleGame) as exc:  # abandoned a moment ago, or another process moved
            await self._catch_up(game)
            await self.broadcast(game)
            if isinstance(exc, GameClosed) or game.stored.status != "active":
                raise GameError("game_over", "the game is over") from exc
            raise GameError("stale", f"another move was played first; the game is at ply {game.ply} now") from exc
        game.referee.move(seat, action)
        game.stored.actions.append(canonical)
        if self.shared and game.stored.bot_seat is not None:
            (self.held.add if bot_next and not self.draining else self.held.discard)(game.id)
        if ending is not None:
            self._ended(game, ending)
        elif game.referee.over:
            await self._finish(game)

    def _lease_writer(self, game_id: str, bot_seat: int | None, ply: int,
                      bot_next: bool) -> Callable[[Session], None] | None:
        """What a write to a bot game does to its bot-turn lease, in the same transaction:
        this process takes the turn the write makes due, or no turn is due any more."""
        if not self.shared or bot_seat is None:
            return None
        if bot_next and self.draining:  # stopping: the turn is left free for another process
            return lambda s: cluster.hold(s, game_id, "", ply, None)
        if bot_next:
            return lambda s: cluster.hold(s, game_id, self.origin, ply, self.bot_lease)
        return lambda s: cluster.drop(s, game_id)

    @staticmethod
    def _ended(game: LiveGame, ending: dict[str, Any]) -> None:
        stored = game.stored
        stored.status, stored.result, stored.reason = ending["status"], ending["result"], ending["reason"]
        stored.termination, stored.loser = ending["termination"], ending["loser"]

    async def _finish(self, game: LiveGame) -> None:
        """Store how the referee ended the game (a resignation, a forfeit), only if it still
        stands at this ply. Caller holds the game lock."""
        ending = ending_of(game.state)
        try:
            await self._db(self.store.finish, game.id, result=ending["result"], reason=ending["reason"],
                           termination=ending["termination"], loser=ending["loser"], ply=game.ply,
                           also=self._lease_writer(game.id, game.stored.bot_seat, game.ply, False))
        except StaleGame as exc:
            # Another process moved or ended the game first: the ending in memory is void.
            await self._reload(game)
            await self.broadcast(game)
            raise GameError("stale", f"the game has moved on; it is at ply {game.ply} now") from exc
        self.held.discard(game.id)
        self._ended(game, ending)

    async def resign(self, game: LiveGame, role: Role | None) -> None:
        async with game.lock:
            if role is None:
                raise GameError("spectator", "spectators cannot resign")
            if game.stored.status != "active" or game.referee.over:
                raise GameError("game_over", "the game is over")
            seat = role.seat_now(game.state.current_player())
            game.referee.resign(0 if seat is None else seat)
            await self._finish(game)
        await self.broadcast(game)

    async def set_name(self, game: LiveGame, role: Role | None, name: Any) -> None:
        if not isinstance(name, str):
            raise GameError("malformed", "a name must be a string")
        seat = None if role is None else role.seat
        if seat is None or seat == game.stored.bot_seat:
            raise GameError("spectator", "only a seated player can name their seat")
        clean = " ".join(name.split())[:MAX_NAME]
        await self._db(self.store.set_name, game.id, seat, clean)
        names = list(game.stored.names)
        names[seat] = clean
        game.stored.names = (names[0], names[1])
        await self.broadcast(game)

    # --- bots -----------------------------------------------------------------------
    def _maybe_bot(self, game: LiveGame) -> None:
        seat = game.stored.bot_seat
        if seat is None or game.stored.status != "active" or game.state.is_terminal():
            return
        if game.state.current_player() != seat:
            return
        if game.bot_task is not None and not game.bot_task.done():
            return
        if self.draining:
            return
        game.bot_task = asyncio.get_running_loop().create_task(self._bot_turns_logged(game, seat))

    async def _bot_turns_logged(self, game: LiveGame, seat: int) -> None:
        try:
            if self.leases is None:
                await self._bot_turns(game, seat)
            else:
                await self._leased_bot_turns(game, seat, self.leases)
        except asyncio.CancelledError:
            raise
        except GameError as exc:  # a forfeit that lost a race: the other process's write stands
            log.warning("game %s: bot turn given up: %s", game.id, exc.message)
        except Exception:  # e.g. the database is down; the next connection restarts the bot
            log.exception("game %s: bot turn failed", game.id)

    async def _leased_bot_turns(self, game: LiveGame, seat: int, leases: cluster.Leases) -> None:
        """A bot turn on a shared database: only with its lease, renewed while the bot thinks."""
        if game.id not in self.held:
            if not await self._db(leases.take, game.id, game.ply):
                return  # another process plays this turn; its move will be announced
            self.held.add(game.id)
        try:
            await self._bot_turns(game, seat)
        finally:
            if game.id in self.held:  # the turn was not played out (stopping, a fault): hand it over
                self.held.discard(game.id)
                with contextlib.suppress(Exception):
                    await asyncio.shield(self._db(leases.release, game.id))

    async def _renew(self, game_id: str, leases: cluster.Leases) -> None:
        while True:
            await asyncio.sleep(self.bot_lease / 3)
            try:
                kept = await self._db(leases.renew, game_id)
            except Exception:  # the database is away for a moment: try again next time
                log.warning("game %s: renewing the bot turn's lease failed", game_id)
                continue
            if not kept:
                # Another process took the turn over (this one was too slow): whichever
                # stores the move first wins; the other finds the game moved on.
                log.warning("game %s: the bot turn's lease was lost", game_id)
                self.held.discard(game_id)
                return

    async def _sweep_leases(self) -> None:
        """Take over bot turns whose lease nobody renews (their process died or stopped)."""
        assert self.leases is not None
        leases = self.leases
        while True:
            await asyncio.sleep(self.bot_lease / 3 * (0.75 + secrets.randbelow(500) / 1000))
            try:
                for game_id in await self._db(leases.expired):
                    await self._take_over(game_id)
            except asyncio.CancelledError:
                raise
            except Exception:  # the database may be away for a moment
                log.exception("sweeping bot-turn leases failed")

    async def _take_over(self, game_id: str) -> None:
        """Play a bot turn whose lease is free, if the bot is still to move in that game."""
        if self.leases is None or self.draining:
            return
        game = await self.get(game_id)
        if game is None:
            return
        if game.bot_task is not None and not game.bot_task.done():
            return  # this process plays the turn already
        self.held.discard(game_id)  # held but not played here (a fault): take it afresh
        async with game.lock:
            await self._catch_up(game)  # decide on the stored game, not on a stale copy
        seat = game.stored.bot_seat
        if seat is None or game.stored.status != "active" or game.state.is_terminal() \
                or game.state.current_player() != seat:
            await self._db(self.leases.forget, game_id)
        else:
            self._maybe_bot(game)

    async def _bot_turns(self, game: LiveGame, seat: int) -> None:
        spec = game.stored.opponent[4:]
        loop = asyncio.get_running_loop()
        while game.stored.status == "active" and game.state.current_player() == seat and not game.state.is_terminal():
            ply = game.ply
            # Seeded by game and ply so a bot's choice does not depend on server history.
            seed = int.from_bytes(hashlib.sha256(f"{game.id}:{ply}".encode()).digest()[:8], "big") >> 1
            view = game.state.clone().view(seat)
            started = loop.time()
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            # The lease is renewed while the bot thinks, and only then: a renewal must not
            # race the move's own write, which hands the lease on or drops it.
            renewer = None if self.leases is None else loop.create_task(self._renew(game.id, self.leases))
            try:
                # A worker that dies is replaced and asked again inside; only the bot's own
                # fault comes out as BotFault. WorkerLost (the server's fault) propagates:
                # logged, the game waits, and the next connection starts the bot again.
                text = await self.bots.choose(spec, seed, seat, view)
            except BotFault as exc:
                # The server's time limit on a bot is no clock: past it, the bot forfeits
                # (its worker is stuck), as when it raises.
                await self._bot_forfeit(game, seat, ply, Failure.CRASH, str(exc))
                return
            finally:
                if renewer is not None:
                    renewer.cancel()
            self.slowest_bot_s = max(self.slowest_bot_s, loop.time() - started)
            async with game.lock:
                if game.ply != ply or game.stored.status != "active":
                    return  # the game moved on (a resignation) while the bot thought
                try:
                    await self._apply(game, text, seat)
                except GameError as exc:
                    if exc.code in ("stale", "game_over"):
                        return  # another process played this turn first, or the game ended
                    bad = exc.message
                else:
                    bad = ""
            if bad:
                await self._bot_forfeit(game, seat, ply, Failure.ILLEGAL, bad)
                return
            await self.broadcast(game)

    async def _bot_forfeit(self, game: LiveGame, seat: int, ply: int, failure: Failure, detail: str) -> None:
        async with game.lock:
            if game.ply != ply or game.stored.status != "active":
                return
            game.referee.fail(seat, failure, detail)
            await self._finish(game)
        await self.broadcast(game)

    async def drain(self, grace: float) -> None:
        """A stopping process (SIGTERM), once it accepts no new connection: bot turns in
        progress get ``grace`` seconds to finish, the others are handed over; then every
        connection is told to reconnect (close code 1012), which the page does by itself,
        to whichever process the address leads to."""
        await self._stop_bots(grace)
        clients = [client for game in list(self.games.values()) for client in list(game.clients)]
        for client in clients:
            client.drop(CLOSE_RESTART, RESTART_REASON)
        # Each connection sends its own close frame; uvicorn's shutdown, next, would close the
        # sockets under them with a bare 1012 and the reason would be lost.
        if clients:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(*(c.stopped.wait() for c in clients)), CLOSE_WAIT + 1.0)

    async def _stop_bots(self, grace: float) -> None:
        self.draining = True
        if self._lease_sweeper is not None:
            self._lease_sweeper.cancel()
        running = [g.bot_task for g in self.games.values() if g.bot_task is not None and not g.bot_task.done()]
        if running and grace > 0 and self.shared:  # alone on SQLite: the next start resumes them
            await asyncio.wait(running, timeout=grace)
        for task in running:
            task.cancel()  # a leased turn releases its lease on the way out
        if running and self.shared:
            await asyncio.gather(*running, return_exceptions=True)

    async def close(self, grace: float = 0.0) -> None:
        """Stop: as :meth:`drain` for the bot turns; the connections are gone already."""
        await self._stop_bots(grace)
        if self._presence_task is not None:
            self._presence_task.cancel()
        if self.listener is not None:
            await self.listener.stop()
        await self.bots.close()
        self.db_executor.shutdown(wait=True)


