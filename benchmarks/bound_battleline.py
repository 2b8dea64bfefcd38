"""An upper bound for the search: ISMCTS whose every sampled deal is the true state.

    .venv/bin/python benchmarks/bound_battleline.py --rules battleline-basic --games 200 \\
        --seed 101 --workers 2 --records build/bound.jsonl

The search is the shipped one (``ismcts:iterations=400`` unless ``--spec`` says otherwise)
with one change made here, never in the bots: where it samples a deal consistent with its
view (``GamePolicy.determinise``), it is handed a copy of the real game (the opponent's
hand and the order of the deck). Everything else (the shortlist, the prior, the tree, the
rollouts, the cut-off evaluation, which still treats the opponent's hand as unseen) is
unchanged, so its score against the heuristic tells how far this search design can go when
the sampling is perfect: a level aimed above it needs a better evaluation or policy, not a
better model of the hidden cards.

Deals are the arena's (``deal_seed(--seed, k)``), each played from both seats against
``--opponent`` (default ``heuristic``), so a run with the same ``--seed`` pairs deal by
deal with ``frontlines arena --seed S --gauntlet heuristic`` runs. ``--records`` appends
one JSON line per game as it ends (a stopped run keeps its games). Prints the score with
its 95 % Wilson interval.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing import Pool
from pathlib import Path
from random import Random
from typing import Any

import frontlines.bots.ismcts as ismcts
from frontlines.arena.ratings import wilson
from frontlines.arena.schedule import deal_seed
from frontlines.bots.base import Bot, Clock
from frontlines.bots.heuristic import GamePolicy, policy_for
from frontlines.bots.registry import make_bot
from frontlines.core.game import Action, State, View
from frontlines.core.referee import Referee
from frontlines.games import new_state


class TrueDealPolicy(GamePolicy):
    """The game's policy, except that every determinisation is a copy of ``truth``.

    Every other method is the wrapped policy's (a test checks that none of
    ``GamePolicy``'s is left to its generic default).
    """

    def __init__(self, inner: GamePolicy, source: TrueDealPolicy | None = None) -> None:
        self.inner = inner
        self.game = inner.game
        self.prior_scale = inner.prior_scale
        self.source = source  # a tuned copy (``with_evaluation``) deals from the policy it was made from
        self.truth: State | None = None  # the real game, set by whoever runs it
        self.deals = 0  # determinisations handed out (checked against the search's iterations)

    def determinise(self, view: View, rng: Random) -> State:
        holder = self.source or self
        if holder.truth is None:
            raise RuntimeError("TrueDealPolicy asked for a deal before it was shown the game")
        holder.deals += 1
        return holder.truth.clone()

    def forced(self, state: State | View, legal: list[Action]) -> Action | None:
        return self.inner.forced(state, legal)

    def choose(self, view: View, rng: Random, samples: int = 0) -> Action:
        return self.inner.choose(view, rng, samples)

    def ranked(self, view: View, rng: Random, samples: int = 0) -> list[tuple[float, Action]]:
        return self.inner.ranked(view, rng, samples)

    def choose_in_state(self, state: State, player: int, legal: list[Action], rng: Random) -> Action:
        return self.inner.choose_in_state(state, player, legal, rng)

    def ranked_in_state(self, state: State, player: int, legal: list[Action], rng: Random, n: int = 0) -> list[Action]:
        return self.inner.ranked_in_state(state, player, legal, rng, n)

    def candidates(self, state: State, legal: list[Action], width: int, rng: Random) -> list[Action]:
        return self.inner.candidates(state, legal, width, rng)

    def rollout_action(self, state: State, legal: list[Action], rng: Random) -> Action:
        return self.inner.rollout_action(state, legal, rng)

    def progress(self, view: View) -> float:
        return self.inner.progress(view)

    def with_evaluation(self, samples: int, scale: float, hand: bool = False) -> GamePolicy:
        return TrueDealPolicy(self.inner.with_evaluation(samples, scale, hand), self.source or self)

    def evaluate(self, state: State, player: int) -> float:
        return self.inner.evaluate(state, player)


@contextmanager
def _searching_with(policy: GamePolicy) -> Iterator[None]:
    """The search module's ``policy_for`` answers ``policy`` for the duration (one process, one
    decision: the opponent's bot, in another module, keeps its own policy)."""
    names = vars(ismcts)  # its globals (compiled or not), where ``choose`` looks the name up
    shipped = names["policy_for"]
    names["policy_for"] = lambda ruleset: policy
    try:
        yield
    finally:
        names["policy_for"] = shipped


