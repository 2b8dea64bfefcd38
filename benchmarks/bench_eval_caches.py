"""What the Battle Line family's evaluation caches earn at each size: hit rate, work time
and memory (games/battleline/formations.py: SIDE_CACHE_LIMIT for side summaries,
EVAL_CACHE_LIMIT for complete sides' scores, each per set of card rules).

    python benchmarks/bench_eval_caches.py [--sizes 1024,4096,...] [--games G] [--search-games S] [--runs R]

The work is what a server and its bots do: G games of the heuristic against itself in each
of battleline, battleline-basic, schotten-totten-tactics and medieval (the hard level),
S games of a 100-iteration ISMCTS (the expert level's search, fewer iterations) against the
heuristic in battleline, and 20,000 claim proofs (bench_proofs.py's positions), seeded so
that every size does the same work. Each size runs in a fresh process: once counting hits
(the caches replaced by counting dictionaries), then R times for the CPU seconds of the work
(plain dictionaries; the median is shown). Memory is the caches' own bytes when the work is
done (dictionaries, keys, values: sys.getsizeof, shared objects once), and per entry; a cache
never holds more than its limit, so limit x bytes per entry bounds what it can take.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

CHILD = r"""
import json, random, sys, time
sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[2])
size, games, search_games, count = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6] == "count"
from frontlines.games.battleline import formations
formations.SIDE_CACHE_LIMIT = size
formations.EVAL_CACHE_LIMIT = size
from frontlines.bots.registry import make_bot
from frontlines.core.referee import Referee
from frontlines.games import new_state
from frontlines.games.battleline.proof import prove
from bench_proofs import make_positions

hits = {"side": 0, "eval": 0}

class Counting(dict):
    kind = "eval"
    def get(self, key, default=None):
        found = dict.get(self, key, default)
        if found is not None:
            hits[self.kind] += 1
        return found

class CountingSides(Counting):
    kind = "side"

misses = {"side": 0, "eval": 0}
tables = [formations.BATTLELINE_CARDS._t, formations.SCHOTTEN_CARDS._t]
if count:
    for t in tables:
        t.side_cache, t.eval_plain, t.eval_fog = CountingSides(), Counting(), Counting()
    summarise, score_new = formations._Tables._summarise, formations._score_new
    def counted_summarise(self, side):
        misses["side"] += 1
        return summarise(self, side)
    def counted_score_new(t, mask, n, fog):
        misses["eval"] += 1
        return score_new(t, mask, n, fog)
    formations._Tables._summarise = counted_summarise
    formations._score_new = counted_score_new

def play(ruleset, specs, seed):
    bots = [make_bot(spec, seed * 2 + i) for i, spec in enumerate(specs)]
    Referee(new_state(ruleset, seed=seed)).play(bots, seed=seed)

peak = {"side": 0, "eval": 0}
def note_peak():
    for t in tables:
        peak["side"] = max(peak["side"], len(t.side_cache))
        peak["eval"] = max(peak["eval"], len(t.eval_plain) + len(t.eval_fog))

positions = make_positions(20000, 2026)
cpu = time.process_time()
for ruleset in ("battleline", "battleline-basic", "schotten-totten-tactics", "medieval"):
    for g in range(games):
        play(ruleset, ("heuristic", "heuristic"), g)
        note_peak()
for g in range(search_games):
    play("battleline", ("ismcts:iterations=100,time=60", "heuristic"), g)
    note_peak()
for claimant, opponent, capacity, fog, unseen in positions:
    prove(claimant, opponent, capacity=capacity, fog=fog, unseen_troops=unseen)
note_peak()
cpu = time.process_time() - cpu

def deep(obj, seen):
    if id(obj) in seen or (type(obj) is int and -5 <= obj <= 256) or obj is None or type(obj) is bool:
        return 0
    seen.add(id(obj))
    size = sys.getsizeof(obj)
    if isinstance(obj, dict):
        size += sum(deep(k, seen) + deep(v, seen) for k, v in obj.items())
    elif isinstance(obj, tuple):
        size += sum(deep(v, seen) for v in obj)
    return size

seen = set()
nbytes = {"side": sum(deep(t.side_cache, seen) for t in tables),
          "eval": sum(deep(t.eval_plain, seen) + deep(t.eval_fog, seen) for t in tables)}
entries = {"side": sum(len(t.side_cache) for t in tables),
           "eval": sum(len(t.eval_plain) + len(t.eval_fog) for t in tables)}
print(json.dumps({"cpu": cpu, "hits": hits, "misses": misses, "bytes": nbytes, "entries": entries, "peak": peak}))
"""


def one(size: int, games: int, search_games: int, mode: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", CHILD, str(HERE.parent / "src"), str(HERE), str(size),
                           str(games), str(search_games), mode], capture_output=True, text=True, check=True)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1024,4096,16384,65536,262144,1048576",
                        help="cache limits to try (entries, comma-separated)")
    parser.add_argument("--games", type=int, default=10, help="heuristic games per ruleset (default 10)")
    parser.add_argument("--search-games", type=int, default=2, help="ISMCTS games (default 2)")
    parser.add_argument("--runs", type=int, default=3, help="timed runs per size (default 3)")
    args = parser.parse_args()
    print(f"work: {args.games} heuristic games x 4 rulesets, {args.search_games} ISMCTS games, 20,000 proofs; "
          f"CPU s median of {args.runs}")
    print(f"{'limit':>9} | {'side hit':>8} {'peak':>7} {'KiB':>7} {'B/entry':>7} | "
          f"{'eval hit':>8} {'peak':>7} {'KiB':>7} {'B/entry':>7} | {'CPU s':>6}")
    for size in (int(s) for s in args.sizes.split(",")):
        counted = one(size, args.games, args.search_games, "count")
        cpu = statistics.median(float(one(size, args.games, args.search_games, "time")["cpu"])  # type: ignore[arg-type]
                                for _ in range(args.runs))
        row = [f"{size:>9}"]
        for kind in ("side", "eval"):
            hits = counted["hits"][kind]  # type: ignore[index]
            misses = counted["misses"][kind]  # type: ignore[index]
            entries = counted["entries"][kind]  # type: ignore[index]
            nbytes = counted["bytes"][kind]  # type: ignore[index]
            per = nbytes / entries if entries else 0.0
            row.append(f"{100 * hits / max(1, hits + misses):7.2f}% {counted['peak'][kind]:>7} "  # type: ignore[index]
                       f"{nbytes / 1024:7.0f} {per:7.0f}")
        row.append(f"{cpu:6.2f}")
        print(" | ".join(row), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
