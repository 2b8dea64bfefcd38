"""Our learning interfaces against what a researcher would otherwise pick (issue 27's anchors).

    .venv/bin/python benchmarks/bench_rl_anchors.py                    # 3 rulesets, 3 runs of 2 s
    .venv/bin/python benchmarks/bench_rl_anchors.py --rulesets battleline-basic --seconds 1

Every figure is random legal play with an observation and the legal actions (or mask) at
every decision, over complete games (a run plays whole games until ``--seconds`` of CPU time
have passed, its deals and resets included), in decisions per CPU second
(``time.process_time``). The targets are measured interleaved, one run of each in turn, and
each figure is the median of ``--runs`` runs, so that load on a shared machine falls on all
of them alike. What is timed:

* **rl_environment**: OpenSpiel's ``rl_environment.Environment(name)`` with its defaults
  (ours: the information-state tensor, declared by the game; ``gin_rummy`` declares only the
  observation tensor), ``env.step([random legal action])`` until the last time step. Each
  time step carries both players' tensors and legal actions, as the environment makes it.
* **plain loop**: ``state.observation_tensor(p)``, ``state.legal_actions()``,
  ``state.apply_action(a)`` on the OpenSpiel state; chance nodes sampled from
  ``chance_outcomes()`` (timed, not counted as decisions).
* **PettingZoo**: ``obs = env.last()`` (tensor and mask), a random id of
  ``np.flatnonzero(obs["action_mask"])``, ``env.step``; the default observation, and
  ``observation="information_state"``.
* **RLCard** ``gin-rummy``: ``env.step`` with a random key of ``state["legal_actions"]`` (its
  state carries the observation), until ``env.is_over()``.

The goals (issue 27): G1, rl_environment and the plain loop of each ruleset >= 0.75x the same
on ``gin_rummy``; G2, PettingZoo >= 1.25x OpenSpiel's C++ ``gin_rummy`` plain loop and >= 2.5x
RLCard's gin-rummy; G3, PettingZoo with the information state >= 0.8x its default
observation. A library that is not installed shows as such.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

RULESETS = ("battleline-basic", "battleline", "warmachine")
Game = Callable[[random.Random], int]  # plays one whole game, returns its decisions


def timed(seconds: float, play: Game, seed: int) -> float:
    """Whole games of ``play`` for at least ``seconds`` of CPU time: decisions per CPU second."""
    rng = random.Random(seed)
    decisions = 0
    start = time.process_time()
    now = start
    while now - start < seconds:
        decisions += play(rng)
        now = time.process_time()
    return decisions / (now - start)


# --- OpenSpiel ------------------------------------------------------------------------------
def openspiel_name(ruleset: str) -> str:
    if ruleset == "gin_rummy":
        return ruleset
    from frontlines.rl.openspiel import game_name

    return game_name(ruleset)


def rl_environment(ruleset: str) -> Game | None:
    try:
        from open_spiel.python import rl_environment as rl

        import frontlines.rl.openspiel  # noqa: F401  (registers our games)
    except ImportError:
        return None
    env = rl.Environment(openspiel_name(ruleset))
    env.seed(1)

    def play(rng: random.Random) -> int:
        ts = env.reset()
        steps = 0
        while not ts.last():
            obs = ts.observations
            ts = env.step([rng.choice(obs["legal_actions"][obs["current_player"]])])
            steps += 1
        return steps

    return play


def plain_loop(ruleset: str) -> Game | None:
    try:
        import pyspiel

        import frontlines.rl.openspiel  # noqa: F401
    except ImportError:
        return None
    game = pyspiel.load_game(openspiel_name(ruleset))

    def play(rng: random.Random) -> int:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            state.observation_tensor(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        return steps

    return play


# --- PettingZoo and RLCard ----------------------------------------------------------------------
def pettingzoo(ruleset: str, observation: str) -> Game | None:
    try:
        import numpy as np

        from frontlines.rl.pettingzoo import env as make
    except ImportError:
        return None
    env = make(ruleset=ruleset, observation=observation)
    seeds = random.Random(2)

    def play(rng: random.Random) -> int:
        env.reset(seed=seeds.randrange(1 << 30))
        steps = 0
        while True:
            obs, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                return steps
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            steps += 1

    return play


def rlcard_gin_rummy() -> Game | None:
    try:
        import rlcard
    except ImportError:
        return None
    env = rlcard.make("gin-rummy", config={"seed": 3})

    def play(rng: random.Random) -> int:
        state, _player = env.reset()
        steps = 0
        while not env.is_over():
            state, _player = env.step(rng.choice(list(state["legal_actions"])))
            steps += 1
        return steps

    return play


# --- the table ------------------------------------------------------------------------------------
def targets(rulesets: list[str]) -> dict[str, Game | None]:
    out: dict[str, Game | None] = {
        "rl_environment gin_rummy": rl_environment("gin_rummy"),
        "plain loop gin_rummy": plain_loop("gin_rummy"),
        "RLCard gin-rummy": rlcard_gin_rummy(),
    }
    for r in rulesets:
        out[f"rl_environment {r}"] = rl_environment(r)
        out[f"plain loop {r}"] = plain_loop(r)
        out[f"PettingZoo {r}"] = pettingzoo(r, "observation")
        out[f"PettingZoo {r} information_state"] = pettingzoo(r, "information_state")
    return out


def measure(rulesets: list[str], runs: int, seconds: float) -> dict[str, float | None]:
    games = targets(rulesets)
    rates: dict[str, list[float]] = {name: [] for name, g in games.items() if g is not None}
    for run in range(runs):  # interleaved: one run of every target, then the next
        for name, play in games.items():
            if play is not None:
                rates[name].append(timed(seconds, play, seed=run))
    return {name: statistics.median(rates[name]) if name in rates else None for name in games}


def cell(rate: float | None) -> str:
    return "not installed" if rate is None else f"{rate:,.0f}"


def ratio(a: float | None, b: float | None, goal: float) -> str:
    if a is None or b is None:
        return "—"
    r = a / b
    return f"{r:.2f}× ({'met' if r >= goal else 'not met'}: ≥ {goal}×)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rulesets", nargs="+", default=list(RULESETS))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per run and target")
    args = parser.parse_args()
    m = measure(args.rulesets, args.runs, args.seconds)
    gin_env, gin_plain, rlcard = m["rl_environment gin_rummy"], m["plain loop gin_rummy"], m["RLCard gin-rummy"]
    from frontlines.core.build import describe

    # which build ran: the compiled one (docs/performance.md) moves every figure of ours
    print(f"build {describe()}")
    print(f"decisions per CPU second, random legal play, whole games, median of {args.runs} interleaved runs"
          f" of {args.seconds:g} s\n")
    print(f"references: rl_environment gin_rummy {cell(gin_env)}; plain loop gin_rummy {cell(gin_plain)};"
          f" RLCard gin-rummy {cell(rlcard)}\n")
    print("| ruleset | rl_environment | ÷ gin_rummy's (G1) | plain loop | ÷ gin_rummy's (G1) | PettingZoo"
          " | ÷ OpenSpiel gin_rummy (G2) | ÷ RLCard (G2) | PettingZoo, information state | ÷ default (G3) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in args.rulesets:
        env, plain, pz, pzi = (m[f"rl_environment {r}"], m[f"plain loop {r}"], m[f"PettingZoo {r}"],
                               m[f"PettingZoo {r} information_state"])
        print(f"| {r} | {cell(env)} | {ratio(env, gin_env, 0.75)} | {cell(plain)} | {ratio(plain, gin_plain, 0.75)}"
              f" | {cell(pz)} | {ratio(pz, gin_plain, 1.25)} | {ratio(pz, rlcard, 2.5)} | {cell(pzi)}"
              f" | {ratio(pzi, pz, 0.8)} |")


if __name__ == "__main__":
    main()
