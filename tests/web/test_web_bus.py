"""The server's bus and the table's write hooks: the contract later concerns (clocks, seeks,
rematch, ratings) plug into (docs/web.md, "Server structure")."""

from __future__ import annotations

import asyncio
import json
import logging
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest
from sqlalchemy import text
from sqlalchemy.orm import Session
from webhelpers import LiveServer

from conftest import _fresh_pg_database
from frontlines.web import housekeeping
from frontlines.web.cluster import Listener
from frontlines.web.fanout import Client
from frontlines.web.play.bus import NOTICES, Bus, Event, Notice
from frontlines.web.play.events import (
    BotTurnReleased,
    GameCreated,
    GameEnded,
    GameStored,
    Joined,
    Left,
    MovePlayed,
    MoveStored,
    PresenceSaid,
)
from frontlines.web.play.manager import Manager
from frontlines.web.play.table import Write
from frontlines.web.seats import Role
from frontlines.web.store import Store
from frontlines.web.workers import make_bots

RULESET = "battleline-basic"


@dataclass(frozen=True)
class Something(Event):
    what: str


@dataclass(frozen=True)
class SomethingMore(Something):
    pass


# --- the bus on its own ------------------------------------------------------------------------
def test_handlers_run_at_once_class_first_then_bases_in_order_of_subscription() -> None:
    bus = Bus("here")
    heard: list[str] = []
    bus.subscribe(Something, lambda e: heard.append(f"base 1 {e.what}"))
    bus.subscribe(SomethingMore, lambda e: heard.append(f"more {e.what}"))
    bus.subscribe(Something, lambda e: heard.append(f"base 2 {e.what}"))
    bus.subscribe(Event, lambda e: heard.append("any"))
    bus.publish(SomethingMore("x"))
    assert heard == ["more x", "base 1 x", "base 2 x", "any"]
    heard.clear()
    bus.publish(Something("y"))
    assert heard == ["base 1 y", "base 2 y", "any"]


def test_a_failing_handler_is_logged_and_the_others_still_run(caplog: pytest.LogCaptureFixture) -> None:
    bus = Bus("here")
    heard: list[str] = []

    def broken(_: Something) -> None:
        raise RuntimeError("boom")

    bus.subscribe(Something, broken)
    bus.subscribe(Something, lambda e: heard.append(e.what))
    with caplog.at_level(logging.ERROR, logger="frontlines.web"):
        bus.publish(Something("x"))  # the publisher never sees the error
    assert heard == ["x"]
    assert "Something: a handler failed" in caplog.text and "boom" in caplog.text


def test_unsubscribe() -> None:
    bus = Bus("here")
    heard: list[str] = []
    unsubscribe = bus.subscribe(Something, lambda e: heard.append(e.what))
    bus.publish(Something("a"))
    unsubscribe()
    unsubscribe()  # twice is harmless
    bus.publish(Something("b"))
    assert heard == ["a"]


def test_notices_are_heard_as_their_class_unless_this_process_wrote_them() -> None:
    bus = Bus("here")
    heard: list[Notice] = []
    bus.subscribe(Notice, heard.append)
    bus.hear("m", "g1", 5, "there")
    bus.hear("g", "g1", -1, "there")
    bus.hear("p", "g1", 7, "there")
    bus.hear("l", "g1", -1, "there")
    bus.hear("m", "g1", 6, "here")  # our own write: already in memory
    bus.hear("z", "g1", 1, "there")  # a kind from a newer release: ignored
    assert heard == [MoveStored("g1", 5, "there"), GameStored("g1", -1, "there"), PresenceSaid("g1", 7, "there"),
                     BotTurnReleased("g1", -1, "there")]
    move = heard[0]
    assert isinstance(move, MoveStored) and (move.game_id, move.ply) == ("g1", 5)
    assert move.payload() == "m g1 5 there"


def test_the_listeners_payloads_reach_the_bus() -> None:
    """What ``pg_notify`` sends (``Store._announce``: kind, game id, ply, process) is what the
    listener hands to :meth:`Bus.hear`."""
    bus = Bus("here")
    heard: list[Notice] = []
    bus.subscribe(Notice, heard.append)
    listener = Listener("postgresql://nobody@127.0.0.1/none", bus.hear, lambda: asyncio.sleep(0))
    listener._dispatch("m abc 4 host:12:ff")
    listener._dispatch("l abc -1 host:13:ee")
    assert heard == [MoveStored("abc", 4, "host:12:ff"), BotTurnReleased("abc", -1, "host:13:ee")]


def test_a_notice_kind_belongs_to_one_class() -> None:
    with pytest.raises(TypeError, match="taken"):
        @dataclass(frozen=True)
        class Again(Notice):
            kind: ClassVar[str] = "m"
    assert NOTICES["m"] is MoveStored


# --- the table's events and write hooks -----------------------------------------------------------
class Sink:
    """A connection's socket that keeps nothing and never sends anything in."""

    async def send_text(self, data: str) -> None:
        pass

    async def receive(self) -> dict[str, Any]:
        await asyncio.Event().wait()
        raise AssertionError

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        pass


