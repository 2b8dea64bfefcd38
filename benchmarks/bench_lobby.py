"""Benchmark of the lobby (web/lobby.py): many open seeks, many home pages, one process.

Starts ``frontlines serve`` on a free port (a fresh SQLite file, or ``--database`` /
``--throwaway-pg``), with the per-address caps lifted (every socket here comes from
127.0.0.1). Then:

1. ``--seeks`` open seeks (1,000) are posted by ``--holders`` lobby sockets that stay
   connected (a seek lasts while its creator's page does);
2. ``--browsers`` home pages (2,000) open the lobby's WebSocket from
   ``--browser-processes`` processes; each gets the whole list, then reads every change;
3. one more page posts ``--posts`` new seeks, one every ``--every`` seconds, and notes when
   it sent each; every browser notes when each new seek reached it.

Reported: the delay from a seek posted to each browser receiving it (median, p99, slowest,
over every seek x browser pair; a pair that never arrived counts as missing), how long
the browsers took to open and get the list, the size of that list, and the server's CPU.
Target (issue 29): p99 under 1 s.

    .venv/bin/python benchmarks/bench_lobby.py --seeks 1000 --browsers 2000
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import websockets

from load_web import _PROFILED, cpu_seconds, free_port, summary_ms, throwaway_pg, upgrade_schema, wait_started

END = "bench-end"  # the name of the last seek posted: browsers stop once they see it


async def _browser(url: str, opened: list[float], seen: dict[str, float], closes: list[str],
                   ready: asyncio.Event) -> None:
    try:
        async with websockets.connect(url, max_size=2**26, proxy=None, open_timeout=300, ping_interval=None) as ws:
            async for raw in ws:
                now = time.time()
                msg = json.loads(raw)
                if msg["type"] == "lobby":
                    opened.append(now)
                    ready.set()
                elif msg["type"] == "seeks":
                    for seek in msg["add"]:
                        seen.setdefault(seek["id"], now)
                        if seek["name"] == END:
                            return
    except websockets.ConnectionClosed as exc:
        closes.append(f"{exc.rcvd.code if exc.rcvd else 1006} {exc.rcvd.reason if exc.rcvd else ''}".strip())
    except (OSError, TimeoutError) as exc:
        closes.append(type(exc).__name__)
    finally:
        ready.set()


def browsers_main(url: str, count: int, out: Any) -> None:
    """One browser process: open ``count`` lobby sockets, say when all have the list, then
    record when each new seek reached each socket."""
    async def main() -> dict[str, Any]:
        started = time.time()
        opened: list[list[float]] = [[] for _ in range(count)]
        seen: list[dict[str, float]] = [{} for _ in range(count)]
        closes: list[str] = []
        ready = [asyncio.Event() for _ in range(count)]
        tasks = [asyncio.create_task(_browser(url, opened[i], seen[i], closes, ready[i])) for i in range(count)]
        await asyncio.gather(*(r.wait() for r in ready))
        out.send("ready")
        await asyncio.gather(*tasks)
        return {"started": started, "opened": [o[0] for o in opened if o], "seen": seen, "closes": closes}

    out.send(asyncio.run(main()))
    out.close()


async def post_seeks(url: str, count: int, name: str = "") -> tuple[Any, list[str]]:
    """A lobby socket that posts ``count`` seeks and stays open; answers it and their ids."""
    ws = await websockets.connect(url, max_size=2**26, proxy=None, open_timeout=300, ping_interval=None)
    ids: list[str] = []
    clocks = ["300+3", "600+5", "180+2", "3d"]
    for i in range(count):
        await ws.send(json.dumps({"type": "seek", "ruleset": "battleline", "clock": clocks[i % len(clocks)],
                                  "name": name or f"holder {i}"}))
    while len(ids) < count:
        msg = json.loads(await ws.recv())
        if msg["type"] == "posted":
            ids.append(msg["seek"]["id"])
        elif msg["type"] == "error":
            raise RuntimeError(f"a seek was refused: {msg}")
    return ws, ids


async def run(args: argparse.Namespace) -> dict[str, Any]:
    tmp = tempfile.mkdtemp(prefix="frontlines-lobby-")
    stop_pg: list[str] = []
    database = args.database or f"sqlite:///{tmp}/lobby.db"
    if args.throwaway_pg:
        database, stop_pg = throwaway_pg(Path(tmp) / "pg")
    if database.startswith("postgres"):
        upgrade_schema(database)
    port = free_port()
    cmd = [sys.executable, "-c", _PROFILED, args.profile] if args.profile else [sys.executable, "-m", "frontlines"]
    cmd += ["serve", "--port", str(port), "--database", database,
           "--log-level", "warning", "--max-connections-per-address", "0", "--new-games-per-minute", "0",
           "--max-seeks-per-connection", "0", "--max-seeks-per-address", "0", "--max-open-seeks", "0",
           "--max-messages-per-second", "0", *args.serve_option]
    server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tmp)
    base, url = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}/ws/lobby"
    holders: list[Any] = []
    try:
        await wait_started(server, base)
        cpu0 = cpu_seconds(server.pid)
        t = time.time()
        per = -(-args.seeks // args.holders)
        made = await asyncio.gather(*(post_seeks(url, min(per, args.seeks - i * per)) for i in range(args.holders)))
        holders = [ws for ws, _ in made]
        posting_s = time.time() - t
        # the browsers, from processes of their own (so the load client uses the cores it can)
        ctx = multiprocessing.get_context("spawn")
        running = []
        t_open = time.time()
        for i in range(args.browser_processes):
            share = args.browsers // args.browser_processes + (1 if i < args.browsers % args.browser_processes else 0)
            parent, child = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=browsers_main, args=(url, share, child), daemon=True)
            proc.start()
            child.close()
            running.append((proc, parent))
        loop = asyncio.get_running_loop()
        for _, pipe in running:
            assert await loop.run_in_executor(None, pipe.recv) == "ready"
        open_s = time.time() - t_open
        snapshot = len(json.dumps(json.loads(urllib_get(base + "/api/seeks"))))
        cpu1 = cpu_seconds(server.pid)
        # the probe: new seeks, one at a time, each timed from its send
        ws = await websockets.connect(url, max_size=2**26, proxy=None, open_timeout=300, ping_interval=None)
        sent: dict[str, float] = {}
        for i in range(args.posts + 1):
            last = i == args.posts
            await asyncio.sleep(args.every)
            if i % 3 == 2:  # withdraw the seek posted a moment ago, so that removals go out too
                await ws.send(json.dumps({"type": "cancel", "id": list(sent)[-1]}))
            at = time.time()
            await ws.send(json.dumps({"type": "seek", "ruleset": "battleline-basic", "clock": "300+3",
                                      "name": END if last else f"probe {i}"}))
            while True:
                msg = json.loads(await ws.recv())
                if msg["type"] == "posted":
                    if not last:
                        sent[msg["seek"]["id"]] = at
                    break
                if msg["type"] == "error":
                    raise RuntimeError(f"a probe seek was refused: {msg}")
        results = [await loop.run_in_executor(None, pipe.recv) for _, pipe in running]
        for proc, _ in running:
            proc.join(timeout=60)
        cpu2 = cpu_seconds(server.pid)
        await ws.close()
    finally:
        for h in holders:
            await h.close()
        server.send_signal(signal.SIGINT if args.profile else signal.SIGTERM)  # a profile is written at exit
        try:
            server.wait(timeout=120)
        except subprocess.TimeoutExpired:
            server.kill()
        if stop_pg:
            subprocess.run(stop_pg, capture_output=True, check=False)
    delays: list[float] = []
    missing = 0
    for r in results:
        for seen in r["seen"]:
            for seek_id, at in sent.items():
                if seek_id in seen:
                    delays.append(seen[seek_id] - at)
                else:
                    missing += 1
    opened = [o - t_open for r in results for o in r["opened"]]
    closes = [c for r in results for c in r["closes"]]
    return {
        "database": "postgresql" if database.startswith("postgres") else "sqlite",
        "open_seeks": args.seeks, "browsers": args.browsers, "posts": args.posts,
        "seek_to_browser_ms": summary_ms(delays), "pairs": len(delays), "missing": missing,
        "browsers_open_s": round(open_s, 2), "slowest_open_s": round(max(opened), 2) if opened else None,
        "list_bytes": snapshot, "holders_posting_s": round(posting_s, 2), "closed": closes[:10],
        "server_cpu_s": {"posting_and_opening": round(cpu1 - cpu0, 2), "probes": round(cpu2 - cpu1, 2)},
    }


def urllib_get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=120) as r:
        return str(r.read().decode())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeks", type=int, default=1000, help="open seeks before the probes (default 1000)")
    parser.add_argument("--browsers", type=int, default=2000, help="home pages on the lobby's socket (default 2000)")
    parser.add_argument("--holders", type=int, default=10, help="sockets that hold the open seeks (default 10)")
    parser.add_argument("--browser-processes", type=int, default=4, help="processes the browsers run in (default 4)")
    parser.add_argument("--posts", type=int, default=30, help="new seeks timed (default 30)")
    parser.add_argument("--every", type=float, default=0.5, help="seconds between two new seeks (default 0.5)")
    parser.add_argument("--database", default="", help="a database URL (default: a fresh SQLite file)")
    parser.add_argument("--throwaway-pg", action="store_true", help="a fresh PostgreSQL cluster for the run")
    parser.add_argument("--profile", default="", help="run the server under cProfile (its event loop thread's CPU "
                        "clock), stats to this file")
    parser.add_argument("--serve-option", action="append", default=[], help="one more option for frontlines serve")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args)), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
