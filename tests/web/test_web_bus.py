"""The server's bus: the contract later concerns (clocks, seeks, rematch, ratings) plug into
(docs/web.md, "Server structure")."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import ClassVar

import pytest

from frontlines.web.cluster import Listener
from frontlines.web.play.bus import NOTICES, Bus, Event, Notice
from frontlines.web.play.events import (
    BotTurnReleased,
    GameStored,
    MoveStored,
    PresenceSaid,
)

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
