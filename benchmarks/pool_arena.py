"""Pool the results of several ``frontlines arena --json`` files of one pairing.

A long match (the flag network's gates: 2,000 games) is played as chunks with different
``--seed`` values, so that a stopped run loses one chunk at most::

    for s in $(seq 101 110); do
      [ -f build/gate-$s.json ] || frontlines arena --rules battleline-basic --games 200 --seed $s \\
          --quiet --bot net=netply --bot heuristic=heuristic --json build/gate-$s.json
    done
    .venv/bin/python benchmarks/pool_arena.py build/gate-*.json

prints, for each pairing found, the games, wins and the first bot's score with its 95 %
Wilson interval over games, and over deals (each deal played from both seats: the
pentanomial interval, as the arena prints it).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from frontlines.arena.ratings import wilson
from frontlines.arena.results import PairedDeals


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", type=Path)
    args = ap.parse_args()
    pairs: dict[tuple[str, str], dict[str, float]] = {}
    deals: dict[tuple[str, str], PairedDeals] = {}
    seeds = []
    for path in args.files:
        data = json.loads(path.read_text())
        seeds.append(data["config"]["seed"])
        for p in data["pairs"]:
            key = (p["a"], p["b"])
            acc = pairs.setdefault(key, {"games": 0, "a_wins": 0, "b_wins": 0, "draws": 0, "errors": 0})
            for k in acc:
                acc[k] += p[k]
            penta = p.get("paired", {}).get("pentanomial")
            if penta:
                into = deals.setdefault(key, PairedDeals())
                into.pentanomial = [x + y for x, y in zip(into.pentanomial, penta, strict=True)]
    print(f"{len(args.files)} files, seeds {', '.join(str(s) for s in sorted(seeds))}")
    for (a, b), acc in pairs.items():
        score = acc["a_wins"] + 0.5 * acc["draws"]
        lo, hi = wilson(score, acc["games"])
        line = (f"{a} vs {b}: {acc['games']:.0f} games, {acc['a_wins']:.0f}-{acc['b_wins']:.0f}-{acc['draws']:.0f} "
                f"(errors {acc['errors']:.0f}), score {score / max(1, acc['games']):.1%} [{lo:.1%}, {hi:.1%}]")
        if (a, b) in deals:
            mean, dlo, dhi = deals[(a, b)].score_ci95()
            line += f"; over {deals[(a, b)].deals} deals {mean:.1%} [{dlo:.1%}, {dhi:.1%}]"
        print(line)


if __name__ == "__main__":
    main()
