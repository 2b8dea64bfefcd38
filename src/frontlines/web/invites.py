"""Friend games: spending an invite ticket, and inviting again before the first move.

Why a re-invite deals again: between the deal and the first move, the player who re-invites
could have taken the open seat themselves (a ticket is a ticket) and looked at its hand. A
fresh deal for every re-invite means that whoever ends up in the seat holds cards nobody
has seen. After the first move a deal cannot be taken back, so the seats are fixed: a
lost seat link then cannot be replaced by the other player (who would gain the seat).

Only the creator invites again, and only for the invited seat (``guest_seat``): the friend
asking to "invite" the creator would revoke the creator's seat and end up holding both.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from frontlines.web import seats
from frontlines.web.play.game import GameError, LiveGame
from frontlines.web.play.manager import Manager
from frontlines.web.seats import Role


async def _db(manager: Manager, fn: Any, *args: Any) -> Any:
    return await asyncio.get_running_loop().run_in_executor(manager.db_executor, lambda: fn(*args))


async def claim(manager: Manager, game: LiveGame, ticket: str) -> tuple[int, str]:
    """Spend ``ticket``: answer the seat and its new token, or raise ``GameError``."""
    if game.stored.opponent != "friend":
        raise GameError("bad_invite", "this game has no invite")
    async with game.lock:
        if manager.store.shared and not seats.matches(ticket, game.stored.invite_hash):
            # A ticket renewed through another process a moment ago: this copy may not know it yet.
            await manager.sync.catch_up(game)
        seat = game.stored.guest_seat  # an invite is for the seat the creator left open
        if seat is None or not seats.matches(ticket, game.stored.invite_hash):
            raise GameError("seat_taken", "this invite has been used or is not valid; you can watch the game")
        if game.stored.status != "active":
            raise GameError("game_over", "the game is over")
        token = seats.new_token()
        if not await _db(manager, manager.store.claim_seat, game.id, game.stored.invite_hash, seat,
                         seats.digest(token)):
            raise GameError("seat_taken", "this invite has been used or is not valid; you can watch the game")
        hashes = list(game.stored.seat_hashes)
        hashes[seat] = seats.digest(token)
        game.stored.seat_hashes = (hashes[0], hashes[1])
        game.stored.invite_hash = ""
    await manager.broadcast(game)
    return seat, token


async def reinvite(manager: Manager, game: LiveGame, token: str | None) -> str:
    """A new ticket for the invited seat, with a new deal: only for the game's creator (the
    seat that was not invited), who still holds their seat, and only before the first move.

    The invited friend cannot invite "again": that would revoke the creator's seat and hand
    the friend both. Every condition is checked again in the database's update that writes
    the new ticket (:meth:`Store.reinvite`), so that two requests at once, in this process or
    in two processes on one PostgreSQL, cannot both pass on what each read before the
    other wrote and leave the game with no seat held."""
    from frontlines.games import new_state

    role = await manager.role_of(game, token)
    if game.stored.opponent != "friend" or role is None or role.seat is None or token is None:
        raise GameError("spectator", "only a player of a friend game can invite")
    async with game.lock:
        state = new_state(game.stored.ruleset, seed=secrets.randbits(256), options=game.stored.options)
        setup = state.to_notation()
        ticket = seats.new_token()
        for _attempt in range(2):
            _may_reinvite(game, role.seat, token)
            if await _db(manager, manager.store.reinvite, game.id, role.seat, seats.digest(token),
                         game.stored.invite_hash, seats.digest(ticket), setup):
                break
            # The game changed meanwhile through another process (the ticket spent or
            # renewed, a move, an ending): read it again; if it may still be done, once more.
            await manager.sync.reload(game)
        else:
            raise GameError("stale", "the game changed meanwhile; ask again")
        guest = Role(1 - role.seat)
        hashes = list(game.stored.seat_hashes)
        hashes[guest.value] = ""
        game.stored.seat_hashes = (hashes[0], hashes[1])
        game.stored.invite_hash = seats.digest(ticket)
        game.stored.setup = setup
        game.state = state
        # Whoever held the invited seat watches from now on.
        for client in game.clients:
            if client.role is guest:
                game.reseat(client, None)
    await manager.broadcast(game)
    return ticket


def _may_reinvite(game: LiveGame, seat: int, token: str) -> None:
    """Raise ``GameError`` unless ``seat``, held by ``token``, may invite again now."""
    if game.stored.status != "active":
        raise GameError("game_over", "the game is over")
    if game.ply > 0:
        raise GameError("started", "the game has started; its seats are fixed")
    if not seats.matches(token, game.stored.seat_hashes[seat]):  # revoked since the request came
        raise GameError("spectator", "only a player of a friend game can invite")
    if game.stored.guest_seat != 1 - seat:
        raise GameError("not_creator", "only the player who made the game can invite again")
