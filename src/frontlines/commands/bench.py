"""``frontlines bench``: quick speed figures, measured in-process through the public API.

* random games/s for every ruleset: uniformly random legal actions, except that a
  provable claim (action text ``claim:N``) is always taken;
* proofs/s: :func:`frontlines.games.battleline.proof.prove` on claim positions taken from
  random Battle Line games (every complete side at every turn);
* ISMCTS iterations/s: ``ismcts`` with a fixed time per decision on opening positions.

Rates are per CPU second of this process (``time.process_time``) where the work is all
in this process, so other load on the machine skews them less; each figure is the median
of ``--runs`` runs. The fuller scripts in ``benchmarks/`` measure more.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

HELP = "Speed figures (medians of several runs): random games/s per ruleset, claim proofs/s, ISMCTS iterations/s."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--runs", type=int, default=5, help="runs per figure; the median is shown (default 5)")
    parser.add_argument("--games", type=int, default=40, help="random games per run and ruleset (default 40)")
    parser.add_argument("--rules", action="append", metavar="RULESET", help="only these rulesets (repeatable)")
    parser.add_argument("--proofs", type=int, default=3000, help="claim positions per proof run (default 3000)")
    parser.add_argument("--ismcts-time", type=float, default=0.5, help="seconds per ISMCTS decision (default 0.5)")
    parser.add_argument("--ismcts-rules", default="battleline", help="ruleset for the ISMCTS figure")
    parser.add_argument("--only", choices=("games", "proofs", "ismcts"), action="append", help="run only these parts")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")


def random_game(ruleset: str, seed: int) -> int:
    """One random game with provable claims taken; returns its number of actions."""
    from frontlines.core.actions import ActionKind
    from frontlines.games import new_state

    state = new_state(ruleset, seed=seed)
    rng = random.Random(seed)
    n = 0
    is_claim = _CLAIMS.setdefault(state.game, {})
    while not state.is_terminal():
        legal = state.legal_actions()
        claim = None
        for a in legal:
            # Memoise "is it a claim" per action value (a claim's record is the same everywhere).
            flag = is_claim.get(a)
            if flag is None:
                flag = is_claim[a] = state.describe_action(a).kind is ActionKind.CLAIM
            if flag:
                claim = a
                break
        state.apply(claim if claim is not None else rng.choice(legal))
        n += 1
    return n


_CLAIMS: dict[str, dict[Any, bool]] = {}


def games_per_second(ruleset: str, games: int, seed: int) -> tuple[float, float]:
    start = time.process_time()
    actions = sum(random_game(ruleset, seed + i) for i in range(games))
    spent = max(time.process_time() - start, 1e-9)
    return games / spent, actions / games


ProofCase = tuple[tuple[int, ...], tuple[int, ...], int, bool, int, bool]


def claim_positions(count: int, seed: int) -> list[ProofCase]:
    """Complete sides with what stands opposite, from random battleline-basic games."""
    from frontlines.games import new_state
    from frontlines.games.battleline.cards import NUM_TROOPS

    out: list[ProofCase] = []
    rng = random.Random(seed)
    game = 0
    while len(out) < count:
        state = new_state("battleline-basic", seed=seed * 1000 + game)
        game += 1
        while not state.is_terminal() and len(out) < count:
            data = state.view(None).to_dict()
            seen = 0
            for flag in data["flags"]:
                for side in flag["sides"]:
                    for code in side:
                        seen |= 1 << _card(code)
            unseen = ((1 << NUM_TROOPS) - 1) & ~seen
            for flag in data["flags"]:
                if flag["claimed_by"] is not None:
                    continue
                sides = [tuple(_card(c) for c in s) for s in flag["sides"]]
                for p in (0, 1):
                    if len(sides[p]) == 3:
                        out.append((sides[p], sides[1 - p], 3, False, unseen, True))
            legal = state.legal_actions()
            state.apply(rng.choice(legal))
    return out[:count]


def _card(code: str) -> int:
    from frontlines.games.battleline.cards import parse_card

    return parse_card(code)


def proofs_per_second(cases: list[ProofCase]) -> float:
    from frontlines.games.battleline.proof import prove

    start = time.process_time()
    for mine, theirs, cap, fog, unseen, first in cases:
        prove(mine, theirs, capacity=cap, fog=fog, unseen_troops=unseen, claimant_completed_first=first)
    return len(cases) / max(time.process_time() - start, 1e-9)


def ismcts_iterations(ruleset: str, seconds: float, seed: int) -> float:
    """Iterations per wall-clock second of one ``ismcts`` decision from a fresh deal."""
    from frontlines.bots.registry import make_bot
    from frontlines.games import new_state

    state = new_state(ruleset, seed=seed)
    player = state.current_player()
    assert player is not None
    bot = make_bot(f"ismcts:time={seconds}", seed)
    try:
        bot.new_game(ruleset, player, seed)
        start = time.perf_counter()
        bot.choose(state.view(player))
        spent = time.perf_counter() - start
        info = bot.info()
    finally:
        bot.close()
    iterations = float(info.get("iterations", 0))
    return iterations / max(float(info.get("seconds", spent)), 1e-9)


def _median(runs: int, measure: Callable[[int], float]) -> tuple[float, list[float]]:
    values = [measure(r) for r in range(runs)]
    return statistics.median(values), values


def run(args: argparse.Namespace) -> int:
    from frontlines.core.build import build, describe
    from frontlines.games import all_rulesets

    parts = set(args.only or ("games", "proofs", "ismcts"))
    runs = max(1, args.runs)
    figures: dict[str, Any] = {"runs": runs, "build": build()}
    print(f"{'build':26} {describe()}   (docs/performance.md)")
    err = sys.stderr
    if "games" in parts:
        names = args.rules or [r.name for r in all_rulesets()]
        figures["games_per_second"] = {}
        for name in names:
            games_per_second(name, max(1, args.games // 5), 999_999)  # warm-up: caches, tables
            lengths: list[float] = []

            def one(r: int, name: str = name, lengths: list[float] = lengths) -> float:
                rate, length = games_per_second(name, args.games, 1000 * r)
                lengths.append(length)
                return rate

            err.write(f"\rgames: {name} …" + " " * 20)
            err.flush()
            median, _values = _median(runs, one)
            figures["games_per_second"][name] = round(median, 1)
            print(f"{name:26} {median:9.1f} random games/s   ({statistics.mean(lengths):.0f} actions/game, "
                  f"median of {runs} runs x {args.games} games)")
    if "proofs" in parts:
        err.write("\rproofs: collecting positions …" + " " * 20)
        err.flush()
        cases = claim_positions(args.proofs, 2026)
        proofs_per_second(cases[: max(1, len(cases) // 5)])  # warm-up
        median, _values = _median(runs, lambda r: proofs_per_second(cases))
        figures["proofs_per_second"] = round(median, 1)
        print(f"{'claim proofs':26} {median:9.0f} proofs/s         (median of {runs} runs x {len(cases)} positions from random games)")
    if "ismcts" in parts:
        err.write("\rismcts …" + " " * 30)
        err.flush()
        median, _values = _median(runs, lambda r: ismcts_iterations(args.ismcts_rules, args.ismcts_time, 100 + r))
        figures["ismcts_iterations_per_second"] = round(median, 1)
        print(f"{'ISMCTS ' + args.ismcts_rules:26} {median:9.0f} iterations/s     "
              f"(median of {runs} decisions of {args.ismcts_time:g} s from fresh deals)")
    err.write("\r" + " " * 50 + "\r")
    err.flush()
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(figures, fh, indent=2)
            fh.write("\n")
    return 0
