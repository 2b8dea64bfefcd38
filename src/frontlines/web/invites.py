"""Friend games: spending an invite ticket, and inviting again before the first move.

Why a re-invite deals again: between the deal and the first move, the player who re-invites
could have taken the open seat themselves (a ticket is a ticket) and looked at its hand. A
fresh deal for every re-invite means that whoever ends up in the seat holds cards nobody
has seen. After the first move a deal cannot be taken back, so the seats are fixed: a
lost seat link then cannot be replaced by the other player (who would gain the seat).
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


def open_seat(game: LiveGame) -> int | None:
    """The seat a friend's invite is for: the one without a token (None if both are held)."""
    empty = [seat for seat, h in enumerate(game.stored.seat_hashes) if not h]
    return empty[0] if len(empty) == 1 else None


async def claim(manager: Manager, game: LiveGame, ticket: str) -> tuple[int, str]:
    """Spend ``ticket``: answer the seat and its new token, or raise ``GameError``."""
    if game.stored.opponent != "friend":
        raise GameError("bad_invite", "this game has no invite")
    async with game.lock:
        seat = open_seat(game)
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


async def reinvite(manager: Manager, game: LiveGame, role: Role | None) -> str:
    """A new ticket for the other seat, with a new deal; only before the first move."""
    from frontlines.games import new_state

    if game.stored.opponent != "friend" or role is None or role.seat is None:
        raise GameError("spectator", "only a player of a friend game can invite")
    other = Role(1 - role.seat)
    async with game.lock:
        if game.stored.status != "active":
            raise GameError("game_over", "the game is over")
        if game.ply > 0:
            raise GameError("started", "the game has started; its seats are fixed")
        state = new_state(game.stored.ruleset, seed=secrets.randbits(256), options=game.stored.options)
        setup = state.to_notation()
        ticket = seats.new_token()
        if not await _db(manager, manager.store.reinvite, game.id, other.value, seats.digest(ticket), setup):
            raise GameError("started", "the game has started; its seats are fixed")
        hashes = list(game.stored.seat_hashes)
        hashes[other.value] = ""
        game.stored.seat_hashes = (hashes[0], hashes[1])
        game.stored.invite_hash = seats.digest(ticket)
        game.stored.setup = setup
        game.state = state
        # Whoever held the other seat watches from now on.
        for client in game.clients:
            if client.role is other:
                game.reseat(client, None)
    await manager.broadcast(game)
    return ticket
