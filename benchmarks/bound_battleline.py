"""An upper bound for a search: ISMCTS or PIMC whose every sampled deal is the true state.

    .venv/bin/python benchmarks/bound_battleline.py --rules battleline-basic --games 200 \\
        --seed 101 --workers 2 --records build/bound.jsonl

The search is the shipped one (``ismcts:iterations=400`` unless ``--spec`` says otherwise;
a ``pimc:`` spec, such as ``master``'s, works alike) with one change made here, never in the
bots: where it samples a deal consistent with its
view (``GamePolicy.determinise``), it is handed a copy of the real game (the opponent's
hand and the order of the deck). Everything else (the shortlist, the prior, the tree, the
rollouts, the cut-off evaluation, which still treats the opponent's hand as unseen) is
unchanged, so its score against the heuristic tells how far this search design can go when
the sampling is perfect: a level aimed above it needs a better evaluation or policy, not a
better model of the hidden cards. (PIMC's evaluation reads the deal's opponent hand by
default, ``eval_hand=1``; every one of its deals being the same, ``deals=4`` costs an
eighth of ``master``'s 32 and differs only in the heuristic's random choices down the lines.)

Deals are the arena's (``deal_seed(--seed, k)``), each played from both seats against
``--opponent`` (default ``heuristic``), so a run with the same ``--seed`` pairs deal by
deal with ``frontlines arena --seed S --gauntlet heuristic`` runs. ``--records`` appends
one JSON line per game as it ends (a stopped run keeps its games). Prints the score with
its 95 % Wilson interval.

A long bound is played as chunks (``--seed S --games 20`` for S in a range: a stopped run
loses one chunk at most) and pooled from their records::

    .venv/bin/python benchmarks/bound_battleline.py --pool build/b-*.jsonl \
        [--paired-with build/arena/c-*.jsonl --control master]

prints the pooled score with its Wilson interval over games and the interval over deals
(both games of a deal, pentanomial, as the arena prints it); ``--paired-with`` takes the
records (``frontlines arena --records``) of the same chunks played by the ordinary bot
``--control`` (or this script's records of another spec) and prints the difference, deal
by deal, with its 95 % interval.
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
from types import ModuleType
from typing import Any

import frontlines.bots.ismcts as ismcts
import frontlines.bots.pimc as pimc
from frontlines.arena.ratings import mean_ci95, wilson
from frontlines.arena.results import PairedDeals
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
def _searching_with(policy: GamePolicy, module: ModuleType) -> Iterator[None]:
    """The search module's ``policy_for`` answers ``policy`` for the duration (one process, one
    decision: the opponent's bot, in another module, keeps its own policy)."""
    names = vars(module)  # its globals (compiled or not), where ``choose`` looks the name up
    shipped = names["policy_for"]
    names["policy_for"] = lambda ruleset: policy
    try:
        yield
    finally:
        names["policy_for"] = shipped


class TrueDealBot(Bot):
    """A shipped ISMCTS or PIMC bot (``spec``) whose sampled deals are the true game.

    Call :meth:`show` with the real state before each decision (the state a referee
    mutates in place: once a game is enough).
    """

    name = "ismcts-true-deal"

    def __init__(self, spec: str, seed: int | None = None) -> None:
        inner = make_bot(spec, seed)
        if isinstance(inner, ismcts.ISMCTSBot):
            self.module: ModuleType = ismcts
        elif isinstance(inner, pimc.PimcBot):
            self.module = pimc
        else:
            raise ValueError(f"{spec!r} is neither an ismcts nor a pimc spec")
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
        with _searching_with(policy, self.module):
            action = self.inner.choose(view, clock)
        # the patch must have reached the search: one true deal per iteration (ISMCTS) or per
        # deal judged (PIMC, both stages) at least
        info = self.inner.info()
        needed = int(info.get("iterations", 0)) + int(info.get("deals", 0)) + int(info.get("refine_deals", 0))
        if policy.deals - before < needed:
            raise RuntimeError(f"the search sampled its own deals ({policy.deals - before} true of {needed})")
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


