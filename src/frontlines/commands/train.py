"""``frontlines train``: make the flag network's weights from nothing (docs/bots.md, "The
flag network"): heuristic self-play, every flag's outcome, TD(λ) self-play, and (with
``--distill-games``) the search's values on those games' decisions.

Seeded and resumable: every product is kept in ``--state`` (outside the repository) as it
is made, and a run that is stopped goes on where it stopped with the same result. Needs
numpy (``pip install 'frontlines[ai]'``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

HELP = "Train the flag network (heuristic self-play, each flag's outcome, TD(λ) self-play, the search's values); seeded and resumable."


def _default_state() -> Path:
    env = os.environ.get("FRONTLINES_TRAIN_STATE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "frontlines" / "train"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", default="battleline-basic", help="ruleset of the Battle Line family (default battleline-basic)")
    parser.add_argument("--state", type=Path, default=None,
                        help="folder keeping the games, positions and weights as they are made "
                        "(default $FRONTLINES_TRAIN_STATE or ~/.cache/frontlines/train)")
    parser.add_argument("--out", type=Path, default=None, help="write the final weights here too (e.g. to ship them)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", type=int, default=10_000, help="heuristic self-play games (default 10000)")
    parser.add_argument("--keep", type=float, default=0.25, help="share of positions kept per game (default 0.25)")
    parser.add_argument("--epochs", type=int, default=12, help="most epochs of the supervised fits (default 12)")
    parser.add_argument("--td-rounds", type=int, default=6, help="rounds of TD(λ) self-play (default 6; 0: none)")
    parser.add_argument("--td-games", type=int, default=1000, help="self-play games per round (default 1000)")
    parser.add_argument("--td-lambda", type=float, default=0.7)
    parser.add_argument("--td-temperature", type=float, default=0.3, help="softness of the self-play moves (default 0.3)")
    parser.add_argument("--td-epochs", type=int, default=2)
    parser.add_argument("--td-lr", type=float, default=1e-4, help="the TD rounds' learning rate (default 0.0001)")
    parser.add_argument("--td-v1-rounds", type=int, default=0,
                        help="make the first N TD rounds as version 1 of the pipeline did (learning rate 0.001, judged on "
                        "a tenth of all their games drawn anew), to remake weights made so (default 0)")
    parser.add_argument("--distill-games", type=int, default=0,
                        help="after the TD rounds, teach the network the search's values on the decisions of this many "
                        "first-stage games (default 0: no distillation)")
    parser.add_argument("--distill-keep", type=float, default=0.25, help="share of those decisions judged by the search (default 0.25)")
    parser.add_argument("--distill-deals", type=int, default=32, help="the search's deals per decision (default 32, master's)")
    parser.add_argument("--distill-hand", type=float, default=0.0,
                        help="share of the judged decisions judged again with the opponent's hand known, for the "
                        "positions as the search's leaves see them (default 0)")
    parser.add_argument("--distill-epochs", type=int, default=4)
    parser.add_argument("--distill-from", type=Path, default=None,
                        help="distil into these weights (the shipped ones, say) instead of training from nothing: "
                        "the first stage's games, then the search's labels and a fit, no supervised or TD stage")
    parser.add_argument("--hidden", default="64,32", help="the flag tower's two hidden layers (default 64,32)")
    parser.add_argument("--head", action="store_true",
                        help="also fit the correction head on the game results (off: it made one-ply play weaker)")
    parser.add_argument("--jobs", type=int, default=1, help="processes playing games (default 1)")
    parser.add_argument("--short", action="store_true",
                        help="a small run that checks the pipeline end to end (40 games, one short TD round)")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")


def run(args: argparse.Namespace) -> int:
    import frontlines.bots.net  # noqa: F401  (before numpy: its BLAS in one thread, see its text)

    try:
        import numpy  # noqa: F401
    except ImportError:
        print("frontlines train: needs numpy: pip install 'frontlines[ai]'", file=sys.stderr)
        return 2
    from frontlines.bots.heuristic import game_of
    from frontlines.bots.net.pipeline import Plan, run_plan

    if game_of(args.rules) != "battleline":
        print(f"frontlines train: the flag network plays the Battle Line family, not {args.rules!r}", file=sys.stderr)
        return 2
    hidden = tuple(int(h) for h in args.hidden.split(","))
    if len(hidden) != 2 or min(hidden) < 1:
        print("frontlines train: --hidden takes two sizes, e.g. 64,32", file=sys.stderr)
        return 2
    plan = Plan(
        args.rules, args.state or _default_state(), seed=args.seed, games=args.games, keep=args.keep,
        epochs=args.epochs, td_rounds=args.td_rounds, td_games=args.td_games, td_lambda=args.td_lambda,
        td_temperature=args.td_temperature, td_epochs=args.td_epochs, td_lr=args.td_lr,
        td_v1_rounds=max(0, args.td_v1_rounds), hidden=(hidden[0], hidden[1]),
        jobs=max(1, args.jobs), progress=not args.quiet, head=args.head, distill_games=max(0, args.distill_games),
        distill_keep=args.distill_keep, distill_deals=max(1, args.distill_deals), distill_epochs=max(1, args.distill_epochs),
        distill_from=args.distill_from, distill_hand=min(1.0, max(0.0, args.distill_hand)),
    )
    if plan.distill_from is not None and (not plan.distill_from.is_file() or not plan.distill_games):
        print("frontlines train: --distill-from takes a weights file and needs --distill-games", file=sys.stderr)
        return 2
    if args.short:
        plan.games, plan.shard, plan.epochs = min(plan.games, 40), 20, min(plan.epochs, 3)
        plan.td_rounds, plan.td_games, plan.td_epochs = min(plan.td_rounds, 1), min(plan.td_games, 6), 1
        plan.hidden = (16, 8)
        plan.td_shard = 2
        plan.embed = 8
        plan.distill_games, plan.distill_deals, plan.distill_shard = min(plan.distill_games, 4), min(plan.distill_deals, 4), 2
    final = run_plan(plan)
    print(f"weights: {final}")
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(final, args.out)
        print(f"written to {args.out} ({args.out.stat().st_size} bytes)")
    return 0
