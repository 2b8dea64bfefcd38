"""Speed of the learning-library interfaces next to the raw engine (docs/research.md).

    .venv/bin/python benchmarks/bench_rl.py                 # all three rulesets, 5 runs of 2 s each
    .venv/bin/python benchmarks/bench_rl.py --rulesets warmachine --runs 3 --seconds 1

Every figure is random play with the same random source, counted in actions per CPU second
(``time.process_time``: other processes on a shared machine disturb it less than wall-clock
time), the median of ``--runs`` runs; all in one run of this script, so that they compare:

* **raw engine**: the loop ``state.apply(rng.choice(state.legal_actions()))`` on the engine
  state, a new deal when a game ends (dealing is timed, not counted as a step). This is the
  least any interface must do per action: list the legal actions, choose one, apply it.
* **PettingZoo AEC**: ``obs = env.last()`` (the observation tensor and the action mask of
  the agent to move), a random choice among ``np.flatnonzero(obs["action_mask"])``,
  ``env.step(action)``; ``env.reset(seed)`` when the game ends (timed, not counted).
* **PettingZoo without observing**: the same, but the action chosen from the engine's
  legal actions and no ``last()``: what the AEC API costs without observations.
* **OpenSpiel** ``apply_action`` of a random one of ``state.legal_actions()``, per player
  action: the chance nodes (the deal, each drawn card) are played too and their time
  counts, but not as steps, so the figure compares with the raw engine's actions.
* **Gymnasium** against ``random``: ``env.step`` with a random id among the mask of the
  last observation. Each step also plays the opponent's moves. Three figures: agent steps
  per second; engine actions per second (the agent's and the opponent's); and engine
  actions per second *without the opponent's own cost* (building its view and its
  ``choose``, the price of asking any bot; the engine still applies its moves), which is
  what the interface costs next to the raw engine. The opponent's share of the time is
  printed too.

Then microseconds (CPU) per position, each operation timed where an environment does it, at
every position of random games played in place (the timer's own cost subtracted): one
legal-move generation (the engine's, as in play), the observation tensor kept up to date by
a live observation (what the environments use), the observation tensor built afresh from
the state, building the player's view, and the information-state tensor from that view.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from frontlines.games import encoding, new_state

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


class Timed:
    """Adds up the CPU time of the calls to ``ask``."""

    def __init__(self, ask: Callable[..., Any]) -> None:
        self.ask = ask
        self.seconds = 0.0

    def __call__(self, *args: Any) -> Any:
        start = time.process_time()
        out = self.ask(*args)
        self.seconds += time.process_time() - start
        return out


def pettingzoo_play(ruleset: str, seconds: float, chooser: Callable[[Any], Callable[[random.Random], int | None]]) -> float | None:
    """PettingZoo AEC random play for about ``seconds`` of CPU time, in actions per CPU
    second; None when PettingZoo is missing. ``chooser(env)`` gives the function that picks
    each action (None: the game is over, and ``env.reset(seed)`` deals the next, timed but
    not counted)."""
    try:
        from frontlines.rl.pettingzoo import env
    except ImportError:
        return None
    rng = random.Random(1)
    e = env(ruleset=ruleset)
    e.reset(seed=0)
    choose = chooser(e)

    def step() -> int:
        action = choose(rng)
        if action is None:
            e.reset(seed=rng.randrange(1 << 30))
            return 0
        e.step(action)
        return 1

    return timed(seconds, step)


def pettingzoo_steps(ruleset: str, seconds: float) -> float | None:
    """PettingZoo AEC steps: each action chosen from the mask of ``env.last()``'s observation."""
    try:
        import numpy as np
    except ImportError:
        return None

    def observing(e: Any) -> Callable[[random.Random], int | None]:
        def choose(rng: random.Random) -> int | None:
            obs, _reward, termination, truncation, _info = e.last()
            if termination or truncation:
                return None
            return rng.choice(np.flatnonzero(obs["action_mask"]).tolist())

        return choose

    return pettingzoo_play(ruleset, seconds, observing)


def pettingzoo_blind_steps(ruleset: str, seconds: float) -> float | None:
    """PettingZoo AEC steps without observing: the action is chosen from the engine's legal
    actions, as the raw loop chooses it (what the API costs without the observation)."""

    def blind(e: Any) -> Callable[[random.Random], int | None]:
        ids = e.table.encoding.action_ids()

        def choose(rng: random.Random) -> int | None:
            agent = e.agent_selection
            if e.terminations[agent] or e.truncations[agent]:
                return None
            return ids[rng.choice(e.table.state.legal_actions())]

        return choose

    return pettingzoo_play(ruleset, seconds, blind)


