"""Benchmark of issue 29's two targets at one load: the lobby's fan-out and the clocks.

    .venv/bin/python benchmarks/bench_lobby.py --runs 3          # both targets, 3 runs
    .venv/bin/python benchmarks/bench_lobby.py --profile /tmp/lobby.prof   # + where the server's CPU goes

One ``frontlines serve`` process (a fresh SQLite file a run, or ``--database`` /
``--throwaway-pg``) with the per-address caps lifted (every socket comes from 127.0.0.1);
the load comes from other processes. Each run:

1. ``--seeks`` open seeks (1,000) are posted by ``--holders`` lobby sockets that stay
   connected (a seek lasts while its creator's page does);
2. ``--browsers`` home pages (2,000) open the lobby's WebSocket from ``--browser-processes``
   processes; each gets the whole list, then reads every change;
3. then, at that load, two things at once:

   * **the probes**: one more page posts a new seek every ``--every`` seconds (and
     withdraws every third a moment later, so that removals go out too), at least
     ``--posts`` of them and until the clocks below are done; every browser notes when
     each new seek reached it;
   * **the clocks**: ``--clock-games`` friend games with a live ``--clock`` (15+0, the
     shortest there is), their first turns ``--clock-stagger`` seconds apart so that the
     flags spread over the probes. Both seats play their free first turn, then
     ``--clock-moves`` actions in all, each after a think of 0.2-0.8 s, then the player to
     move stops and runs out of time.

Targets (issue 29): **a new seek reaches every browser with p99 under 1 s** (``fanout_ms``:
from the post to each browser receiving it, over every probe x browser pair; a pair that
never arrived counts as missing) and **clock precision within 100 ms** at that load.
Precision is measured against the true time, the deadline the server stored (read from the
database by this process: same host, same clock; SQLite's clock is the host's):

* ``clock_reading_ms``: a page that receives a reading at t saying ``left`` seconds counts
  down to zero at t + left; how much later than the stored deadline that is (the reading's
  age when it arrived), every reading with a running clock on either seat;
* ``flag_seen_ms``: the game over on time arriving at a seat, minus the deadline;
* ``flag_stored_ms``: the flag's transaction (by the database's clock) minus the deadline.

Figures are medians, p99 and slowest in milliseconds; with ``--runs N`` each run is printed
and then the median over the runs of each figure. **The load generator runs on the same
machine as the server** (the browsers are 2,000 sockets in Python: ``browsers_cpu_s``, their
CPU during the probes, is of the order of the server's): on a small machine shared with other
work the server and the browsers wait for a core, and a page's delay is then mostly that
wait. The load average and the server's share of a core are printed (``load_average``,
``server_core_share``). ``server_cpu_ms_per_page`` is the server's own cost: its CPU during
the probes over the messages it sent to pages.

``--profile FILE`` runs the server under cProfile (the event loop thread's CPU clock, so that
time waiting for a core is not charged to the server), switched on only for the probes
(SIGUSR1 on, SIGUSR2 off and write), and prints the top of it.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import multiprocessing
import os
import pstats
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from typing import Any

import websockets
from sqlalchemy import text

from frontlines.web.database import open_engine
from load_web import clean_up, cpu_seconds, database_for, free_port, new_game, stop_servers, summary_ms, wait_started

END = "bench-end"  # the name of the last seek posted: browsers stop once they see it
TARGET_FANOUT_MS = 1000.0
TARGET_CLOCK_MS = 100.0

# The server under cProfile by the event loop thread's CPU clock, on from SIGUSR1 to SIGUSR2
# (the probes alone: not the start-up, the 1,000 seeks and the 2,000 pages opening).
_PROFILED = """
import cProfile, runpy, signal, sys, time
out = sys.argv.pop(1)
sys.argv[0] = "frontlines"
profile = cProfile.Profile(time.thread_time)
signal.signal(signal.SIGUSR1, lambda *_: profile.enable())
def _stop(*_):
    profile.disable()
    profile.dump_stats(out)
