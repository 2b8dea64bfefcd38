"""Every event of the server's bus (:mod:`frontlines.web.play.bus`): what happened, who
publishes it, who listens today.

Notices, heard from other processes through PostgreSQL (``origin`` is never this process),
each written by ``pg_notify`` in the transaction of the change it tells of:

* :class:`MoveStored` (``m``): ``Store.append_action``. Heard by sync (the copy catches up),
  clocks (the writer's timer counts now).
* :class:`GameStored` (``g``): the store's other writes to a game's row (an ending, a name, a
  seat taken, a new invite and deal, an abandonment). Heard by sync, clocks.
* :class:`PresenceSaid` (``p``): ``Store.announce_presence``, sent by presence. Heard by presence.
* :class:`BotTurnReleased` (``l``): ``cluster.Leases.release``, a stopping process's bot
  turns. Heard by bot turns (take it now).
* :class:`SeekChanged` (``s``): the lobby's writes (:mod:`frontlines.web.lobby`): a seek
  posted, taken or gone. Heard by the lobby.
* :class:`RematchSaid` (``r``): rematch's answers and the rematch made. Heard by rematch (the
  copy reads it again; a process that hears the last "yes" makes the game).
* :class:`QuickSaid` (``q``): ``Store.notify``, sent by quick messages when a player says a
  phrase (nothing is stored). Heard by quick messages (the connections here are told).

Events of this process only:

* :class:`NoticesLost`: sync, when its listener listens again. Heard by sync (reads every
  game again) and the lobby (reads every open seek again).
* :class:`GameCreated`: table. Heard by bot turns.
* :class:`GameLoaded`: the game cache. Heard by sync (a game read too early), bot turns,
  clocks (a timer for the game's running clock).
* :class:`Joined`: connections. Heard by bot turns (a failed turn starts again).
* :class:`Left`: connections. Nobody yet.
* :class:`MovePlayed`: table (a person's move), bot turns (the bot's, through the table).
  Heard by bot turns (the bot's turn may be next).
* :class:`GameEnded`: table and housekeeping (stored here), sync (stored elsewhere). Heard by
  clocks (no timer any more).

A move or an ending stored by another process reaches this one as a :class:`MoveStored` or
:class:`GameStored` notice first; :class:`GameEnded` follows once the copy here has read it.
So "a move was played in game G, anywhere" is :class:`MovePlayed` or :class:`MoveStored`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from frontlines.web.fanout import Client
from frontlines.web.play.bus import Event, Notice
from frontlines.web.play.game import LiveGame


# --- notices ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameNotice(Notice):
    """A notice about one game: ``key`` is its id."""

    @property
    def game_id(self) -> str:
        return self.key


@dataclass(frozen=True)
class MoveStored(GameNotice):
    """Another process stored a move; ``number`` is the game's ply now."""

    kind: ClassVar[str] = "m"

    @property
    def ply(self) -> int:
        return self.number


@dataclass(frozen=True)
class GameStored(GameNotice):
    """Another process changed a game's row otherwise than by a plain move: an ending (with
    the move that made it, then ``number`` is the ply), a name, a seat taken, a new invite
    and deal, an abandonment."""

    kind: ClassVar[str] = "g"


@dataclass(frozen=True)
class PresenceSaid(GameNotice):
    """Another process said which seats of a game are connected to it and how many watch
    there: ``number`` is bit 0 seat 0, bit 1 seat 1, the spectators above them (0: none)."""

    kind: ClassVar[str] = "p"


@dataclass(frozen=True)
class BotTurnReleased(GameNotice):
    """A stopping process handed a bot turn over: whoever hears it may take it at once."""

    kind: ClassVar[str] = "l"


@dataclass(frozen=True)
class SeekChanged(Notice):
    """Another process changed the lobby: ``key`` is a seek's id, ``number`` what happened
    to it (:data:`SEEK_POSTED`, :data:`SEEK_TAKEN`, :data:`SEEK_GONE`)."""

    kind: ClassVar[str] = "s"

    @property
    def seek_id(self) -> str:
        return self.key


# What a SeekChanged notice says happened to its seek.
SEEK_POSTED, SEEK_TAKEN, SEEK_GONE = 0, 1, 2


@dataclass(frozen=True)
class RematchSaid(GameNotice):
    """A player answered a rematch of a finished game, or the rematch was made (``number``: the
    seats that said yes as bits, -1 once made)."""

    kind: ClassVar[str] = "r"


@dataclass(frozen=True)
class QuickSaid(GameNotice):
    """A player said a quick message (:mod:`frontlines.web.play.quick`): ``number`` is the
    phrase's index in ``quick.PHRASES`` times two plus the speaker's seat. Nothing is stored."""

    kind: ClassVar[str] = "q"


# --- this process ----------------------------------------------------------------------------
@dataclass(frozen=True)
class NoticesLost(Event):
    """The listening connection was down for a while: notices sent meanwhile are lost, so
    whatever was learnt from them must be read again."""


@dataclass(frozen=True)
class GameCreated(Event):
    """A game was created here (stored, and held in memory from now on)."""

    game: LiveGame


@dataclass(frozen=True)
class GameLoaded(Event):
    """A game was read from the store into memory. ``missed``: notices about it came while it
    was being read, so the copy may already be behind."""

    game: LiveGame
    missed: bool


@dataclass(frozen=True)
class Joined(Event):
    """A connection joined a game here (it has been sent its view)."""

    game: LiveGame
    client: Client


@dataclass(frozen=True)
class Left(Event):
    """A connection to a game here ended."""

    game: LiveGame
    client: Client


@dataclass(frozen=True)
class MovePlayed(Event):
    """This process stored a move of ``seat`` (a person's or a bot's), applied it and queued
    the new views; the game now stands at ``ply``."""

    game: LiveGame
    seat: int
    ply: int


@dataclass(frozen=True)
class GameEnded(Event):
    """A game held here has just left play: finished (by the rules, a resignation, a
    forfeit) or abandoned (``game.stored.status`` says which). ``here`` when this process
    stored it, else it was read after another process did. Published as the copy changes,
    under the game's lock, before the views are sent."""

    game: LiveGame
    here: bool
