"""Clocks on several processes sharing one PostgreSQL: a clock that runs out while the
process serving its game is killed is flagged by another process, and a flag is stored
once however many processes look for it."""

from __future__ import annotations

import json
import os
import random
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_web_clocks import squeeze
from test_web_cluster_kill import STALL, Process, http, start, wait_ready
from webhelpers import LiveServer

from conftest import _fresh_pg_database
from frontlines.web.store import Store

pytestmark = pytest.mark.postgres
ws_client = pytest.importorskip("websockets.sync.client")


@pytest.fixture
def two(pg_server: str, tmp_path: Path) -> Iterator[tuple[str, list[Process]]]:
    url = _fresh_pg_database(pg_server)
    Store(url).close()
    procs = [start(url, tmp_path / f"serve{i}.log", ("--clock-sweep", "0.2")) for i in range(2)]
    try:
        for p in procs:
            wait_ready(p)
        yield url, procs
    finally:
        for p in procs:
            if p.popen.poll() is None:
                p.popen.kill()
            p.popen.wait(timeout=30)


def play_first_turns(base: str, game_id: str, tokens: dict[int, str], rng: random.Random) -> dict[str, Any]:
    """Both players' first turns (free), through ``base``; the view after them."""
    msg: dict[str, Any] = http(base, f"/api/games/{game_id}?t={tokens[0]}")
    for _ in range(4):
        mover = msg["view"]["to_move"]
        legal = http(base, f"/api/games/{game_id}?t={tokens[mover]}")["view"]["legal"]
        msg = http(base, f"/api/games/{game_id}/action",
                   {"t": tokens[mover], "text": rng.choice(legal)["text"], "ply": msg["ply"]})
    return msg


def test_a_clock_that_runs_out_on_a_killed_process_is_flagged_by_the_other(two: tuple[str, list[Process]]) -> None:
    """Two games on a, whose clocks run out after a is killed: one that b holds in memory (a
    spectator there; b's own timer flags it), one that b has never read (its sweep does)."""
    url, (a, b) = two
    games, losers, ran_out_at = [], [], []
    for i in range(2):
        game = http(a.base, "/api/games", {"ruleset": "battleline-basic", "opponent": "friend", "seat": "0",
                                           "clock": "15+0"})
        claimed = http(a.base, f"/api/games/{game['id']}/claim", {"invite": game["invite_token"]})
        msg = play_first_turns(a.base, game["id"], {0: game["token"], 1: claimed["token"]}, random.Random(i))
        loser = msg["view"]["to_move"]
        assert msg["clock"]["running"] == loser and 14.0 < msg["clock"]["left"][loser] <= 15.0
        games.append(game["id"])
        losers.append(loser)
        ran_out_at.append(time.monotonic() + msg["clock"]["left"][loser])
    watched, unread = games
    with ws_client.connect(f"ws://127.0.0.1:{b.port}/ws/{watched}", open_timeout=STALL) as watcher:
        seen = json.loads(watcher.recv(timeout=STALL))
        assert seen["type"] == "view" and seen["clock"]["running"] == losers[0]  # spectators see the clocks
        os.kill(a.popen.pid, signal.SIGKILL)  # a dies with the games' timers
        a.alive = False
        while True:
            seen = json.loads(watcher.recv(timeout=STALL + 30))
            if seen["type"] == "view" and seen["status"] != "active":
                break
        flagged_at = [time.monotonic()]
    assert seen["view"]["outcome"]["winner"] == 1 - losers[0] and seen["view"]["outcome"]["reason"] == "time"
    assert seen["clock"]["left"][losers[0]] == 0.0 and seen["clock"]["running"] is None
    # The other game, which b has not read: only the list, which reads the table, not the game.
    end = time.monotonic() + STALL + 30
    while http(b.base, f"/api/games?ids={unread}")[0]["status"] == "active":
        assert time.monotonic() < end, "the sweep never flagged the game b had not read"
        time.sleep(0.05)
    flagged_at.append(time.monotonic())
    for i in range(2):
        # Not before the time ran out.
        assert flagged_at[i] >= ran_out_at[i] - 0.5, (i, flagged_at[i] - ran_out_at[i])
    assert http(b.base, "/api/stats")["clocks"]["flagged"] == 2
    store = Store(url, upgrade=False)
    try:
        for game_id, loser in zip(games, losers, strict=True):
            record = http(b.base, f"/api/games/{game_id}/record.json")
            assert len(record["actions"]) == 4 and record["tags"]["Termination"] == "time"
            assert record["tags"]["Loser"] == str(loser)
            # Stored once: the clock stopped, at the ply where it ran out.
            stored = store.load(game_id)
            assert stored is not None and stored.status == "finished" and len(stored.actions) == 4
            assert stored.clock is not None and stored.clock.deadline is None and stored.clock.ply == 4
    finally:
        store.close()


@pytest.fixture
def pair(pg_server: str) -> Iterator[tuple[str, LiveServer, LiveServer]]:
    url = _fresh_pg_database(pg_server)
    with LiveServer(url, clock_sweep=0.05) as a, LiveServer(url, clock_sweep=0.05) as b:
        yield url, a, b


def test_a_flag_is_stored_once_whichever_process_sweeps(pair: tuple[str, LiveServer, LiveServer]) -> None:
    url, a, b = pair
    games = []
    for i in range(4):
        game = http(a.base, "/api/games", {"ruleset": "battleline-basic", "opponent": "friend", "seat": "0",
                                           "clock": "300+3"})
        claimed = http(b.base, f"/api/games/{game['id']}/claim", {"invite": game["invite_token"]})
        tokens = {0: game["token"], 1: claimed["token"]}
        # Moves through both processes: each holds every game in memory.
        play_first_turns((a, b)[i % 2].base, game["id"], tokens, random.Random(i))
        http((b, a)[i % 2].base, f"/api/games/{game['id']}?t={tokens[0]}")
        games.append(game["id"])
    for game_id in games:
        squeeze(url, game_id, 0.2)  # both sweeps (every 0.05 s) find them at once
    end = time.monotonic() + 120
    while not all(http(a.base, f"/api/games/{g}")["status"] == "finished" for g in games):
        assert time.monotonic() < end, "flags never came"
        time.sleep(0.1)
    time.sleep(1.0)  # any second flag would have been tried by now
    flagged = [http(p.base, "/api/stats")["clocks"]["flagged"] for p in (a, b)]
    assert sum(flagged) == len(games), flagged
    for game_id in games:
        for p in (a, b):
            seen = http(p.base, f"/api/games/{game_id}")
            assert seen["status"] == "finished" and seen["ply"] == 4 and seen["view"]["outcome"]["reason"] == "time"
