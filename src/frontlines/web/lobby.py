"""The lobby: open seeks, listed live to everyone on the home page, and how two players who
do not know each other meet.

A **seek** is a player waiting for anyone to play them: the game they want (:class:`Terms`:
ruleset, options, clock, rated or not), their seat if they chose one, the name they show.
Everyone on the home page sees every open seek (one WebSocket, ``/ws/lobby``) and may take
one; "play anyone" takes the best compatible seek (:func:`pick`) or, if there is none,
posts one.

**Across processes** (several ``frontlines serve`` on one PostgreSQL) the table ``seeks`` is
the authority, and each process keeps a copy of the open seeks in memory for its pages:

* every write to the table sends a :class:`~frontlines.web.play.events.SeekChanged` notice
  (``s``) in its own transaction: a seek posted, taken or gone. Each process's lobby reads
  a posted seek's row, drops a taken or gone one, and tells its pages; after a gap in the
  notices (:class:`~frontlines.web.play.events.NoticesLost`) it reads every open seek again
  and sends each page the whole list;
* **taking a seek is one conditional write** (``UPDATE … WHERE game_id IS NULL AND expires
  > now``) in the transaction that creates the game (:meth:`Table.create
  <frontlines.web.play.table.Table.create>`'s ``also``): one taker wins, and a taker who
  loses stores nothing. The seek holds the digest of a seat token its creator's page got
  when it posted, so the game seats the creator on whichever process the taker is
  connected to, and nothing secret crosses processes. The creator's process hears the
  notice, reads which game the seek became, and tells the creator's page, which opens the
  table with the token it holds;
* **a seek lasts while its creator is here.** It is a lease (``owner``, ``expires`` by the
  database's clock, as bot turns have): the process holding the creator's page renews it.
  When that page's socket closes the seek gets :attr:`Lobby.grace` seconds: the page may
  come back (a reload, a reconnection to any process) and hold it again with its token;
  otherwise, or if the process died, every process's sweep deletes expired seeks and
  tells everyone.

**Abuse.** Seeks per connection, per address and in all are capped; posting and taking
spend the address's allowance of new games (``--new-games-per-minute``); names are checked
as game names are; messages have the game connections' rate limit. A seek message carries
what a player chose to show and nothing else: no token or digest, no process, no address,
no account number.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import and_, delete, func, select, update
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import ColumnElement

from frontlines.web import seats
from frontlines.web.cluster import _db_now as db_now
from frontlines.web.fanout import CLOSE_RESTART, RESTART_REASON, Broadcast, Client, LobbyLimits, Refused, dumps
from frontlines.web.housekeeping import RateLimit
from frontlines.web.inputs import (
    AcceptMessage,
    BadInput,
    CancelMessage,
    ResumeMessage,
    SeekMessage,
    parse_lobby_message,
)
from frontlines.web.pairing import Seek, Seeker, Terms, pick, refusal, seats_for, terms_of
from frontlines.web.play.events import SEEK_GONE, SEEK_POSTED, SEEK_TAKEN, NoticesLost, SeekChanged
from frontlines.web.play.game import LOBBY, MAX_NAME, GameError, LiveGame
from frontlines.web.play.manager import Manager
from frontlines.web.store import CHANNEL, RatingRow, SeekRow, Store, _changed

log = logging.getLogger("frontlines.web")


# --- the table (each function runs on a database thread) -----------------------------------
class SeekGone(Exception):
    """The seek was taken, withdrawn or expired before this write."""


def _db_now(store: Store) -> ColumnElement[Any] | float:
    # The database's clock on PostgreSQL (hosts may disagree); SQLite is one process.
    return db_now() if store.shared else time.time()


def _notify(store: Store, s: Session, notice: SeekChanged) -> None:
    if store.shared:
        s.execute(select(func.pg_notify(CHANNEL, notice.payload())))


def _seek_of(row: SeekRow, rating: float | None = None) -> Seek:
    terms = Terms(row.ruleset, tuple(sorted(json.loads(row.options).items())), row.clock, bool(row.rated))
    return Seek(row.id, terms, row.seat, row.name, row.account, row.token_hash, row.created, rating)


def _rating(s: Session, account: int | None, ruleset: str) -> float | None:
    """The creator's rating in the ruleset, if rated games made one (shown with the seek,
    and how "play anyone" finds the nearest in a rated game)."""
    if account is None:
        return None
    rating = s.scalar(select(RatingRow.rating).where(RatingRow.account_id == account, RatingRow.ruleset == ruleset))
    return None if rating is None else float(rating)


class SeekTable:
    """The ``seeks`` table, for one process (``owner``); each write in its own transaction,
    with its notice."""

    def __init__(self, store: Store, owner: str) -> None:
        self.store = store
        self.owner = owner

    def _session(self) -> Session:
        return self.store._session()

    def _now(self) -> ColumnElement[Any] | float:
        return _db_now(self.store)

    def post(self, seek: Seek, lease: float) -> Seek:
        """Store a new seek held by this process for ``lease`` seconds; answer it with its
        creation time and its creator's rating."""
        with self._session() as s, s.begin():
            now = float(s.scalar(select(db_now())) or 0.0) if self.store.shared else time.time()
            s.add(SeekRow(id=seek.id, ruleset=seek.terms.ruleset, options=json.dumps(dict(seek.terms.options)),
                          clock=seek.terms.clock, rated=seek.terms.rated, seat=seek.seat, name=seek.name,
                          account=seek.account, token_hash=seek.token_hash, owner=self.owner,
                          expires=now + lease, created=now))
            s.flush()
            _notify(self.store, s, SeekChanged(seek.id, SEEK_POSTED, self.owner))
            return Seek(seek.id, seek.terms, seek.seat, seek.name, seek.account, seek.token_hash, now,
                        _rating(s, seek.account, seek.terms.ruleset))

    def taking(self, seek_id: str, creator_seat: int) -> Callable[[Session, LiveGame], None]:
        """The part of a game's creation that takes the seek: one conditional write, so one
        taker wins; :class:`SeekGone` (the creation is undone) if it is no longer open."""

        def take(s: Session, game: LiveGame) -> None:
            done = s.execute(update(SeekRow).where(
                SeekRow.id == seek_id, SeekRow.game_id.is_(None), SeekRow.expires > self._now(),
            ).values(game_id=game.id, game_seat=creator_seat))
            if _changed(done) != 1:
                raise SeekGone(seek_id)
            _notify(self.store, s, SeekChanged(seek_id, SEEK_TAKEN, self.owner))

        return take

    def withdraw(self, seek_ids: Iterable[str]) -> list[str]:
        """Delete open seeks (their creator withdrew them); answer those that were open."""
        ids = list(seek_ids)
        if not ids:
            return []
        with self._session() as s, s.begin():
            gone = list(s.scalars(delete(SeekRow).where(SeekRow.id.in_(ids), SeekRow.game_id.is_(None))
                                  .returning(SeekRow.id)))
            for seek_id in gone:
                _notify(self.store, s, SeekChanged(seek_id, SEEK_GONE, self.owner))
            return gone

    def renew(self, seek_ids: Iterable[str], seconds: float) -> None:
        """Keep the seeks of creators connected here for ``seconds`` more (also how a
        creator who left gets its grace: no renewal after that)."""
        ids = list(seek_ids)
        if ids:
            with self._session() as s, s.begin():
                s.execute(update(SeekRow).where(SeekRow.id.in_(ids), SeekRow.game_id.is_(None))
                          .values(owner=self.owner, expires=self._now() + seconds))

    def hold(self, seek_id: str, token: str, seconds: float) -> Seek | str | None:
        """A creator's page came back (to this process) with its seek's token: hold the
        seek here again if it is still open (answer it), or answer the game it became (its
        id) if it was taken meanwhile, else None."""
        with self._session() as s, s.begin():
            row = s.get(SeekRow, seek_id)
            if row is None or not seats.matches(token, row.token_hash):
                return None
            if row.game_id is not None:
                return row.game_id
            done = s.execute(update(SeekRow).where(
                SeekRow.id == seek_id, SeekRow.game_id.is_(None), SeekRow.expires > self._now(),
            ).values(owner=self.owner, expires=self._now() + seconds))
            return _seek_of(row, _rating(s, row.account, row.ruleset)) if _changed(done) == 1 else None

    def sweep(self, keep_taken: float) -> list[str]:
        """Delete the seeks whose lease ran out (their creator left, or its process died)
        and tell everyone; forget taken ones after ``keep_taken`` seconds. Answers the
        open ones deleted."""
        with self._session() as s, s.begin():
            gone = list(s.scalars(delete(SeekRow).where(SeekRow.game_id.is_(None), SeekRow.expires < self._now())
                                  .returning(SeekRow.id)))
            for seek_id in gone:
                _notify(self.store, s, SeekChanged(seek_id, SEEK_GONE, self.owner))
            s.execute(delete(SeekRow).where(SeekRow.game_id.is_not(None), SeekRow.expires < self._now() - keep_taken))
            return gone

    def read(self, seek_id: str) -> SeekRow | None:
        with self._session() as s:
            return s.get(SeekRow, seek_id)

    def rating(self, account: int | None, ruleset: str) -> float | None:
        with self._session() as s:
            return _rating(s, account, ruleset)

    def read_open(self, seek_id: str) -> Seek | None:
        """The seek if it is open, with its creator's rating."""
        with self._session() as s:
            row = s.get(SeekRow, seek_id)
            return None if row is None or row.game_id is not None else _seek_of(row, _rating(s, row.account, row.ruleset))

    def open_seeks(self) -> list[Seek]:
        """Every open seek, oldest first."""
        with self._session() as s:
            rows = s.execute(select(SeekRow, RatingRow.rating).outerjoin(RatingRow, and_(
                RatingRow.account_id == SeekRow.account, RatingRow.ruleset == SeekRow.ruleset))
                .where(SeekRow.game_id.is_(None), SeekRow.expires > self._now())
                .order_by(SeekRow.created, SeekRow.id))
            return [_seek_of(row, rating) for row, rating in rows]


