"""Speed of claim proofs and formation evaluation, in-process, one core.

    python benchmarks/bench_proofs.py [--positions N] [--runs R] [--seed S]

Positions are mid-game flags built from a fixed seed: the claimant's complete side
(3 cards, 4 under Mud), the opponent's side with 0-2 cards (sometimes 3 with Mud),
20-40 cards visible on the table in all, a morale card now and then, Fog or Mud on a few
flags. Half of the claimant sides are shaped formations (wedge, phalanx, battalion,
skirmish), half are random cards, so both failing and succeeding proofs are timed.
Prints the median over the runs; the first, cold-cache run is shown separately. Rates are
given per wall-clock second and per CPU second of this process (the latter does not count
time the process spent waiting while other programs ran on a busy machine).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from frontlines.games.battleline.cards import ALEXANDER, COMPANION_CAVALRY, SHIELD_BEARERS, troop
from frontlines.games.battleline.formations import BATTLELINE_CARDS, evaluate
from frontlines.games.battleline.proof import prove

Position = tuple[list[int], list[int], int, bool, int]  # claimant, opponent, capacity, fog, unseen


def shaped_side(rng: random.Random, n: int) -> list[int]:
    """A formation a player would actually build."""
    kind = rng.choice(("wedge", "phalanx", "battalion", "skirmish"))
    colour = rng.randrange(6)
    if kind == "wedge":
        start = rng.randint(1, 11 - n)
        return [troop(colour, v) for v in range(start, start + n)]
    if kind == "phalanx":
        value = rng.randint(1, 10)
        return [troop(c, value) for c in rng.sample(range(6), n)]
    if kind == "battalion":
        return [troop(colour, v) for v in rng.sample(range(1, 11), n)]
    start = rng.randint(1, 11 - n)
    return [troop(rng.randrange(6), v) for v in range(start, start + n)]


def make_positions(count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        mud = rng.random() < 0.08
        fog = rng.random() < 0.08
        n = 4 if mud else 3
        claimant = shaped_side(rng, n) if rng.random() < 0.5 else rng.sample(range(60), n)
        if rng.random() < 0.1:
            claimant[0] = rng.choice((ALEXANDER, COMPANION_CAVALRY, SHIELD_BEARERS))
        rest = [c for c in range(60) if c not in claimant]
        rng.shuffle(rest)
        n_opp = rng.randint(0, n - 1)
        opponent = rest[:n_opp]
        if n_opp and rng.random() < 0.1:
            opponent[0] = rng.choice((ALEXANDER, COMPANION_CAVALRY, SHIELD_BEARERS))
            if opponent[0] in claimant:
                continue
        visible = len(claimant) + n_opp
        others = rest[n_opp : n_opp + max(0, rng.randint(20, 40) - visible)]
        seen = set(claimant) | set(opponent) | set(others)
        unseen = sum(1 << c for c in range(60) if c not in seen)
        out.append((claimant, opponent, n, fog, unseen))
    return out


def time_proofs(positions: list[Position]) -> tuple[float, float]:
    """(proofs per wall-clock second, proofs per CPU second of this process)."""
    wall, cpu = time.perf_counter(), time.process_time()
    for claimant, opponent, capacity, fog, unseen in positions:
        prove(claimant, opponent, capacity=capacity, fog=fog, unseen_troops=unseen)
    return len(positions) / (time.perf_counter() - wall), len(positions) / (time.process_time() - cpu)


def time_evaluate(sides: list[tuple[list[int], bool]]) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    for side, fog in sides:
        evaluate(side, fog)
    return len(sides) / (time.perf_counter() - wall), len(sides) / (time.process_time() - cpu)


def clear_caches() -> None:
    t = BATTLELINE_CARDS._t
    t.eval_plain.clear()
    t.eval_fog.clear()
    t.side_cache.clear()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    positions = make_positions(args.positions, args.seed)
    claimable = sum(prove(c, o, capacity=n, fog=f, unseen_troops=u).claimable for c, o, n, f, u in positions)
    clear_caches()
    cold = time_proofs(positions)
    warm = [time_proofs(positions) for _ in range(args.runs)]
    sides = [(c, f) for c, _, _, f, _ in positions]
    evals = [time_evaluate(sides) for _ in range(args.runs)]

    def med(values: list[tuple[float, float]], i: int) -> str:
        return f"{statistics.median(v[i] for v in values):,.0f}"

    print(f"positions: {len(positions)} (seed {args.seed}), claimable: {claimable / len(positions):.0%}")
    print(f"proofs/s: {med(warm, 0)} wall, {med(warm, 1)} CPU (median of {args.runs} runs; "
          f"first cold-cache run {cold[0]:,.0f} wall, {cold[1]:,.0f} CPU)")
    print(f"evaluate/s: {med(evals, 0)} wall, {med(evals, 1)} CPU (median of {args.runs} runs, complete sides)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
