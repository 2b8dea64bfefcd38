"""Load benchmark of the web server: N concurrent games over WebSockets on loopback.

Starts ``frontlines serve`` as a subprocess on a free 127.0.0.1 port with a fresh SQLite
file (or ``--database``), creates N two-seat games over HTTP and drives both seats of each
game with the ``websockets`` client. Seats choose random legal moves (provable claims
first) client side, so the server does what it does for people: validate, store, apply
and send each seat its view. Reports finished games per minute and move latency (time
from sending an action to receiving the view that includes it): median, p99, slowest.

    .venv/bin/python benchmarks/load_web.py --games 50
    .venv/bin/python benchmarks/load_web.py --games 20 --server-bots   # server-side bot seats
    .venv/bin/python benchmarks/load_web.py --games 100 --spectators 1000 --think 1

With ``--server-bots`` each game is against a server-side bot (``bot:<bot>``), so the bot
worker pool is exercised too; only seat 0 is driven by the client.

With ``--spectators K`` one more game (the "watched game", played by two client seats
like the others) is watched by K spectator sockets, opened all at once from
``--spectator-processes`` separate processes (so the load client uses both cores, as the
server does). Reported besides: how long the K sockets took to open (each has its first
view), the latency from a move sent in the watched game to each spectator receiving the
view that includes it (median, p99, slowest over every move x spectator pair; a move a
spectator never received counts as missing), and the latency of ``GET /api/rulesets``
asked every half second from the side while all this runs.

``--think S`` makes every seat wait S seconds (uniform between S/2 and 3S/2) before each
move, as people do; 0 (the default) plays as fast as the server answers.

``--processes N`` starts N ``frontlines serve`` processes on one PostgreSQL database
(``--database postgresql://…``, or ``--throwaway-pg`` for a fresh cluster made with the
local PostgreSQL binaries, as the tests do). Game i is created on process i mod N, its
seat 0 plays through process i mod N and its seat 1 through process i+1 mod N, so with
N > 1 every move reaches the other seat through another process (LISTEN/NOTIFY).
Reported besides: ``db_connections`` (on PostgreSQL: the connections the processes hold,
sampled five times a second: peak, median, peak per process), ``to_opponent_ms``, the time from a move sent by one seat to the other
seat receiving the view that includes it (across processes when N > 1; through the one
process when N = 1).

    .venv/bin/python benchmarks/load_web.py --games 50 --processes 3 --throwaway-pg
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import re
import shutil
import signal
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
    with urllib.request.urlopen(req, timeout=60) as r:
        data: dict[str, Any] = json.loads(r.read())
        return data


def summary_ms(values: list[float]) -> dict[str, float | None]:
    """Median, p99 and slowest of ``values`` (seconds) in milliseconds."""
    lat = sorted(values)
    if not lat:
        return {"median": None, "p99": None, "max": None}
    return {"median": round(statistics.median(lat) * 1000, 2),
            "p99": round(lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000, 2),
            "max": round(lat[-1] * 1000, 2)}


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.finished = 0
        self.moves = 0
        # The watched game: when the action that made each ply was sent.
        self.sent: dict[int, float] = {}
        # Every game: (game id, ply) -> (the seat that sent the action making it, when);
        # the other seat's arrival times give the move-to-opponent delay.
        self.moved: dict[tuple[str, int], tuple[int, float]] = {}
        self.to_opponent: list[float] = []


async def drive_seat(base_ws: str, game_id: str, token: str, seed: int, stats: Stats, think: float,
                     watched: bool = False, server_bots: bool = False) -> None:
    """Play one seat until the game is over: a random legal move, a provable claim first."""
    rng = random.Random(seed)
    async with websockets.connect(f"{base_ws}/ws/{game_id}?t={token}", max_size=2**22, proxy=None) as ws:
        sent_at: float | None = None
        sent_ply = -1
        while True:
            msg = json.loads(await ws.recv())
            if msg["type"] == "presence":
                continue
            if msg["type"] != "view":
                raise RuntimeError(f"server refused a move: {msg}")
            now = time.monotonic()
            if sent_at is not None and msg["ply"] > sent_ply:
                if not watched:
                    stats.latencies.append(now - sent_at)
                    stats.moves += 1
                sent_at = None
            mover = stats.moved.get((game_id, msg["ply"]))
            if mover is not None and mover[0] != msg["role"]:  # the other seat's move arrives
                del stats.moved[(game_id, msg["ply"])]
                stats.to_opponent.append(now - mover[1])
            view = msg["view"]
            if view["to_move"] is None:
                if msg["role"] == 0 and not watched:
                    stats.finished += 1
                return
            if view["to_move"] != msg["role"] or not view["legal"] or sent_at is not None:
                continue
            if think:
                await asyncio.sleep(rng.uniform(think / 2, think * 3 / 2))
            legal = view["legal"]
            claims = [e for e in legal if e["kind"] == "claim"]
            sent_ply = msg["ply"]
            sent_at = time.monotonic()
            if watched:
                stats.sent[sent_ply + 1] = sent_at
            elif not server_bots:
                stats.moved[(game_id, sent_ply + 1)] = (msg["role"], sent_at)
            await ws.send(json.dumps({"type": "action", "text": rng.choice(claims or legal)["text"], "ply": msg["ply"]}))


# --- spectators, in their own processes ---------------------------------------------------------
# Only the head of a message is read: parsing a whole view a thousand times per move would
# measure the load client rather than the server.
_HEAD = re.compile(r'"type": ?"(\w+)".*?"ply": ?(\d+)')
_OVER = re.compile(r'"to_move": ?null')


async def _watch(url: str, opened: list[float], seen: dict[int, float], closes: list[str]) -> None:
    try:
        async with websockets.connect(url, max_size=2**22, proxy=None, open_timeout=120, ping_interval=None) as ws:
            async for raw in ws:
                head = _HEAD.search(str(raw)[:400])
                if head is None or head.group(1) != "view":
                    continue
                now = time.monotonic()
                if not opened:
                    opened.append(now)
                seen.setdefault(int(head.group(2)), now)
                if _OVER.search(str(raw)):
                    return
    except websockets.ConnectionClosed as exc:
        closes.append(f"{exc.rcvd.code if exc.rcvd else 1006} {exc.rcvd.reason if exc.rcvd else ''}".strip())
    except (OSError, TimeoutError) as exc:
        closes.append(type(exc).__name__)


def spectators_main(url: str, count: int, out: Any) -> None:
    """One spectator process: open ``count`` sockets at once, record when each ply arrived."""
    async def main() -> dict[str, Any]:
        started = time.monotonic()
        opened: list[list[float]] = [[] for _ in range(count)]
        seen: list[dict[int, float]] = [{} for _ in range(count)]
        closes: list[str] = []
        await asyncio.gather(*(_watch(url, opened[i], seen[i], closes) for i in range(count)))
        return {"started": started, "opened": [o[0] for o in opened if o], "seen": seen, "closes": closes}

    out.send(asyncio.run(main()))
    out.close()


def start_spectators(url: str, count: int, processes: int) -> list[tuple[Any, Any]]:
    ctx = multiprocessing.get_context("spawn")
    running = []
    for i in range(processes):
        share = count // processes + (1 if i < count % processes else 0)
        parent, child = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=spectators_main, args=(url, share, child), daemon=True)
        proc.start()
        child.close()
        running.append((proc, parent))
    return running


async def probe(base: str, every: float, stop: asyncio.Event, out: list[float]) -> None:
    """Ask ``GET /api/rulesets`` from the side: what a newcomer waits while the server is busy."""
    loop = asyncio.get_running_loop()

    def once() -> float:
        t = time.monotonic()
        urllib.request.urlopen(base + "/api/rulesets", timeout=120).read()
        return time.monotonic() - t

    while not stop.is_set():
        out.append(await loop.run_in_executor(None, once))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), every)


# The server under cProfile, timed by the event loop thread's CPU clock: on a shared machine
# wall time would charge the server for every moment another process had the core.
_PROFILED = """
import cProfile, runpy, sys, time
out = sys.argv.pop(1)
sys.argv[0] = "frontlines"
profile = cProfile.Profile(time.thread_time)
profile.enable()
try:
    runpy.run_module("frontlines", run_name="__main__")
