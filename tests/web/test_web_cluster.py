"""Two server instances on one PostgreSQL database act as one server.

Each :class:`LiveServer` has its own event loop, manager, connection pool and listener, as
a separate ``frontlines serve`` process would; the kill tests with real processes are in
``test_web_cluster_kill.py``.
"""

from __future__ import annotations

import json
import random
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from webhelpers import LiveServer

from conftest import _fresh_pg_database
from frontlines.web.play.manager import Manager

ws_client = pytest.importorskip("websockets.sync.client")

# Seconds a message may take: generous, since on a loaded 2-core machine (load average 30 and
# more) a move through a process took seconds and whole processes stalled for 15 s; polling
# returns as soon as it can.
DEADLINE = 120.0


def call(base: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=DEADLINE) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def manager_of(server: LiveServer) -> Manager:
    m: Manager = server.app.state.manager
    return m


@pytest.fixture
def pg_url(pg_server: str) -> str:
    return _fresh_pg_database(pg_server)


@pytest.fixture
def pair(pg_url: str) -> Iterator[tuple[LiveServer, LiveServer]]:
    with LiveServer(pg_url) as a, LiveServer(pg_url) as b:
        yield a, b


def friend_game(a: LiveServer, b: LiveServer, seed: int = 7) -> tuple[str, str, str]:
    """A friend game made on ``a``, its invite spent on ``b``: id, seat 0's and seat 1's tokens."""
    status, game = call(a.base, "/api/games", {"ruleset": "battleline-basic", "opponent": "friend", "seat": "0"})
    assert status == 200
    status, claimed = call(b.base, f"/api/games/{game['id']}/claim", {"invite": game["invite_token"]})
    assert status == 200
    return game["id"], game["token"], claimed["token"]


def next_message(ws: Any, wanted: Callable[[dict[str, Any]], bool], end: float | None = None) -> dict[str, Any]:
    """The first message ``wanted`` accepts (skipping the others), by ``end`` (a
    ``time.monotonic()`` value; DEADLINE from now if None)."""
    end = time.monotonic() + DEADLINE if end is None else end
    while True:
        msg: dict[str, Any] = json.loads(ws.recv(timeout=max(0.1, end - time.monotonic())))
        if wanted(msg):
            return msg


def next_view(ws: Any, at_least: int) -> dict[str, Any]:
    """The first view at ply ``at_least`` or later (skipping presence and older views)."""
    return next_message(ws, lambda m: m["type"] == "view" and m["ply"] >= at_least)


@pytest.mark.postgres
def test_a_move_through_one_process_reaches_a_client_of_the_other(pair: tuple[LiveServer, LiveServer]) -> None:
    a, b = pair
    game_id, token0, token1 = friend_game(a, b)
    with ws_client.connect(f"ws://127.0.0.1:{a.port}/ws/{game_id}?t={token0}") as ws0, \
            ws_client.connect(f"ws://127.0.0.1:{b.port}/ws/{game_id}?t={token1}") as ws1:
        views = [next_view(ws0, 0), next_view(ws1, 0)]
        rng = random.Random(3)
        sent: list[str] = []
        for ply in range(12):
            mover = views[0]["view"]["to_move"]
            legal = views[mover]["view"]["legal"]
            text = rng.choice(legal)["text"]
            (ws0, ws1)[mover].send(json.dumps({"type": "action", "text": text, "ply": ply}))
            sent.append(text)
            # Both seats, each on its own process, see the move.
            views = [next_view(ws0, ply + 1), next_view(ws1, ply + 1)]
            assert views[0]["ply"] == views[1]["ply"] == ply + 1
            assert views[0]["view"]["to_move"] == views[1]["view"]["to_move"]
    # The record as stored is the moves as sent, whichever process was asked.
    for server in (a, b):
        assert call(server.base, f"/api/games/{game_id}")[1]["ply"] == 12
    assert manager_of(a).store.load(game_id).actions == sent  # type: ignore[union-attr]


def next_online(ws: Any, want: list[bool]) -> dict[str, Any]:
    """The first view whose ``online`` is ``want`` (skipping others)."""
    return next_message(ws, lambda m: m["type"] == "view" and m["online"] == want)


@pytest.mark.postgres
def test_a_seat_connected_to_the_other_process_is_online(pair: tuple[LiveServer, LiveServer]) -> None:
    a, b = pair
    game_id, token0, token1 = friend_game(a, b)
    with ws_client.connect(f"ws://127.0.0.1:{a.port}/ws/{game_id}?t={token0}") as ws0:
        next_online(ws0, [True, False])
        with ws_client.connect(f"ws://127.0.0.1:{b.port}/ws/{game_id}?t={token1}") as ws1:
            # each side learns of the other through the database's notices
            next_online(ws0, [True, True])
            next_online(ws1, [True, True])
        next_online(ws0, [True, False])  # seat 1 left process b
    # a spectator on b, which holds no seat, hears of seat 0 on a too
    with ws_client.connect(f"ws://127.0.0.1:{a.port}/ws/{game_id}?t={token0}") as ws0, \
            ws_client.connect(f"ws://127.0.0.1:{b.port}/ws/{game_id}") as watcher:
        next_online(ws0, [True, False])
        next_message(watcher, lambda m: m["type"] in ("view", "presence") and m["online"] == [True, False])