class TrueDealBot(Bot):
    """A shipped ISMCTS bot (``spec``) whose sampled deals are the true game.

    Call :meth:`show` with the real state before each decision (the state a referee
    mutates in place: once a game is enough).
    """

    name = "ismcts-true-deal"

    def __init__(self, spec: str, seed: int | None = None) -> None:
        inner = make_bot(spec, seed)
        if not isinstance(inner, ismcts.ISMCTSBot):
            raise ValueError(f"{spec!r} is not an ismcts spec")
        self.inner = inner
        self.policy: TrueDealPolicy | None = None

    def show(self, state: State) -> None:
        if self.policy is None or self.policy.game != policy_for(state.ruleset).game:
            self.policy = TrueDealPolicy(policy_for(state.ruleset))
        self.policy.truth = state

    def new_game(self, ruleset: str, seat: int, seed: int | None = None) -> None:
        self.inner.new_game(ruleset, seat, seed)

    def choose(self, view: View, clock: Clock | None = None) -> Action:
        policy = self.policy
        if policy is None or policy.truth is None:
            raise RuntimeError("TrueDealBot.choose before show(state)")
        if policy.truth.view(view.viewer).to_notation() != view.to_notation():
            raise RuntimeError("TrueDealBot was shown another game than the one it is asked about")
        before = policy.deals
        with _searching_with(policy):
            action = self.inner.choose(view, clock)
        # the patch must have reached the search: one true deal per iteration at least
        iterations = int(self.inner.info().get("iterations", 0))
        if policy.deals - before < iterations:
            raise RuntimeError(f"the search sampled its own deals ({policy.deals - before} true of {iterations})")
        return action

    def info(self) -> dict[str, Any]:
        return self.inner.info()

    def close(self) -> None:
        self.inner.close()


def play_deal(job: tuple[str, str, str, int, int]) -> list[dict[str, Any]]:
    """Both games of deal ``deal`` (the true-deal bot in seat 0, then in seat 1): one row each."""
    ruleset, spec, opponent, match_seed, deal = job
    seed = deal_seed(match_seed, deal)
    rows: list[dict[str, Any]] = []
    for seat in (0, 1):
        bound = TrueDealBot(spec, seed=match_seed * 7919 + 1)
        other = make_bot(opponent, match_seed * 7919)
        bots: list[Bot] = [other, other]
        bots[seat] = bound
        referee = Referee(new_state(ruleset, seed=seed))
        began = time.perf_counter()
        referee.start(bots, seed)
        while (mover := referee.to_move()) is not None:
            bound.show(referee.state)
            referee.turn(bots[mover])
        result = referee.result()
        if result.failure is not None:  # a crash is a bug here, not a game to count
            raise RuntimeError(f"deal {deal + 1}, seat {seat}: {result.failure}")
        winner = result.winner
        score = 0.5 if winner is None else float(winner == seat)
        rows.append({"deal": deal + 1, "seed": seed, "seat": seat, "winner": winner, "score": score,
                     "reason": str(result.reason), "actions": result.actions,
                     "seconds": round(time.perf_counter() - began, 2)})
        bound.close()
        other.close()
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="battleline-basic")
    parser.add_argument("--games", type=int, default=200, help="deals times two seats (rounded up to even)")
    parser.add_argument("--seed", type=int, default=101, help="match seed: the arena's deals for that --seed")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--spec", default="ismcts:iterations=400", help="the search given the true deal")
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--records", type=Path, help="append one JSON line per game here")
    args = parser.parse_args(argv)
    TrueDealBot(args.spec)  # a bad spec fails here, not in a worker
    jobs = [(args.rules, args.spec, args.opponent, args.seed, deal) for deal in range((args.games + 1) // 2)]
    total = played = 0.0
    began = time.perf_counter()
    out = args.records.open("a") if args.records else None
    try:
        with Pool(args.workers) as pool:
            for rows in pool.imap_unordered(play_deal, jobs):
                for row in rows:
                    total += row["score"]
                    played += 1
                    if out is not None:
                        out.write(json.dumps({"rules": args.rules, "spec": args.spec, "opponent": args.opponent, **row}) + "\n")
                if out is not None:
                    out.flush()
                print(f"\r{int(played)}/{len(jobs) * 2} games, {total:g} won", end="", file=sys.stderr, flush=True)
    finally:
        if out is not None:
            out.close()
    low, high = wilson(total, played)
    print(f"\n{args.rules}: {args.spec} with the true deal vs {args.opponent}: {total:g}/{played:g} = "
          f"{100 * total / played:.1f} % (95 % Wilson {100 * low:.1f}-{100 * high:.1f}), "
          f"{time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()
