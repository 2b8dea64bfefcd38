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
pentanomial interval, as the arena prints it), with the pentanomial counts.

``--paired-with OTHER...`` compares with another run of the same chunks (the same seeds,
so the same deals and seats, the first bot named alike: new weights against old ones): the
first bot's wins per chunk in both, and the difference of its score with a 95 % interval
over the chunks (Student's t) and over the deals (each deal's two games against the same
deal's two in the other run).

``--sprt elo0=108,elo1=191,alpha=0.05,beta=0.05`` (the arena's ``--sprt`` syntax) adds the
arena's SPRT (``frontlines.arena.sprt``) over the pooled pentanomial counts, so that a
head-to-head played chunk by chunk stops once it decides (``--decided``: print nothing, exit
0 when every pairing found has decided, else 1; a file that does not exist is skipped) and a
stopped run keeps every finished chunk::

    for s in $(seq 7101 7120); do
      .venv/bin/python benchmarks/pool_arena.py --sprt elo0=108,elo1=191 --decided build/st-*.json && break
      frontlines arena --rules schotten-totten --games 20 --seed $s --quiet \
          --bot master=pimc:net=1 --bot hard=heuristic --json build/st-$s.json
    done
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from frontlines.arena.ratings import mean_ci95, wilson
from frontlines.arena.results import PairedDeals
from frontlines.arena.sprt import parse_sprt


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--paired-with", nargs="+", type=Path, default=[], help="the other run's files (same seeds)")
    ap.add_argument("--sprt", metavar="SPEC", help="the arena's SPRT over the pooled pentanomial counts, e.g. elo0=108,elo1=191")
    ap.add_argument("--decided", action="store_true", help="with --sprt: no output; exit 0 when every pairing has decided")
    args = ap.parse_args(argv)
    if args.decided and not args.sprt:
        ap.error("--decided needs --sprt")
    if args.paired_with:
        paired(args.files, args.paired_with)
        return 0
    pairs: dict[tuple[str, str], dict[str, float]] = {}
    deals: dict[tuple[str, str], PairedDeals] = {}
    seeds = []
    # with --decided, a pattern that matched no file yet (the first chunk) counts as nothing played
    for path in [p for p in args.files if p.exists()] if args.decided else args.files:
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
    if args.decided:
        decisions = []
        for key in pairs:
            test = parse_sprt(args.sprt)
            test.counts = [float(c) for c in deals[key].pentanomial] if key in deals else test.counts
            decisions.append(test.decision() if sum(test.counts) else None)
        return 0 if decisions and all(decisions) else 1
    print(f"{len(args.files)} files, seeds {', '.join(str(s) for s in sorted(seeds))}")
    for (a, b), acc in pairs.items():
        score = acc["a_wins"] + 0.5 * acc["draws"]
        lo, hi = wilson(score, acc["games"])
        line = (f"{a} vs {b}: {acc['games']:.0f} games, {acc['a_wins']:.0f}-{acc['b_wins']:.0f}-{acc['draws']:.0f} "
                f"(errors {acc['errors']:.0f}), score {score / max(1, acc['games']):.1%} [{lo:.1%}, {hi:.1%}]")
        if (a, b) in deals:
            mean, dlo, dhi = deals[(a, b)].score_ci95()
            line += (f"; over {deals[(a, b)].deals} deals {mean:.1%} [{dlo:.1%}, {dhi:.1%}], "
                     f"pentanomial {deals[(a, b)].pentanomial}")
        print(line)
        if args.sprt and (a, b) in deals:
            test = parse_sprt(args.sprt)
            test.counts = [float(c) for c in deals[(a, b)].pentanomial]
            print(f"  SPRT {a} vs {b} (elo0={test.elo0:g}, elo1={test.elo1:g}, alpha={test.alpha:g}, beta={test.beta:g}): "
                  f"LLR {test.llr:+.3f} in [{test.lower:.3f}, {test.upper:.3f}]: {test.decision() or 'undecided'}")
    return 0


def _deal_wins(path: Path) -> tuple[int, str, dict[int, float]]:
    """(seed, first bot, its wins per deal) of one ``--json`` file."""
    data = json.loads(path.read_text())
    bot = data["pairs"][0]["a"]
    wins: dict[int, float] = {}
    for g in data["games"]:
        won = 0.5 if g["winner"] is None else float(g["players"][g["winner"]] == bot)
        wins[g["deal"]] = wins.get(g["deal"], 0.0) + won
    return data["config"]["seed"], bot, wins


def paired(files: list[Path], others: list[Path]) -> None:
    """The first bot's score in ``files`` against ``others``, chunk by chunk and deal by deal."""
    mine = {seed: (bot, wins) for seed, bot, wins in map(_deal_wins, files)}
    theirs = {seed: (bot, wins) for seed, bot, wins in map(_deal_wins, others)}
    seeds = sorted(set(mine) & set(theirs))
    if not seeds:
        raise SystemExit("pool_arena: no seed in both runs")
    chunk_diffs: list[float] = []
    deal_diffs: list[float] = []
    for seed in seeds:
        (bot, a), (other_bot, b) = mine[seed], theirs[seed]
        if bot != other_bot or set(a) != set(b):
            raise SystemExit(f"pool_arena: seed {seed}: not the same bot ({bot}, {other_bot}) or deals")
        games = 2 * len(a)
        print(f"seed {seed}: {bot} won {sum(a.values()):g} of {games} against {sum(b.values()):g}")
        chunk_diffs.append((sum(a.values()) - sum(b.values())) / games)
        deal_diffs += [(a[d] - b[d]) / 2 for d in a]
    mean, lo, hi = mean_ci95(chunk_diffs, student=True)
    print(f"{len(seeds)} chunks: score {mean:+.2%} [{lo:+.2%}, {hi:+.2%}] over chunks (t, 95 %)", end="")
    mean, lo, hi = mean_ci95(deal_diffs)
    print(f"; over {len(deal_diffs)} deals {mean:+.2%} [{lo:+.2%}, {hi:+.2%}]")


if __name__ == "__main__":
    raise SystemExit(main())
