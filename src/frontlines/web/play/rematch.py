"""Rematch: at the end of a game, both players agree to play again, seats swapped, with the
same ruleset, options and clock; against a bot the person alone decides.

Each player's answer is one short write to the ``rematches`` row of the finished game
(revision 0006; the game row's lock serialises the answers), which announces itself with a
:class:`~frontlines.web.play.events.RematchSaid` notice so that a page connected to another
process hears it. Once every seat that must agree has said yes, the new game is made through
:meth:`Table.create_seated <frontlines.web.play.table.Table.create_seated>` with, in the same
transaction, a conditional write that names it in the row only if no game is named there
yet: whichever process hears the second "yes" makes it (the one that wrote it, and any that
hears of it), and it is made once: another maker's transaction is rolled back, game and all.

Nobody is given a new token: the new game reuses each player's seat-token digest for the
swapped seat, so the token that held seat 0 holds seat 1 of the rematch. Nothing secret
crosses processes, and each page moves to ``/g/<new id>?t=<its own token>``.

An offer lasts :data:`OFFER_SECONDS` (a correspondence game's :data:`OFFER_SECONDS_DAYS`),
by the database's clock; after that it has expired and a "yes" starts a new one. A "no" to
the other player's offer declines it (closed, unless the one who declined offers after
all); a "no" to one's own offer withdraws it.

Hears :class:`~frontlines.web.play.events.RematchSaid`.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from frontlines.web.play.events import RematchSaid
from frontlines.web.play.game import GameError, LiveGame
from frontlines.web.play.games import GameCache
from frontlines.web.play.process import Process
from frontlines.web.play.sync import Sync
from frontlines.web.play.table import Table, WriteRefused
from frontlines.web.seats import Role
from frontlines.web.store import GameRow, RematchRow, RematchState
from frontlines.web.timecontrol import control_of

log = logging.getLogger("frontlines.web")

OFFER_SECONDS = 600.0  # a rematch offer of a live or untimed game: ten minutes
OFFER_SECONDS_DAYS = 3 * 86400.0  # of a correspondence game: three days


def bits_of(role: Role | None) -> int:
    """The seats a connection answers for: one, both on a pass-and-play device, none watching."""
    if role is None:
        return 0
    if role is Role.BOTH:
        return 3
    return 1 << (role.seat or 0)


class Rematch:
    def __init__(self, process: Process, cache: GameCache, sync: Sync, table: Table) -> None:
        self.process = process
        self.cache = cache
        self.sync = sync
        self.table = table
        self.made = 0  # rematches this process made (for tests and /api/stats)
        self._tasks: set[asyncio.Task[Any]] = set()
        process.bus.subscribe(RematchSaid, self._heard)

    # --- answers --------------------------------------------------------------------------
    async def answer(self, game: LiveGame, role: Role | None, yes: bool) -> None:
        """A seat's answer to a rematch (yes: offer, or accept the other's offer; no: decline
        the other's offer, or withdraw one's own). Raises :class:`GameError`."""
        bits = bits_of(role) & game.rematch_needed
        if not bits:
            raise GameError("spectator", "only a player can ask for a rematch")
        async with game.lock:
            if game.stored.status != "finished":
                raise GameError("not_over", "a rematch is for a finished game")
            control = control_of(game.stored.time_control)
            wait = OFFER_SECONDS_DAYS if control is not None and control.kind == "days" else OFFER_SECONDS
            state = await self.process.db(self._say, game.id, bits, yes, wait)
            game.stored.rematch = state
        game.send_views()
        if state.game is None and state.offers & game.rematch_needed == game.rematch_needed:
            await self.make(game)

    def _say(self, game_id: str, bits: int, yes: bool, wait: float) -> RematchState:
        """Store an answer (on a database thread); the row as it stands after it."""
        store = self.process.store
        with store.session() as s, s.begin():
            # The game row's lock: answers to one game are written one after the other.
            s.execute(select(GameRow.id).where(GameRow.id == game_id).with_for_update())
            now = store.now(s)
            row = s.get(RematchRow, game_id)
            if row is None:
                row = RematchRow(game_id=game_id, offers=0, declined=None, expires=now + wait, game=None)
                s.add(row)
            if row.game is None:
                if row.offers and row.expires <= now:  # an offer nobody took in time
                    row.offers = 0
                if yes:
                    if row.declined is not None:
                        if not bits & (1 << row.declined):
                            raise GameError("declined", "the other player declined the rematch")
                        row.declined = None  # the one who declined offers after all
                    if not row.offers:
                        row.expires = now + wait  # a new offer
                    row.offers |= bits
                elif row.offers & ~bits:  # a no to the other's offer: declined
                    row.declined = (bits & -bits).bit_length() - 1
                    row.offers = 0
                else:  # a no to one's own offer: withdrawn
                    row.offers &= ~bits
            state = row.state()
            store.announce(s, "r", game_id, row.offers)
            return state

    # --- making the new game --------------------------------------------------------------
    async def make(self, game: LiveGame) -> LiveGame | None:
        """Make the rematch of ``game`` once both agreed, unless a process made it already
        (then None). The seats swap: each seat's token digest, name, the bot's seat."""
        stored = game.stored
        hashes = (stored.seat_hashes[1], stored.seat_hashes[0])
        names = (stored.names[1], stored.names[0])
        bot_seat = None if stored.bot_seat is None else 1 - stored.bot_seat
        # The accounts swap with their seats, and a rated game's rematch is rated: the same
        # two accounts (a rated game has an account at each seat, or it could not be rated).
        accounts = (stored.accounts[1], stored.accounts[0])
        mask = game.rematch_needed

        def claim(s: Session, made: LiveGame) -> None:
            # Name the new game in the row only if none is named yet and every seat agreed.
            done = s.execute(update(RematchRow).where(
                RematchRow.game_id == game.id, RematchRow.game.is_(None),
                RematchRow.offers.op("&")(mask) == mask).values(game=made.id))
            if getattr(done, "rowcount", 0) != 1:
                raise WriteRefused("rematch_made", "the rematch was made already")
            self.process.store.announce(s, "r", game.id, -1)

        try:
            new = await self.table.create_seated(
                ruleset=stored.ruleset, options=stored.options, opponent=stored.opponent, seat_hashes=hashes,
                names=names, bot_seat=bot_seat, time_control=stored.time_control, accounts=accounts,
                rated=stored.rated, also=claim)
        except WriteRefused:
            new = None  # another process (or another answer here) made it: read which
        except GameError as exc:
            log.warning("game %s: the rematch could not be made: %s", game.id, exc.message)
            return None
        async with game.lock:
            await self.sync.catch_up(game)
        game.send_views()  # the pages move to the new game
        if new is not None:
            self.made += 1
        return new

    # --- other processes --------------------------------------------------------------------
    def _heard(self, notice: RematchSaid) -> None:
        game = self.cache.games.get(notice.game_id)
        if game is None:
            return  # nobody here watches that game
        task = asyncio.get_running_loop().create_task(self._refresh(game))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _refresh(self, game: LiveGame) -> None:
        try:
            async with game.lock:
                changed = await self.sync.catch_up(game)
            if changed:
                game.send_views()
            state = game.stored.rematch
            # The answer that completed it came through another process: whichever process
            # hears it first makes the game (the claim lets one through).
            if state is not None and state.game is None and state.offers & game.rematch_needed == game.rematch_needed:
                await self.make(game)
        except Exception:
            log.exception("game %s: hearing a rematch answer failed", game.id)
