"""Three real ``frontlines serve`` processes on one PostgreSQL; one is killed, one stopped.

Clients are spread over the three processes and move to another one every few moves, as
they would behind a load balancer. In the middle of the games, one process is killed with
``kill -9`` (its connections and its bot turns vanish without a word) and later another
is stopped with SIGTERM (it tells its clients to reconnect and hands its bot turns over).
Every game must still finish, with exactly the moves the clients sent, each stored once,
no bot forfeiting, no game lost or made twice.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from webhelpers import close_frame, free_port, http_json

from conftest import _fresh_pg_database
from frontlines.web.store import Store

pytestmark = pytest.mark.postgres
ws_client = pytest.importorskip("websockets.sync.client")
ws_exceptions = pytest.importorskip("websockets.exceptions")

# What fails the test is a game that stops: a seat that hears nothing for STALL seconds, or
# no move anywhere for as long. How long the games take is no failure: on a loaded 2-core
# machine (load average 10-44, these processes at nice 10) they took from 25 s to 210 s,
# and a fixed 300 s for them all, as this test once had, was a matter of luck. DEADLINE only
# keeps a test that keeps moving slowly from running for ever.
STALL = float(os.environ.get("FRONTLINES_KILL_STALL", "120"))
DEADLINE = float(os.environ.get("FRONTLINES_KILL_DEADLINE", "1800"))
DB: list[str] = []
T0 = [time.monotonic()]
LEASE = 2.0  # seconds a bot turn's lease lasts unrenewed: a killed process's turns wait this long


_DEBUG = """
import asyncio, faulthandler, signal, sys, runpy
faulthandler.register(signal.SIGUSR1, all_threads=True)
def dump(*_):
    for t in asyncio.all_tasks():
        t.print_stack(file=sys.stderr)
    sys.stderr.flush()