def wait_until(condition: Callable[[], bool], what: str) -> None:
    end = time.monotonic() + DEADLINE
    while not condition():
        assert time.monotonic() < end, what
        time.sleep(0.05)


@pytest.mark.postgres
def test_spectators_on_the_other_process_are_counted(pair: tuple[LiveServer, LiveServer]) -> None:
    a, b = pair
    game_id, token0, _token1 = friend_game(a, b)

    def watching(server: LiveServer) -> int:
        count: int = call(server.base, f"/api/games/{game_id}")[1]["spectators"]
        return count

    with ws_client.connect(f"ws://127.0.0.1:{a.port}/ws/{game_id}?t={token0}") as ws0:
        next_view(ws0, 0)
        with ws_client.connect(f"ws://127.0.0.1:{b.port}/ws/{game_id}") as one, \
                ws_client.connect(f"ws://127.0.0.1:{b.port}/ws/{game_id}") as two, \
                ws_client.connect(f"ws://127.0.0.1:{a.port}/ws/{game_id}") as here:
            for ws in (one, two, here):
                next_view(ws, 0)
            # two watch through b (the second told within a second of the first), one through a
            wait_until(lambda: watching(a) == 3, "a counts b's spectators")
            wait_until(lambda: watching(b) == 3, "b counts a's spectator")
            ws0.send(json.dumps({"type": "name", "name": "Ann"}))  # any change: the seat's next view says so
            assert next_message(ws0, lambda m: m["type"] == "view" and m["names"][0] == "Ann")["spectators"] == 3
        wait_until(lambda: watching(a) == 0, "b's spectators left")


