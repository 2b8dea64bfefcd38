"""Durable storage of web games: one row per game, one row per action.

A game is stored as its setup notation (the full initial position) plus the action texts
in order, so any game can be rebuilt exactly after a reload, a lost connection or a
server restart. Seat tokens and invite tickets are stored as digests only
(:mod:`frontlines.web.seats`).

The schema is created and migrated by Alembic (:mod:`frontlines.web.migrations`; a new
column or table is a new revision there plus its mapped class here). The tables of
accounts and ratings are mapped here too (one metadata for the schema); what they mean and
how they are written is :mod:`frontlines.web.accounts` and :mod:`frontlines.web.ratings`. SQLite (the default,
one file, nothing to install) and PostgreSQL are both supported through SQLAlchemy 2.

All methods are synchronous and short; the server calls them from a worker thread so the
event loop never waits on the database.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Boolean, Float, ForeignKey, Index, Integer, String, Text, false, func, or_, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

from frontlines.web import migrations
from frontlines.web.database import DatabaseError, Pool, lock_sqlite, normalise_url, open_engine, unlock_sqlite
from frontlines.web.timecontrol import ClockState, control_of, reading

__all__ = ["CHANNEL", "STATUSES", "Base", "DatabaseError", "GameClosed", "StaleGame", "Store", "StoredGame", "normalise_url"]
# Statuses: "active" (being played), "finished" (by the rules, a resignation or a
# forfeit), "abandoned" (no move for a long time; kept, never deleted, no longer live).
STATUSES = ("active", "finished", "abandoned")


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    ruleset: Mapped[str] = mapped_column(String(64))
    options: Mapped[str] = mapped_column(Text, default="{}")  # JSON object of strings
    setup: Mapped[str] = mapped_column(Text)
    # SHA-256 digests of the seat tokens; "" for a seat nobody holds (a bot, an unclaimed invite).
    seat_hash0: Mapped[str] = mapped_column(String(64), default="")
    seat_hash1: Mapped[str] = mapped_column(String(64), default="")
    # Digest of the open invite ticket of a friend game; "" once it is spent.
    invite_hash: Mapped[str] = mapped_column(String(64), default="")
    name0: Mapped[str] = mapped_column(String(64), default="")
    name1: Mapped[str] = mapped_column(String(64), default="")
    # "bot:<spec>", "friend" or "hotseat"; bot_seat says which seat the bot plays.
    opponent: Mapped[str] = mapped_column(String(64))
    bot_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # A friend game's invited seat (revision 0003): only the other, the creator's, may invite
    # again, and only this one's token is revoked by it. NULL for other games.
    guest_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    status: Mapped[str] = mapped_column(String(16), default="active", index=True)  # see STATUSES
    result: Mapped[str] = mapped_column(String(16), default="*")
    reason: Mapped[str] = mapped_column(String(32), default="")
    # Out-of-rules endings (resignation) are not actions; they are replayed from here.
    termination: Mapped[str] = mapped_column(String(32), default="")
    loser: Mapped[int | None] = mapped_column(Integer, nullable=True)
    plies: Mapped[int] = mapped_column(Integer, default=0)
    created: Mapped[float] = mapped_column(Float)
    updated: Mapped[float] = mapped_column(Float)
    # The account holding each seat (None: the seat token alone; revision 0007), and whether
    # the game is rated (between two accounts: frontlines.web.ratings).
    account0: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    account1: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class ActionRow(Base):
    __tablename__ = "actions"

    game_id: Mapped[str] = mapped_column(String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    text: Mapped[str] = mapped_column(String(64))
    # Seconds the action took, by the database's clock, in a game with a clock (revision 0004).
    spent: Mapped[float | None] = mapped_column(Float, nullable=True)


class BotLease(Base):
    """A bot turn that is due in a game, and which server process plays it until when
    (several processes on one PostgreSQL: :mod:`frontlines.web.cluster`; revision 0002)."""

    __tablename__ = "bot_leases"

    game_id: Mapped[str] = mapped_column(String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    owner: Mapped[str] = mapped_column(String(64))  # "": nobody (free to take)
    ply: Mapped[int] = mapped_column(Integer)  # the ply the bot is to move at
    expires: Mapped[float] = mapped_column(Float, index=True)  # seconds since the epoch, the database's clock


class ClockRow(Base):
    """A game's clock: its time control, and where its clocks stand
    (:class:`~frontlines.web.timecontrol.ClockState`; revision 0004). A game has a row if
    and only if it has a clock (the games table is left as it was: on SQLite, altering it
    means copying it, which its actions' cascade would empty). Written with the game, rewritten in the transaction of each of its moves
    and of its ending; ``deadline`` is set while a clock runs, and every server process
    looks for deadlines that have passed (:mod:`frontlines.web.play.clocks`)."""

    __tablename__ = "clocks"

    game_id: Mapped[str] = mapped_column(String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    # The time control ("300+3" live, "3d" correspondence: frontlines.web.timecontrol).
    control: Mapped[str] = mapped_column(String(16))
    ply: Mapped[int] = mapped_column(Integer)
    since: Mapped[float] = mapped_column(Float)  # seconds since the epoch, the database's clock
    left0: Mapped[float | None] = mapped_column(Float, nullable=True)  # None: the seat has no clock
    left1: Mapped[float | None] = mapped_column(Float, nullable=True)
    running: Mapped[int | None] = mapped_column(Integer, nullable=True)
    deadline: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    to_move: Mapped[int | None] = mapped_column(Integer, nullable=True)
    moved: Mapped[int] = mapped_column(Integer, default=0)

    def state(self) -> ClockState:
        return ClockState(ply=self.ply, since=self.since, left=(self.left0, self.left1), running=self.running,
                          deadline=self.deadline, to_move=self.to_move, moved=self.moved)

    def set(self, state: ClockState) -> None:
        self.ply, self.since, self.left0, self.left1 = state.ply, state.since, state.left[0], state.left[1]
        self.running, self.deadline, self.to_move, self.moved = state.running, state.deadline, state.to_move, state.moved
class AccountRow(Base):
    """A player's account (:mod:`frontlines.web.accounts`; revision 0007)."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    username: Mapped[str] = mapped_column(String(64))  # as chosen (NFKC)
    name_key: Mapped[str] = mapped_column(String(128), unique=True, index=True)  # accounts.name_key
    password_hash: Mapped[str] = mapped_column(String(255))  # argon2id, with its parameters
    created: Mapped[float] = mapped_column(Float)
    password_changed: Mapped[float] = mapped_column(Float)


class RecoveryCodeRow(Base):
    """A recovery code's digest; ``used`` once spent."""

    __tablename__ = "recovery_codes"

    account_id: Mapped[int] = mapped_column(Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    used: Mapped[float | None] = mapped_column(Float, nullable=True)


class SessionRow(Base):
    """A logged-in browser: the digest of its cookie's value, never the value."""

    __tablename__ = "sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(Integer, ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    created: Mapped[float] = mapped_column(Float)
    seen: Mapped[float] = mapped_column(Float)
    expires: Mapped[float] = mapped_column(Float, index=True)


class AuthLimitRow(Base):
    """Failed attempts counted under one key (an account, an address) since ``since``."""

    __tablename__ = "auth_limits"

    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    count: Mapped[int] = mapped_column(Integer)
    since: Mapped[float] = mapped_column(Float, index=True)


class RatingRow(Base):
    """An account's Glicko-2 rating in one ruleset, as of its last rated game (``last``)."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_ruleset_rating", "ruleset", "rating"),)

    account_id: Mapped[int] = mapped_column(Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    ruleset: Mapped[str] = mapped_column(String(64), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    losses: Mapped[int] = mapped_column(Integer)
    draws: Mapped[int] = mapped_column(Integer)
    last: Mapped[float] = mapped_column(Float)


class RatingChangeRow(Base):
    """What one rated game did to one player's rating (one row per game and player)."""

    __tablename__ = "rating_changes"
    __table_args__ = (Index("ix_rating_changes_account", "account_id", "ruleset", "at"),)

    game_id: Mapped[str] = mapped_column(String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    account_id: Mapped[int] = mapped_column(Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    ruleset: Mapped[str] = mapped_column(String(64))
    opponent_id: Mapped[int] = mapped_column(Integer)
    score: Mapped[float] = mapped_column(Float)  # 1 a win, 0.5 a draw, 0 a loss
    at: Mapped[float] = mapped_column(Float)
    rating_before: Mapped[float] = mapped_column(Float)
    deviation_before: Mapped[float] = mapped_column(Float)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)


class SeekRow(Base):
    """An open seek in the lobby, or one just taken (:mod:`frontlines.web.lobby`; revision 0005)."""

    __tablename__ = "seeks"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    ruleset: Mapped[str] = mapped_column(String(64))
    options: Mapped[str] = mapped_column(Text)  # JSON object of strings, resolved (every option named)
    clock: Mapped[str] = mapped_column(String(16))  # a time control ("300+3", "3d"; "" none)
    rated: Mapped[bool] = mapped_column(Boolean)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the creator's seat, None: either
    name: Mapped[str] = mapped_column(String(64))
    account: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the creator's account, if any
    token_hash: Mapped[str] = mapped_column(String(64))  # digest of the seat token the creator's page holds
    owner: Mapped[str] = mapped_column(String(64))  # the process that holds the creator's page
    expires: Mapped[float] = mapped_column(Float, index=True)  # the lease, by the database's clock
    created: Mapped[float] = mapped_column(Float)
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)  # set once, when taken
    game_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the creator's seat in that game


class RematchRow(Base):
    """A finished game's rematch: who said yes (bits, seat 0 and 1), who declined, when the
    offer expires (the database's clock) and the new game once it is made (revision 0006;
    :mod:`frontlines.web.play.rematch`)."""

    __tablename__ = "rematches"

    game_id: Mapped[str] = mapped_column(String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    offers: Mapped[int] = mapped_column(Integer, default=0)
    declined: Mapped[int | None] = mapped_column(Integer, nullable=True)
    expires: Mapped[float] = mapped_column(Float)
    game: Mapped[str | None] = mapped_column(String(32), nullable=True)

    def state(self) -> RematchState:
        return RematchState(offers=self.offers, declined=self.declined, expires=self.expires, game=self.game)


@dataclass(frozen=True)
class RematchState:
    """Where a finished game's rematch stands (see :class:`RematchRow`)."""

    offers: int = 0
    declined: int | None = None
    expires: float = 0.0
    game: str | None = None


class MetaRow(Base):
    __tablename__ = "frontlines_meta"

    key: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(64))


@dataclass
class StoredGame:
    """A game as read back from the database."""

    id: str
    ruleset: str
    options: dict[str, str]
    setup: str
    seat_hashes: tuple[str, str]
    invite_hash: str
    names: tuple[str, str]
    opponent: str
    bot_seat: int | None
    status: str
    result: str
    reason: str
    termination: str
    loser: int | None
    created: float
    updated: float
    actions: list[str] = field(default_factory=list)
    # A friend game's invited seat: the one its creator left without a token. Told from the
    # tokens when not given (a game being created); ``None`` where it cannot be told (a game
    # stored before revision 0003 with both seats held): then nobody may invite again.
    guest_seat: int | None = None
    time_control: str = ""  # "" no clock; see frontlines.web.timecontrol
    clock: ClockState | None = None  # where the clocks stood at the last write (games with a clock)
    rematch: RematchState | None = None  # a finished game's rematch, once someone answered
    accounts: tuple[int | None, int | None] = (None, None)  # the account holding each seat
    rated: bool = False

    def __post_init__(self) -> None:
        if self.guest_seat is None and self.opponent == "friend" and self.seat_hashes.count("") == 1:
            self.guest_seat = self.seat_hashes.index("")


def _row_to_game(row: GameRow, actions: list[str], clock: ClockRow | None = None,
                 rematch: RematchRow | None = None) -> StoredGame:
    return StoredGame(
        id=row.id,
        ruleset=row.ruleset,
        options=json.loads(row.options or "{}"),
        setup=row.setup,
        seat_hashes=(row.seat_hash0, row.seat_hash1),
        invite_hash=row.invite_hash,
        names=(row.name0, row.name1),
        opponent=row.opponent,
        bot_seat=row.bot_seat,
        status=row.status,
        result=row.result,
        reason=row.reason,
        termination=row.termination,
        loser=row.loser,
        created=row.created,
        updated=row.updated,
        actions=actions,
        guest_seat=row.guest_seat,
        time_control="" if clock is None else clock.control,
        clock=None if clock is None else clock.state(),
        rematch=None if rematch is None else rematch.state(),
        accounts=(row.account0, row.account1),
        rated=bool(row.rated),
    )


def _clock_summary(clock: ClockRow | None, now: float) -> dict[str, Any] | None:
    control = None if clock is None else control_of(clock.control)
    if control is None or clock is None:
        return None
    return reading(control, clock.state(), now)


def _summary(r: GameRow, clock: ClockRow | None, now: float) -> dict[str, Any]:
    """What anyone may know of a game (no tokens, no setup)."""
    return {
        "id": r.id, "ruleset": r.ruleset, "names": [r.name0, r.name1], "opponent": r.opponent,
        "bot_seat": r.bot_seat, "status": r.status, "result": r.result, "reason": r.reason,
        "plies": r.plies, "created": r.created, "updated": r.updated, "clock": _clock_summary(clock, now),
        "rated": bool(r.rated), "players": [r.account0 is not None, r.account1 is not None],
    }


def _changed(result: object) -> int:
    """Rows an UPDATE changed (``rowcount`` lives on the cursor result)."""
    return int(getattr(result, "rowcount", 0))


class GameClosed(Exception):
    """A write to a game that is no longer active."""


class StaleGame(Exception):
    """A write made for a ply the game has left: another process (or connection) moved first."""


# Every write to a game is announced on this PostgreSQL channel when it commits (see
# :mod:`frontlines.web.cluster`); SQLite has a single server process and announces nothing.
CHANNEL = "frontlines_games"


class Store:
    """The games and actions tables behind one SQLAlchemy engine."""

    def __init__(self, url: str, *, upgrade: bool = True, pool: Pool | None = None) -> None:
        """Open the database at ``url``: with ``upgrade``, create or migrate its schema as needed;
        without, refuse one that is not at the newest revision. A SQLite file is held by this
        process while the store is open; ``pool`` sizes PostgreSQL's connection pool.
        Raises :class:`DatabaseError` (one line)."""
        self.url = normalise_url(url)
        self.pool = pool or Pool()
        self._lock = lock_sqlite(url)
        try:
            self.engine: Engine = open_engine(url, pool=self.pool)
            migrations.prepare(url, allow_upgrade=upgrade, engine=self.engine)
        except BaseException:
            unlock_sqlite(self._lock)
            raise
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        # Several server processes may share a PostgreSQL database; ``origin`` names this one
        # in the change notices so that it can skip its own.
        self.shared = self.engine.dialect.name == "postgresql"
        self.origin = ""

    def _announce(self, s: Session, kind: str, game_id: str, ply: int = -1) -> None:
        """Tell the other server processes, at commit, that ``game_id`` changed: ``m`` a move
        (``ply`` is the new ply), ``g`` anything else in its row, ``p`` the seats connected to
        the sender and its spectators (``ply`` holds both; see :meth:`announce_presence`). Small on
        purpose: receivers read what changed from the tables."""
        if self.shared:
            s.execute(select(func.pg_notify(CHANNEL, f"{kind} {game_id} {ply} {self.origin}")))

    def announce_presence(self, game_id: str, presence: int) -> None:
        """Tell the other processes which seats of ``game_id`` are connected here and how many
        watch here (``presence``: bit 0 seat 0, bit 1 seat 1, the spectators above them);
        nothing is stored (a kind ``p`` notice)."""
        self.notify("p", game_id, presence)

    def notify(self, kind: str, key: str, number: int) -> None:
        """A notice in a transaction of its own, with nothing stored (presence, a quick
        message): on PostgreSQL only, where other processes may be listening."""
        if self.shared:
            with self._session() as s, s.begin():
                self._announce(s, kind, key, number)

    def close(self) -> None:
        self.engine.dispose()
        unlock_sqlite(self._lock)
        self._lock = None

    def ready(self) -> migrations.Status:
        """Where the schema stands, read from the database (for /readyz); raises the driver's error."""
        return migrations.status(self.engine)

    def _session(self) -> Session:
        return self._sessions()

    def session(self) -> Session:
        """A session for a concern's own tables (``with store.session() as s, s.begin():``)."""
        return self._sessions()

    def announce(self, s: Session, kind: str, key: str, number: int = -1) -> None:
        """A concern's notice (``kind``: its letter), sent when ``s`` commits (PostgreSQL)."""
        self._announce(s, kind, key, number)

    def now(self, s: Session | Connection) -> float:
        """The database's clock, in seconds since the epoch, inside a transaction: several
        processes on several hosts agree on it. SQLite is one process: its host's clock."""
        if self.shared:
            return float(s.scalar(select(func.extract("epoch", func.clock_timestamp()))) or 0.0)
        return time.time()

    # --- writes ---------------------------------------------------------------------
    def create_game(
        self,
        *,
        game_id: str,
        ruleset: str,
        options: dict[str, str],
        setup: str,
        seat_hashes: tuple[str, str],
        names: tuple[str, str],
        opponent: str,
        bot_seat: int | None,
        invite_hash: str = "",
        accounts: tuple[int | None, int | None] = (None, None),
        rated: bool = False,
        also: Callable[[Session], None] | None = None,
    ) -> None:
        now = time.time()
        # a friend's seat is the one created without a token
        guest = seat_hashes.index("") if opponent == "friend" and seat_hashes.count("") == 1 else None
        with self._session() as s, s.begin():
            s.add(GameRow(
                id=game_id, ruleset=ruleset, options=json.dumps(options, sort_keys=True), setup=setup,
                seat_hash0=seat_hashes[0], seat_hash1=seat_hashes[1], invite_hash=invite_hash,
                name0=names[0], name1=names[1], guest_seat=guest,
                opponent=opponent, bot_seat=bot_seat, status="active", result="*", reason="",
                termination="", loser=None, plies=0, created=now, updated=now,
                account0=accounts[0], account1=accounts[1], rated=rated,
            ))
            if also is not None:  # the write hooks (a bot's first turn) and the caller's part (a seek taken)
                s.flush()
                also(s)

    def append_action(self, game_id: str, ply: int, text: str, *, ending: dict[str, Any] | None = None,
                      also: Callable[[Session], None] | None = None) -> None:
        """Store action number ``ply`` (1-based), only if the game stands at ``ply - 1``.

        The game row is updated first and only at the expected ply: that row lock
        serialises every writer of the game (other server processes included), and a writer
        that lost the race gets :class:`StaleGame` and changes nothing. ``ending`` (the
        result of a game the action ends) is stored in the same transaction, and so is
        whatever ``also`` writes (the bot-turn lease), so no crash can leave half of it.
        """
        with self._session() as s, s.begin():
            values: dict[str, Any] = {"plies": ply, "updated": time.time(), **(ending or {})}
            done = s.execute(update(GameRow).where(GameRow.id == game_id, GameRow.status == "active",
                                                   GameRow.plies == ply - 1).values(values))
            if _changed(done) != 1:
                status = s.scalar(select(GameRow.status).where(GameRow.id == game_id))
                if status != "active":  # abandoned or finished meanwhile
                    raise GameClosed(f"game {game_id} is no longer active")
                raise StaleGame(f"game {game_id} is no longer at ply {ply - 1}")
            # The primary key (game_id, ply) refuses a duplicate ply besides.
            s.add(ActionRow(game_id=game_id, ply=ply, text=text))
            if also is not None:
                also(s)
            self._announce(s, "m" if ending is None else "g", game_id, ply)

    def claim_seat(self, game_id: str, invite_hash: str, seat: int, seat_hash: str,
                   *, account: int | None = None, name: str | None = None) -> bool:
        """Spend the invite ticket and give its seat the new token (and ``account``, named
        ``name``, when a logged-in player spends it); False if it was spent already."""
        values: dict[str, Any] = {f"seat_hash{seat}": seat_hash, "invite_hash": "", f"account{seat}": account}
        if name is not None:
            values[f"name{seat}"] = name
        with self._session() as s, s.begin():
            done = s.execute(update(GameRow).where(
                GameRow.id == game_id, GameRow.invite_hash == invite_hash, GameRow.invite_hash != "",
                GameRow.status == "active", GameRow.guest_seat == seat,
            ).values(values))
            self._announce(s, "g", game_id)
            return _changed(done) == 1

    def reinvite(self, game_id: str, asker: int, asker_hash: str, seen_invite: str, invite_hash: str,
                 setup: str, *, asker_account: int | None = None, unname: bool = False) -> bool:
        """Before the first move only, for the creator of a friend game: revoke the invited
        seat's token (and the hold of an account on it, and with ``unname`` its name: the
        account's), open a new ticket for it, deal again. All of it is checked in the one
        update that writes it, so that no two requests (from any processes) can both pass
        on what each read before the other wrote: ``asker`` is the creator's seat (the
        invited seat is the other) and still holds the token of digest ``asker_hash`` (or,
        asked by a logged-in creator without the seat link, is still held by
        ``asker_account``), the game is active and at ply 0, and its open ticket is still
        ``seen_invite`` (the one the asker's copy knows: not spent, not renewed meanwhile).
        False, and nothing written, otherwise."""
        if asker not in (0, 1) or not (asker_hash or asker_account is not None):
            return False
        guest = 1 - asker
        mine = GameRow.seat_hash0 if asker == 0 else GameRow.seat_hash1
        holder = GameRow.account0 if asker == 0 else GameRow.account1
        values: dict[str, Any] = {f"seat_hash{guest}": "", f"account{guest}": None, "invite_hash": invite_hash,
                                  "setup": setup, "updated": time.time()}
        if unname:
            values[f"name{guest}"] = ""
        with self._session() as s, s.begin():
            done = s.execute(update(GameRow).where(
                GameRow.id == game_id, GameRow.plies == 0, GameRow.status == "active",
                GameRow.opponent == "friend", GameRow.guest_seat == guest,
                mine == asker_hash if asker_hash else holder == asker_account,
                GameRow.invite_hash == seen_invite,
            ).values(values))
            if _changed(done) != 1:
                return False
            self._announce(s, "g", game_id)
            return True

    def abandon_idle(self, *, unstarted_before: float, idle_before: float, keep: set[str],
                     limit: int = 200) -> list[str]:
        """Mark active games with no move since the cutoffs as abandoned; answer their ids.

        Games without a move count from their creation (``unstarted_before``), games with
        moves from their last move (``idle_before``). Nothing is deleted. A game whose clock
        runs is left to its clock (a correspondence turn may take two weeks).
        """
        running = select(ClockRow.game_id).where(ClockRow.game_id == GameRow.id, ClockRow.deadline.is_not(None))
        idle = (((GameRow.plies == 0) & (GameRow.updated < unstarted_before)) |
                ((GameRow.plies > 0) & (GameRow.updated < idle_before))) & ~running.exists()
        with self._session() as s, s.begin():
            ids = [i for i in s.scalars(select(GameRow.id).where(GameRow.status == "active", idle).limit(limit))
                   if i not in keep]
            if ids:
                # The cutoff is checked again in the update: a move that landed meanwhile wins.
                s.execute(update(GameRow).where(GameRow.id.in_(ids), GameRow.status == "active", idle)
                          .values(status="abandoned"))
                for game_id in ids:
                    self._announce(s, "g", game_id)
            return ids

    def finish(self, game_id: str, *, result: str, reason: str, termination: str = "", loser: int | None = None,
               ply: int | None = None, also: Callable[[Session], None] | None = None) -> None:
        """End the game out of its moves (a resignation, a forfeit). With ``ply``, only if
        the game still stands there and is active (:class:`StaleGame` otherwise): a
        resignation from one process cannot land after a move made through another."""
        with self._session() as s, s.begin():
            where = [GameRow.id == game_id]
            if ply is not None:
                where += [GameRow.plies == ply, GameRow.status == "active"]
            done = s.execute(update(GameRow).where(*where).values(
                status="finished", result=result, reason=reason, termination=termination, loser=loser,
                updated=time.time(),
            ))
            if ply is not None and _changed(done) != 1:
                raise StaleGame(f"game {game_id} is no longer active at ply {ply}")
            if also is not None:
                also(s)
            self._announce(s, "g", game_id)

    def set_name(self, game_id: str, seat: int, name: str) -> bool:
        """Name a seat of an active game; ``False`` (nothing written) once the game is over,
        checked in the update itself, so that no process renames a finished game's player."""
        column = GameRow.name0 if seat == 0 else GameRow.name1
        with self._session() as s, s.begin():
            done = s.execute(update(GameRow).where(GameRow.id == game_id, GameRow.status == "active")
                             .values({column: name}))
            if _changed(done) != 1:
                return False
            self._announce(s, "g", game_id)
            return True

    # --- reads ----------------------------------------------------------------------
    @staticmethod
    def _game_row(s: Session, game_id: str) -> tuple[GameRow, ClockRow | None, RematchRow | None] | None:
        # One statement, so that the clocks and the rematch are read as of the same commit as
        # the game row.
        found = s.execute(select(GameRow, ClockRow, RematchRow)
                          .outerjoin(ClockRow, ClockRow.game_id == GameRow.id)
                          .outerjoin(RematchRow, RematchRow.game_id == GameRow.id)
                          .where(GameRow.id == game_id)).first()
        return None if found is None else (found[0], found[1], found[2])

    def load(self, game_id: str) -> StoredGame | None:
        with self._session() as s:
            found = self._game_row(s, game_id)
            if found is None:
                return None
            row, clock, rematch = found
            texts = list(s.scalars(select(ActionRow.text).where(ActionRow.game_id == game_id, ActionRow.ply <= row.plies)
                                   .order_by(ActionRow.ply)))
            return _row_to_game(row, texts, clock, rematch)

    def spent(self, game_id: str) -> list[float | None]:
        """Seconds each action of the game took (None where the game has no clock)."""
        with self._session() as s:
            return list(s.scalars(select(ActionRow.spent).where(ActionRow.game_id == game_id).order_by(ActionRow.ply)))

    def load_since(self, game_id: str, ply: int) -> StoredGame | None:
        """The game's row with only the actions after ``ply``: how a server process catches
        up with moves made through another."""
        with self._session() as s:
            found = self._game_row(s, game_id)
            if found is None:
                return None
            row, clock, rematch = found
            # Only the actions the row counts: one written after the row was read waits for
            # its own notice, so the copy never shows a ply without its result.
            texts = list(s.scalars(select(ActionRow.text).where(
                ActionRow.game_id == game_id, ActionRow.ply > ply, ActionRow.ply <= row.plies).order_by(ActionRow.ply)))
            return _row_to_game(row, texts, clock, rematch)

    def list_games(self, *, status: str | None = None, limit: int = 50, ids: list[str] | None = None) -> list[dict[str, Any]]:
        """Public summaries (no tokens, no setup), newest first. A game with a clock says
        where it stands (``clock``: the control, who is to move, each seat's time left now)."""
        with self._session() as s:
            q = select(GameRow, ClockRow).outerjoin(ClockRow, ClockRow.game_id == GameRow.id)
            if status is not None:
                q = q.where(GameRow.status == status)
            if ids is not None:
                q = q.where(GameRow.id.in_(ids[:200]))
            q = q.order_by(GameRow.updated.desc()).limit(limit)
            rows = s.execute(q).all()
            now = self.now(s) if any(c is not None for _r, c in rows) else 0.0
            return [_summary(r, c, now) for r, c in rows]

    def account_games(self, account: int, *, limit: int = 100, status: str | None = None) -> list[dict[str, Any]]:
        """The games whose seats ``account`` holds, newest first: public summaries plus
        ``seats``, the seats it holds (both in pass and play)."""
        with self._session() as s:
            q = (select(GameRow, ClockRow).outerjoin(ClockRow, ClockRow.game_id == GameRow.id)
                 .where(or_(GameRow.account0 == account, GameRow.account1 == account)))
            if status is not None:
                q = q.where(GameRow.status == status)
            rows = s.execute(q.order_by(GameRow.updated.desc()).limit(limit)).all()
            now = self.now(s) if any(c is not None for _r, c in rows) else 0.0
            return [{**_summary(r, c, now),
                     "seats": [seat for seat, a in enumerate((r.account0, r.account1)) if a == account]}
                    for r, c in rows]

    def count_games(self) -> int:
        with self._session() as s:
            return int(s.scalar(select(func.count()).select_from(GameRow)) or 0)

