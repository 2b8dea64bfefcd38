"""ISMCTS iterations per second per ruleset, and heuristic moves per second.

    .venv/bin/python benchmarks/bench_ismcts.py [--iterations N] [--runs R] [--positions P] [--ruleset NAME ...]
        [--option KEY=VALUE ...]

For each ruleset, ``--positions`` mid-game positions are reached by letting the heuristic
play from fixed seeds (20 actions into the game); from each, ISMCTS runs ``--iterations``
iterations with its default parameters, in one process. The figure per run is total
iterations over total CPU seconds (time.process_time, so other load on the machine skews
it less); the median of ``--runs`` runs is printed with the wall-clock rate beside it.
Heuristic moves/s is measured on the same positions (full heuristic decision per move).
``--option`` sets a search parameter (any ``SearchParams`` field, as in ``ismcts:KEY=VALUE``),
e.g. ``--option eval_hand=1`` to time that option against a run without it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from frontlines.bots import registry
from frontlines.bots.heuristic import HeuristicBot, policy_for
from frontlines.bots.ismcts import SearchParams, search
from frontlines.core.game import View
from frontlines.games import all_rulesets, new_state

PLIES = 20


def positions(ruleset: str, count: int, plies: int = PLIES) -> list[View]:
    """Views of the player to move, ``plies`` heuristic actions into seeded games."""
    out: list[View] = []
    seed = 0
    while len(out) < count:
        state = new_state(ruleset, seed=seed)
        bot = HeuristicBot(seed=seed)
        for _ in range(plies):
            if state.is_terminal():
                break
            player = state.current_player()
            assert player is not None
            state.apply(bot.choose(state.view(player)))
        seed += 1
        player = state.current_player()
        if player is not None and len(state.view(player).legal_actions()) > 1:
            out.append(state.view(player))
    return out


def search_params(iterations: int, options: list[str]) -> SearchParams:
    """Default params with an iteration budget and ``KEY=VALUE`` overrides, read as the
    ``ismcts:`` bot spec reads its options."""
    given: dict[str, str] = {}
    for option in options:
        key, sep, text = option.partition("=")
        if not sep or key in ("time", "iterations"):
            raise SystemExit(f"--option {option!r}: want KEY=VALUE with KEY a search parameter other than time and iterations")
        given[key] = text
    try:
        return registry.search_params({**given, "iterations": str(iterations)})
    except ValueError as error:
        raise SystemExit(f"--option: {error}") from None


def bench_search(views: list[View], params: SearchParams, seed: int) -> tuple[float, float]:
    """(iterations per CPU second, per wall second) over all ``views``."""
    cpu, wall = time.process_time(), time.perf_counter()
    done = 0
    for i, view in enumerate(views):
        done += search(view, params, random.Random(seed + i)).iterations
    return done / (time.process_time() - cpu), done / (time.perf_counter() - wall)


def bench_heuristic(views: list[View], repeat: int) -> float:
    """Heuristic decisions per CPU second."""
    bot = HeuristicBot(seed=0)
    cpu = time.process_time()
    for _ in range(repeat):
        for view in views:
            bot.choose(view)
    return repeat * len(views) / (time.process_time() - cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--iterations", type=int, default=300, help="ISMCTS iterations per position")
    parser.add_argument("--runs", type=int, default=3, help="runs per ruleset; the median is shown")
    parser.add_argument("--positions", type=int, default=4, help="positions per ruleset")
    parser.add_argument("--ruleset", action="append", help="only these rulesets (repeatable)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a search parameter (repeatable)")
    args = parser.parse_args()
    params = search_params(args.iterations, args.option)
    names = args.ruleset or [r.name for r in all_rulesets()]
    print(f"{'ruleset':26} {'ISMCTS it/s (cpu)':>18} {'(wall)':>8} {'heuristic moves/s':>18}")
    for name in names:
        policy_for(name)  # import and warm the policy outside the timing
        views = positions(name, args.positions)
        search_runs = [bench_search(views, params, run) for run in range(args.runs)]
        cpu = statistics.median(r[0] for r in search_runs)
        wall = statistics.median(r[1] for r in search_runs)
        moves = statistics.median(bench_heuristic(views, 5) for _ in range(args.runs))
        print(f"{name:26} {cpu:18.0f} {wall:8.0f} {moves:18.0f}", flush=True)


if __name__ == "__main__":
    main()