def gymnasium_steps(ruleset: str, seconds: float) -> tuple[float, float, float, float] | None:
    """(agent steps, engine actions, engine actions without the opponent's cost) per CPU
    second, and the opponent's share of the time; None when Gymnasium is missing."""
    try:
        import gymnasium
        import numpy as np

        import frontlines.rl.gymnasium  # noqa: F401
    except ImportError:
        return None
    rng = random.Random(1)
    env_id = "frontlines/WarMachine-v0" if ruleset == "warmachine" else "frontlines/BattleLine-v0"
    env = gymnasium.make(env_id, ruleset=ruleset, opponent="random").unwrapped
    opponent = env._opponent_action = Timed(env._opponent_action)  # its view and its choice
    box: list[Any] = [env.reset(seed=0)[0]]
    actions = [0, len(env.table.state.history)]  # finished games' actions, actions of the game before this run

    def step() -> int:
        obs, _reward, terminated, truncated, _info = env.step(rng.choice(np.flatnonzero(box[0]["action_mask"]).tolist()))
        box[0] = obs
        if terminated or truncated:
            actions[0] += len(env.table.state.history)
            box[0] = env.reset(seed=rng.randrange(1 << 30))[0]
        return 1

    start = time.process_time()
    steps = timed(seconds, step)
    total = time.process_time() - start
    moves = actions[0] + len(env.table.state.history) - actions[1]
    return steps, moves / total, moves / (total - opponent.seconds), opponent.seconds / total


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


def per_position(ruleset: str, games: int = 100) -> dict[str, float]:
    """Microseconds (CPU) per position of each operation, timed in place at every position
    of ``games`` random games (the timer's own cost subtracted)."""
    enc = encoding(ruleset)
    clock = time.thread_time_ns
    rng = random.Random(2)
    total = dict.fromkeys(("legal", "live", "obs", "view", "info", "timer"), 0)
    count = 0
    for g in range(games):
        state = new_state(ruleset, seed=g)
        live = (enc.live_observation(0), enc.live_observation(1))
        while not state.is_terminal():
            me = state.current_player()
            assert me is not None
            t0 = clock()
            legal = state.legal_actions()  # generated afresh: the last move made a new position
            t1 = clock()
            live[me].update(state)
            t2 = clock()
            enc.observation_tensor_of(state, me)
            t3 = clock()
            view = state.view(me)
            t4 = clock()
            enc.information_state_tensor(view)
            t5 = clock()
            t6 = clock()
            for name, spent in (("legal", t1 - t0), ("live", t2 - t1), ("obs", t3 - t2), ("view", t4 - t3),
                                ("info", t5 - t4), ("timer", t6 - t5)):
                total[name] += spent
            count += 1
            state.apply(rng.choice(legal))
    timer = total.pop("timer")
    return {name: (spent - timer) / count / 1000 for name, spent in total.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rulesets", nargs="+", default=list(RULESETS))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per run")
    args = parser.parse_args()
    print(f"actions per CPU second, median of {args.runs} runs; share of the raw engine in brackets\n")
    print("| ruleset | raw engine | PettingZoo AEC | PettingZoo without observing | OpenSpiel apply_action"
          " | Gymnasium vs random: agent steps | engine actions | without the opponent's cost"
          " | opponent's share of the time |")
    print("|---|---|---|---|---|---|---|---|---|")
    costs = {}
    for ruleset in args.rulesets:
        raw = statistics.median(raw_engine(ruleset, args.seconds) for _ in range(args.runs))
        cells = [f"{raw:,.0f}"]
        for f in (pettingzoo_steps, pettingzoo_blind_steps, openspiel_steps):
            runs = [f(ruleset, args.seconds) for _ in range(args.runs)]
            rate = statistics.median(r for r in runs if r is not None) if runs[0] is not None else None
            cells.append("not installed" if rate is None else f"{rate:,.0f} ({rate / raw:.0%})")
        gym = [gymnasium_steps(ruleset, args.seconds) for _ in range(args.runs)]
        if gym[0] is None:
            cells += ["not installed"] * 4
        else:
            steps, moves, alone, share = (statistics.median(run[k] for run in gym if run is not None) for k in range(4))
            cells += [f"{steps:,.0f}", f"{moves:,.0f} ({moves / raw:.0%})", f"{alone:,.0f} ({alone / raw:.0%})",
                      f"{share:.0%}"]
        print(f"| {ruleset} | " + " | ".join(cells) + " |")
        passes = [per_position(ruleset) for _ in range(args.runs)]
        costs[ruleset] = {name: statistics.median(p[name] for p in passes) for name in passes[0]}
    print(f"\nmicroseconds (CPU) per position, timed in place along 100 random games, median of {args.runs} passes;"
          " in brackets, per legal-move generation\n")
    print("| ruleset | legal moves | observation tensor (live, as the environments keep it) | observation tensor (afresh)"
          " | view | information state (from the view) |")
    print("|---|---|---|---|---|---|")
    for ruleset, c in costs.items():
        legal = c["legal"]
        print(f"| {ruleset} | {legal:.1f} | {c['live']:.1f} ({c['live'] / legal:.2f}) | {c['obs']:.1f} ({c['obs'] / legal:.2f})"
              f" | {c['view']:.1f} | {c['info']:.1f} |")


if __name__ == "__main__":
    main()