signal.signal(signal.SIGUSR2, _stop)
try:
    runpy.run_module("frontlines", run_name="__main__")
except (SystemExit, KeyboardInterrupt):
    pass
"""


# --- the browsers: home pages on the lobby's socket, in processes of their own -------------
async def _browser(url: str, opened: list[float], seen: dict[str, float], closes: list[str],
                   ready: asyncio.Event) -> None:
    try:
        async with websockets.connect(url, max_size=2**26, proxy=None, open_timeout=300, ping_interval=None) as ws:
            async for raw in ws:
                now = time.time()
                if isinstance(raw, str) and raw.startswith('{"type":"lobby"'):
                    # the whole list (130 kB at 1,000 seeks): not parsed, so that 500 pages of
                    # one process opening at once do not starve it past the server's pings
                    opened.append(now)
                    ready.set()
                    continue
                msg = json.loads(raw)
                if msg["type"] == "seeks":
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
        cpu = time.process_time()
        await asyncio.gather(*tasks)
        return {"started": started, "opened": [o[0] for o in opened if o], "seen": seen, "closes": closes,
                "cpu_s": time.process_time() - cpu}

    out.send(asyncio.run(main()))
    out.close()


# --- the seeks ---------------------------------------------------------------------------------
async def post_seeks(url: str, count: int) -> Any:
    """A lobby socket that posts ``count`` seeks and stays open (its seeks with it)."""
    ws = await websockets.connect(url, max_size=2**26, proxy=None, open_timeout=300, ping_interval=None)
    clocks = ["300+3", "600+5", "180+2", "3d"]
    for i in range(count):
        await ws.send(json.dumps({"type": "seek", "ruleset": "battleline", "clock": clocks[i % len(clocks)],
                                  "name": f"holder {i}"}))
    posted = 0
    while posted < count:
        msg = json.loads(await ws.recv())
        if msg["type"] == "posted":
            posted += 1
        elif msg["type"] == "error":
            raise RuntimeError(f"a seek was refused: {msg}")
    return ws


async def probe(ws: Any, posts: int, every: float, clocks_done: asyncio.Event) -> dict[str, float]:
    """Post a seek every ``every`` seconds (withdrawing every third a moment later), at least
    ``posts`` and until ``clocks_done``; answer when each was sent, by id. The last, named
    END, tells the browsers to stop."""
    sent: dict[str, float] = {}
    i = 0
    while True:
        last = i >= posts and clocks_done.is_set()
        await asyncio.sleep(every)
        if i % 3 == 2:
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
        if last:
            return sent
        i += 1


# --- the clocks --------------------------------------------------------------------------------
@dataclass
class ClockFigures:
    reading: list[float] = field(default_factory=list)  # seconds: page's zero minus the deadline
    flag_seen: list[float] = field(default_factory=list)  # seconds: flag arrived minus the deadline
    flag_stored: list[float] = field(default_factory=list)  # seconds: flag stored minus the deadline
    unmatched: int = 0  # readings whose deadline had moved on before it was read (not counted)
    other_endings: list[str] = field(default_factory=list)


class Deadlines:
    """The deadlines the server stored, read from its database (the true time of a clock)."""

    def __init__(self, database: str) -> None:
        self.engine = open_engine(database)
        self._asked: dict[tuple[str, int], asyncio.Future[float | None]] = {}

    def _read(self, game_id: str) -> tuple[int, float, float | None] | None:
        with self.engine.connect() as conn:
            row = conn.execute(text("SELECT ply, since, deadline FROM clocks WHERE game_id = :g"),
                               {"g": game_id}).one_or_none()
        return None if row is None else (int(row[0]), float(row[1]), None if row[2] is None else float(row[2]))

    async def at(self, game_id: str, ply: int) -> float | None:
        """The deadline stored at ``ply`` (None: the row is already past it); asked once."""
        key = (game_id, ply)
        if key not in self._asked:
            async def ask() -> float | None:
                row = await asyncio.to_thread(self._read, game_id)
                return row[2] if row is not None and row[0] == ply else None
            self._asked[key] = asyncio.ensure_future(ask())
        return await self._asked[key]

    async def stopped_at(self, game_id: str) -> float | None:
        """When the clocks stopped (the flag's transaction, by the database's clock)."""
        row = await asyncio.to_thread(self._read, game_id)
        return row[1] if row is not None and row[2] is None else None

    def close(self) -> None:
        self.engine.dispose()


async def clock_game(base_ws: str, game: dict[str, Any], delay: float, moves: int, seed: int,
                     deadlines: Deadlines, figures: ClockFigures) -> None:
    """Play both seats of ``game``: the free first turns (the first after ``delay``), then
    ``moves`` actions after thinks of 0.2-0.8 s, then nothing: the player to move runs out.
    Every reading with a running clock and the flag are set against the stored deadline."""
    rng = random.Random(seed)
    budget = [moves]
    last_deadline: list[float | None] = [None]

    async def seat(token: str) -> None:
        async with websockets.connect(f"{base_ws}/ws/{game['id']}?t={token}", max_size=2**22, proxy=None,
                                      open_timeout=300, ping_interval=None) as ws:
            pending: asyncio.Task[None] | None = None
            while True:
                msg = json.loads(await ws.recv())
                now = time.time()
                if msg["type"] != "view":
                    continue
                clock, view = msg["clock"], msg["view"]
                if msg["status"] != "active":
                    outcome = view.get("outcome") or {}
                    if outcome.get("reason") != "time":
                        figures.other_endings.append(str(outcome))
                    elif last_deadline[0] is not None:
                        figures.flag_seen.append(now - last_deadline[0])
                    if pending is not None:
                        pending.cancel()
                    return
                if clock and clock["running"] is not None:
                    deadline = await deadlines.at(game["id"], msg["ply"])
                    if deadline is None:
                        figures.unmatched += 1
                    else:
                        figures.reading.append(now + clock["left"][clock["running"]] - deadline)
                        last_deadline[0] = deadline
                mine = view["to_move"] == msg["role"] and view["legal"]
                if not mine or (pending is not None and not pending.done()):
                    continue
                timed = clock is not None and clock["running"] == msg["role"]
                if timed and budget[0] <= 0:
                    continue  # done moving: the clock runs out
                if timed:
                    budget[0] -= 1
                wait = rng.uniform(0.2, 0.8) if timed else (delay if msg["ply"] == 0 else 0.0)
                legal = [e for e in view["legal"] if e["kind"] != "claim"] or view["legal"]
                action = {"type": "action", "text": rng.choice(legal)["text"], "ply": msg["ply"]}

                async def act(action: dict[str, Any] = action, wait: float = wait) -> None:
                    await asyncio.sleep(wait)
                    await ws.send(json.dumps(action))

                pending = asyncio.get_running_loop().create_task(act())

    await asyncio.gather(seat(game["token"]), seat(game["friend_token"]))
    if last_deadline[0] is not None:
        stored = await deadlines.stopped_at(game["id"])
        if stored is not None:
            figures.flag_stored.append(stored - last_deadline[0])


# --- one run -------------------------------------------------------------------------------------
def urllib_get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=120) as r:
        return str(r.read().decode())


def load_average() -> float:
    return round(os.getloadavg()[0], 1)


async def one_run(args: argparse.Namespace, profile: str) -> dict[str, Any]:
    tmp = tempfile.mkdtemp(prefix="frontlines-lobby-")
    database, stop_pg, pg_root = database_for(args, tmp, "lobby.db")
    port = free_port()
    cmd = [sys.executable, "-c", _PROFILED, profile] if profile else [sys.executable, "-m", "frontlines"]
    cmd += ["serve", "--port", str(port), "--database", database,
            "--log-level", "warning", "--max-connections-per-address", "0", "--new-games-per-minute", "0",
            "--max-seeks-per-connection", "0", "--max-seeks-per-address", "0", "--max-open-seeks", "0",
            "--max-messages-per-second", "0", *args.serve_option]
    server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tmp)
    base, url = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}/ws/lobby"
    holders: list[Any] = []
    deadlines: Deadlines | None = None
    try:
        await wait_started(server, base)
        deadlines = Deadlines(database)
        cpu0 = cpu_seconds(server.pid)
        t = time.time()
        per = -(-args.seeks // args.holders)
        holders = list(await asyncio.gather(*(post_seeks(url, min(per, args.seeks - i * per))
                                              for i in range(args.holders))))
        posting_s = time.time() - t
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
        snapshot = len(urllib_get(base + "/api/seeks").encode())
        games = [await loop.run_in_executor(None, new_game, base, {
            "ruleset": "battleline-basic", "opponent": "friend", "seat": "0", "clock": args.clock})
            for _ in range(args.clock_games)]
        # the measured part: the probes and, beside them, the clocks
        load_before = load_average()
        if profile:
            server.send_signal(signal.SIGUSR1)
        cpu1, t1 = cpu_seconds(server.pid), time.time()
        ws = await websockets.connect(url, max_size=2**26, proxy=None, open_timeout=300, ping_interval=None)
        figures = ClockFigures()
        clocks_done = asyncio.Event()

        async def clocks() -> None:
            assert deadlines is not None
            await asyncio.gather(*(clock_game(f"ws://127.0.0.1:{port}", g, i * args.clock_stagger, args.clock_moves,
                                              i, deadlines, figures) for i, g in enumerate(games)))
            clocks_done.set()

        sent, _ = await asyncio.gather(probe(ws, args.posts, args.every, clocks_done), clocks())
        results = [await loop.run_in_executor(None, pipe.recv) for _, pipe in running]
        cpu2, t2 = cpu_seconds(server.pid), time.time()
        if profile:
            server.send_signal(signal.SIGUSR2)
        load_after = load_average()
        for proc, _ in running:
            proc.join(timeout=60)
        server_clocks = json.loads(urllib_get(base + "/api/stats")).get("clocks")
        await ws.close()
    finally:
        for h in holders:
            await h.close()
        if deadlines is not None:
            deadlines.close()
        stop_servers([server], timeout=120)
        clean_up(tmp, stop_pg, pg_root)
    delays: list[float] = []
    missing = 0
    for r in results:
        for seen in r["seen"]:
            for seek_id, at in sent.items():
                if seek_id in seen:
                    delays.append(seen[seek_id] - at)
                else:
                    missing += 1
    # every page got each batch of changes once (a batch: a post, or a withdrawal and a post)
    pages_sent = args.browsers * (len(sent) + 1 + len(sent) // 3)
    opened = [o - t_open for r in results for o in r["opened"]]
    closes = [c for r in results for c in r["closes"]]
    return {
        "database": "postgresql" if database.startswith("postgres") else "sqlite",
        "open_seeks": args.seeks, "browsers": args.browsers, "probes": len(sent),
        "fanout_ms": summary_ms(delays), "pairs": len(delays), "missing": missing,
        "clock_games": args.clock_games, "clock": args.clock,
        "clock_reading_ms": summary_ms(figures.reading), "readings": len(figures.reading),
        "readings_unmatched": figures.unmatched,
        "flag_seen_ms": summary_ms(figures.flag_seen), "flag_stored_ms": summary_ms(figures.flag_stored),
        "flags": len(figures.flag_stored), "other_endings": figures.other_endings[:5],
        "server_clocks": server_clocks,
        "load_average": [load_before, load_after], "cores": os.cpu_count(),
        "probe_s": round(t2 - t1, 1), "server_cpu_s": round(cpu2 - cpu1, 2),
        "browsers_cpu_s": round(sum(r["cpu_s"] for r in results), 2),
        "server_core_share": round((cpu2 - cpu1) / (t2 - t1), 2),
        "server_cpu_ms_per_page": round((cpu2 - cpu1) * 1000 / max(1, pages_sent), 3),
        "browsers_open_s": round(open_s, 2), "slowest_open_s": round(max(opened), 2) if opened else None,
        "list_bytes": snapshot, "holders_posting_s": round(posting_s, 2),
        "server_cpu_s_before_probes": round(cpu1 - cpu0, 2), "closed": closes[:10],
    }


def over_runs(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The median over the runs of each figure."""
    def med(values: list[Any]) -> float | None:
        known = [v for v in values if v is not None]
        return round(statistics.median(known), 2) if known else None

    out: dict[str, Any] = {"runs": len(runs)}
    for key in ("fanout_ms", "clock_reading_ms", "flag_seen_ms", "flag_stored_ms"):
        out[key] = {part: med([r[key][part] for r in runs]) for part in ("median", "p99", "max")}
    for key in ("missing", "server_core_share", "server_cpu_s", "browsers_cpu_s", "server_cpu_ms_per_page",
                "browsers_open_s"):
        out[key] = med([r[key] for r in runs])
    out["load_average"] = [min(min(r["load_average"]) for r in runs), max(max(r["load_average"]) for r in runs)]
    fanout, clocks = out["fanout_ms"]["p99"], [out[k]["p99"] for k in ("clock_reading_ms", "flag_seen_ms")]
    out["fanout_p99_under_1s"] = fanout is not None and fanout < TARGET_FANOUT_MS and not out["missing"]
    out["clock_p99_within_100ms"] = all(c is not None and c < TARGET_CLOCK_MS for c in clocks)
    return out


