"""Random War Machine games per second (median of several runs).

    .venv/bin/python benchmarks/bench_warmachine.py [--games 2000] [--runs 5] [--views]

Each game is dealt from its own seed and played to the end with uniformly random legal
actions through the public State interface (legal_actions + apply). ``--views`` also
builds the mover's view and one sample per action, as a search bot would. Wall-clock and
CPU-time rates are both printed: on a shared, loaded machine the CPU rate is the steadier one.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from frontlines.games.warmachine import MODULE


def run(games: int, seed: int, views: bool) -> tuple[float, float, int]:
    """(games per wall-clock second, games per CPU second, actions)."""
    rng = random.Random(seed)
    actions = 0
    start = time.perf_counter()
    cpu = time.process_time()
    for g in range(games):
        s = MODULE.new_game(seed=seed * 1_000_003 + g)
        while not s.is_terminal():
            legal = s.legal_actions()
            if views:
                v = s.view(s.current_player())
                v.sample(rng)
            s.apply(rng.choice(legal))
            actions += 1
    return games / (time.perf_counter() - start), games / max(1e-9, time.process_time() - cpu), actions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--views", action="store_true", help="also build a view and a sample per action")
    args = ap.parse_args()
    rates: list[float] = []
    cpu_rates: list[float] = []
    actions = 0
    for r in range(args.runs):
        rate, cpu_rate, actions = run(args.games, r, args.views)
        rates.append(rate)
        cpu_rates.append(cpu_rate)
    print(f"warmachine random games/s: {statistics.median(rates):.0f} wall, {statistics.median(cpu_rates):.0f} CPU "
          f"(median of {args.runs} runs of {args.games} games; {actions / args.games:.1f} actions/game; "
          f"wall runs {', '.join(f'{x:.0f}' for x in rates)})"
          + (" [with a view and a sample per action]" if args.views else ""))


if __name__ == "__main__":
    main()
