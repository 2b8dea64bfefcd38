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


async def claim(manager: Manager, game: LiveGame, ticket: str, *, account: int | None = None,
                username: str = "") -> tuple[int, str]:
    """Spend ``ticket``: answer the seat and its new token, or raise ``GameError``.

    A logged-in player's seat belongs to their account too (named ``username``), unless that
    account holds the other seat already (one account on both seats would not know which
    seat it is); a rated game's seat can only be taken by another account."""
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
        other = game.stored.accounts[1 - seat]
        if game.stored.rated and (account is None or account == other):
            raise GameError("rated_needs_account", "this is a rated game: log in with your own account to take the seat")
        holder = account if account != other else None
        token = seats.new_token()
        digest, ticket_hash = seats.digest(token), game.stored.invite_hash
        if not await _db(manager, lambda: manager.store.claim_seat(
                game.id, ticket_hash, seat, digest, account=holder, name=username if holder is not None else None)):
            raise GameError("seat_taken", "this invite has been used or is not valid; you can watch the game")
        hashes = list(game.stored.seat_hashes)
        hashes[seat] = seats.digest(token)
        game.stored.seat_hashes = (hashes[0], hashes[1])
        game.stored.invite_hash = ""
        holders = list(game.stored.accounts)
        holders[seat] = holder
        game.stored.accounts = (holders[0], holders[1])
        if holder is not None:
            names = list(game.stored.names)
            names[seat] = username
            game.stored.names = (names[0], names[1])
    await manager.broadcast(game)
    return seat, token


async def reinvite(manager: Manager, game: LiveGame, token: str | None, *, account: int | None = None) -> str:
    """A new ticket for the invited seat, with a new deal: only for the game's creator (the
    seat that was not invited), who still holds their seat (by ``token``, or as the logged-in
    ``account`` that holds it, on any device), and only before the first move.

    The invited friend cannot invite "again": that would revoke the creator's seat and hand
    the friend both. Every condition is checked again in the database's update that writes
    the new ticket (:meth:`Store.reinvite`), so that two requests at once, in this process or
    in two processes on one PostgreSQL, cannot both pass on what each read before the
    other wrote and leave the game with no seat held."""
    from frontlines.games import new_state

    role = await manager.role_of(game, token, account)
    if game.stored.opponent != "friend" or role is None or role.seat is None:
        raise GameError("spectator", "only a player of a friend game can invite")
    # The seat link decides when it is given; else the account's hold on the seat.
    by_token = token is not None and seats.matches(token, game.stored.seat_hashes[role.seat])
    async with game.lock:
        state = new_state(game.stored.ruleset, seed=secrets.randbits(256), options=game.stored.options)
        setup = state.to_notation()
        ticket = seats.new_token()
        guest = Role(1 - role.seat)
        asker_hash = seats.digest(token) if by_token and token else ""
        for _attempt in range(2):
            _may_reinvite(game, role.seat, token if by_token else None, account)
            # an account's seat bears its name: the seat's name goes with the account
            held = game.stored.accounts[guest.value] is not None
            if await _db(manager, lambda held=held, seen=game.stored.invite_hash: manager.store.reinvite(
                    game.id, role.seat, asker_hash, seen, seats.digest(ticket), setup,
                    asker_account=None if by_token else account, unname=held)):
                break
            # The game changed meanwhile through another process (the ticket spent or
            # renewed, a move, an ending): read it again; if it may still be done, once more.
            await manager.sync.reload(game)
        else:
            raise GameError("stale", "the game changed meanwhile; ask again")
        hashes = list(game.stored.seat_hashes)
        hashes[guest.value] = ""
        game.stored.seat_hashes = (hashes[0], hashes[1])
        holders = list(game.stored.accounts)
        holders[guest.value] = None
        game.stored.accounts = (holders[0], holders[1])
        if held:
            names = list(game.stored.names)
            names[guest.value] = ""
            game.stored.names = (names[0], names[1])
        game.stored.invite_hash = seats.digest(ticket)
        game.stored.setup = setup
        game.state = state
        # Whoever held the invited seat watches from now on.
        for client in game.clients:
            if client.role is guest:
                game.reseat(client, None)
    await manager.broadcast(game)
    return ticket


def _may_reinvite(game: LiveGame, seat: int, token: str | None, account: int | None) -> None:
    """Raise ``GameError`` unless ``seat``, held by ``token`` (or by ``account`` without
    one), may invite again now."""
    if game.stored.status != "active":
        raise GameError("game_over", "the game is over")
    if game.ply > 0:
        raise GameError("started", "the game has started; its seats are fixed")
    holds = seats.matches(token, game.stored.seat_hashes[seat]) if token is not None else \
        account is not None and game.stored.accounts[seat] == account
    if not holds:  # revoked since the request came
        raise GameError("spectator", "only a player of a friend game can invite")
    if game.stored.guest_seat != 1 - seat:
        raise GameError("not_creator", "only the player who made the game can invite again")
