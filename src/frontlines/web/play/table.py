"""The table: every change to a game in play goes through here. A game is created, a move
played, a game resigned, forfeited or a seat named, each as one write to the store, then in
memory, then sent to the connections.

* **Moves are ply-guarded.** The store takes a move only at the ply this copy stands at;
  if another process moved first, the copy catches up (:mod:`frontlines.web.play.sync`),
  every connection gets the fresh state and the mover is told the move was not played
  (``stale``). A resignation or a forfeit is stored only if the game still stands at the
  ply it was decided at.
* **Write hooks.** A concern that must write something *in the same transaction* as a
  game's write registers a :class:`WriteHook` (:meth:`Table.add_hook`): for each write
  (:class:`Write`: a creation, a move, an ending) its ``joins`` answers what to write in that
  transaction (or None), and its ``committed`` runs once the write has committed, before
  anything else can happen to the game here. Bot turns take the turn's lease this way
  (:mod:`frontlines.web.play.botturns`), so no crash can leave a move without its lease.
* **Events.** :class:`~frontlines.web.play.events.GameCreated` once a new game is held here,
  :class:`~frontlines.web.play.events.MovePlayed` once a move is applied and its views
  queued, :class:`~frontlines.web.play.events.GameEnded` (``here=True``) as an ending
  stored here is applied in memory.

Where the concerns of issue 29 plug in:

* **Clocks** (:mod:`frontlines.web.play.clocks`): a write hook that charges each move and
  stores its time with it, refuses a move past its deadline (:class:`WriteRefused`, whose
  ``settle`` stores the flag) and stops the clocks with the ending.
* **Rematch** (``play/rematch.py``): offers on a finished game, a new game through
  :meth:`Table.create` with the seats swapped.
* **Ratings** (``web/ratings.py``): a write hook on the ``end`` write of a rated game, so
  that a rating changes exactly once, with the result, whichever process stores it.
* **Seeks** (``web/lobby.py``) create their game through :meth:`Table.create`, taking the
  seek in the creation's own transaction (its ``also``).
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from sqlalchemy.orm import Session

from frontlines.core.errors import FrontlinesError, IllegalAction
from frontlines.core.game import State
from frontlines.core.reasons import english
from frontlines.games import game_module
from frontlines.web import seats
from frontlines.web.play.events import GameCreated, GameEnded, MovePlayed
from frontlines.web.play.game import LOBBY, MAX_NAME, OPPONENTS, GameError, LiveGame, ending_of
from frontlines.web.play.games import GameCache
from frontlines.web.play.process import Process
from frontlines.web.play.sync import Sync
from frontlines.web.seats import Role
from frontlines.web.store import GameClosed, StaleGame, StoredGame
from frontlines.web.timecontrol import Control


@dataclass(frozen=True)
class Write:
    """One write to a game, as write hooks see it. ``game`` is the copy as it was before
    the write (for ``create``, the new game, not yet held); ``ply`` and ``to_move`` say where
    the write takes it (``to_move`` None: the game is over); ``seat`` is the mover of a
    ``move``; ``ending`` is how the game ended, if the write ends it."""

    what: Literal["create", "move", "end"]
    game: LiveGame
    ply: int
    to_move: int | None
    seat: int | None = None
    ending: dict[str, Any] | None = None


class WriteRefused(Exception):
    """Raised by a write hook's part, inside the transaction, to refuse the write (nothing
    of it is stored): a move that came after its player's time ran out, say. ``code`` and
    ``message`` are what the client is told; ``settle``, if given, is awaited (with the
    game's lock still held) before the refusal is raised to the caller: the clocks store
    the flag there."""

    def __init__(self, code: str, message: str,
                 settle: Callable[[LiveGame], Awaitable[None]] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.settle = settle


class WriteHook(Protocol):
    def joins(self, write: Write) -> Callable[[Session], None] | None:
        """What to write in the same transaction as ``write`` (None: nothing)."""
        ...

    def committed(self, write: Write) -> None:
        """``write`` has committed (called before the copy here changes further)."""
        ...


def _clean(name: str) -> str:
    return " ".join(name.split())[:MAX_NAME]


class Table:
    def __init__(self, process: Process, cache: GameCache, sync: Sync) -> None:
        self.process = process
        self.cache = cache
        self.sync = sync
        self.hooks: list[WriteHook] = []

    def add_hook(self, hook: WriteHook) -> None:
        self.hooks.append(hook)

    def _joining(self, write: Write) -> Callable[[Session], None] | None:
        parts = [part for part in (hook.joins(write) for hook in self.hooks) if part is not None]
        if len(parts) <= 1:
            return parts[0] if parts else None

        def all_parts(s: Session) -> None:
            for part in parts:
                part(s)

        return all_parts

    def _committed(self, write: Write) -> None:
        for hook in self.hooks:
            hook.committed(write)

    # --- creating -------------------------------------------------------------------
    async def create(self, *, ruleset: str, options: dict[str, str], opponent: str, name: str,
                     seat: int, seed: int | None = None, other_name: str = "", other_hash: str = "",
                     time_control: str = "", account: int | None = None, other_account: int | None = None,
                     rated: bool = False,
                     also: Callable[[Session, LiveGame], None] | None = None) -> tuple[LiveGame, str, str | None]:
        """A new game; returns it, the creator's token and (for a friend) the invite token.
        ``other_name`` names the other seat in pass and play (both players are at this device),
        in a lobby game and for the other seat's account. A lobby game (``opponent``
        ``"lobby"``) seats the other player with ``other_hash``, the digest of a seat token
        their page holds already. ``time_control`` is its clock
        (:mod:`frontlines.web.timecontrol`: "" none, "300+3", "3d"). ``account`` holds the
        creator's seat (both in pass and play), ``other_account`` the other seat (a lobby game
        between accounts, or a friend game two accounts agreed on: its invite is then already
        spent). ``rated``: between two accounts only; in a friend game with no
        ``other_account`` the invite can then only be spent by another account
        (:func:`frontlines.web.invites.claim`). ``also`` is the caller's part of the
        creation's transaction (the lobby takes its seek there): if it raises, nothing is
        stored and the error comes out here."""
        from frontlines.games import new_state
        from frontlines.games import ruleset as find_ruleset

        if opponent not in OPPONENTS and opponent != LOBBY:
            raise GameError("bad_request", f"unknown opponent {opponent!r}")
        try:
            control = Control.parse(time_control)
        except ValueError as exc:
            raise GameError("bad_request", str(exc)) from exc
        if (opponent == LOBBY) != bool(other_hash):
            raise GameError("bad_request", "a lobby game seats the other player by their token's digest")
        if other_account is not None and (opponent not in ("friend", LOBBY) or other_account == account
                                          or (opponent == "friend" and account is None)):
            raise GameError("bad_request", "a game for two accounts is a friend or lobby game between two accounts")
        if rated and (opponent not in ("friend", LOBBY) or account is None
                      or (opponent == LOBBY and other_account is None)):
            raise GameError("not_rated", "rated games are played between two accounts: log in, and invite a person")
        rs = find_ruleset(ruleset)
        try:
            resolved = rs.resolve_options(options)
        except ValueError as exc:
            raise GameError("bad_request", str(exc)) from exc
        # The deal comes from the operating system's secure source unless the caller passes a
        # seed (the app allows that only behind a server setting, and never for friend games).
        state = new_state(ruleset, seed=secrets.randbits(256) if seed is None else seed, options=resolved)
        mine = seats.new_token()
        # A friend's seat starts empty: it gets its own token when the invite ticket is spent.
        invite = seats.new_token() if opponent == "friend" and other_account is None else None
        if opponent == "hotseat":
            hashes = (seats.digest(mine), seats.digest(mine))
        else:
            hashes = (seats.digest(mine), other_hash) if seat == 0 else (other_hash, seats.digest(mine))
        invite_hash = seats.digest(invite) if invite else ""
        clean = _clean(name)
        other = _clean(other_name) if opponent in ("hotseat", LOBBY) or other_account is not None else ""
        names = (clean, other) if seat == 0 else (other, clean)
        theirs = account if opponent == "hotseat" else other_account
        holders = (account, theirs) if seat == 0 else (theirs, account)
        bot_seat = 1 - seat if opponent.startswith("bot:") else None
        if bot_seat is not None:
            names = (names[0] or opponent[4:], names[1]) if bot_seat == 0 else (names[0], names[1] or opponent[4:])
        game = await self._create(ruleset=ruleset, resolved=resolved, state=state, opponent=opponent,
                                  seat_hashes=hashes, invite_hash=invite_hash, names=names, bot_seat=bot_seat,
                                  control=control, accounts=holders, rated=rated, also=also)
        return game, mine, invite

    async def create_seated(self, *, ruleset: str, options: dict[str, str], opponent: str,
                            seat_hashes: tuple[str, str], names: tuple[str, str], bot_seat: int | None,
                            time_control: str = "", accounts: tuple[int | None, int | None] = (None, None),
                            rated: bool = False,
                            also: Callable[[Session, LiveGame], None] | None = None) -> LiveGame:
        """A new game whose seats are held already: by the digests of tokens its players have
        and by ``accounts`` (a rematch swaps a finished game's). ``rated`` as :meth:`create`
        says, checked by the caller (a rematch of a rated game). ``also(session, game)``
        runs in the creating transaction: a conditional write that raises (say
        :class:`WriteRefused`) rolls the whole game back."""
        from frontlines.games import new_state
        from frontlines.games import ruleset as find_ruleset

        if opponent not in OPPONENTS and opponent != LOBBY:  # a lobby game's rematch is a lobby game
            raise GameError("bad_request", f"unknown opponent {opponent!r}")
        try:
            control = Control.parse(time_control)
            resolved = find_ruleset(ruleset).resolve_options(options)
        except ValueError as exc:
            raise GameError("bad_request", str(exc)) from exc
        state = new_state(ruleset, seed=secrets.randbits(256), options=resolved)
        return await self._create(ruleset=ruleset, resolved=resolved, state=state, opponent=opponent,
                                  seat_hashes=seat_hashes, invite_hash="", names=names, bot_seat=bot_seat,
                                  control=control, accounts=accounts, rated=rated, also=also)

    async def _create(self, *, ruleset: str, resolved: dict[str, str], state: State, opponent: str,
                      seat_hashes: tuple[str, str], invite_hash: str, names: tuple[str, str], bot_seat: int | None,
                      control: Control | None, accounts: tuple[int | None, int | None], rated: bool,
                      also: Callable[[Session, LiveGame], None] | None = None) -> LiveGame:
        """Store a new game (with what the write hooks and ``also`` write in its transaction),
        hold it here and tell the bus."""
        game_id = secrets.token_urlsafe(9)
        setup = state.to_notation()
        stored = StoredGame(id=game_id, ruleset=ruleset, options=resolved, setup=setup, seat_hashes=seat_hashes,
                            invite_hash=invite_hash, names=names, opponent=opponent, bot_seat=bot_seat,
                            status="active", result="*", reason="", termination="", loser=None,
                            created=0.0, updated=0.0, time_control="" if control is None else str(control),
                            accounts=accounts, rated=rated)
        game = LiveGame(stored, state)
        write = Write("create", game, 0, state.current_player())
        hooks = self._joining(write)

        def joined(s: Session) -> None:
            if also is not None:
                also(s, game)
            if hooks is not None:
                hooks(s)

        await self.process.db(self.process.store.create_game, game_id=game_id, ruleset=ruleset, options=resolved,
                              setup=setup, seat_hashes=seat_hashes, invite_hash=invite_hash, names=names,
                              opponent=opponent, bot_seat=bot_seat, accounts=accounts, rated=rated,
                              also=joined if also is not None or hooks is not None else None)
        self._committed(write)
        self.cache.remember(game)
        self.process.bus.publish(GameCreated(game))
        return game

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
            await self.play(game, text, seat)
        self.moved(game, seat)

    def moved(self, game: LiveGame, seat: int) -> None:
        """After :meth:`play`, once the game's lock is let go: the views go out and the bus
        hears of the move."""
        game.send_views()
        self.process.bus.publish(MovePlayed(game, seat, game.ply))

    async def play(self, game: LiveGame, text: str, seat: int) -> None:
        """Parse, validate, store, apply ``seat``'s move ``text``. Caller holds the game lock,
        and calls :meth:`moved` once it has let it go.

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
        # What the action leads to, stored with it: the result if it ends the game, and who
        # is to move next (a bot's turn takes its lease in the same transaction).
        state.push(action)
        ending = ending_of(state) if state.is_terminal() else None
        write = Write("move", game, ply, None if ending is not None else state.current_player(), seat, ending)
        state.pop()
        try:
            await self.process.db(self.process.store.append_action, game.id, ply, canonical, ending=ending,
                                  also=self._joining(write))
        except (GameClosed, StaleGame) as exc:  # abandoned a moment ago, or another process moved
            await self.sync.catch_up(game)
            game.send_views()
            if isinstance(exc, GameClosed) or game.stored.status != "active":
                raise GameError("game_over", "the game is over") from exc
            raise GameError("stale", f"another move was played first; the game is at ply {game.ply} now") from exc
        except WriteRefused as exc:  # a hook refused the move (the mover's time had run out)
            if exc.settle is not None:
                await exc.settle(game)
            raise GameError(exc.code, exc.message) from exc
        game.referee.move(seat, action)
        game.stored.actions.append(canonical)
        self._committed(write)
        if ending is not None:
            self._ended(game, ending)
        elif game.referee.over:
            await self.finish(game)

    # --- endings --------------------------------------------------------------------
    def _ended(self, game: LiveGame, ending: dict[str, Any]) -> None:
        stored = game.stored
        stored.status, stored.result, stored.reason = ending["status"], ending["result"], ending["reason"]
        stored.termination, stored.loser = ending["termination"], ending["loser"]
        self.process.bus.publish(GameEnded(game, here=True))

    async def finish(self, game: LiveGame) -> None:
        """Store how the referee ended the game (a resignation, a forfeit, a flag), only if
        it still stands at this ply. Caller holds the game lock."""
        ending = ending_of(game.state)
        write = Write("end", game, game.ply, None, ending=ending)
        try:
            await self.process.db(self.process.store.finish, game.id, result=ending["result"],
                                  reason=ending["reason"], termination=ending["termination"], loser=ending["loser"],
                                  ply=game.ply, also=self._joining(write))
        except (StaleGame, WriteRefused) as exc:
            # Another process moved or ended the game first, or a hook refused the ending (a
            # flag before the deadline by the database's clock): the ending in memory is void.
            await self.sync.reload(game)
            game.send_views()
            if isinstance(exc, WriteRefused):
                raise GameError(exc.code, exc.message) from exc
            raise GameError("stale", f"the game has moved on; it is at ply {game.ply} now") from exc
        self._committed(write)
        self._ended(game, ending)

    async def resign(self, game: LiveGame, role: Role | None) -> None:
        async with game.lock:
            if role is None:
                raise GameError("spectator", "spectators cannot resign")
            if game.stored.status != "active" or game.referee.over:
                raise GameError("game_over", "the game is over")
            seat = role.seat_now(game.state.current_player())
            game.referee.resign(0 if seat is None else seat)
            await self.finish(game)
        game.send_views()

    # --- names ----------------------------------------------------------------------
    async def set_name(self, game: LiveGame, role: Role | None, name: Any) -> None:
        if not isinstance(name, str):
            raise GameError("malformed", "a name must be a string")
        seat = None if role is None else role.seat
        if seat is None or seat == game.stored.bot_seat:
            raise GameError("spectator", "only a seated player can name their seat")
        if game.stored.accounts[seat] is not None:
            raise GameError("named", "a seat an account holds bears the account's name")
        clean = _clean(name)
        async with game.lock:
            # A finished game's record keeps the names it was played under.
            if game.stored.status != "active" or game.state.is_terminal():
                raise GameError("game_over", "the game is over: its names stay as they were")
            if not await self.process.db(self.process.store.set_name, game.id, seat, clean):
                await self.sync.reload(game)  # ended through another process meanwhile
                raise GameError("game_over", "the game is over: its names stay as they were")
            names = list(game.stored.names)
            names[seat] = clean
            game.stored.names = (names[0], names[1])
        game.send_views()