signal.signal(signal.SIGUSR2, dump)
sys.argv[0] = "frontlines"
runpy.run_module("frontlines", run_name="__main__")
"""


@dataclass
class Process:
    port: int
    popen: subprocess.Popen[bytes]
    log: Path
    alive: bool = True

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def http(base: str, path: str, body: dict[str, Any] | None = None) -> Any:
    return http_json(base, path, body, timeout=STALL)


def start(url: str, log: Path, extra: tuple[str, ...] = ()) -> Process:
    port = free_port()
    cmd = [sys.executable, "-c", _DEBUG, "serve", "--port", str(port), "--database", url,
           "--bot-threads", "--bot-workers", "2", "--bot-delay", "0.05", "--seeded-deals",
           "--new-games-per-minute", "0", "--max-connections-per-address", "0", "--log-level", "warning",
           "--bot-lease", str(LEASE), "--shutdown-grace", "0",
           # random bots answer at once: a bot over its time limit here would measure how
           # starved the machine is, not the server (and forfeit a game the test watches)
           "--bot-timeout", str(STALL), *extra]
    with log.open("wb") as out:
        popen = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
    return Process(port, popen, log)


def wait_ready(p: Process) -> None:
    end = time.monotonic() + 120
    while time.monotonic() < end:
        if p.popen.poll() is not None:
            raise RuntimeError(f"serve exited {p.popen.returncode}: {p.log.read_text()[-2000:]}")
        try:
            http(p.base, "/api/rulesets")
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("serve did not start")


@pytest.fixture
def cluster(pg_server: str, tmp_path: Path) -> Iterator[list[Process]]:
    url = _fresh_pg_database(pg_server)
    DB[:] = [url]
    Store(url).close()  # the schema, once, before the processes start (as `frontlines db upgrade`)
    procs = [start(url, tmp_path / f"serve{i}.log") for i in range(3)]
    try:
        for p in procs:
            wait_ready(p)
        yield procs
    finally:
        for p in procs:
            if p.popen.poll() is None:
                p.popen.kill()
            p.popen.wait(timeout=30)


@dataclass
class Seat:
    """One player's client: plays random legal moves, hops between processes."""

    game_id: str
    token: str
    seed: int
    procs: list[Process]
    hop_every: int = 4
    # The actions sent for each ply (more than one when a copy was behind and refused one).
    sent: dict[int, set[str]] = field(default_factory=dict)
    trail: list[str] = field(default_factory=list)  # what happened, for a failure message
    hops: int = 0
    error: BaseException | None = None
    final: dict[str, Any] | None = None

    def run(self) -> None:
        try:
            self.play()
        except BaseException as exc:  # reported by the test
            self.error = exc

    def play(self) -> None:
        rng = random.Random(self.seed)
        turn = self.seed
        end = time.monotonic() + DEADLINE
        while time.monotonic() < end:
            alive = [p for p in self.procs if p.alive]
            p = alive[turn % len(alive)]
            turn += 1
            try:
                with ws_client.connect(f"ws://127.0.0.1:{p.port}/ws/{self.game_id}?t={self.token}",
                                       open_timeout=STALL, close_timeout=5) as ws:
                    self.hops += 1
                    self.trail.append(f"{time.monotonic() - T0[0]:.1f} connect {p.port}")
                    if self.session(ws, rng, end):
                        return
            except ws_exceptions.ConnectionClosed as exc:
                self.trail.append(f"{time.monotonic() - T0[0]:.1f} closed {exc.rcvd.code if exc.rcvd else None}")
            except TimeoutError:  # an OSError, but no refusal: the game stopped moving
                if time.monotonic() >= end:
                    break
                raise TimeoutError(f"game {self.game_id}: nothing heard for {STALL:g} s from port {p.port}") from None
            except OSError:  # refused: the process is gone; another one is tried
                time.sleep(0.05)
            except ws_exceptions.InvalidMessage:
                # No HTTP answer at all: the connection was taken in (by the kernel) just as
                # its process was killed, or stopped listening. Another one is tried.
                self.trail.append(f"{time.monotonic() - T0[0]:.1f} no answer from {p.port}")
                time.sleep(0.05)
        raise TimeoutError(f"game {self.game_id} did not finish")

    def session(self, ws: Any, rng: random.Random, end: float) -> bool:
        """Play on one connection; True when the game is over, False to hop to another process."""
        moves = 0
        waiting = -1  # the ply a sent move was made at, until a view past it arrives
        while True:
            msg = json.loads(ws.recv(timeout=max(0.1, min(STALL, end - time.monotonic()))))
            self.trail.append(f"{time.monotonic() - T0[0]:.1f} got {msg['type']} {msg.get('ply', msg.get('code'))}")
            if msg["type"] == "error":
                if msg["code"] in ("stale", "not_your_turn"):
                    # This copy was behind (a move made through a process that stopped a
                    # moment ago): the move was not played; the fresh view came with this.
                    waiting = -1
                    continue
                raise AssertionError(f"refused: {msg}")
            if msg["type"] != "view":
                continue
            view = msg["view"]
            if msg["ply"] > waiting >= 0:
                waiting = -1
                moves += 1
            if view["to_move"] is None:
                self.final = msg
                return True
            if waiting >= 0 or view["to_move"] != msg["role"] or not view["legal"]:
                continue
            if moves >= self.hop_every:
                return False  # a clean hop: nothing is in flight
            text = rng.choice(view["legal"])["text"]
            self.sent.setdefault(msg["ply"] + 1, set()).add(text)
            waiting = msg["ply"]
            ws.send(json.dumps({"type": "action", "text": text, "ply": msg["ply"]}))
            self.trail.append(f"{time.monotonic() - T0[0]:.1f} sent {text} at {msg['ply']}")


def total_moves(seats: list[Seat]) -> int:
    return sum(len(s.sent) for s in seats)


def wait_for(condition: Any, what: str, seats: list[Seat]) -> None:
    """Wait for ``condition`` while the games move: fail when no move was sent for STALL seconds."""
    moved, seen = time.monotonic(), total_moves(seats)
    while not condition():
        if total_moves(seats) != seen:
            moved, seen = time.monotonic(), total_moves(seats)
        elif time.monotonic() - moved > STALL:
            raise TimeoutError(f"{what}: no move for {STALL:g} s")
        time.sleep(0.05)


def diagnosis(procs: list[Process], seats: list[Seat]) -> str:
    """What the games and the servers looked like, for a failure message."""
    lines = []
    for s in seats:
        if s.final is None:
            for p in procs:
                if p.alive:
                    with contextlib.suppress(Exception):
                        v = http(p.base, f"/api/games/{s.game_id}?t={s.token}")
                        lines.append(f"{s.game_id} on {p.port}: ply {v['ply']} status {v['status']} "
                                     f"to_move {v['view']['to_move']} role {v['role']} sent {sorted(s.sent)[-3:]}")
            lines.append(f"trail {s.trail[-30:]}")
    lines.append(f"now {time.monotonic() - T0[0]:.1f}")
    with contextlib.suppress(Exception):
        import psycopg

        with psycopg.connect(DB[0]) as conn:
            for _ in range(3):
                lines.append(f"leases {conn.execute('SELECT *, extract(epoch from clock_timestamp()) FROM bot_leases').fetchall()}")
                lines.append(f"plies {conn.execute('SELECT id, plies, status FROM games').fetchall()}")
                time.sleep(2)
    for p in procs:
        if p.popen.poll() is None:
            p.popen.send_signal(signal.SIGUSR2)
            time.sleep(1)
            p.popen.send_signal(signal.SIGUSR1)
            time.sleep(1)
        lines.append(f"--- {p.port} {p.popen.pid} ---\n{p.log.read_text()[-30000:]}")
    return "\n".join(lines)


