"""Fan-out and caps: one serialisation per audience, joins that do not re-send the view to
everyone, a slow or dead consumer dropped without holding up the others, and the caps on
spectators, connections per address and messages per connection (error + close code), and
a broadcast to thousands of pages that lets timers (a clock's flag) run in between."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from webhelpers import make_client

from frontlines.web.fanout import (
    BROADCAST_SLICE,
    CLOSE_SPECTATORS_FULL,
    CLOSE_TOO_MANY_CONNECTIONS,
    CLOSE_TOO_MANY_MESSAGES,
    Broadcast,
    Client,
    Limits,
)
from frontlines.web.play.game import LiveGame
from frontlines.web.play.manager import Manager
from frontlines.web.seats import Role
from frontlines.web.store import Store
from frontlines.web.workers import make_bots

RULESET = "battleline-basic"


class FakeSocket:
    """A connection's socket: records what it was sent; a ``stuck`` one never finishes a
    send (a consumer that stopped reading), and the test ends a socket's reading with
    :meth:`leave`."""

    def __init__(self, stuck: bool = False) -> None:
        self.sent: list[str] = []
        self.stuck = stuck
        self.closed: tuple[int, str | None] | None = None
        self._incoming: asyncio.Queue[str | None] = asyncio.Queue()

    async def send_text(self, data: str) -> None:
        if self.stuck:
            await asyncio.Event().wait()  # never returns: the peer's buffers are full
        self.sent.append(data)

    async def receive(self) -> dict[str, Any]:
        raw = await self._incoming.get()
        if raw is None:
            return {"type": "websocket.disconnect", "code": 1000}
        return {"type": "websocket.receive", "text": raw}

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        if self.stuck:
            await asyncio.Event().wait()
        self.closed = (code, reason)

    def say(self, data: dict[str, Any]) -> None:
        self._incoming.put_nowait(json.dumps(data))

    def leave(self) -> None:
        self._incoming.put_nowait(None)

    def messages(self) -> list[dict[str, Any]]:
        return [json.loads(m) for m in self.sent]


async def _settle() -> None:
    """Let every writer task run (no clock involved: yield until the loop is idle)."""
    for _ in range(50):
        await asyncio.sleep(0)


async def _until(condition: Callable[[], bool], limit: float = 60.0) -> None:
    """Poll until ``condition`` holds (the cap only keeps a broken test from hanging)."""
    end = asyncio.get_running_loop().time() + limit
    while not condition():
        assert asyncio.get_running_loop().time() < end, "condition not met"
        await asyncio.sleep(0.01)


async def _manager(tmp_path: Path, limits: Limits) -> Manager:
    return Manager(Store(f"sqlite:///{tmp_path / 'f.db'}"), bots=make_bots("thread", 1, timeout=30), limits=limits)


def test_a_dead_consumer_is_dropped_and_holds_up_nobody(tmp_path: Path) -> None:
    async def main() -> None:
        m = await _manager(tmp_path, Limits(send_queue=3))
        game, _, _ = await m.create(ruleset=RULESET, options={}, opponent="friend", name="Ann", seat=0)
        seat0, seat1, dead = FakeSocket(), FakeSocket(), FakeSocket(stuck=True)
        watchers = [FakeSocket() for _ in range(5)]
        clients = [Client(seat0, Role.SEAT_0, "a", queue=3), Client(seat1, Role.SEAT_1, "b", queue=3),
                   Client(dead, None, "c", queue=3),
                   *(Client(w, None, f"w{i}", queue=3) for i, w in enumerate(watchers))]
        tasks = [asyncio.create_task(m.serve(game, c, lambda raw: asyncio.sleep(0))) for c in clients]
        await _settle()
        moves = 0
        while m.dropped.get("too_slow", 0) == 0:
            mover = game.state.current_player()
            assert mover is not None and moves < 20
            text = game.state.action_to_text(game.state.legal_actions()[0])
            await m.act(game, Role(mover), text)
            moves += 1
            await _settle()
        # The dead consumer was dropped once its queue was full (its writer is stuck on
        # the first view, three changes wait): at the fourth change. Everyone else has
        # every change.
        assert moves == 4 and dead not in {c.sender for c in game.clients}
        for sock in (seat0, seat1, *watchers):
            views = [msg for msg in sock.messages() if msg["type"] == "view"]
            assert [v["ply"] for v in views][-moves:] == list(range(1, moves + 1))
        await m.act(game, Role(game.state.current_player()), game.state.action_to_text(game.state.legal_actions()[0]))
        await _settle()
        assert all(w.messages()[-1]["ply"] == moves + 1 for w in watchers)
        for sock in (seat0, seat1, *watchers):
            sock.leave()
        await asyncio.wait_for(asyncio.gather(*tasks), 30)
        assert m.addresses == {} and game.clients == set()
        await m.close()

    asyncio.run(main())


def test_a_large_broadcast_lets_timers_run_between_slices() -> None:
    """A message to 1,000 pages: a timer due meanwhile (a clock's flag) runs after a slice
    or two of the pages got it, not after all of them; every page gets every message, in
    order. (Queued to all at once, the timer ran once all 1,000 pages had both.)"""
    async def main() -> None:
        sockets = [FakeSocket() for _ in range(1000)]
        clients = [Client(sock, None, f"page {i}") for i, sock in enumerate(sockets)]
        for client in clients:
            client.start()
        await _settle()
        broadcast = Broadcast(lambda: clients)
        delivered_when_due: list[int] = []
        broadcast.send("a")
        broadcast.send("b")
        await asyncio.sleep(0)  # the broadcast has begun
        asyncio.get_running_loop().call_later(0, lambda: delivered_when_due.append(sum(len(s.sent) for s in sockets)))
        await _until(lambda: all(len(sock.sent) == 2 for sock in sockets))
        assert delivered_when_due and delivered_when_due[0] <= 3 * BROADCAST_SLICE < 1000, delivered_when_due
        assert all(sock.sent == ["a", "b"] for sock in sockets)
        assert broadcast.sent == 2000 and not broadcast.busy
        for client in clients:
            await client.stop()
        await broadcast.close()

    asyncio.run(main())


def test_a_broadcast_goes_to_the_audience_it_was_sent_to() -> None:
    """A page that joins after a message was sent, before it went out, does not get it: it
    was given the state as it stands when it joined (the lobby's whole list), and the older
    message would take it back (a creator's seek gone from a page's list)."""
    async def main() -> None:
        early, late = FakeSocket(), FakeSocket()
        clients = [Client(early, None, "early")]
        broadcast = Broadcast(lambda: clients)
        broadcast.send("old list")
        joined = Client(late, None, "late")
        joined.start()
        clients.append(joined)
        joined.send("the list now")
        clients[0].start()
        await _until(lambda: not broadcast.busy and early.sent == ["old list"])
        await _settle()
        assert late.sent == ["the list now"]
        broadcast.send("a change")
        await _until(lambda: late.sent == ["the list now", "a change"] and early.sent == ["old list", "a change"])
        for client in clients:
            await client.stop()

    asyncio.run(main())


def test_one_serialisation_per_audience_and_quiet_joins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[Role | None] = []
    original = LiveGame.message_text

    def counting(self: LiveGame, role: Role | None) -> str:
        made.append(role)
        return original(self, role)

    monkeypatch.setattr(LiveGame, "message_text", counting)

    async def main() -> None:
        m = await _manager(tmp_path, Limits(presence_every=0.01))
        game, _, _ = await m.create(ruleset=RULESET, options={}, opponent="friend", name="Ann", seat=0)
        seat0 = FakeSocket()
        tasks = [asyncio.create_task(m.serve(game, Client(seat0, Role.SEAT_0, "x"), lambda raw: asyncio.sleep(0)))]
        await _settle()
        watchers = [FakeSocket() for _ in range(50)]
        for i, w in enumerate(watchers):
            tasks.append(asyncio.create_task(m.serve(game, Client(w, None, f"w{i}"), lambda raw: asyncio.sleep(0))))
        await _settle()
        # Each newcomer got its view; nobody else was sent anything for their arrival.
        assert [len(w.sent) for w in watchers] == [1] * 50 and len(seat0.sent) == 1
        made.clear()
        await m.act(game, Role(game.state.current_player()), game.state.action_to_text(game.state.legal_actions()[0]))
        await _settle()
        assert sorted(made, key=str) == [None, Role.SEAT_0]  # one text for the seat, one for 50 spectators
        assert len({w.sent[-1] for w in watchers}) == 1
        # A seat that comes or goes: the seats get their view, spectators one presence message.
        seat1 = FakeSocket()
        tasks.append(asyncio.create_task(m.serve(game, Client(seat1, Role.SEAT_1, "y"), lambda raw: asyncio.sleep(0))))
        # Spectators hear of it on the presence timer, which starts when the seat joins: wait
        # for the message itself (a fixed sleep lost the race on a loaded machine, where the
        # join itself can come later than the sleep's end).
        await _until(lambda: json.loads(watchers[0].sent[-1])["type"] == "presence")
        assert json.loads(seat0.sent[-1])["online"] == [True, True]
        presence = json.loads(watchers[0].sent[-1])
        assert presence["type"] == "presence" and presence["online"] == [True, True] and presence["spectators"] == 50
        for sock in (seat0, seat1, *watchers):
            sock.leave()
        await asyncio.wait_for(asyncio.gather(*tasks), 30)
        await m.close()

    asyncio.run(main())


# --- caps over the real WebSocket route ------------------------------------------------------
def _create(c: TestClient) -> dict[str, Any]:
    r = c.post("/api/games", json={"ruleset": RULESET, "opponent": "friend", "seat": "0"})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def _refused(c: TestClient, url: str) -> tuple[str, int, str]:
    """The error code, close code and reason a refused connection is given."""
    with c.websocket_connect(url) as ws:
        error = ws.receive_json()
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    return error["code"], closed.value.code, closed.value.reason


def test_spectators_per_game_cap(sqlite_url: str) -> None:
    with make_client(sqlite_url, limits=Limits(spectators_per_game=2)) as c:
        game = _create(c)
        url = f"/ws/{game['id']}"
        with c.websocket_connect(url) as a, c.websocket_connect(url) as b:
            assert a.receive_json()["type"] == b.receive_json()["type"] == "view"
            code, close, reason = _refused(c, url)
            assert (code, close) == ("spectators_full", CLOSE_SPECTATORS_FULL) and "spectators" in reason
            # Seats are not spectators: the players still get in.
            with c.websocket_connect(f"{url}?t={game['token']}") as seat:
                assert seat.receive_json()["role"] == 0
        with c.websocket_connect(url) as again:  # the two left: room again
            assert again.receive_json()["type"] == "view"
        assert c.get("/api/stats").json()["dropped"] == {"spectators_full": 1}


def test_connections_per_address_cap(sqlite_url: str) -> None:
    with make_client(sqlite_url, limits=Limits(connections_per_address=2)) as c:
        game = _create(c)
        url = f"/ws/{game['id']}"
        with c.websocket_connect(url) as a, c.websocket_connect(f"{url}?t={game['token']}") as b:
            a.receive_json()
            b.receive_json()
            code, close, reason = _refused(c, url)
            assert (code, close) == ("too_many_connections", CLOSE_TOO_MANY_CONNECTIONS) and "address" in reason
            assert c.get("/api/stats").json()["connections"] == 2


def test_messages_per_connection_cap(sqlite_url: str) -> None:
    # A rate that refills nothing within the test: the burst is all a connection has.
    with make_client(sqlite_url, limits=Limits(messages_per_second=0.0001, message_burst=3)) as c:
        game = _create(c)
        with c.websocket_connect(f"/ws/{game['id']}") as ws:
            ws.receive_json()
            for _ in range(3):
                ws.send_json({"type": "ping"})
                assert ws.receive_json() == {"type": "pong"}
            ws.send_json({"type": "ping"})
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == CLOSE_TOO_MANY_MESSAGES and "too many messages" in closed.value.reason
        # The others were not affected.
        with c.websocket_connect(f"/ws/{game['id']}") as other:
            assert other.receive_json()["type"] == "view"
        assert c.get("/api/stats").json()["dropped"] == {"too_many_messages": 1}

