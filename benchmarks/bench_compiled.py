"""The compiled build against pure Python, side by side in one run (docs/performance.md).

    .venv/bin/python benchmarks/bench_compiled.py [--runs R] [--compiled DIR] [--keep DIR] [--before DIR]

Builds the compiled copy of the package with the build hook's own function (mypyc, ``-O3``;
a few minutes) into a temporary folder, or into ``--keep DIR`` to reuse later with
``--compiled DIR``. Then it measures, in fresh processes that alternate between the two
builds (pure: a copy of ``src/`` without extensions; compiled: that copy with them), so
that a change of load on the machine falls on both alike:

* random games/s: ``bench_games.play`` (random legal actions, provable claims taken) for
  ``battleline``, ``battleline-basic`` and random War Machine games;
* samples/s: ``View.sample`` on a mid-game ``battleline`` view (``bench_games.sample_rate``);
* ISMCTS iterations/s: ``bench_ismcts.bench_search``, 300 iterations with the default
  parameters from each of 4 mid-game ``battleline`` positions.

Every rate is per CPU second of the measuring process (``time.process_time``); the table
shows the median of ``--runs`` runs per build and the ratio compiled / pure.

``--before DIR`` adds a third build to the same alternation: a compiled copy kept earlier
(``--keep``, at an older commit), shown as its own column with the ratio compiled / before,
so that a change to the compiled build is measured against the build it replaces under the
same load.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent

# (key, label, unit) of each figure, in table order
FIGURES = (
    ("games_battleline", "random games, battleline", "games/s"),
    ("games_basic", "random games, battleline-basic", "games/s"),
    ("games_warmachine", "random games, warmachine", "games/s"),
    ("samples", "View.sample, battleline", "samples/s"),
    ("ismcts", "ISMCTS, battleline", "iterations/s"),
)


def measure(games: int, samples: int, iterations: int) -> dict[str, float]:
    """Every figure once, in this process (run with the build to measure on sys.path)."""
    from bench_games import play, sample_rate
    from bench_ismcts import bench_search, positions, search_params
    from frontlines.games import new_state

    def game_rate(ruleset: str) -> float:
        play(ruleset, 999_999)  # warm-up: lookup tables, caches
        start = time.process_time()
        for seed in range(games):
            play(ruleset, seed)
        return games / (time.process_time() - start)

    def warmachine_rate() -> float:
        start = time.process_time()
        for seed in range(games):
            state, rng = new_state("warmachine", seed=seed), random.Random(seed)
            while not state.is_terminal():
                state.apply(rng.choice(state.legal_actions()))
        return games / (time.process_time() - start)

    out = {
        "games_battleline": game_rate("battleline"),
        "games_basic": game_rate("battleline-basic"),
        "games_warmachine": warmachine_rate(),
        "samples": sample_rate("battleline", samples),
    }
    views = positions("battleline", 4)
    out["ismcts"] = bench_search(views, search_params(iterations, []), 0)[0]
    return out


def compile_into(folder: Path) -> None:
    """A compiled copy of the package in ``folder`` (the build hook's function, -O3)."""
    spec = importlib.util.spec_from_file_location("hatch_build", ROOT / "hatch_build.py")
    assert spec is not None and spec.loader is not None
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    copy_package(folder)
    with tempfile.TemporaryDirectory(prefix="frontlines-mypyc-") as work:
        for path, relative in hook.compile_modules(folder, Path(work)):
            shutil.copy2(path, folder / relative)


def copy_package(folder: Path) -> None:
    shutil.copytree(ROOT / "src" / "frontlines", folder / "frontlines", dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))


def run_child(folder: Path, args: argparse.Namespace) -> tuple[str, dict[str, float]]:
    """(build, figures) measured in a fresh process importing ``frontlines`` from ``folder``."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder), str(HERE)])}
    command = [sys.executable, str(Path(__file__).resolve()), "--child", str(args.games), str(args.samples), str(args.iterations)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"measuring in {folder} failed:\n{done.stderr[-3000:]}")
    data = json.loads(done.stdout.splitlines()[-1])
    return data.pop("build"), data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5, help="runs per build; the median is shown (default 5)")
    parser.add_argument("--games", type=int, default=100, help="random games per run and game (default 100)")
    parser.add_argument("--samples", type=int, default=5000, help="View.sample calls per run (default 5000)")
    parser.add_argument("--iterations", type=int, default=300, help="ISMCTS iterations per position (default 300)")
    parser.add_argument("--compiled", type=Path, metavar="DIR", help="a compiled copy made before with --keep")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="build the compiled copy here and keep it")
    parser.add_argument("--before", type=Path, metavar="DIR", help="also measure this earlier compiled copy (made with --keep)")
    parser.add_argument("--child", nargs=3, type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        from frontlines.core.build import build

        print(json.dumps({"build": build(), **measure(*args.child)}))
        return
    with tempfile.TemporaryDirectory(prefix="frontlines-bench-") as tmp:
        pure = Path(tmp) / "pure"
        copy_package(pure)
        compiled = args.compiled
        if compiled is None:
            compiled = args.keep or Path(tmp) / "compiled"
            print(f"building the compiled copy in {compiled} (mypyc, a few minutes) …", file=sys.stderr, flush=True)
            compile_into(compiled)
        builds = [("pure", pure, "pure"), ("compiled", compiled, "compiled")]
        if args.before is not None:
            builds.insert(1, ("before", args.before, "compiled"))
        results: dict[str, list[dict[str, float]]] = {name: [] for name, _, _ in builds}
        for run in range(args.runs):
            for name, folder, kind in builds:
                print(f"\rrun {run + 1}/{args.runs}: {name} …" + " " * 10, end="", file=sys.stderr, flush=True)
                build, figures = run_child(folder, args)
                if build != kind:
                    raise SystemExit(f"{folder} runs the {build} build, not the {kind} one")
                results[name].append(figures)
        print("\r" + " " * 40 + "\r", end="", file=sys.stderr)
    print(f"Python {sys.version.split()[0]}; medians of {args.runs} runs per build, per CPU second")
    names = [name for name, _, _ in builds]  # pure, [before,] compiled
    ratios = [("compiled", "pure")] + ([("compiled", "before")] if args.before is not None else [])
    heads = [f"{a} / {b}" for a, b in ratios]
    print(f"| {'figure':44} | " + " | ".join(f"{n:>10}" for n in names) + " | " + " | ".join(f"{h:>17}" for h in heads) + " |")
    print(f"|{'-' * 46}|" + "".join(f"{'-' * 11}:|" for _ in names) + "".join(f"{'-' * 18}:|" for _ in heads))
    for key, label, unit in FIGURES:
        rate = {name: statistics.median(r[key] for r in results[name]) for name in names}
        cells = " | ".join(f"{rate[n]:10.0f}" for n in names)
        shares = " | ".join(f"{rate[a] / rate[b]:16.2f}x" for a, b in ratios)
        print(f"| {label + ' (' + unit + ')':44} | {cells} | {shares} |")


if __name__ == "__main__":
    main()