def _deals(rows: list[dict[str, Any]]) -> dict[int, list[float]]:
    """Per deal seed, the bound's score in seat 0 and seat 1 (deals with both games only)."""
    seats: dict[int, dict[int, float]] = {}
    for row in rows:
        seats.setdefault(int(row["seed"]), {})[int(row["seat"])] = float(row["score"])
    return {seed: [both[0], both[1]] for seed, both in seats.items() if set(both) == {0, 1}}


def _control_deals(paths: list[Path], name: str) -> dict[int, list[float]]:
    """The same from arena records (``name``'s score in seat 0 and seat 1 of each deal), or
    from this script's own records (another spec handed the true deal)."""
    points = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}
    rows: list[dict[str, Any]] = []
    for path in paths:
        for line in path.read_text().splitlines():
            game = json.loads(line)
            if "tags" not in game:
                rows.append(game)
                continue
            tags = game["tags"]
            if name not in (tags["Player0"], tags["Player1"]) or tags["Result"] not in points:
                continue
            seat = 0 if tags["Player0"] == name else 1
            rows.append({"seed": tags["Seed"], "seat": seat, "score": points[tags["Result"]][seat]})
    return _deals(rows)


def pooled_report(paths: list[Path], control: list[Path], name: str) -> str:
    """The pooled report of ``--pool`` (and ``--paired-with``)."""
    rows = [json.loads(line) for path in paths for line in path.read_text().splitlines() if line.strip()]
    if not rows:
        raise SystemExit("bound_battleline: no games in the records given")
    total = sum(float(row["score"]) for row in rows)
    low, high = wilson(total, len(rows))
    deals = _deals(rows)
    penta = PairedDeals()
    for a, b in deals.values():
        penta.pentanomial[round(2 * (a + b))] += 1
    mean, dlow, dhigh = penta.score_ci95()
    specs = sorted({str(row["spec"]) for row in rows})
    lines = [f"{', '.join(specs)} with the true deal: {total:g}/{len(rows)} = {100 * total / len(rows):.1f} % "
             f"(Wilson {100 * low:.1f}-{100 * high:.1f}); over {penta.deals} deals {100 * mean:.1f} % "
             f"({100 * dlow:.1f}-{100 * dhigh:.1f}); pentanomial {penta.pentanomial}"]
    if control:
        theirs = _control_deals(control, name)
        common = sorted(set(deals) & set(theirs))
        if len(common) < 2:
            raise SystemExit(f"bound_battleline: {len(common)} deal(s) in common with {name!r}'s records")
        diffs = [(sum(deals[d]) - sum(theirs[d])) / 2 for d in common]
        d_mean, d_low, d_high = mean_ci95(diffs)
        there = 100 * sum(sum(theirs[d]) for d in common) / (2 * len(common))
        lines.append(f"paired over {len(common)} deals with the other records ({name!r} in arena records): {there:.1f} % there; "
                     f"difference {100 * d_mean:+.1f} points ({100 * d_low:+.1f}..{100 * d_high:+.1f})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="battleline-basic")
    parser.add_argument("--games", type=int, default=200, help="deals times two seats (rounded up to even)")
    parser.add_argument("--seed", type=int, default=101, help="match seed: the arena's deals for that --seed")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--spec", default="ismcts:iterations=400", help="the search given the true deal")
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--records", type=Path, help="append one JSON line per game here")
    parser.add_argument("--pool", type=Path, nargs="+", metavar="RECORDS", help="pool these records instead of playing")
    parser.add_argument("--paired-with", type=Path, nargs="+", default=[], metavar="ARENA_RECORDS",
                        help="with --pool: arena records of the same deals played by --control, or records of this script")
    parser.add_argument("--control", default="master", help="the bot's name in the --paired-with records")
    args = parser.parse_args(argv)
    if args.pool:
        print(pooled_report(args.pool, args.paired_with, args.control))
        return
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