@pytest.mark.postgres
def test_two_processes_never_both_play_a_ply(pair: tuple[LiveServer, LiveServer]) -> None:
    a, b = pair
    game_id, token0, token1 = friend_game(a, b)
    _, view = call(a.base, f"/api/games/{game_id}?t={token0}")
    mover = view["view"]["to_move"]
    token = (token0, token1)[mover]
    _, mine = call(a.base, f"/api/games/{game_id}?t={token}")
    legal = [e["text"] for e in mine["view"]["legal"]]
    call(b.base, f"/api/games/{game_id}")  # b holds the game in memory too
    answers: list[tuple[int, dict[str, Any]]] = []
    start = threading.Barrier(2)

    def move(server: LiveServer, text: str) -> None:
        start.wait()
        answers.append(call(server.base, f"/api/games/{game_id}/action", {"t": token, "text": text, "ply": 0}))

    threads = [threading.Thread(target=move, args=(s, t)) for s, t in ((a, legal[0]), (b, legal[1]))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    ok = [body for status, body in answers if status == 200]
    refused = [body for status, body in answers if status != 200]
    assert len(ok) == 1 and len(refused) == 1
    # The loser either found out from the database (stale) or had heard of the move already.
    assert refused[0]["code"] in ("stale", "not_your_turn")
    stored = manager_of(a).store.load(game_id)
    assert stored is not None and len(stored.actions) == 1 and stored.actions[0] in legal[:2]


@pytest.mark.postgres
def test_a_stale_copy_is_refused_by_the_database_and_catches_up(pair: tuple[LiveServer, LiveServer]) -> None:
    a, b = pair
    game_id, token0, token1 = friend_game(a, b)
    _, view = call(a.base, f"/api/games/{game_id}?t={token0}")
    token = (token0, token1)[view["view"]["to_move"]]
    _, mine = call(a.base, f"/api/games/{game_id}?t={token}")
    first, second = (e["text"] for e in mine["view"]["legal"][:2])
    call(b.base, f"/api/games/{game_id}")
    # b stops hearing of a's moves: its copy stays at ply 0.
    listener = manager_of(b).listener
    assert listener is not None
    heard = listener.on_notice
    listener.on_notice = lambda *args: None
    assert call(a.base, f"/api/games/{game_id}/action", {"t": token, "text": first, "ply": 0})[0] == 200
    status, body = call(b.base, f"/api/games/{game_id}/action", {"t": token, "text": second, "ply": 0})
    assert status == 409 and body["code"] == "stale"
    # b read the game again: it stands at ply 1, with a's move.
    assert call(b.base, f"/api/games/{game_id}")[1]["ply"] == 1
    listener.on_notice = heard
    stored = manager_of(b).store.load(game_id)
    assert stored is not None and stored.actions == [first]


@pytest.mark.postgres
def test_names_and_resignations_cross_processes(pair: tuple[LiveServer, LiveServer]) -> None:
    a, b = pair
    game_id, token0, token1 = friend_game(a, b)
    with ws_client.connect(f"ws://127.0.0.1:{a.port}/ws/{game_id}?t={token0}") as ws0, \
            ws_client.connect(f"ws://127.0.0.1:{b.port}/ws/{game_id}") as spectator:
        next_view(ws0, 0)
        next_view(spectator, 0)
        ws0.send(json.dumps({"type": "name", "name": "Ann"}))
        end = time.monotonic() + DEADLINE  # for both waits together
        next_message(spectator, lambda m: m["type"] == "view" and m["names"][0] == "Ann", end)
        status, _ = call(b.base, f"/api/games/{game_id}/action", {"t": token1, "type": "resign"})
        assert status == 200
        msg = next_message(ws0, lambda m: m["type"] == "view" and m["status"] == "finished", end)
        assert msg["view"]["outcome"] is not None


@pytest.mark.postgres
def test_a_bot_game_played_through_the_other_process(pair: tuple[LiveServer, LiveServer]) -> None:
    """The game is made on ``a``, played on ``b`` and watched on ``a``: one record, no ply twice."""
    a, b = pair
    status, game = call(a.base, "/api/games", {"ruleset": "battleline-basic", "opponent": "bot:random", "seat": "0",
                                               "seed": 11})
    assert status == 200
    rng = random.Random(5)
    mine: dict[int, str] = {}
    # The spectator is read only at the end: its client keeps every message meanwhile (a
    # bounded queue would stop reading, and the server drop it as too slow).
    with ws_client.connect(f"ws://127.0.0.1:{b.port}/ws/{game['id']}?t={game['token']}") as ws, \
            ws_client.connect(f"ws://127.0.0.1:{a.port}/ws/{game['id']}", max_queue=None) as spectator:
        view = next_view(ws, 0)
        while view["view"]["to_move"] is not None:
            if view["view"]["to_move"] == 0 and view["view"]["legal"]:
                text = rng.choice(view["view"]["legal"])["text"]
                mine[view["ply"] + 1] = text
                ws.send(json.dumps({"type": "action", "text": text, "ply": view["ply"]}))
            view = next_view(ws, view["ply"] + 1)
        final = view["ply"]
        watched = next_view(spectator, final)
        assert watched["status"] == "finished" and watched["ply"] == final
    stored = manager_of(a).store.load(game["id"])
    assert stored is not None and stored.status == "finished" and len(stored.actions) == final
    assert all(stored.actions[ply - 1] == text for ply, text in mine.items())
    assert stored.reason != "forfeit"


def test_a_write_for_a_ply_the_game_has_left_changes_nothing(db_url: str) -> None:
    from frontlines.web.store import StaleGame, Store

    store = Store(db_url)
    try:
        store.create_game(game_id="g1", ruleset="battleline-basic", options={}, setup="x", seat_hashes=("", ""),
                          names=("", ""), opponent="hotseat", bot_seat=None)
        store.append_action("g1", 1, "first")
        for ply in (1, 3):  # played already; not yet reachable
            with pytest.raises(StaleGame):
                store.append_action("g1", ply, "other")
        with pytest.raises(StaleGame):
            store.finish("g1", result="1-0", reason="resignation", termination="resignation", loser=1, ply=0)
        stored = store.load("g1")
        assert stored is not None and stored.actions == ["first"] and stored.status == "active"
    finally:
        store.close()


@pytest.mark.postgres
def test_a_bot_turn_lease_has_one_holder_until_it_expires(pg_url: str) -> None:
    from frontlines.web.cluster import Leases
    from frontlines.web.store import Store

    store = Store(pg_url)
    try:
        store.create_game(game_id="g1", ruleset="battleline-basic", options={}, setup="x", seat_hashes=("", ""),
                          names=("", ""), opponent="bot:random", bot_seat=1)
        # Leases far longer than the test: on a loaded machine a few round trips to the
        # database took longer than the half second these once lasted.
        mine, other = Leases(store, "a:1:x", 300), Leases(store, "b:2:y", 300)
        assert mine.take("g1", 3) and mine.take("g1", 3)  # taken, and ours to take again
        assert not other.take("g1", 3) and not other.renew("g1")
        assert mine.renew("g1")
        assert "g1" not in mine.expired()
        assert Leases(store, "a:1:x", 0.2).renew("g1")  # the holder's last renewal, a short one
        end = time.monotonic() + DEADLINE
        while "g1" not in other.expired():  # nobody renews: it expires
            assert time.monotonic() < end
            time.sleep(0.1)
        assert other.take("g1", 3) and not mine.renew("g1")
        other.release("g1")  # handed over: free at once
        assert "g1" in mine.expired() and mine.take("g1", 3)
        assert other.take("g1", 5)  # a lease left from an earlier ply is free to take
    finally:
        store.close()