except (SystemExit, KeyboardInterrupt):
    pass
finally:
    profile.disable()
    profile.dump_stats(out)
"""


async def count_connections(database: str, stop: asyncio.Event, out: list[int]) -> None:
    """Sample how many connections the server processes hold on the PostgreSQL database
    (pool connections in use or idle, and each process's LISTEN connection), five times a second."""
    import psycopg

    async with await psycopg.AsyncConnection.connect(database, autocommit=True) as conn:
        while not stop.is_set():
            cur = await conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                                     " AND pid <> pg_backend_pid()")
            row = await cur.fetchone()
            out.append(int(row[0]) if row else 0)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 0.2)


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far (Linux; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def new_game(base: str, body: dict[str, Any]) -> dict[str, Any]:
    """A new game; for a friend game the invite is spent at once (it is a one-time ticket),
    and the friend's own seat token is kept as ``friend_token``."""
    game = post(base, "/api/games", body)
    if body["opponent"] == "friend":
        game["friend_token"] = post(base, f"/api/games/{game['id']}/claim", {"invite": game["invite_token"]})["token"]
    return game


def serve_options(extra: list[str]) -> list[str]:
    """The cap options this checkout's ``frontlines serve`` has (an older one has none)."""
    helptext = subprocess.run([sys.executable, "-m", "frontlines", "serve", "--help"], capture_output=True,
                              text=True, check=False).stdout
    return [opt for opt in extra if opt.split("=")[0] in helptext]


def start_server(args: argparse.Namespace, database: str, tmp: str, profile: str) -> tuple[subprocess.Popen[bytes], str]:
    """One ``frontlines serve`` on a free port; answers the process and its base URL."""
    port = free_port()
    serve = ["serve", "--port", str(port), "--database", database, "--bot-delay", "0", "--log-level", "warning"]
    cmd = [sys.executable, "-c", _PROFILED, profile] if profile else [sys.executable, "-m", "frontlines"]
    cmd += serve
    if args.bot_workers:
        cmd += ["--bot-workers", str(args.bot_workers)]
    # Every socket of the benchmark comes from 127.0.0.1: lift the caps meant for strangers.
    cmd += serve_options([f"--max-spectators={max(args.spectators, 1)}",
                          f"--max-connections-per-address={2 * args.games + args.spectators + 64}",
                          "--new-games-per-minute=0"])
    cmd += args.serve_option
    server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tmp,
                              env={**os.environ, "PYTHONUNBUFFERED": "1"})
    return server, f"http://127.0.0.1:{port}"