def test_games_survive_a_killed_and_a_stopped_process(cluster: list[Process]) -> None:
    procs = cluster
    made: list[dict[str, Any]] = []
    seats: list[Seat] = []
    for i in range(4):  # people against bots (random: quick turns, many of them)
        g = http(procs[i % 3].base, "/api/games", {"ruleset": "battleline-basic", "opponent": "bot:random",
                                                   "seat": str(i % 2), "seed": 100 + i})
        made.append(g)
        seats.append(Seat(g["id"], g["token"], 10 * i, procs))
    for i in range(3):  # people against people, each seat on its own process
        g = http(procs[i % 3].base, "/api/games", {"ruleset": "battleline-basic", "opponent": "friend", "seat": "0"})
        friend = http(procs[(i + 1) % 3].base, f"/api/games/{g['id']}/claim", {"invite": g["invite_token"]})
        made.append(g)
        seats.append(Seat(g["id"], g["token"], 100 + 10 * i, procs))
        seats.append(Seat(g["id"], friend["token"], 101 + 10 * i, procs))
    T0[0] = time.monotonic()
    threads = [threading.Thread(target=s.run, daemon=True) for s in seats]
    for t in threads:
        t.start()

    # Mid-game: kill -9 one process, then stop another the polite way.
    wait_for(lambda: total_moves(seats) >= 30 or all(not t.is_alive() for t in threads), "moves before the kill", seats)
    procs[0].alive = False
    os.kill(procs[0].popen.pid, signal.SIGKILL)
    print(f"killed at {time.monotonic() - T0[0]:.1f}")
    before_stop = total_moves(seats)
    wait_for(lambda: total_moves(seats) >= before_stop + 30 or all(not t.is_alive() for t in threads),
             "moves after the kill", seats)
    # A spectator sits on the process about to stop. Whether any seat is there at that
    # instant is chance (CI once stopped it 0.3 s after the kill and saw no 1012 among the
    # seats); this connection is, so the polite stop's close code is always checked.
    with ws_client.connect(f"ws://127.0.0.1:{procs[1].port}/ws/{made[0]['id']}",
                           open_timeout=STALL, close_timeout=5) as watcher:
        assert json.loads(watcher.recv(timeout=STALL))["type"] == "view"  # it is being served
        procs[1].alive = False
        procs[1].popen.send_signal(signal.SIGTERM)
        print(f"stopped at {time.monotonic() - T0[0]:.1f}")
        # "Service restart", from the drain itself (uvicorn's own shutdown says 1012 bare).
        assert close_frame(watcher, STALL) == (1012, "server restarting; reconnect")
    # uvicorn raises the signal again once it has stopped, as the convention for a parent.
    assert procs[1].popen.wait(timeout=STALL) in (0, -signal.SIGTERM)

    for t in threads:
        t.join(timeout=DEADLINE)
    errors = [s.error for s in seats if s.error is not None]
    if errors:
        print(diagnosis(procs, seats))  # shown by pytest with the failure
    assert not errors, errors
    assert all(s.final is not None for s in seats)

    # Everything as stored, read through the one process left.
    survivor = procs[2].base
    assert len(http(survivor, "/api/games?status=finished")) == len(made)
    store_rows = {row["id"]: row for row in json.loads(urllib.request.urlopen(
        f"{survivor}/api/games?ids={','.join(g['id'] for g in made)}", timeout=STALL).read())}
    assert len(store_rows) == len(made)
    for seat in seats:
        record = http(survivor, f"/api/games/{seat.game_id}/record.json")
        actions = record["actions"]
        assert store_rows[seat.game_id]["status"] == "finished"
        assert store_rows[seat.game_id]["plies"] == len(actions)
        assert store_rows[seat.game_id]["reason"] != "forfeit"
        # At every ply this seat moved at, the record holds one of the actions it sent for
        # that ply (one, unless a copy that was behind refused the other).
        for ply, texts in seat.sent.items():
            assert actions[ply - 1] in texts, (seat.game_id, ply, actions[ply - 3:ply + 1], seat.trail[-40:])
        assert seat.final is not None and seat.final["ply"] == len(actions)