# --- the lobby of one process ----------------------------------------------------------------
@dataclass(eq=False)
class Watcher:
    """One page connected to the lobby here: its connection, who it is and what it holds."""

    client: Client
    address: str
    account: int | None = None
    username: str = ""  # the account's: its seeks and seats bear it, whatever name is typed
    held: set[str] = field(default_factory=set)  # the open seeks it posted


class Lobby:
    """The lobby of one server process: the open seeks (a copy of the table), the pages
    watching them, the seeks of creators connected here."""

    def __init__(self, manager: Manager, *, limits: LobbyLimits | None = None, rate: RateLimit | None = None) -> None:
        self.manager = manager
        self.process = manager.process
        self.limits = limits or LobbyLimits()
        self.rate = rate  # new games per client address: posting and taking spend it
        self.table = SeekTable(manager.store, manager.origin)
        self.seeks: dict[str, Seek] = {}  # open seeks, oldest first
        self.watchers: set[Watcher] = set()
        self.holders: dict[str, Watcher] = {}  # seek id -> the page here that posted it
        self._gone: dict[str, float] = {}  # seeks gone lately (a late read must not bring one back)
        self._added: dict[str, Seek] = {}  # changes not yet sent to the pages
        self._removed: set[str] = set()
        self._flush: asyncio.TimerHandle | None = None
        self._snapshot: str | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._lease_lock = asyncio.Lock()  # a renewal must not undo a grace set meanwhile
        self._sweeper: asyncio.Task[None] | None = None
        # every page's copy of a change or of the whole list, queued a slice at a time
        self.broadcast = Broadcast(lambda: [watcher.client for watcher in self.watchers])
        bus = self.process.bus
        bus.subscribe(SeekChanged, self._heard)
        bus.subscribe(NoticesLost, lambda _: self._spawn(self.reread()))

    # --- starting and stopping ----------------------------------------------------------
    async def start(self) -> None:
        """Read the open seeks; then renew this process's seeks and sweep, now and then."""
        await self.reread()
        self._sweeper = asyncio.get_running_loop().create_task(self._keep())

    async def drain(self) -> list[Client]:
        """A stopping process: its creators' seeks get their grace (their pages come back to
        another process and hold them again) and every page is told to reconnect; answers
        those connections."""
        await self._linger(list(self.holders))
        clients = [watcher.client for watcher in self.watchers]
        for client in clients:
            client.drop(CLOSE_RESTART, RESTART_REASON)
        return clients

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._sweeper
        await self.broadcast.close()
        for task in list(self._tasks):
            task.cancel()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("lobby: a task failed", exc_info=task.exception())

    async def _keep(self) -> None:
        """Renew the seeks of creators here, sweep expired ones (this process's and any
        other's: a process that died sweeps nothing)."""
        lim = self.limits
        renewed = 0.0
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(lim.sweep_every * (0.75 + secrets.randbelow(500) / 1000))
            try:
                if loop.time() - renewed >= lim.lease / 3:
                    renewed = loop.time()
                    async with self._lease_lock:
                        await self.process.db(self.table.renew, list(self.holders), lim.lease)
                gone = await self.process.db(self.table.sweep, lim.keep_taken)
                for seek_id in gone:
                    self._drop(seek_id)
            except asyncio.CancelledError:
                raise
            except Exception:  # the database may be away for a moment
                log.exception("lobby: renewing or sweeping seeks failed")

    # --- the list and its changes ---------------------------------------------------------
    def listing(self) -> list[dict[str, Any]]:
        return [seek.public() for seek in self.seeks.values()]

    def snapshot(self) -> str:
        """The whole list as one message, made once per change however many pages ask."""
        if self._snapshot is None:
            self._snapshot = dumps({"type": "lobby", "seeks": self.listing()})
        return self._snapshot

    def _add(self, seek: Seek) -> None:
        if seek.id in self.seeks or seek.id in self._gone:
            return
        self.seeks[seek.id] = seek
        self._added[seek.id] = seek
        self._changed()

    def _drop(self, seek_id: str) -> None:
        now = time.monotonic()
        self._gone[seek_id] = now
        if len(self._gone) > 4 * max(1000, len(self.seeks)):  # forget the oldest
            cutoff = now - 60.0
            self._gone = {k: v for k, v in self._gone.items() if v > cutoff}
        if self.seeks.pop(seek_id, None) is None:
            return
        if self._added.pop(seek_id, None) is None:
            self._removed.add(seek_id)
        self._changed()

    def _changed(self) -> None:
        self._snapshot = None
        if self._flush is None:
            self._flush = asyncio.get_running_loop().call_later(self.limits.flush_every, self._send_changes)

    def _send_changes(self) -> None:
        """Every page gets the changes since the last batch as one message, encoded once."""
        self._flush = None
        if not self._added and not self._removed:
            return
        text = dumps({"type": "seeks", "add": [s.public() for s in self._added.values()],
                      "remove": sorted(self._removed)})
        self._added.clear()
        self._removed.clear()
        self.broadcast.send(text)

    # --- notices from the other processes ---------------------------------------------------
    def _heard(self, notice: SeekChanged) -> None:
        if notice.number == SEEK_POSTED:
            self._spawn(self._read_posted(notice.seek_id))
            return
        self._drop(notice.seek_id)
        holder = self.holders.pop(notice.seek_id, None)
        if holder is not None:
            holder.held.discard(notice.seek_id)
            if notice.number == SEEK_TAKEN:
                self._spawn(self._tell_taken(holder, notice.seek_id))
            else:
                holder.client.send_json({"type": "expired", "id": notice.seek_id})

    async def _read_posted(self, seek_id: str) -> None:
        seek = await self.process.db(self.table.read_open, seek_id)
        if seek is not None:
            self._add(seek)

    async def _tell_taken(self, holder: Watcher, seek_id: str) -> None:
        """Another process took a seek posted here: tell its creator which game it became,
        and withdraw the creator's other seeks (one game at a time)."""
        row = await self.process.db(self.table.read, seek_id)
        if row is None or row.game_id is None:
            return
        self._matched(holder, seek_id, row.game_id, row.game_seat)
        await self._withdraw(holder, list(holder.held))

    def _matched(self, holder: Watcher, seek_id: str, game_id: str, seat: int | None) -> None:
        holder.client.send_json({"type": "matched", "seek": seek_id, "game": game_id, "seat": seat})

    async def reread(self) -> None:
        """Read every open seek again (at start, and after notices were lost): the pages get
        the whole list; creators here whose seek was taken or went meanwhile are told."""
        seeks = await self.process.db(self.table.open_seeks)
        fresh = {seek.id: seek for seek in seeks}
        self.seeks = fresh
        self._added.clear()
        self._removed.clear()
        self._snapshot = None
        self._gone = {}
        self.broadcast.send(self.snapshot())
        for seek_id, holder in list(self.holders.items()):
            if seek_id not in fresh:
                self.holders.pop(seek_id, None)
                holder.held.discard(seek_id)
                self._spawn(self._tell_gone(holder, seek_id))

    async def _tell_gone(self, holder: Watcher, seek_id: str) -> None:
        row = await self.process.db(self.table.read, seek_id)
        if row is not None and row.game_id is not None:
            self._matched(holder, seek_id, row.game_id, row.game_seat)
            await self._withdraw(holder, list(holder.held))
        else:
            holder.client.send_json({"type": "expired", "id": seek_id})

    # --- what pages do ----------------------------------------------------------------------
    def _spend(self, watcher: Watcher) -> None:
        wait = self.rate.take(watcher.address) if self.rate is not None else 0.0
        if wait:
            raise GameError("rate_limited", f"too many new games from your address; try again in {wait:.0f} s")

    async def post(self, watcher: Watcher, terms: Terms, seat: int | None, name: str) -> Seek:
        """Post a seek for ``watcher``; its page is sent the seek and the seat token that
        will seat it (``posted``)."""
        lim = self.limits
        if terms.rated and watcher.account is None:
            raise GameError("rated_needs_account", "a rated game needs an account: sign in first")
        if lim.seeks_per_connection and len(watcher.held) >= lim.seeks_per_connection:
            raise GameError("too_many_seeks", f"you may have {lim.seeks_per_connection} seeks open at once")
        if lim.seeks_per_address and sum(w.address == watcher.address for w in self.holders.values()) \
                >= lim.seeks_per_address:
            raise GameError("too_many_seeks", f"your address may have {lim.seeks_per_address} seeks open at once")
        if lim.open_seeks and len(self.seeks) >= lim.open_seeks:
            raise GameError("lobby_full", "the lobby is full; try again in a moment")
        self._spend(watcher)
        token = seats.new_token()
        new = Seek(secrets.token_urlsafe(9), terms, seat, _clean(watcher.username or name), watcher.account,
                   seats.digest(token), 0.0)
        seek: Seek = await self.process.db(self.table.post, new, lim.lease)
        self.holders[seek.id] = watcher
        watcher.held.add(seek.id)
        self._add(seek)
        watcher.client.send_json({"type": "posted", "seek": seek.public(), "token": token})
        return seek

    async def accept(self, watcher: Watcher, seek_id: str, name: str, seat: int | None = None) -> LiveGame:
        """Take the open seek ``seek_id`` for ``watcher``: the game is made here, with the
        seek taken in its transaction. Both pages are told (``matched``; the taker's with
        its new seat token). :class:`GameError` ``seek_gone`` if another taker, the
        creator or the clock got there first. The seats of players with an account are
        theirs on every device and bear their usernames; a rated seek is taken only by an
        account, and its game is rated (:mod:`frontlines.web.ratings` rates it as it ends)."""
        seek = self.seeks.get(seek_id)
        if seek is None:
            raise GameError("seek_gone", "that seek is no longer open")
        why = refusal(seek, watcher.account, watcher.held)
        if why is not None:
            raise GameError(why, "you cannot take that seek" if why == "own_seek"
                            else "a rated game needs an account: sign in first")
        if seek.seat is not None and seat is not None and seek.seat == seat:
            raise GameError("seek_gone", "that seek is for the seat you want")
        self._spend(watcher)
        creator_seat, taker_seat = seats_for(seek.seat, seat, secrets.randbelow(2))
        try:
            game, token, _ = await self.manager.create(
                ruleset=seek.terms.ruleset, options=dict(seek.terms.options), opponent=LOBBY,
                name=watcher.username or name, seat=taker_seat, other_name=seek.name, other_hash=seek.token_hash,
                time_control=seek.terms.clock, account=watcher.account, other_account=seek.account,
                rated=seek.terms.rated, also=self.table.taking(seek.id, creator_seat))
        except SeekGone:
            self._drop(seek_id)  # its notice is on the way; the pages need not wait for it
            raise GameError("seek_gone", "that seek is no longer open") from None
        self._drop(seek_id)
        holder = self.holders.pop(seek_id, None)
        if holder is not None:  # its creator is here
            holder.held.discard(seek_id)
            self._matched(holder, seek_id, game.id, creator_seat)
            await self._withdraw(holder, list(holder.held))
        watcher.client.send_json({"type": "matched", "seek": seek_id, "game": game.id, "seat": taker_seat,
                                  "token": token, "ruleset": seek.terms.ruleset})
        await self._withdraw(watcher, list(watcher.held))  # a player in a game stops seeking
        return game

    async def anyone(self, watcher: Watcher, terms: Terms, seat: int | None, name: str) -> LiveGame | Seek:
        """Play anyone: take the best compatible seek, else post one."""
        rating = None  # the nearest rating counts only in a rated game (pick)
        if terms.rated and watcher.account is not None:
            rating = await self.process.db(self.table.rating, watcher.account, terms.ruleset)
        seeker = Seeker(terms, seat, watcher.account, rating, frozenset(watcher.held))
        for seek in pick(self.seeks.values(), seeker)[:3]:
            try:
                return await self.accept(watcher, seek.id, name, seat)
            except GameError as exc:
                if exc.code != "seek_gone":
                    raise
        return await self.post(watcher, terms, seat, name)

    async def cancel(self, watcher: Watcher, seek_id: str) -> None:
        if seek_id in watcher.held:
            await self._withdraw(watcher, [seek_id])

    async def _withdraw(self, watcher: Watcher, seek_ids: list[str]) -> None:
        if not seek_ids:
            return
        for seek_id in seek_ids:
            watcher.held.discard(seek_id)
            self.holders.pop(seek_id, None)
        for seek_id in await self.process.db(self.table.withdraw, seek_ids):
            self._drop(seek_id)

    async def resume(self, watcher: Watcher, held: list[tuple[str, str]]) -> None:
        """A creator's page is back (a reload, a reconnection, maybe to another process)
        with its seeks' ids and tokens: hold them here again, or say what became of them."""
        for seek_id, token in held:
            if seek_id in watcher.held:
                continue
            if self.limits.seeks_per_connection and len(watcher.held) >= self.limits.seeks_per_connection:
                break
            async with self._lease_lock:
                found = await self.process.db(self.table.hold, seek_id, token, self.limits.lease)
            if isinstance(found, Seek):
                old = self.holders.get(seek_id)
                if old is not None:
                    old.held.discard(seek_id)
                self.holders[seek_id] = watcher
                watcher.held.add(seek_id)
                self._add(found)  # known already, unless its notice has not come yet
                watcher.client.send_json({"type": "held", "seek": found.public()})
            elif isinstance(found, str):
                row = await self.process.db(self.table.read, seek_id)
                self._matched(watcher, seek_id, found, None if row is None else row.game_seat)
            else:
                watcher.client.send_json({"type": "expired", "id": seek_id})

    async def _linger(self, seek_ids: list[str]) -> None:
        """Creators who left: their seeks get the grace, and no more renewals from here."""
        if not seek_ids:
            return
        async with self._lease_lock:
            for seek_id in seek_ids:
                self.holders.pop(seek_id, None)
            with contextlib.suppress(Exception):
                await self.process.db(self.table.renew, seek_ids, self.limits.grace)

    async def handle(self, watcher: Watcher, raw: str) -> None:
        """One message from a lobby page (:mod:`frontlines.web.inputs`); anything refused is
        answered with an ``error`` and changes nothing."""
        client = watcher.client
        try:
            try:
                msg = parse_lobby_message(raw)
            except BadInput as exc:
                raise GameError(exc.code, exc.message) from exc
            if isinstance(msg, SeekMessage):
                terms = terms_of(msg.ruleset, msg.options, msg.clock, msg.rated)
                seat = None if msg.seat == "random" else int(msg.seat)
                if msg.type == "seek":
                    await self.post(watcher, terms, seat, msg.name)
                else:
                    await self.anyone(watcher, terms, seat, msg.name)
            elif isinstance(msg, AcceptMessage):
                await self.accept(watcher, msg.id, msg.name)
            elif isinstance(msg, CancelMessage):
                await self.cancel(watcher, msg.id)
            elif isinstance(msg, ResumeMessage):
                await self.resume(watcher, [(held.id, held.token) for held in msg.seeks])
            else:
                client.send_json({"type": "pong"})
        except GameError as exc:
            client.send_json(exc.to_message())
        except Exception:  # a server fault (database down…): say so, keep the connection
            log.exception("lobby: a message failed")
            client.send_json({"type": "error", "code": "internal", "message": "server error; try again"})

    # --- connections ------------------------------------------------------------------------
    async def serve(self, client: Client, account: int | None = None, username: str = "") -> None:
        """Run one page's lobby connection: admit it (its address's connections, games and
        lobby counted together), send it the list, read its messages until it leaves; its
        seeks then get their grace. ``account`` and ``username``: the page's logged-in
        account, read at the handshake."""
        connections = self.manager.connections
        try:
            connections.admit_address(client)
        except Refused as exc:
            await connections.refused(client, exc)
            return
        watcher = Watcher(client, client.address, account, username)

        def joined() -> None:
            self.watchers.add(watcher)
            client.send(self.snapshot())

        def left() -> None:
            self.watchers.discard(watcher)
            self._spawn(self._linger(sorted(watcher.held)))

        await connections.run(client, lambda raw: self.handle(watcher, raw), joined=joined, left=left)


def _clean(name: str) -> str:
    return " ".join(name.split())[:MAX_NAME]


__all__ = ["Lobby", "LobbyLimits", "SeekGone", "SeekTable", "Watcher"]
