"""Speed of ``frontlines db copy``: a SQLite file of G finished games (A actions each) copied
into a fresh PostgreSQL database, R times; prints the median rows per second and seconds.

    .venv/bin/python benchmarks/bench_dbcopy.py --games 5000 --actions 60 --runs 3 --throwaway-pg
    .venv/bin/python benchmarks/bench_dbcopy.py --to-sqlite        # into a fresh SQLite file instead
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from sqlalchemy import insert

from frontlines.web.dbcopy import copy_database
from frontlines.web.store import ActionRow, GameRow, Store


def make_source(url: str, games: int, actions: int) -> int:
    """A database with ``games`` finished games of ``actions`` actions; answers its rows."""
    store = Store(url)
    try:
        with store.engine.begin() as conn:
            for start in range(0, games, 500):
                ids = [f"g{n:011d}" for n in range(start, min(games, start + 500))]
                conn.execute(insert(GameRow), [{
                    "id": gid, "ruleset": "battleline", "options": "{}", "setup": "S" * 400, "seat_hash0": "a" * 64,
                    "seat_hash1": "b" * 64, "invite_hash": "", "name0": "Ann", "name1": "Bob", "opponent": "friend",
                    "bot_seat": None, "status": "finished", "result": "1-0", "reason": "breakthrough",
                    "termination": "", "loser": None, "plies": actions, "created": 1.0, "updated": 2.0,
                } for gid in ids])
                conn.execute(insert(ActionRow), [{"game_id": gid, "ply": ply, "text": "R10@5"}
                                                 for gid in ids for ply in range(1, actions + 1)])
    finally:
        store.close()
    return games * (actions + 1)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--actions", type=int, default=60, help="actions per game (default 60)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--batch", type=int, default=1000)
    parser.add_argument("--database", default="", help="a PostgreSQL server URL to create target databases on")
    parser.add_argument("--throwaway-pg", action="store_true", help="a fresh PostgreSQL cluster (as load_web.py)")
    parser.add_argument("--to-sqlite", action="store_true", help="copy into a fresh SQLite file instead")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="frontlines-copy-"))
    pg_root = Path(tempfile.mkdtemp(prefix="frontlines-pg-")) if args.throwaway_pg else None
    stop_pg: list[str] = []
    server = args.database
    try:
        if pg_root is not None:
            sys.path.insert(0, str(Path(__file__).parent))
            from load_web import throwaway_pg

            server, stop_pg = throwaway_pg(pg_root)
        if not server and not args.to_sqlite:
            raise SystemExit("give --database postgresql://…, --throwaway-pg or --to-sqlite")
        source = f"sqlite:///{tmp / 'source.db'}"
        rows = make_source(source, args.games, args.actions)
        seconds = []
        for run in range(args.runs):
            if args.to_sqlite:
                target = f"sqlite:///{tmp / f'target{run}.db'}"
            else:
                import psycopg

                name = f"copy_{uuid.uuid4().hex[:8]}"
                with psycopg.connect(server, autocommit=True) as conn:
                    conn.execute(f'CREATE DATABASE "{name}"')
                target = server.rsplit("/", 1)[0] + "/" + name
            began = time.perf_counter()
            copied = copy_database(source, target, batch=args.batch)
            seconds.append(time.perf_counter() - began)
            assert sum(copied.counts.values()) == rows, copied.counts
        median = statistics.median(seconds)
        print(json.dumps({"games": args.games, "rows": rows, "batch": args.batch,
                          "target": "sqlite" if args.to_sqlite else "postgresql",
                          "seconds": [round(s, 2) for s in seconds], "median_s": round(median, 2),
                          "rows_per_s": round(rows / median)}, indent=2))
    finally:
        if stop_pg:
            subprocess.run(stop_pg, capture_output=True, check=False)
        shutil.rmtree(tmp, ignore_errors=True)
        if pg_root is not None:
            shutil.rmtree(pg_root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