def test_the_table_publishes_its_events_and_runs_write_hooks_in_its_transactions(db_url: str) -> None:
    async def main() -> None:
        m = Manager(Store(db_url), bots=make_bots("thread", 1, timeout=30))
        writes: list[tuple[str, int, int | None, int | None, str | None]] = []
        inside: list[tuple[str, int]] = []
        committed: list[tuple[str, int]] = []

        class Hook:
            def joins(self, write: Write) -> Callable[[Session], None]:
                writes.append((write.what, write.ply, write.to_move, write.seat,
                               None if write.ending is None else write.ending["status"]))

                def inside_the_write(s: Session) -> None:
                    row = s.execute(text("SELECT status, plies FROM games WHERE id = :id"),
                                    {"id": write.game.id}).one()
                    inside.append((row[0], row[1]))

                return inside_the_write

            def committed(self, write: Write) -> None:
                committed.append((write.what, write.game.ply))

        m.table.add_hook(Hook())
        events: list[Event] = []
        for kind in (GameCreated, MovePlayed, GameEnded, Joined, Left):
            m.bus.subscribe(kind, events.append)  # type: ignore[arg-type]

        game, _, _ = await m.create(ruleset=RULESET, options={}, opponent="friend", name="Ann", seat=0)
        first = game.state.current_player()
        assert writes == [("create", 0, first, None, None)]
        assert committed == [("create", 0)] and events == [GameCreated(game)]

        client = Client(Sink(), Role(first), "a")
        m.connections.join(game, client)
        assert events[-1] == Joined(game, client)
        text_ = game.state.action_to_text(game.state.legal_actions()[0])
        await m.act(game, Role(first), text_)
        # Inside its transaction the hook sees the game row already at the new ply.
        assert writes[-1] == ("move", 1, game.state.current_player(), first, None)
        assert inside[-1] == ("active", 1) and committed[-1] == ("move", 1)
        assert events[-1] == MovePlayed(game, first, 1)

        await m.resign(game, Role(first))
        assert writes[-1] == ("end", 1, None, None, "finished")
        assert inside[-1] == ("finished", 1) and committed[-1] == ("end", 1)
        assert events[-1] == GameEnded(game, here=True) and game.stored.status == "finished"
        m.connections.leave(game, client)
        assert events[-1] == Left(game, client)
        await m.close()

    asyncio.run(main())


def test_a_write_hook_that_fails_undoes_the_move_with_it(db_url: str) -> None:
    """A hook's part is in the move's own transaction: if it fails, nothing of the move is
    stored (and the copy in memory does not change)."""
    async def main() -> None:
        m = Manager(Store(db_url), bots=make_bots("thread", 1, timeout=30))
        fail = {"on": False}

        class Hook:
            def joins(self, write: Write) -> Callable[[Session], None] | None:
                def part(s: Session) -> None:
                    if fail["on"]:
                        raise RuntimeError("the hook's own write failed")
                return part

            def committed(self, write: Write) -> None:
                pass

        m.table.add_hook(Hook())
        game, _, _ = await m.create(ruleset=RULESET, options={}, opponent="hotseat", name="Ann", seat=0)
        fail["on"] = True
        with pytest.raises(RuntimeError, match="hook's own write"):
            await m.act(game, Role.BOTH, game.state.action_to_text(game.state.legal_actions()[0]))
        stored = m.store.load(game.id)
        assert stored is not None and stored.actions == [] and game.ply == 0
        await m.close()

    asyncio.run(main())


def test_an_abandoned_game_held_here_is_published_as_ended(sqlite_url: str) -> None:
    async def main() -> None:
        m = Manager(Store(sqlite_url), bots=make_bots("thread", 1, timeout=30))
        ended: list[GameEnded] = []
        m.bus.subscribe(GameEnded, ended.append)
        game, _, _ = await m.create(ruleset=RULESET, options={}, opponent="friend", name="Ann", seat=0)
        assert await housekeeping.abandon_idle(m, unstarted_after=0, idle_after=0) == [game.id]
        assert ended == [GameEnded(game, here=True)] and game.stored.status == "abandoned"
        await m.close()

    asyncio.run(main())


# --- across processes --------------------------------------------------------------------------
def _call(base: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=120) as r:
        answer: dict[str, Any] = json.loads(r.read())
        return answer


@pytest.mark.postgres
def test_an_ending_stored_by_another_process_is_published_there_once_read(pg_server: str) -> None:
    url = _fresh_pg_database(pg_server)
    with LiveServer(url) as a, LiveServer(url) as b:
        ended: list[GameEnded] = []
        b.app.state.manager.bus.subscribe(GameEnded, ended.append)
        game = _call(a.base, "/api/games", {"ruleset": RULESET, "opponent": "hotseat", "seat": "0"})
        _call(b.base, f"/api/games/{game['id']}")  # b holds the game in memory
        _call(a.base, f"/api/games/{game['id']}/action", {"t": game["token"], "type": "resign"})
        deadline = time.monotonic() + 120
        while not ended:
            assert time.monotonic() < deadline, "b never heard of the ending"
            time.sleep(0.02)
        assert len(ended) == 1 and not ended[0].here and ended[0].game.id == game["id"]
        assert ended[0].game.stored.status == "finished"
