"""Bot worker processes: a dead worker is replaced and its move asked again; a bot forfeits
only for its own fault; workers end with the server, even after ``kill -9``."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from webhelpers import START_LIMIT, free_port, make_client

from frontlines.games import new_state
from frontlines.web.workers import BotFault, ProcessBots

RULESET = "battleline-basic"


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):  # it may be gone already
        os.kill(pid, signal.SIGKILL)


def test_a_dead_worker_is_replaced_and_the_move_asked_again() -> None:
    state = new_state(RULESET, seed=5)
    seat = state.current_player()
    assert seat is not None
    view = state.view(seat)
    legal = {state.action_to_text(a) for a in state.legal_actions()}

    async def main() -> None:
        bots = ProcessBots(1, timeout=60)
        await bots.start()
        try:
            assert await bots.choose("random", 1, seat, view) in legal
            # Killed between moves (out of memory, an operator's kill): the next move works.
            [pid] = bots.pids()
            _kill(pid)
            assert await bots.choose("random", 2, seat, view) in legal
            assert bots.replaced == 1 and bots.pids() != [pid]
            # Killed in the middle of a move: the move is asked again of a fresh worker.
            thinking = asyncio.create_task(bots.choose("ismcts:time=2", 3, seat, view))
            while not bots.busy_pids():
                await asyncio.sleep(0.01)
            _kill(bots.busy_pids()[0])
            assert await thinking in legal
            assert bots.replaced == 2
            # The bot's own fault is a BotFault; the worker stays up for the next move.
            with pytest.raises(BotFault, match="bot crashed"):
                await bots.choose("no-such-bot", 4, seat, view)
            assert await bots.choose("random", 5, seat, view) in legal
            assert bots.replaced == 2
        finally:
            await bots.close()
        assert bots.pids() == []

    asyncio.run(main())


def test_a_bot_past_its_time_forfeits_and_its_worker_is_replaced() -> None:
    state = new_state(RULESET, seed=6)
    seat = state.current_player()
    assert seat is not None
    view = state.view(seat)

    async def main() -> None:
        bots = ProcessBots(1, timeout=1)
        await bots.start()
        try:
            with pytest.raises(BotFault, match="timed out"):
                await bots.choose("ismcts:time=60", 1, seat, view)
            assert bots.replaced == 1
            bots.timeout = 120  # the fresh worker answers a quick bot (whatever the machine's load)
            assert isinstance(await bots.choose("random", 2, seat, view), str)
        finally:
            await bots.close()

    asyncio.run(main())


def test_killing_the_workers_mid_game_forfeits_nothing(sqlite_url: str) -> None:
    rng = random.Random(8)
    with make_client(sqlite_url, bot_executor="process", bot_workers=1) as c:
        bots = c.app.state.manager.bots  # type: ignore[attr-defined]
        game = c.post("/api/games", json={"ruleset": RULESET, "opponent": "bot:random", "seat": "0"}).json()
        gid, token = game["id"], game["token"]
        killed: set[int] = set()
        # what must not take long is a move (a fresh worker starts in it), not the whole game
        ply, deadline = -1, 0.0
        while (msg := c.get(f"/api/games/{gid}", params={"t": token}).json())["status"] == "active":
            if msg["ply"] != ply:
                ply, deadline = msg["ply"], time.monotonic() + 120
            assert time.monotonic() < deadline, "the game against the bot did not go on"
            legal = msg["view"]["legal"]
            if not legal:
                time.sleep(0.01)  # the bot is thinking
                continue
            fresh = set(bots.pids()) - killed
            if msg["ply"] >= 2 and len(killed) < 3 and fresh:  # a few times, between the bot's moves
                for pid in fresh:
                    _kill(pid)
                killed |= fresh
            r = c.post(f"/api/games/{gid}/action", json={"t": token, "text": rng.choice(legal)["text"], "ply": msg["ply"]})
            assert r.status_code == 200, r.text
        assert len(killed) == 3 and bots.replaced >= 3
        assert msg["view"]["outcome"]["reason"] != "forfeit", msg["view"]["outcome"]
        record = c.get(f"/api/games/{gid}/record.txt").text
        assert "forfeit" not in record


# --- kill -9 of the server: no orphans --------------------------------------------------------
def _children(pid: int) -> set[int]:
    """Every live descendant of ``pid`` from the process table (zombies count as gone)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] != "Z":
            parents[int(entry.name)] = int(fields[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs a Linux process table")
def test_kill_9_of_the_server_leaves_no_orphans(tmp_path: Path) -> None:
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "frontlines", "serve", "--port", str(port), "--bot-workers", "2",
                               "--log-level", "warning"], cwd=tmp_path, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + START_LIMIT
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/rulesets", timeout=2).read()
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, "frontlines serve did not start"
                time.sleep(0.1)
        workers = _children(server.pid)
        assert len(workers) >= 2, workers
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait()
    deadline = time.monotonic() + 120  # they go as soon as they notice; a loaded machine is slow to let them
    while (left := {pid for pid in workers if _alive(pid)}) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not left, f"orphans after kill -9 of the server: {left}"
