"""Clock precision under a load of games: how late a flag and a clock reading are against
the true time, with many live games played at once (issue 29: within 100 ms). The lobby's
load (1,000 seeks, 2,000 pages) with clocks beside it is ``bench_lobby.py``; this one loads
the server with moves instead, and runs on several processes too.

Starts ``frontlines serve`` (a fresh SQLite file, ``--database``, or ``--throwaway-pg``; with
``--processes N`` that many on one PostgreSQL), makes ``--games`` friend games with a live
clock (``--clock``, 15+0 by default) and plays both seats of every game over WebSockets,
each action after a think of ``--think`` seconds (uniform from a fifth to twice that). A
seat whose clock shows less time than its next think waits for the flag instead of moving,
so every game ends on time, and all the games' clocks run out while the others keep the
server busy. Each game is created a little after the one before (``--stagger``), so that
the deadlines spread out.

The true time is the deadline the server stored, read from the database by this process
(same host, same clock; the database's clock for PostgreSQL, the host's for SQLite).
Reported (median, p99, slowest, in ms):

* ``clock_reading_ms``: a seat whose own clock runs receives a reading at t saying ``left``
  seconds; its page counts to zero at t + left; that minus the stored deadline (the
  reading's age on arrival: positive, the page shows more time than is left);
* ``flag_seen_ms``: the flagged seat's socket receiving the view that says the game was
  lost on time, minus the deadline;
* ``late_server_ms``: the database's clock at the flag's transaction minus the deadline
  (from each process's ``/api/stats``: a process's median of its own flags, the max over all);
* ``moves_per_s``, the games and their flags, the server processes' CPU, the load average.

    .venv/bin/python benchmarks/bench_clock_flags.py --games 200
    .venv/bin/python benchmarks/bench_clock_flags.py --games 100 --processes 2 --throwaway-pg
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import urllib.request
from typing import Any

import websockets

from bench_lobby import Deadlines, load_average
from load_web import clean_up, cpu_seconds, database_for, free_port, new_game, stop_servers, summary_ms, wait_started


class Figures:
    def __init__(self) -> None:
        self.moves = 0
        self.reading: list[float] = []  # seconds: page's zero minus the stored deadline
        self.flag_seen: list[float] = []  # seconds: flag arrived minus the stored deadline
        self.unmatched = 0  # readings whose deadline had moved on before it was read
        self.flags = 0
        self.other_endings = 0
        self.errors: list[str] = []


async def seat(url: str, game_id: str, rng: random.Random, think: float, deadlines: Deadlines,
               figures: Figures) -> None:
    """One player: random legal moves after a think, unless the clock would run out first."""
    async with websockets.connect(url, max_size=2**22, proxy=None) as ws:
        deadline: float | None = None  # the stored deadline of this seat's running clock
        pending: asyncio.Task[None] | None = None
        while True:
            raw = await ws.recv()
            now = time.time()
            msg = json.loads(raw)
            if msg["type"] == "error":
                if msg["code"] not in ("stale", "not_your_turn", "out_of_time"):
                    figures.errors.append(str(msg))
                continue
            if msg["type"] != "view":
                continue
            me = msg["role"]
            if msg["status"] != "active":
                outcome = msg["view"].get("outcome") or {}
                if outcome.get("reason") == "time" and outcome.get("winner") == 1 - me:
                    figures.flags += 1
                    if deadline is not None:
                        figures.flag_seen.append(now - deadline)
                elif outcome.get("winner") == me and outcome.get("reason") == "time":
                    pass  # the other seat counts it
                else:
                    figures.other_endings += 1 if me == 0 else 0
                if pending is not None:
                    pending.cancel()
                return
            clock = msg["clock"]
            if clock and clock["running"] == me:
                deadline = await deadlines.at(game_id, msg["ply"])
                if deadline is None:
                    figures.unmatched += 1
                else:
                    figures.reading.append(now + clock["left"][me] - deadline)
            view = msg["view"]
            if view["to_move"] != me or not view["legal"] or (pending is not None and not pending.done()):
                continue
            wait = rng.uniform(think / 5, think * 2)
            left = clock["left"][me] if clock else None
            if clock and clock["running"] == me and left is not None and wait >= left:
                continue  # would run out while thinking: the flag decides
            text = rng.choice(view["legal"])["text"]
            ply = msg["ply"]

            async def move(text: str = text, ply: int = ply, wait: float = wait) -> None:
                await asyncio.sleep(wait)
                await ws.send(json.dumps({"type": "action", "text": text, "ply": ply}))
                figures.moves += 1

            pending = asyncio.get_running_loop().create_task(move())


def stats_of(base: str) -> dict[str, Any]:
    with urllib.request.urlopen(base + "/api/stats", timeout=60) as r:
        data: dict[str, Any] = json.loads(r.read())
        return data


async def run(args: argparse.Namespace) -> dict[str, Any]:
    tmp = tempfile.mkdtemp(prefix="frontlines-clocks-")
    database, stop_pg, pg_root = database_for(args, tmp, "clocks.db")
    servers: list[tuple[subprocess.Popen[bytes], str]] = []
    deadlines: Deadlines | None = None
    try:
        for _ in range(args.processes):
            port = free_port()
            cmd = [sys.executable, "-m", "frontlines", "serve", "--port", str(port), "--database", database,
                   "--log-level", "warning", "--new-games-per-minute", "0",
                   f"--max-connections-per-address={2 * args.games + 64}", "--clock-sweep", str(args.sweep)]
            servers.append((subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tmp),
                            f"http://127.0.0.1:{port}"))
        for server, base in servers:
            await wait_started(server, base)
        deadlines = Deadlines(database)
        load_before = load_average()
        figures = Figures()
        rng = random.Random(args.seed)
        cpu0 = [cpu_seconds(s.pid) for s, _ in servers]
        started = time.monotonic()
        tasks = []
        for i in range(args.games):
            base = servers[i % len(servers)][1]
            game = await asyncio.to_thread(new_game, base, {"ruleset": args.ruleset, "opponent": "friend",
                                                            "seat": "0", "clock": args.clock})
            for k, token in enumerate((game["token"], game["friend_token"])):
                # each seat through its own process when there are several
                ws_base = servers[(i + k) % len(servers)][1].replace("http://", "ws://")
                url = f"{ws_base}/ws/{game['id']}?t={token}"
                tasks.append(asyncio.create_task(seat(url, game["id"], random.Random(rng.random()), args.think,
                                                      deadlines, figures)))
            await asyncio.sleep(args.stagger)
        await asyncio.wait_for(asyncio.gather(*tasks), timeout=args.timeout)
        elapsed = time.monotonic() - started
        per_process = [stats_of(base)["clocks"] for _, base in servers]
        cpu = sum(cpu_seconds(s.pid) - c for (s, _), c in zip(servers, cpu0, strict=True))
        return {
            "games": args.games, "clock": args.clock, "processes": args.processes,
            "database": database.split(":")[0], "seconds": round(elapsed, 1),
            "moves": figures.moves, "moves_per_s": round(figures.moves / elapsed, 1),
            "flags_seen": figures.flags, "other_endings": figures.other_endings,
            "late_server_ms": {"flagged": [p["flagged"] for p in per_process],
                               "median_per_process": [p["late_ms_median"] for p in per_process],
                               "max": max((p["late_ms_max"] or 0.0) for p in per_process)},
            "clock_reading_ms": summary_ms(figures.reading), "readings": len(figures.reading),
            "readings_unmatched": figures.unmatched, "flag_seen_ms": summary_ms(figures.flag_seen),
            "server_cpu_s": round(cpu, 1), "load_average": [load_before, load_average()], "cores": os.cpu_count(),
            "errors": figures.errors[:5],
        }
    finally:
        if deadlines is not None:
            deadlines.close()
        stop_servers([server for server, _ in servers])
        clean_up(tmp, stop_pg, pg_root)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--clock", default="15+0", help="the games' live clock (default 15+0)")
    parser.add_argument("--think", type=float, default=0.6, help="seconds a seat thinks per action, on average")
    parser.add_argument("--stagger", type=float, default=0.02, help="seconds between one game's start and the next's")
    parser.add_argument("--ruleset", default="battleline-basic")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--database", default="")
    parser.add_argument("--throwaway-pg", action="store_true")
    parser.add_argument("--sweep", type=float, default=1.0, help="serve's --clock-sweep")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=1800.0)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args)), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
