"""Speed of the learning-library interfaces next to the raw engine (docs/research.md).

    .venv/bin/python benchmarks/bench_rl.py                 # all three rulesets, 5 runs of 2 s each
    .venv/bin/python benchmarks/bench_rl.py --rulesets warmachine --runs 3 --seconds 1

Prints, per ruleset, the median over the runs of:

* actions per second of random play: the raw engine (``legal_actions`` + ``apply``), PettingZoo
  AEC steps (``last`` + ``step``, with the observation and mask of every step, through
  PettingZoo's usual wrappers), OpenSpiel ``apply_action`` (with the legal actions; where
  ``frontlines.rl.openspiel`` and pyspiel are installed) and Gymnasium steps against the
  ``random`` bot (the agent's steps; the bot's moves happen inside them, and its own
  thinking is counted);
* each interface as a share of the raw engine's speed (the goal: at least 70 %);
* microseconds per position of one legal-move generation (the engine's, proof memos warm,
  as in play), the observation tensor (from the state, as the environments compute it;
  and from a view), the information-state tensor (from a view) and building the view.

CPU time (``time.process_time``) is measured, so other processes on the machine disturb
the figures less; wall-clock steps per second are what a user sees on an idle machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from frontlines.games import encoding, new_state
from frontlines.games.battleline.state import BattleLineState
from frontlines.games.warmachine.engine import WarMachineState

RULESETS = ("battleline-basic", "battleline", "warmachine")


def timed(seconds: float, step: Callable[[], int]) -> float:
    """Calls ``step`` (which returns how many actions it made) for about ``seconds`` of
    CPU time; actions per CPU second."""
    count = 0
    start = time.process_time()
    end = start + seconds
    now = start
    while now < end:
        count += step()
        now = time.process_time()
    return count / (now - start)


def raw_engine(ruleset: str, seconds: float) -> float:
    rng = random.Random(1)
    box = [new_state(ruleset, seed=0)]

    def step() -> int:
        state = box[0]
        if state.is_terminal():
            box[0] = new_state(ruleset, seed=rng.randrange(1 << 30))
            return 0
        state.apply(rng.choice(state.legal_actions()))
        return 1

    return timed(seconds, step)


def pettingzoo_steps(ruleset: str, seconds: float) -> float | None:
    try:
        import numpy as np

        from frontlines.rl.pettingzoo import env
    except ImportError:
        return None
    rng = random.Random(1)
    e = env(ruleset=ruleset)
    e.reset(seed=0)

    def step() -> int:
        obs, _reward, termination, truncation, _info = e.last()
        if termination or truncation:
            e.reset(seed=rng.randrange(1 << 30))
            return 0
        e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        return 1

    return timed(seconds, step)


def gymnasium_steps(ruleset: str, seconds: float) -> float | None:
    try:
        import gymnasium
        import numpy as np

        import frontlines.rl.gymnasium  # noqa: F401
    except ImportError:
        return None
    rng = random.Random(1)
    env_id = "frontlines/WarMachine-v0" if ruleset == "warmachine" else "frontlines/BattleLine-v0"
    env = gymnasium.make(env_id, ruleset=ruleset, opponent="random")
    box: list[Any] = [env.reset(seed=0)[0]]

    def step() -> int:
        obs, _reward, terminated, truncated, _info = env.step(rng.choice(np.flatnonzero(box[0]["action_mask"]).tolist()))
        box[0] = obs
        if terminated or truncated:
            box[0] = env.reset(seed=rng.randrange(1 << 30))[0]
        return 1

    return timed(seconds, step)


def openspiel_steps(ruleset: str, seconds: float) -> float | None:
    """OpenSpiel ``apply_action`` with random legal actions, per player action: the chance
    nodes (the deal, each draw's card) are played too and their time counts, but not as
    steps, so the figure compares with the raw engine's actions. None when OpenSpiel or
    frontlines.rl.openspiel is missing."""
    try:
        import pyspiel

        from frontlines.rl.openspiel import game_name
    except ImportError:
        return None
    rng = random.Random(1)
    game = pyspiel.load_game(game_name(ruleset))
    box = [game.new_initial_state()]

    def step() -> int:
        state = box[0]
        if state.is_terminal():
            box[0] = game.new_initial_state()
            return 0
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            return 0
        state.apply_action(rng.choice(state.legal_actions()))
        return 1

    return timed(seconds, step)


def positions(ruleset: str, games: int = 30) -> list[Any]:
    rng = random.Random(2)
    out = []
    for g in range(games):
        state = new_state(ruleset, seed=g)
        while not state.is_terminal():
            out.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
    return out


def per_position(ruleset: str) -> dict[str, float]:
    """Microseconds (CPU) per position of each operation, median of 5 passes."""
    enc = encoding(ruleset)
    states = positions(ruleset)
    seats = [s.current_player() for s in states]
    views = [s.view(p) for s, p in zip(states, seats, strict=True)]

    def legal() -> None:
        for s in states:
            if isinstance(s, BattleLineState):
                s.legal_cache = None  # generate afresh
                s.legal_actions()
            elif isinstance(s, WarMachineState):
                s.board.legal()

    def obs_state() -> None:
        for s, p in zip(states, seats, strict=True):
            enc.observation_tensor_of(s, p)

    def obs_view() -> None:
        for v in views:
            enc.observation_tensor(v)

    def info_view() -> None:
        for v in views:
            enc.information_state_tensor(v)

    def view() -> None:
        for s, p in zip(states, seats, strict=True):
            s.view(p)

    out = {}
    for name, f in (("legal", legal), ("obs", obs_state), ("obs_view", obs_view), ("info", info_view), ("view", view)):
        times = []
        for _ in range(5):
            start = time.process_time()
            f()
            times.append(time.process_time() - start)
        out[name] = statistics.median(times) / len(states) * 1e6
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rulesets", nargs="+", default=list(RULESETS))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per run")
    args = parser.parse_args()
    print("actions per CPU second, median of", args.runs, "runs; share of the raw engine in brackets\n")
    print("| ruleset | raw engine | PettingZoo AEC | OpenSpiel apply_action | Gymnasium vs random |")
    print("|---|---|---|---|---|")
    costs = {}
    for ruleset in args.rulesets:
        cells = []
        raw = 0.0
        for f in (raw_engine, pettingzoo_steps, openspiel_steps, gymnasium_steps):
            runs = [f(ruleset, args.seconds) for _ in range(args.runs)]
            if runs[0] is None:
                cells.append("not installed")
                continue
            rate = statistics.median(r for r in runs if r is not None)
            if f is raw_engine:
                raw = rate
                cells.append(f"{rate:,.0f}")
            else:
                cells.append(f"{rate:,.0f} ({rate / raw:.0%})")
        print(f"| {ruleset} | " + " | ".join(cells) + " |")
        costs[ruleset] = per_position(ruleset)
    print("\nmicroseconds (CPU) per position, median of 5 passes over the positions of 30 random games\n")
    print("| ruleset | legal moves | observation tensor (state) | observation tensor (view) | information state (view) | view |")
    print("|---|---|---|---|---|---|")
    for ruleset, c in costs.items():
        print(f"| {ruleset} | {c['legal']:.1f} | {c['obs']:.1f} | {c['obs_view']:.1f} | {c['info']:.1f} | {c['view']:.1f} |")


if __name__ == "__main__":
    main()
