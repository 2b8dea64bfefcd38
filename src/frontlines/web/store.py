"""Durable storage of web games: one row per game, one row per action.

A game is stored as its setup notation (the full initial position) plus the action texts
in order, so any game can be rebuilt exactly after a reload, a lost connection or a
server restart. SQLite (the default, one file, nothing to install) and PostgreSQL are
both supported through SQLAlchemy 2.

All methods are synchronous and short; the server calls them from a worker thread so the
event loop never waits on the database.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    event,
    func,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    ruleset: Mapped[str] = mapped_column(String(64))
    options: Mapped[str] = mapped_column(Text, default="{}")  # JSON object of strings
    setup: Mapped[str] = mapped_column(Text)
    token0: Mapped[str] = mapped_column(String(64), index=True)
    token1: Mapped[str] = mapped_column(String(64), index=True)
    name0: Mapped[str] = mapped_column(String(64), default="")
    name1: Mapped[str] = mapped_column(String(64), default="")
    # "bot:<spec>", "friend" or "hotseat"; bot_seat says which seat the bot plays.
    opponent: Mapped[str] = mapped_column(String(64))
    bot_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    status: Mapped[str] = mapped_column(String(16), default="active", index=True)  # active | finished
    result: Mapped[str] = mapped_column(String(16), default="*")
    reason: Mapped[str] = mapped_column(String(32), default="")
    # Out-of-rules endings (resignation) are not actions; they are replayed from here.
    termination: Mapped[str] = mapped_column(String(32), default="")
    loser: Mapped[int | None] = mapped_column(Integer, nullable=True)
    plies: Mapped[int] = mapped_column(Integer, default=0)
    created: Mapped[float] = mapped_column(Float)
    updated: Mapped[float] = mapped_column(Float)


class ActionRow(Base):
    __tablename__ = "actions"

    game_id: Mapped[str] = mapped_column(String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    text: Mapped[str] = mapped_column(String(64))


@dataclass
class StoredGame:
    """A game as read back from the database."""

    id: str
    ruleset: str
    options: dict[str, str]
    setup: str
    tokens: tuple[str, str]
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


def normalise_url(url: str) -> str:
    """Accept ``postgresql://`` and pick the psycopg 3 driver (SQLAlchemy defaults to psycopg2)."""
    if url.startswith("postgresql://"):
        return "postgresql+psycopg://" + url[len("postgresql://"):]
    if url.startswith("postgres://"):
        return "postgresql+psycopg://" + url[len("postgres://"):]
    return url


def _row_to_game(row: GameRow, actions: list[str]) -> StoredGame:
    return StoredGame(
        id=row.id,
        ruleset=row.ruleset,
        options=json.loads(row.options or "{}"),
        setup=row.setup,
        tokens=(row.token0, row.token1),
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
    )


class Store:
    """The games and actions tables behind one SQLAlchemy engine."""

    def __init__(self, url: str) -> None:
        self.url = normalise_url(url)
        kwargs: dict[str, Any] = {"future": True}
        if self.url.startswith("sqlite"):
            # Worker threads share the engine; the busy timeout rides over short write locks.
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        else:
            kwargs["pool_pre_ping"] = True
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        Base.metadata.create_all(self.engine)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    def close(self) -> None:
        self.engine.dispose()

    def _session(self) -> Session:
        return self._sessions()

    # --- writes ---------------------------------------------------------------------
    def create_game(
        self,
        *,
        game_id: str,
        ruleset: str,
        options: dict[str, str],
        setup: str,
        tokens: tuple[str, str],
        names: tuple[str, str],
        opponent: str,
        bot_seat: int | None,
    ) -> None:
        now = time.time()
        with self._session() as s, s.begin():
            s.add(GameRow(
                id=game_id, ruleset=ruleset, options=json.dumps(options, sort_keys=True), setup=setup,
                token0=tokens[0], token1=tokens[1], name0=names[0], name1=names[1],
                opponent=opponent, bot_seat=bot_seat, status="active", result="*", reason="",
                termination="", loser=None, plies=0, created=now, updated=now,
            ))

    def append_action(self, game_id: str, ply: int, text: str) -> None:
        """Store action number ``ply`` (1-based). The primary key refuses a duplicate ply."""
        with self._session() as s, s.begin():
            s.add(ActionRow(game_id=game_id, ply=ply, text=text))
            s.execute(update(GameRow).where(GameRow.id == game_id).values(plies=ply, updated=time.time()))

    def finish(self, game_id: str, *, result: str, reason: str, termination: str = "", loser: int | None = None) -> None:
        with self._session() as s, s.begin():
            s.execute(update(GameRow).where(GameRow.id == game_id).values(
                status="finished", result=result, reason=reason, termination=termination, loser=loser,
                updated=time.time(),
            ))

    def set_name(self, game_id: str, seat: int, name: str) -> None:
        column = GameRow.name0 if seat == 0 else GameRow.name1
        with self._session() as s, s.begin():
            s.execute(update(GameRow).where(GameRow.id == game_id).values({column: name}))

    # --- reads ----------------------------------------------------------------------
    def load(self, game_id: str) -> StoredGame | None:
        with self._session() as s:
            row = s.get(GameRow, game_id)
            if row is None:
                return None
            texts = list(s.scalars(select(ActionRow.text).where(ActionRow.game_id == game_id).order_by(ActionRow.ply)))
            return _row_to_game(row, texts)

    def list_games(self, *, status: str | None = None, limit: int = 50, ids: list[str] | None = None) -> list[dict[str, Any]]:
        """Public summaries (no tokens, no setup), newest first."""
        with self._session() as s:
            q = select(GameRow)
            if status is not None:
                q = q.where(GameRow.status == status)
            if ids is not None:
                q = q.where(GameRow.id.in_(ids[:200]))
            q = q.order_by(GameRow.updated.desc()).limit(limit)
            return [
                {
                    "id": r.id, "ruleset": r.ruleset, "names": [r.name0, r.name1], "opponent": r.opponent,
                    "bot_seat": r.bot_seat, "status": r.status, "result": r.result, "reason": r.reason,
                    "plies": r.plies, "created": r.created, "updated": r.updated,
                }
                for r in s.scalars(q)
            ]

    def count_games(self) -> int:
        with self._session() as s:
            return int(s.scalar(select(func.count()).select_from(GameRow)) or 0)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL lets readers (page loads) go on while a move is written; NORMAL sync is durable
    # enough for a game server and much faster than FULL.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
