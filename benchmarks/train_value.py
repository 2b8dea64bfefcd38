"""Regenerate the learned evaluation's data and weights from scratch (frontlines.bots.training).

    .venv/bin/python benchmarks/train_value.py                 # the shipped weights
    .venv/bin/python benchmarks/train_value.py --short         # a quick check that it learns
    .venv/bin/python benchmarks/train_value.py --jobs 2 --out /tmp/value.npz

Seeded: the same options give the same data and the same weights. The self-play positions
are kept in ``--data`` (a folder, in shards of 100 games a ruleset): a stopped run resumes
where it stopped, and the network can be retrained without replaying the games. Needs
numpy (``frontlines[ai]``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from frontlines.bots.learned import WEIGHTS_FILE
from frontlines.bots.training import generate, generate_shards, train


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rulesets", default="battleline,battleline-basic")
    ap.add_argument("--games", type=int, default=1400, help="self-play games per ruleset")
    ap.add_argument("--keep", type=float, default=0.5, help="chance that a turn's start is kept as a position")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1, help="processes playing the games")
    ap.add_argument("--hidden", default="32", help="hidden layer sizes")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--lr", type=float, default=1e-3, help="Adam's step size")
    ap.add_argument("--decay", type=float, default=1e-2, help="weight decay")
    ap.add_argument("--data", type=Path, default=Path("build/value-data"), help="folder keeping the positions (reused when there)")
    ap.add_argument("--out", type=Path, default=WEIGHTS_FILE)
    ap.add_argument("--short", action="store_true", help="a small run (40 games a ruleset, 8 epochs), written to --out only if given")
    args = ap.parse_args(argv)
    rulesets = [r for r in args.rulesets.split(",") if r]
    if args.short:
        args.games, args.epochs = min(args.games, 40), min(args.epochs, 8)
        if "--out" not in (argv if argv is not None else sys.argv[1:]):
            args.out = None
    started = time.monotonic()
    if args.short:
        data = generate(rulesets, args.games, args.seed, args.keep, args.jobs)
    else:
        data = generate_shards(args.data, rulesets, args.games, args.seed, args.keep, args.jobs)
    played = time.monotonic() - started
    hidden = tuple(int(h) for h in args.hidden.split(","))
    meta = {"games": args.games, "seed": args.seed, "keep": args.keep, "positions": len(data.y), "decay": args.decay}
    model, report = train(data, args.seed, hidden, args.epochs, args.lr, args.decay, meta=meta)
    for line in report.lines():
        print(line)
    print(f"self-play {played:.0f}s, training {time.monotonic() - started - played:.0f}s")
    if args.out is not None:
        model.save(args.out)
        print(f"weights written to {args.out} ({args.out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