async def wait_started(server: subprocess.Popen[bytes], base: str) -> None:
    deadline = time.time() + 60
    while True:
        try:
            urllib.request.urlopen(base + "/api/rulesets", timeout=2).read()
            return
        except OSError:
            if time.time() > deadline or server.poll() is not None:
                raise RuntimeError("server did not start: " + (server.stderr.read().decode() if server.stderr else "")) from None
            await asyncio.sleep(0.1)


def throwaway_pg(root: Path) -> tuple[str, list[str]]:
    """A fresh PostgreSQL cluster under ``root`` (initdb + pg_ctl); its URL and the stop command."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    if not found:
        raise SystemExit("--throwaway-pg needs the PostgreSQL server binaries (Debian: postgresql)")
    bindir = found[-1].parent
    prefix: list[str] = []
    if os.geteuid() == 0:  # initdb refuses root: run the cluster as the postgres user
        prefix = ["runuser", "-u", "postgres", "--"]
        shutil.chown(root, "postgres")
    root.chmod(0o700)
    data, port = root / "data", free_port()
    env = {**os.environ, "LC_ALL": "C.UTF-8"}
    subprocess.run([*prefix, str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust", "-E", "UTF8"],
                   check=True, capture_output=True, env=env)
    # fsync stays on: the figures are meant to include a durable commit per move.
    subprocess.run([*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-l", str(root / "log"), "-w", "-o",
                    f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c max_connections=200", "start"],
                   check=True, capture_output=True, env=env)
    return (f"postgresql://postgres@127.0.0.1:{port}/postgres",
            [*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-m", "fast", "stop"])


def upgrade_schema(database: str) -> None:
    """Bring a shared database to the current schema once, before the processes start."""
    helptext = subprocess.run([sys.executable, "-m", "frontlines", "--help"], capture_output=True, text=True,
                              check=False).stdout
    if re.search(r"\bdb\b", helptext):
        subprocess.run([sys.executable, "-m", "frontlines", "db", "upgrade", "--database", database], check=True)
    else:  # an older checkout: opening the store creates the tables
        subprocess.run([sys.executable, "-c", "import sys; from frontlines.web.store import Store; "
                        "Store(sys.argv[1]).close()", database], check=True)


def database_for(args: argparse.Namespace, tmp: str, name: str) -> tuple[str, list[str], Path | None]:
    """A run's database: ``--database``, a fresh cluster (``--throwaway-pg``, in a folder of its
    own: the postgres user owns it) or a fresh SQLite file ``name`` in ``tmp``, its schema
    brought up to date. Answers its URL, the command that stops the cluster and its folder."""
    stop_pg: list[str] = []
    database = args.database
    pg_root = Path(tempfile.mkdtemp(prefix="frontlines-pg-")) if args.throwaway_pg else None
    if pg_root is not None:
        database, stop_pg = throwaway_pg(pg_root)
    database = database or f"sqlite:///{Path(tmp) / name}"
    if getattr(args, "processes", 1) > 1 and database.startswith("sqlite"):
        raise SystemExit("--processes > 1 needs PostgreSQL: --database postgresql://… or --throwaway-pg")
    if not database.startswith("sqlite"):
        upgrade_schema(database)
    return database, stop_pg, pg_root


def stop_servers(servers: list[subprocess.Popen[bytes]], *, profiled: bool = False, timeout: float = 30.0) -> None:
    """Stop the server processes (SIGTERM; the first with SIGINT when it is ``profiled``, so
    that cProfile writes its file on the way out, and it gets longer for that)."""
    for i, server in enumerate(servers):
        server.send_signal(signal.SIGINT if profiled and i == 0 else signal.SIGTERM)
    for i, server in enumerate(servers):
        try:
            server.wait(timeout=120 if profiled and i == 0 else timeout)
        except subprocess.TimeoutExpired:
            server.kill()


def clean_up(tmp: str, stop_pg: list[str], pg_root: Path | None) -> None:
    if stop_pg:
        subprocess.run(stop_pg, capture_output=True, check=False)
    shutil.rmtree(tmp, ignore_errors=True)
    if pg_root is not None:
        shutil.rmtree(pg_root, ignore_errors=True)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    tmp = tempfile.mkdtemp(prefix="frontlines-load-")
    database, stop_pg, pg_root = database_for(args, tmp, "load.db")
    servers: list[tuple[subprocess.Popen[bytes], str]] = []
    try:
        for i in range(max(1, args.processes)):
            servers.append(start_server(args, database, tmp, args.profile if i == 0 else ""))
        for server, base_url in servers:
            await wait_started(server, base_url)
        return await play(args, servers, database)
    finally:
        # uvicorn stops on either signal; SIGINT lets cProfile write its file on the way out.
        stop_servers([server for server, _ in servers], profiled=bool(args.profile))
        clean_up(tmp, stop_pg, pg_root)


async def play(args: argparse.Namespace, servers: list[tuple[subprocess.Popen[bytes], str]],
               database: str) -> dict[str, Any]:
    bases = [base_url for _, base_url in servers]
    n = len(bases)
    base = bases[0]

    def ws_of(i: int) -> str:
        return "ws" + bases[i % n][len("http"):]

    stats = Stats()
    watched_stats = Stats()
    opponent = f"bot:{args.bot}" if args.server_bots else "friend"
    games = [new_game(bases[i % n], {"ruleset": args.ruleset, "opponent": opponent, "seat": "0"})
             for i in range(args.games)]
    probes: list[float] = []
    stop = asyncio.Event()
    prober = asyncio.create_task(probe(base, 0.5, stop, probes))
    connections: list[int] = []
    counter = None if database.startswith("sqlite") else \
        asyncio.create_task(count_connections(database, stop, connections))
    result: dict[str, Any] = {
        "games": args.games, "ruleset": args.ruleset, "think_s": args.think,
        "mode": "server bots" if args.server_bots else "two client seats", "database": database.split(":")[0],
        "processes": n,
    }
    started = time.monotonic()
    server_cpu = sum(cpu_seconds(server.pid) for server, _ in servers)
    tasks = []
    for i, g in enumerate(games):
        tasks.append(drive_seat(ws_of(i), g["id"], g["token"], 2 * i, stats, args.think,
                                server_bots=args.server_bots))
        if not args.server_bots:
            tasks.append(drive_seat(ws_of(i + 1), g["id"], g["friend_token"], 2 * i + 1, stats, args.think))
    playing: asyncio.Future[Any] = asyncio.gather(*tasks)
    watchers: list[tuple[Any, Any]] = []
    opening = 0.0
    if args.spectators:
        # The spectators arrive while the other games are being played; the watched
        # game starts when every spectator is in (or the wait runs out).
        watched = new_game(base, {"ruleset": args.ruleset, "opponent": "friend", "seat": "0"})
        opening = time.monotonic()
        watchers = start_spectators(f"{ws_of(0)}/ws/{watched['id']}", args.spectators, args.spectator_processes)
        while time.monotonic() - opening < args.timeout:
            rows = await asyncio.get_running_loop().run_in_executor(None, lambda: json.loads(
                urllib.request.urlopen(f"{base}/api/games?ids={watched['id']}", timeout=60).read()))
            if rows[0].get("watching", 0) >= args.spectators:
                break
            await asyncio.sleep(0.2)
        tasks = [drive_seat(ws_of(i), watched["id"], watched[key], 10**6 + i, watched_stats, args.think, watched=True)
                 for i, key in enumerate(("token", "friend_token"))]
        playing = asyncio.gather(playing, *tasks)
    await asyncio.wait_for(playing, timeout=args.timeout)
    elapsed = time.monotonic() - started
    server_cpu = sum(cpu_seconds(server.pid) for server, _ in servers) - server_cpu
    stop.set()
    await prober
    if counter is not None:
        await counter
    server_stats = [json.loads(urllib.request.urlopen(b + "/api/stats", timeout=60).read()) for b in bases]
    dropped: dict[str, int] = {}
    for st in server_stats:
        for cause, count in (st.get("dropped") or {}).items():
            dropped[cause] = dropped.get(cause, 0) + count
    result.update({
        "finished": stats.finished, "seconds": round(elapsed, 2),
        "games_per_minute": round(stats.finished / elapsed * 60, 1), "moves": stats.moves,
        "moves_per_second": round(stats.moves / elapsed, 1),
        "latency_ms": summary_ms(stats.latencies),
        "to_opponent_ms": summary_ms(stats.to_opponent),
        "rulesets_probe_ms": summary_ms(probes),
        "slowest_server_bot_ms": round(max(st["slowest_bot_s"] for st in server_stats) * 1000, 2),
        # CPU the server processes used while the games were played: unlike latency, it
        # hardly depends on what else the machine is doing.
        "server_cpu_s": round(server_cpu, 2), "server_cpu_share": round(server_cpu / elapsed, 2),
        "server_dropped": dropped,
    })
    if connections:
        # Against --db-pool-size + --db-max-overflow + 1 per process (docs/deploy.md).
        result["db_connections"] = {"peak": max(connections), "median": statistics.median(connections),
                                    "peak_per_process": round(max(connections) / n, 1)}
    if watchers:
        result["spectators"] = spectator_figures(watchers, watched_stats, opening)
    return result


def spectator_figures(watchers: list[tuple[Any, Any]], watched: Stats, opening: float) -> dict[str, Any]:
    reports: list[dict[str, Any]] = []
    for proc, pipe in watchers:
        reports.append(pipe.recv() if pipe.poll(120) else {"opened": [], "seen": [], "closes": ["no report"]})
        proc.join(timeout=10)
    opened = [t for r in reports for t in r["opened"]]
    delays: list[float] = []
    missing = 0
    for r in reports:
        for seen in r["seen"]:
            for ply, sent in watched.sent.items():
                if ply in seen:
                    delays.append(seen[ply] - sent)
                else:
                    missing += 1
    closes: dict[str, int] = {}
    for r in reports:
        for c in r["closes"]:
            closes[c] = closes.get(c, 0) + 1
    return {
        "sockets": sum(len(r["seen"]) for r in reports), "opened": len(opened),
        "all_open_s": round(max(opened) - opening, 2) if opened else None,
        "watched_moves": len(watched.sent), "move_to_spectator_ms": summary_ms(delays),
        "missing": missing, "closed_early": closes,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="concurrent games (default 50)")
    parser.add_argument("--ruleset", default="battleline-basic")
    parser.add_argument("--bot", default="random", help="server bot level with --server-bots (default random)")
    parser.add_argument("--server-bots", action="store_true", help="seat 1 of every game is a server-side bot")
    parser.add_argument("--bot-workers", type=int, default=0)
    parser.add_argument("--database", default="", help="default: a fresh SQLite file")
    parser.add_argument("--processes", type=int, default=1,
                        help="serve processes on one PostgreSQL database (default 1; >1 needs PostgreSQL)")
    parser.add_argument("--throwaway-pg", action="store_true",
                        help="start a fresh local PostgreSQL cluster for the run (initdb; removed afterwards)")
    parser.add_argument("--spectators", type=int, default=0, help="spectator sockets on one more game (default 0)")
    parser.add_argument("--spectator-processes", type=int, default=2, help="processes that hold them (default 2)")
    parser.add_argument("--think", type=float, default=0.0, help="seconds a seat thinks before each move (default 0)")
    parser.add_argument("--serve-option", action="append", default=[], help="one more `frontlines serve` option")
    parser.add_argument("--profile", default="", help="run the server under cProfile, stats to this file")
    parser.add_argument("--timeout", type=float, default=600)
    args = parser.parse_args()
    result = asyncio.run(run(args))
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
