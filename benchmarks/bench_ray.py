"""Arena games per second: the local backend against 1 and 2 local Ray workers, same bots, side by side.

Every configuration plays the same match (``--games`` games, ``--bot`` against ``--bot``)
``--runs`` times; medians are printed. Each run is timed from the moment games are handed
to the backend, and each result as it arrives, which separates

* the start: until the first result (Ray: the actors start and import the package; local
  with processes: the fork; plus one game), and
* the steady rate: games per second from the first result to the last. Its inverse is the
  wall time per game, and the difference between Ray and the local backend with as many
  workers is Ray's overhead per game (sending the task, the result and the record back).

Then the same without playing: every "game" hands back a finished game's result (its
record included) at once, which measures what a backend adds to each game and nothing else.

The configurations take turns run by run, so that the machine's changing load falls on all
of them alike. One Ray (2 CPUs) serves both Ray rows; its start (``ray.init``) is timed
apart. A warm-up run per configuration is not counted. Wall time: the figures mean most on
a quiet machine (the load average is printed). Needs the ``cluster`` extra. Usage::

    .venv/bin/python benchmarks/bench_ray.py [--rules battleline] [--games 60] [--empty-games 2000] \\
        [--runs 3] [--bot r=random --bot h=heuristic]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial

from frontlines.arena.backends import Backend, LocalBackend
from frontlines.arena.runner import ArenaGame, run_games
from frontlines.arena.schedule import BotEntry, GameTask, schedule


class Replayer:
    """A worker that plays no game: it hands back a finished game (record included) at once,
    so that a run of it measures what a backend adds to every game and nothing else."""

    def __init__(self, game: ArenaGame) -> None:
        self.game = game

    def play(self, task: GameTask) -> ArenaGame:
        return replace(self.game, index=task.index, pair=task.pair, seed=task.seed, players=task.players)

    def close(self) -> None:
        pass


def one_run(args: argparse.Namespace, backend: Backend, games: int, empty: ArenaGame | None) -> tuple[float, float]:
    """(seconds to the first result, steady games per second after it) of one match;
    ``empty``: the games are not played, this result comes back for each."""
    entries = [BotEntry(*b.split("=", 1)) for b in args.bot]
    tasks = schedule([e.name for e in entries], games, ruleset=args.rules, match_seed=args.seed)
    arrivals: list[float] = []

    def arrived(*_: object) -> bool:
        arrivals.append(time.perf_counter())
        return False

    start = time.perf_counter()
    if empty is None:
        run_games(entries, tasks, seed=args.seed, on_result=arrived, backend=backend)
    else:
        backend.run(partial(Replayer, empty), tasks, arrived)
    return arrivals[0] - start, (len(arrivals) - 1) / (arrivals[-1] - arrivals[0])


def measure(args: argparse.Namespace, configs: dict[str, Callable[[], Backend]], games: int,
            empty: ArenaGame | None) -> dict[str, tuple[float, float]]:
    """Per configuration, medians over ``--runs`` of (seconds to the first result, steady
    games per second). The configurations take turns, so that a change in the machine's
    load falls on all of them alike."""
    names = list(configs)
    for name in names:
        one_run(args, configs[name](), 4, empty)  # warm-up: imports, tables, Ray's first worker processes
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in names}
    for round_ in range(args.runs):
        for name in names[round_ % len(names):] + names[: round_ % len(names)]:
            runs[name].append(one_run(args, configs[name](), games, empty))
    return {name: (statistics.median(r[0] for r in rs), statistics.median(r[1] for r in rs)) for name, rs in runs.items()}


def table(title: str, rows: dict[str, tuple[float, float]]) -> None:
    print(title)
    print(f"  {'backend':<24} {'games/s':>9} {'ms/game':>8} {'first s':>8}")
    for name, (first, rate) in rows.items():
        print(f"  {name:<24} {rate:>9.2f} {1000 / rate:>8.2f} {first:>8.2f}")
    for ray_name, local in (("ray, 1 worker", "local, in this process"), ("ray, 2 workers", "local, 2 processes")):
        over = 1000 / rows[ray_name][1] - 1000 / rows[local][1]
        print(f"  {ray_name} against {local}: {over:+.2f} ms per game, "
              f"{rows[ray_name][0] - rows[local][0]:+.2f} s to the first result")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="battleline")
    parser.add_argument("--games", type=int, default=60, help="games per run (default 60)")
    parser.add_argument("--empty-games", type=int, default=2000, help="games per run that are not played (default 2000)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot", action="append", default=None, metavar="NAME=SPEC", help="two of them (default r=random, h=heuristic)")
    args = parser.parse_args()
    args.bot = args.bot or ["r=random", "h=heuristic"]

    import ray

    from frontlines.cluster.ray_backend import RayBackend

    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    load_before = os.getloadavg()[0]
    start = time.perf_counter()
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    startup = time.perf_counter() - start
    configs: dict[str, Callable[[], Backend]] = {
        "local, in this process": lambda: LocalBackend(1),
        "local, 2 processes": lambda: LocalBackend(2),
        "ray, 1 worker": lambda: RayBackend(workers=1),
        "ray, 2 workers": lambda: RayBackend(workers=2),
    }
    try:
        played = measure(args, configs, args.games, None)
        entries = [BotEntry(*b.split("=", 1)) for b in args.bot]
        sample = run_games(entries, schedule([e.name for e in entries], 1, ruleset=args.rules, match_seed=args.seed))[0]
        empty = measure(args, configs, args.empty_games, sample)
    finally:
        ray.shutdown()
    print(f"{args.rules}, {' vs '.join(args.bot)}, medians of {args.runs} runs, {os.cpu_count()} CPUs, "
          f"load average {load_before:.1f} before and {os.getloadavg()[0]:.1f} after; ray.init took {startup:.1f} s")
    table(f"games played ({args.games} a run):", played)
    table(f"games not played, a finished game's result sent back ({args.empty_games} a run, record of "
          f"{len(json.dumps(sample.record))} bytes): what a backend adds to every game", empty)


if __name__ == "__main__":
    main()
