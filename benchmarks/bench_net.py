"""Speed of the flag network (frontlines.bots.net): what one evaluation costs.

    .venv/bin/python benchmarks/bench_net.py                       # battleline-basic, the shipped weights
    .venv/bin/python benchmarks/bench_net.py --ruleset battleline --runs 7
    .venv/bin/python benchmarks/bench_net.py --weights FILE        # other weights (random ones if none ship)

Positions come from heuristic self-play (seeded). Figures, CPU time per position, median
of ``--runs`` runs (each run over every position):

* facts cold: the inputs of a position with the per-side caches emptied first (every
  formation search done afresh: a position unlike any before it);
* facts warm: the same positions again (a search's leaves share most flags);
* facts of leaves: a search's leaves as pimc makes them: from each position, ``--deals``
  deals sampled from the mover's view, in each the heuristic's move and the deal's own
  draw (the leaves share the table and differ in the card drawn), caches emptied per
  position;
* forward single: the numpy pass for one position at a time;
* forward batch: one pass over ``--batch`` positions, per position;
* value (single): ``Evaluator.value`` (facts + forward) leaf by leaf, warm;
* afterstates: ``Evaluator.afterstates`` of every legal move of a decision, per move
  (copy, apply, facts, one batch);
* netply decision: one move of the one-ply bot.

Today's cut-off evaluation (``BattleLinePolicy.evaluate``, ten sampled futures) is timed
on the same positions for comparison.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path
from typing import cast

from frontlines.bots.heuristic import HeuristicBot, policy_for
from frontlines.bots.net import features
from frontlines.bots.net.model import FlagNet, stack
from frontlines.bots.net.player import NetPlyBot
from frontlines.bots.net.value import Evaluator, evaluator
from frontlines.core.build import describe
from frontlines.games import new_state
from frontlines.games.battleline.codes import PLAY
from frontlines.games.battleline.state import BattleLineState


def positions(ruleset: str, games: int, seed: int) -> list[tuple[BattleLineState, int]]:
    out: list[tuple[BattleLineState, int]] = []
    rng = random.Random(seed)
    for g in range(games):
        state = cast(BattleLineState, new_state(ruleset, seed=seed + g))
        bots = [HeuristicBot(seed=g), HeuristicBot(seed=g + 1)]
        while not state.is_terminal():
            player = state.current_player()
            assert player is not None
            if state.phase == PLAY and rng.random() < 0.3:
                out.append((state.clone(), player))
            state.apply(bots[player].choose(state.view(player)))
    return out


def search_leaves(items: list[tuple[BattleLineState, int]], deals: int, seed: int) -> list[list[tuple[BattleLineState, int]]]:
    """For each position, ``deals`` leaves: a deal sampled from the mover's view, the
    heuristic's move in it, then the deal's draw (a card that differs from deal to deal)."""
    rng = random.Random(seed)
    out = []
    for state, p in items:
        view = state.view(p)
        move = HeuristicBot(seed=seed).choose(view)
        group = []
        for _ in range(deals):
            deal = cast(BattleLineState, view.sample(rng))
            deal.apply(move)
            while not deal.is_terminal() and deal.current_player() == p and deal.phase != PLAY:
                deal.apply(deal.legal_actions()[0])  # the draw (or what the move asks first)
            if not deal.is_terminal():
                group.append((deal, p))
        out.append(group)
    return out


def clear_caches() -> None:
    for cache in (features._MINE, features._THEIRS, features._ROWS, features._FITS, features._CONTEXT, features._MASKS, features._BEST):
        cache.clear()


def per_item(fn: object, items: list[object], runs: int) -> float:
    """Median over ``runs`` of the CPU seconds per item of ``fn(item)`` over ``items``."""
    times = []
    for _ in range(runs):
        start = time.process_time()
        for item in items:
            fn(item)  # type: ignore[operator]
        times.append((time.process_time() - start) / len(items))
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ruleset", default="battleline-basic")
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--batch", type=int, default=50)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--weights", type=Path, default=None)
    ap.add_argument("--deals", type=int, default=16, help="leaves a position for 'facts of leaves' (default 16)")
    args = ap.parse_args()
    if args.weights is not None:
        ev = Evaluator(FlagNet.load(args.weights))
    else:
        found = evaluator(args.ruleset)
        ev = found if found is not None else Evaluator(FlagNet.fresh(1, meta={"rulesets": [args.ruleset]}))
    items = positions(args.ruleset, args.games, args.seed)
    print(f"build {describe()}; {args.ruleset}: {len(items)} positions, median of {args.runs} runs, CPU time")

    def cold(item: tuple[BattleLineState, int]) -> None:
        clear_caches()
        features.facts(item[0], item[1])

    rows: list[tuple[str, float]] = []
    rows.append(("facts cold", per_item(cold, items, args.runs)))  # type: ignore[arg-type]
    rows.append(("facts warm", per_item(lambda it: features.facts(it[0], it[1]), items, args.runs)))  # type: ignore[arg-type,index]
    leaves = search_leaves(items, args.deals, args.seed)
    leaf_times = []
    for _ in range(args.runs):
        start = time.process_time()
        for group in leaves:
            clear_caches()
            for leaf, p in group:
                features.facts(leaf, p)
        leaf_times.append((time.process_time() - start) / sum(len(g) for g in leaves))
    rows.append((f"facts of leaves ({args.deals} deals: a move and its draw)", statistics.median(leaf_times)))
    got = [features.facts(s, p) for s, p in items]
    rows.append(("forward single", per_item(lambda f: ev.net.forward(stack([f])), got, args.runs)))  # type: ignore[arg-type,list-item]
    batches = [got[i : i + args.batch] for i in range(0, len(got) - args.batch + 1, args.batch)] or [got]
    batch_times = []
    for _ in range(args.runs):
        start = time.process_time()
        for b in batches:
            ev.net.forward(stack(b))
        batch_times.append((time.process_time() - start) / sum(len(b) for b in batches))
    rows.append((f"forward batch of {len(batches[0])}", statistics.median(batch_times)))
    rows.append(("value (single, warm)", per_item(lambda it: ev.value(it[0], it[1]), items, args.runs)))  # type: ignore[arg-type,index]
    policy = policy_for(args.ruleset)
    rows.append(("today's evaluation (10 futures)", per_item(lambda it: policy.evaluate(it[0], it[1]), items, args.runs)))  # type: ignore[arg-type,index]
    decisions = items[:: max(1, len(items) // 20)]
    moves = sum(len(s.legal_actions()) for s, _ in decisions)
    after_times = []
    for _ in range(args.runs):
        clear_caches()
        start = time.process_time()
        for s, p in decisions:
            ev.afterstates(s, p, s.legal_actions())
        after_times.append((time.process_time() - start) / moves)
    rows.append((f"afterstates (per move, {moves / len(decisions):.0f} moves a decision, cold)", statistics.median(after_times)))
    bot = NetPlyBot(seed=1)
    bot._evaluator = ev  # the evaluator timed above
    bot._ruleset = args.ruleset
    rows.append(("netply decision", per_item(lambda it: bot.choose(it[0].view(it[1])), decisions, args.runs)))  # type: ignore[arg-type,index]
    for name, seconds in rows:
        print(f"{name:60s} {seconds * 1e6:10.1f} us")


if __name__ == "__main__":
    main()