def print_profile(path: str, top: int = 25) -> None:
    buf = io.StringIO()
    pstats.Stats(path, stream=buf).sort_stats("tottime").print_stats(top)
    print(buf.getvalue(), file=sys.stderr)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1, help="runs, each with a fresh server and database (default 1)")
    parser.add_argument("--seeks", type=int, default=1000, help="open seeks before the probes (default 1000)")
    parser.add_argument("--browsers", type=int, default=2000, help="home pages on the lobby's socket (default 2000)")
    parser.add_argument("--holders", type=int, default=10, help="sockets that hold the open seeks (default 10)")
    parser.add_argument("--browser-processes", type=int, default=4, help="processes the browsers run in (default 4)")
    parser.add_argument("--posts", type=int, default=30, help="new seeks timed, at least (default 30)")
    parser.add_argument("--every", type=float, default=0.5, help="seconds between two new seeks (default 0.5)")
    parser.add_argument("--clock-games", type=int, default=20, help="games whose clock runs out meanwhile (default 20)")
    parser.add_argument("--clock", default="15+0", help="their clock (default 15+0, the shortest there is)")
    parser.add_argument("--clock-moves", type=int, default=6, help="timed actions a game plays before it stops (default 6)")
    parser.add_argument("--clock-stagger", type=float, default=0.5, help="seconds between two games' starts (default 0.5)")
    parser.add_argument("--database", default="", help="a database URL (default: a fresh SQLite file a run)")
    parser.add_argument("--throwaway-pg", action="store_true", help="a fresh PostgreSQL cluster a run")
    parser.add_argument("--profile", default="", help="cProfile the server during the probes (the event loop "
                        "thread's CPU clock), stats to this file (run N to FILE.N)")
    parser.add_argument("--serve-option", action="append", default=[], help="one more option for frontlines serve")
    args = parser.parse_args()
    print(f"# the load generator shares this machine's {os.cpu_count()} cores with the server "
          f"(load average {load_average()} now): figures include time the server waited for a core", file=sys.stderr)
    runs = []
    for n in range(args.runs):
        profile = (args.profile if args.runs == 1 else f"{args.profile}.{n + 1}") if args.profile else ""
        runs.append(asyncio.run(one_run(args, profile)))
        print(json.dumps({"run": n + 1, **runs[-1]}), flush=True)
        if profile:
            print_profile(profile)
    print(json.dumps({"over_runs": over_runs(runs)}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
