"""Random full games per second for every Battle Line family ruleset, and view samples per second.

Rates are per CPU second (time.process_time), so other load on the machine skews them less.
Each game plays uniformly random legal actions, except that a provable claim is always
made (the "claim whatever is provable" player of the performance targets). Prints the
median of several runs. Then, per ruleset, ``View.sample`` (one determinisation, what
search does every iteration) per CPU second on a mid-game view, 40 random actions in.
Usage::

    .venv/bin/python benchmarks/bench_games.py [--games N] [--runs R] [--ruleset NAME ...]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from frontlines.games import new_state
from frontlines.games.battleline.rules import RULESETS
from frontlines.games.battleline.state import CLAIM_BASE, PASS

TARGETS = {"battleline-basic": 1000, "battleline": 500}


def play(ruleset: str, seed: int) -> int:
    """One random game (claims first); returns the number of actions."""
    state = new_state(ruleset, seed=seed)
    rng = random.Random(seed)
    n = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        first = legal[0]  # claims are listed first
        state.apply(first if CLAIM_BASE <= first < PASS else rng.choice(legal))  # type: ignore[operator]
        n += 1
    return n


def run(ruleset: str, games: int, seed: int) -> tuple[float, float]:
    start = time.process_time()
    actions = sum(play(ruleset, seed + i) for i in range(games))
    elapsed = time.process_time() - start
    return games / elapsed, actions / games


def sample_rate(ruleset: str, count: int) -> float:
    """View.sample calls per CPU second on a mid-game view of the player to move."""
    state = new_state(ruleset, seed=1)
    rng = random.Random(1)
    for _ in range(40):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    view = state.view(state.current_player())
    start = time.process_time()
    for k in range(count):
        view.sample(random.Random(k))
    return count / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--ruleset", action="append")
    args = parser.parse_args()
    names = args.ruleset or [r.name for r in RULESETS]
    for name in names:
        run(name, max(1, args.games // 5), 999_999)  # warm-up: lookup tables, caches
        rates = []
        lengths = []
        for r in range(args.runs):
            rate, length = run(name, args.games, 1000 * r)
            rates.append(rate)
            lengths.append(length)
        median = statistics.median(rates)
        target = TARGETS.get(name)
        mark = "" if target is None else f"  target >= {target}: {'ok' if median >= target else 'MISSED'}"
        print(f"{name:26} {median:8.0f} games/s  ({statistics.mean(lengths):.0f} actions/game, "
              f"median of {args.runs} runs x {args.games} games){mark}")
    for name in names:
        rates = [sample_rate(name, 2000) for _ in range(args.runs)]
        print(f"{name:26} {statistics.median(rates):8.0f} view samples/s  (median of {args.runs} runs x 2000)")


if __name__ == "__main__":
    main()
