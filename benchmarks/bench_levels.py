"""CPU seconds per decision of bot specs (the levels by default), per ruleset, and memory.

    .venv/bin/python benchmarks/bench_levels.py [--spec SPEC ...] [--ruleset NAME ...] [--positions P] [--runs R]

Positions: the player to move in seeded heuristic self-play games, at a fifth, half and four
fifths of each game's decisions, ``--positions`` per ruleset. Each spec decides every position once per run (a fresh bot, so no cache carries over
from one run to the next); a run's figure is the median and the largest CPU time of one
decision (``time.process_time``: other load on the machine skews it less than wall time).
The medians of ``--runs`` runs are printed, then the peak resident memory of the process
(``ru_maxrss``; every spec in one process, so run one spec alone to read its own).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time

from frontlines.bots import make_bot
from frontlines.bots.heuristic import HeuristicBot
from frontlines.bots.levels import LEVELS, level_spec
from frontlines.core.game import View
from frontlines.games import new_state

STAGES = (0.2, 0.5, 0.8)  # shares of a game's decisions


def positions(ruleset: str, count: int) -> list[View]:
    """Views of the player to move with a choice in seeded heuristic games, at each of the
    stages (a share of that game's decisions: a War Machine game is some 40 actions, a
    Battle Line game twice that), ``count`` in all."""
    out: list[View] = []
    seed = 0
    while len(out) < count:
        state = new_state(ruleset, seed=seed)
        bot = HeuristicBot(seed=seed)
        choices: list[View] = []
        while not state.is_terminal():
            player = state.current_player()
            assert player is not None
            view = state.clone().view(player)  # a copy: the game goes on below
            if len(view.legal_actions()) > 1:
                choices.append(view)
            state.apply(bot.choose(view))
        seed += 1
        out += [choices[int(share * (len(choices) - 1))] for share in STAGES if choices]
    return out[:count]


def timings(spec: str, views: list[View]) -> tuple[float, float]:
    """(median, largest) CPU seconds of one decision of ``spec`` over ``views``."""
    spent: list[float] = []
    for i, view in enumerate(views):
        bot = make_bot(spec, seed=i)
        try:
            bot.new_game(view.ruleset, view.viewer or 0, i)
            began = time.process_time()
            bot.choose(view)
            spent.append(time.process_time() - began)
        finally:
            bot.close()
    return statistics.median(spent), max(spent)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--spec", action="append", help="a bot spec or level (repeatable; default: the levels expert and master, "
                        "each with its spec for the ruleset)")
    parser.add_argument("--ruleset", action="append", help="a ruleset (repeatable; default: the Battle Line family and War Machine)")
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    specs = args.spec or ["expert", "master"]
    rulesets = args.ruleset or ["battleline", "battleline-basic", "schotten-totten", "medieval", "warmachine"]
    print(f"{'ruleset':<18} {'spec':<56} {'median s':>9} {'largest s':>10}")
    for ruleset in rulesets:
        views = positions(ruleset, args.positions)
        for spec in specs:
            runs = [timings(spec, views) for _ in range(args.runs)]
            median = statistics.median(r[0] for r in runs)
            largest = statistics.median(r[1] for r in runs)
            label = f"{spec} = {level_spec(spec, ruleset)}" if spec in LEVELS else spec
            print(f"{ruleset:<18} {label:<56} {median:9.3f} {largest:10.3f}", flush=True)
    print(f"peak resident memory: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
