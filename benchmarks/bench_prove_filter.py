"""Speed of ``frontlines prove`` as a filter: JSON lines in, JSON lines out (the sentence of
each proof included), in a fresh process per run, one core.

    python benchmarks/bench_prove_filter.py [--lines N] [--runs R] [--src DIR ...]

The requests are bench_proofs.py's positions (same seed): complete claimant sides, 0-2
opponent cards, 20-40 cards on the table, Fog or Mud now and then. Each run starts a child
Python that imports the filter from a source tree and answers every line from memory
(start-up and reading the input not timed); the figure is lines per CPU second of that
child, the median over the runs. With several --src trees (say a checkout of an older
commit: git archive OLD src | tar -x -C /tmp/old) the trees run in turn, A B A B ..., and the
ratio to the first is taken run by run, so a machine whose speed drifts still compares fairly.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_proofs import make_positions  # noqa: E402
from frontlines.games.battleline.cards import card_code  # noqa: E402

CHILD = """
import io, sys, time
sys.path.insert(0, sys.argv[1])
from frontlines.commands.prove import serve
text = sys.stdin.read()
out = io.StringIO()
cpu = time.process_time()
serve(io.StringIO(text), out)
cpu = time.process_time() - cpu
print(cpu, out.getvalue().count("\\n"))
"""


def requests(count: int, seed: int) -> str:
    lines = []
    for claimant, opponent, capacity, fog, unseen in make_positions(count, seed):
        visible = [card_code(c) for c in range(60) if not unseen >> c & 1 and c not in claimant and c not in opponent]
        lines.append(json.dumps({"claimant": [card_code(c) for c in claimant], "opponent": [card_code(c) for c in opponent],
                                 "fog": fog, "mud": capacity == 4, "visible": visible}))
    return "\n".join(lines) + "\n"


def one_run(src: str, text: str, count: int) -> float:
    done = subprocess.run([sys.executable, "-c", CHILD, src], input=text, capture_output=True, text=True, check=True)
    cpu, answered = done.stdout.split()
    assert int(answered) == count, done.stdout
    return count / float(cpu)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--src", action="append", help="source tree to time (repeatable; default this checkout's src)")
    args = parser.parse_args()
    trees = args.src or [str(HERE.parent / "src")]
    text = requests(args.lines, args.seed)
    rates: dict[str, list[float]] = {t: [] for t in trees}
    for _ in range(args.runs):
        for tree in trees:
            rates[tree].append(one_run(tree, text, args.lines))
    print(f"{args.lines} request lines (seed {args.seed}), median of {args.runs} runs, lines per CPU second:")
    first = trees[0]
    for tree in trees:
        line = f"  {statistics.median(rates[tree]):10,.0f}  {tree}"
        if tree != first:
            ratio = statistics.median(b / a for a, b in zip(rates[first], rates[tree], strict=True))
            line += f"  ({ratio:.3f} x the first, run by run)"
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
