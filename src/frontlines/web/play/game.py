"""One game in play, in this process's memory: its stored row, its state, its connections,
and the messages made from it.

The server is authoritative. A client sends action *text*; the engine parses and
validates it; only then is it stored and applied (:mod:`frontlines.web.play.table`). Each
connection is sent the view of its own seat (``state.view(seat).to_dict()``) or the public
view for spectators, so no message ever carries a card its receiver could not see at the
table.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from frontlines.bots.levels import BOT_OPPONENTS
from frontlines.core.game import State
from frontlines.core.record import GameRecord, outcome_tags, result_text
from frontlines.core.referee import Referee
from frontlines.web import seats
from frontlines.web.fanout import Client, TokenBucket, dumps
from frontlines.web.seats import Role
from frontlines.web.store import RematchState, StoredGame
from frontlines.web.timecontrol import control_of, reading

OPPONENTS = ("friend", "hotseat", *(f"bot:{level}" for level in BOT_OPPONENTS))
# Two people who met in the lobby (web/lobby.py): made by taking a seek, never asked for directly.
LOBBY = "lobby"
MAX_NAME = 40


class GameError(Exception):
    """A request that changes nothing; ``code`` is one word the client can switch on."""

    def __init__(self, code: str, message: str, reason: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        # why the game refused a move, as the engine says it (code, params, English words);
        # pages put it in their own language
        self.reason = reason

    def to_message(self) -> dict[str, Any]:
        """The error as sent to a client: ``{"type": "error", "code", "message"[, "reason"]}``."""
        out: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message}
        if self.reason is not None:
            out["reason"] = self.reason
        return out


# --- one game ---------------------------------------------------------------------------
@dataclass(eq=False)
class LiveGame:
    """A game in this process's memory. Its fields are grouped by the part of the server
    that keeps them (docs/web.md, "Server structure")."""

    # The game itself (the table writes them; sync replaces them with what another
    # process stored). Changes to either are made under ``lock``.
    stored: StoredGame
    state: State
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    _referee: Referee | None = None
    # The view of each seat (None: spectators) as JSON text, for the position it was made
    # in: serialised once per change, however many connections receive it.
    _views: dict[int | None, tuple[State, tuple[int, str, str], str]] = field(default_factory=dict)
    # Connections (connections.py): the clients here, and their counts by role (0, 1,
    # "both", None for spectators), kept as counts so that a message to thousands of
    # spectators does not count them each time.
    clients: set[Client] = field(default_factory=set)
    connected: dict[Role | None, int] = field(default_factory=dict)
    # Presence (presence.py): seats and spectators connected to other processes (several
    # processes on one PostgreSQL): origin -> (seat bit mask, spectators, when it was last
    # heard). An entry not heard again within PRESENCE_TTL is dropped, so a process that
    # died stops counting. The timers: spectators here get a "presence" message once
    # ``presence_timer`` fires; the other processes hear of spectators who came or went
    # here once ``watching_timer`` fires.
    remote: dict[str, tuple[int, int, float]] = field(default_factory=dict)
    presence_timer: asyncio.TimerHandle | None = None
    watching_timer: asyncio.TimerHandle | None = None
    # Sync (sync.py): another process changed the game, and ``dirty`` stays set until this
    # process has read the change (in ``refresher``).
    dirty: bool = False
    refresher: asyncio.Task[None] | None = None
    # Bot turns (botturns.py): the bot's turn being played here.
    bot_task: asyncio.Task[None] | None = None
    # Clocks (clocks.py): the database's clock minus this host's, as last measured, for
    # readings of ``stored.clock`` (whose times are the database's).
    clock_offset: float = 0.0
    # Quick messages (quick.py): each seat's allowance of phrases (a token bucket).
    quick_allowance: dict[int, TokenBucket] = field(default_factory=dict)

    @property
    def referee(self) -> Referee:
        """Judges moves, resignations and bot failures; people play without a move limit."""
        if self._referee is None or self._referee.state is not self.state:  # a new deal (re-invite)
            self._referee = Referee(self.state, max_actions=None)
        return self._referee

    @property
    def id(self) -> str:
        return self.stored.id

    @property
    def bot_thinking(self) -> bool:
        """A bot turn is running for this game in this process (:mod:`frontlines.web.play.botturns`)."""
        return self.bot_task is not None and not self.bot_task.done()

    @property
    def ply(self) -> int:
        return len(self.stored.actions)

    @property
    def hotseat(self) -> bool:
        return self.stored.opponent == "hotseat"

    def role_of(self, token: str | None, account: int | None = None) -> Role | None:
        """The role a token holds, else the seat ``account`` holds (an account's games follow
        it to every device where it is logged in); ``None`` (spectator) otherwise."""
        role = seats.seat_of(token, self.stored.seat_hashes, hotseat=self.hotseat)
        if role is None and account is not None:
            holders = self.stored.accounts
            if self.hotseat:
                return Role.BOTH if holders[0] == account else None
            for seat in (0, 1):
                if holders[seat] == account:
                    return Role(seat)
        return role

    def seat_to_act(self, role: Role | None) -> int | None:
        """The seat this role may move for now, if any (never the bot's)."""
        mover = self.referee.to_move()
        if role is None or mover is None or (mover == self.stored.bot_seat and role is not Role.BOTH):
            return None
        return mover if role.seat_now(mover) == mover else None

    def _view_seat(self, role: Role | None) -> int | None:
        # Pass-and-play shows the hand of whoever is to move; the page hides it behind a
        # "pass the device" screen between turns.
        return None if role is None else role.seat_now(self.state.current_player())

    def view_dict(self, role: Role | None) -> dict[str, Any]:
        return self.state.view(self._view_seat(role)).to_dict()

    def _view_text(self, role: Role | None) -> str:
        seat = self._view_seat(role)
        position = (self.ply, self.stored.status, self.stored.termination)
        cached = self._views.get(seat)
        # The state object counts too: a re-invite deals a new game at the same ply.
        if cached is not None and cached[0] is self.state and cached[1] == position:
            return cached[2]
        text = dumps(self.state.view(seat).to_dict())
        self._views[seat] = (self.state, position, text)
        return text

    def local_seats(self) -> int:
        """The seats connected to this process, as a bit mask (bit 0 seat 0, bit 1 seat 1)."""
        both = self.connected.get(Role.BOTH, 0) > 0
        return ((both or self.connected.get(Role.SEAT_0, 0) > 0) * 1) | ((both or self.connected.get(Role.SEAT_1, 0) > 0) * 2)

    def presence(self) -> int:
        """What this process tells the others of the game: the seats connected here (bits 0
        and 1) and, above them, how many watch here (a process that knows only the seat bits
        reads the same seats)."""
        return self.local_seats() | self.watching_here << 2

    def online(self) -> list[bool]:
        mask = self.local_seats()
        for theirs, _watching, _heard in self.remote.values():
            mask |= theirs
        online = [bool(mask & 1), bool(mask & 2)]
        if self.stored.bot_seat is not None:
            online[self.stored.bot_seat] = True
        return online

    @property
    def watching_here(self) -> int:
        """Spectators connected to this process (its caps and its messages count these)."""
        return self.connected.get(None, 0)

    @property
    def spectators(self) -> int:
        """Spectators of the game on every process (as last heard from the others)."""
        return self.watching_here + sum(watching for _seats, watching, _heard in self.remote.values())

    def _head(self, role: Role | None) -> dict[str, Any]:
        return {
            "type": "view",
            "game_id": self.id,
            "ply": self.ply,
            "role": None if role is None else role.value,
            "ruleset": self.stored.ruleset,
            "names": list(self.stored.names),
            "opponent": self.stored.opponent,
            "bot_seat": self.stored.bot_seat,
            "status": self.stored.status,
            "online": self.online(),
            "spectators": self.spectators,
            "invite_open": bool(self.stored.invite_hash),
            "guest_seat": self.stored.guest_seat,  # a friend game's invited seat: the other may invite again
            "clock": self.clock_reading(),
            "rematch": self.rematch_reading(),
            "rated": self.stored.rated,
            # which seats an account holds (its name is then the account's username)
            "players": [a is not None for a in self.stored.accounts],
        }

    @property
    def rematch_needed(self) -> int:
        """The seats whose yes a rematch needs, as bits: both, but never a bot's."""
        bot = self.stored.bot_seat
        return 3 & ~(0 if bot is None else 1 << bot)

    def rematch_reading(self) -> dict[str, Any] | None:
        """A finished game's rematch as the pages are told (None while it is played): who
        said yes (bits), who declined, the new game once made, the seconds an offer has left."""
        if self.stored.status != "finished":
            return None
        r = self.stored.rematch or RematchState()
        waiting = r.game is None and r.offers
        left = max(0.0, r.expires - time.time() - self.clock_offset) if waiting else None
        return {"offers": r.offers, "declined": r.declined, "game": r.game, "needed": self.rematch_needed,
                "expires_in": None if left is None else round(left, 1)}

    def clock_reading(self) -> dict[str, Any] | None:
        """Where the clocks stand now (None: no clock): each seat's time left, whose runs."""
        control = control_of(self.stored.time_control)
        if control is None or self.stored.clock is None:
            return None
        return reading(control, self.stored.clock, time.time() + self.clock_offset)

    def message(self, role: Role | None) -> dict[str, Any]:
        return {**self._head(role), "view": self.view_dict(role)}

    def message_text(self, role: Role | None) -> str:
        """:meth:`message` as wire text, the view's part taken from the per-position cache."""
        return dumps(self._head(role))[:-1] + ',"view":' + self._view_text(role) + "}"

    def reseat(self, client: Client, role: Role | None) -> None:
        """Give a connection another role (an invite was renewed), keeping the counts right."""
        self.connected[client.role] = self.connected.get(client.role, 1) - 1
        client.role = role
        self.connected[role] = self.connected.get(role, 0) + 1

    def send_views(self) -> None:
        """The change to every connection: serialised once per audience, queued on each
        connection. Nothing in it waits, so it never waits for a connection and no other
        change can come between two connections' copies."""
        texts: dict[Role | None, str] = {}
        for c in list(self.clients):
            text = texts.get(c.role)
            if text is None:
                text = texts[c.role] = self.message_text(c.role)
            c.send(text)

    def presence_text(self) -> str:
        return dumps({"type": "presence", "game_id": self.id, "online": self.online(), "spectators": self.spectators})

    def summary(self) -> dict[str, Any]:
        return {
            "id": self.id, "ruleset": self.stored.ruleset, "names": list(self.stored.names),
            "opponent": self.stored.opponent, "bot_seat": self.stored.bot_seat, "status": self.stored.status,
            "result": self.stored.result, "reason": self.stored.reason, "plies": self.ply,
            "rated": self.stored.rated,
        }


def rebuild(stored: StoredGame) -> State:
    """The current state of a stored game: setup, every action, then any resignation."""
    from frontlines.games import parse_state

    state = parse_state(stored.setup)
    for text in stored.actions:
        state.apply(state.parse_action(text))
    if stored.termination and stored.loser is not None and not state.is_terminal():
        state.resign(stored.loser, stored.termination)
    return state


def record_of(stored: StoredGame) -> GameRecord:
    """A game record (text/JSON) of a stored game."""
    state = rebuild(stored)
    tags: dict[str, str] = {
        "Game": state.game, "Ruleset": stored.ruleset, "Site": "frontlines web", "GameId": stored.id,
    }
    players = [stored.names[0] or "", stored.names[1] or ""]
    if stored.bot_seat is not None:
        players[stored.bot_seat] = players[stored.bot_seat] or stored.opponent
    tags["Player0"], tags["Player1"] = players
    tags.update(outcome_tags(state.outcome()))
    if stored.time_control:
        tags["TimeControl"] = stored.time_control
    for key, value in sorted(stored.options.items()):
        tags[f"Option_{key}"] = value
    tags["Setup"] = stored.setup
    return GameRecord(tags, list(stored.actions))


def ending_of(state: State) -> dict[str, Any]:
    """The stored form of how ``state`` ended."""
    outcome = state.outcome()
    termination, loser = "", None
    if outcome is not None and outcome.reason.out_of_rules and outcome.winner is not None:
        termination, loser = str(outcome.reason), 1 - outcome.winner
    return {"status": "finished", "result": result_text(outcome), "reason": outcome.reason if outcome is not None else "",
            "termination": termination, "loser": loser}

