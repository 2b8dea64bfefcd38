"""Load benchmark of the web server: N concurrent games over WebSockets on loopback.

Starts ``frontlines serve`` as a subprocess on a free 127.0.0.1 port with a fresh SQLite
file (or ``--database``), creates N two-seat games over HTTP and drives both seats of each
game with the ``websockets`` client. Seats choose random legal moves (provable claims
first) client side, so the server does what it does for people: validate, store, apply
and send each seat its view. Reports finished games per minute and move latency (time
from sending an action to receiving the view that includes it): median, p99, slowest.

    .venv/bin/python benchmarks/load_web.py --games 50
    .venv/bin/python benchmarks/load_web.py --games 20 --server-bots   # server-side bot seats

With ``--server-bots`` each game is against a server-side bot (``bot:<bot>``), so the bot
worker pool is exercised too; only seat 0 is driven by the client.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import websockets


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        data: dict[str, Any] = json.loads(r.read())
        return data


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.finished = 0
        self.moves = 0


async def drive_seat(base_ws: str, game_id: str, token: str, seed: int, stats: Stats) -> None:
    """Play one seat until the game is over: a random legal move, a provable claim first."""
    rng = random.Random(seed)
    async with websockets.connect(f"{base_ws}/ws/{game_id}?t={token}", max_size=2**22) as ws:
        sent_at: float | None = None
        sent_ply = -1
        while True:
            msg = json.loads(await ws.recv())
            if msg["type"] != "view":
                raise RuntimeError(f"server refused a move: {msg}")
            if sent_at is not None and msg["ply"] > sent_ply:
                stats.latencies.append(time.perf_counter() - sent_at)
                stats.moves += 1
                sent_at = None
            view = msg["view"]
            if view["to_move"] is None:
                if msg["role"] == 0:
                    stats.finished += 1
                return
            if view["to_move"] != msg["role"] or not view["legal"] or sent_at is not None:
                continue
            legal = view["legal"]
            claims = [e for e in legal if e["kind"] == "claim"]
            sent_ply = msg["ply"]
            sent_at = time.perf_counter()
            await ws.send(json.dumps({"type": "action", "text": rng.choice(claims or legal)["text"], "ply": msg["ply"]}))


async def run(args: argparse.Namespace) -> dict[str, Any]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    tmp = tempfile.mkdtemp(prefix="frontlines-load-")
    database = args.database or f"sqlite:///{Path(tmp) / 'load.db'}"
    cmd = [sys.executable, "-m", "frontlines", "serve", "--port", str(port), "--database", database,
           "--bot-delay", "0", "--log-level", "warning"]
    if args.bot_workers:
        cmd += ["--bot-workers", str(args.bot_workers)]
    server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tmp,
                              env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        deadline = time.time() + 30
        while True:
            try:
                urllib.request.urlopen(base + "/api/rulesets", timeout=2).read()
                break
            except OSError:
                if time.time() > deadline or server.poll() is not None:
                    raise RuntimeError("server did not start: " + (server.stderr.read().decode() if server.stderr else "")) from None
                await asyncio.sleep(0.1)
        stats = Stats()
        opponent = f"bot:{args.bot}" if args.server_bots else "friend"
        games = [post(base, "/api/games", {"ruleset": args.ruleset, "opponent": opponent, "seat": "0", "seed": i})
                 for i in range(args.games)]
        base_ws = f"ws://127.0.0.1:{port}"
        started = time.perf_counter()
        tasks = []
        for i, g in enumerate(games):
            tasks.append(drive_seat(base_ws, g["id"], g["token"], 2 * i, stats))
            if not args.server_bots:
                tasks.append(drive_seat(base_ws, g["id"], g["invite_token"], 2 * i + 1, stats))
        await asyncio.wait_for(asyncio.gather(*tasks), timeout=args.timeout)
        elapsed = time.perf_counter() - started
        server_stats = json.loads(urllib.request.urlopen(base + "/api/stats", timeout=5).read())
        lat = sorted(stats.latencies)
        return {
            "games": args.games, "ruleset": args.ruleset, "mode": "server bots" if args.server_bots else "two client seats",
            "database": database.split(":")[0], "finished": stats.finished, "seconds": round(elapsed, 2),
            "games_per_minute": round(stats.finished / elapsed * 60, 1), "moves": stats.moves,
            "moves_per_second": round(stats.moves / elapsed, 1),
            "latency_ms": {
                "median": round(statistics.median(lat) * 1000, 2) if lat else None,
                "p99": round(lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000, 2) if lat else None,
                "max": round(lat[-1] * 1000, 2) if lat else None,
            },
            "slowest_server_bot_ms": round(server_stats["slowest_bot_s"] * 1000, 2),
        }
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="concurrent games (default 50)")
    parser.add_argument("--ruleset", default="battleline-basic")
    parser.add_argument("--bot", default="random", help="server bot level with --server-bots (default random)")
    parser.add_argument("--server-bots", action="store_true", help="seat 1 of every game is a server-side bot")
    parser.add_argument("--bot-workers", type=int, default=0)
    parser.add_argument("--database", default="", help="default: a fresh SQLite file")
    parser.add_argument("--timeout", type=float, default=600)
    args = parser.parse_args()
    result = asyncio.run(run(args))
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
