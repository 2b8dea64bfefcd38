"""``frontlines selfplay``: two bots play one or more games; prints results and records.

Each bot only ever receives its own view. Game ``i`` is dealt with seed ``SEED + i``; with
several games the seats alternate (``--p0`` sits first in even games) so that neither spec
profits from the first move, unless ``--no-swap``. ``--jobs N`` plays games in parallel
processes (the results do not depend on it).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from frontlines.commands.options import add_option_argument, rules_options

HELP = "Bots play each other; print the results and the game record."


@dataclass
class GameResult:
    """One finished game, seen from the two specs (``a`` = ``--p0``, ``b`` = ``--p1``)."""

    index: int
    seed: int
    seats: tuple[str, str]  # which spec ("a"/"b") sat at seat 0 and seat 1
    winner: int | None  # seat
    reason: str
    moves: int
    record_text: str
    record_json: dict[str, Any]
    think: dict[str, list[float]] = field(default_factory=dict)  # spec label -> [total s, decisions, max s]

    @property
    def winner_label(self) -> str | None:
        return None if self.winner is None else self.seats[self.winner]


def play_game(
    ruleset: str,
    specs: tuple[str, str],
    seed: int,
    *,
    bot_seeds: tuple[int | None, int | None] = (None, None),
    options: dict[str, str] | None = None,
    max_actions: int = 5000,
) -> tuple[Any, Any, list[float], list[int]]:
    """Play one game between the bots ``specs`` (seat 0, seat 1).

    Returns (initial state, final state, think seconds per seat, decisions per seat). A bot
    that raises or answers an illegal action forfeits.
    """
    from frontlines.bots.registry import make_bot
    from frontlines.games import new_state

    state = new_state(ruleset, seed=seed, options=options)
    initial = state.clone()
    bots = [make_bot(specs[0], bot_seeds[0]), make_bot(specs[1], bot_seeds[1])]
    think = [0.0, 0.0]
    decisions = [0, 0]
    peak = [0.0, 0.0]
    try:
        for seat, bot in enumerate(bots):
            bot.new_game(ruleset, seat, seed)
        actions = 0
        while not state.is_terminal():
            player = state.current_player()
            assert player is not None
            if actions >= max_actions:
                state.resign(player, "forfeit", f"game did not end within {max_actions} actions")
                break
            view = state.view(player)
            started = time.perf_counter()
            try:
                action = bots[player].choose(view, None)
            except Exception as exc:  # a crashing bot loses the game; the match goes on
                state.resign(player, "forfeit", f"{specs[player]} crashed: {exc!r}")
                break
            spent = time.perf_counter() - started
            think[player] += spent
            peak[player] = max(peak[player], spent)
            decisions[player] += 1
            if action not in view.legal_actions():
                state.resign(player, "forfeit", f"{specs[player]} played an illegal action {action!r}")
                break
            state.apply(action)
            actions += 1
    finally:
        for bot in bots:
            bot.close()
    return initial, state, think + peak, decisions


def _play_indexed(job: tuple[str, str, str, int, int, bool, dict[str, str], int]) -> GameResult:
    from frontlines.core.record import GameRecord

    ruleset, spec_a, spec_b, base_seed, index, swap, options, bot_seed = job
    seed = base_seed + index
    seats = ("b", "a") if swap and index % 2 == 1 else ("a", "b")
    by_label = {"a": spec_a, "b": spec_b}
    specs = (by_label[seats[0]], by_label[seats[1]])
    bot_seeds = (bot_seed * 1000 + 2 * index, bot_seed * 1000 + 2 * index + 1)
    initial, final, think, decisions = play_game(ruleset, specs, seed, bot_seeds=bot_seeds, options=options)
    record = GameRecord.from_state(initial, final, players=specs, extra={"Seed": str(seed)})
    outcome = final.outcome()
    winner = outcome.winner if outcome is not None else None
    reason = outcome.reason if outcome is not None else "unfinished"
    timing = {seats[s]: [think[s], float(decisions[s]), think[2 + s]] for s in (0, 1)}
    return GameResult(index, seed, seats, winner, reason, len(final.history), record.to_text(), record.to_json(), timing)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", required=True, help="ruleset name (see `frontlines rules`)")
    parser.add_argument("--p0", required=True, help="bot spec of the first player, e.g. heuristic, ismcts:time=1, hard")
    parser.add_argument("--p1", required=True, help="bot spec of the second player")
    parser.add_argument("--seed", type=int, default=0, help="deal seed of the first game (game i uses SEED+i)")
    parser.add_argument("--games", type=int, default=1, help="number of games (default 1)")
    parser.add_argument("--record", metavar="FILE", help="write the records here (.jsonl: JSON lines; else text; - for stdout)")
    add_option_argument(parser)
    parser.add_argument("--no-swap", action="store_true", help="keep --p0 in seat 0 in every game")
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel processes")
    parser.add_argument("--bot-seed", type=int, default=1, help="seed of the bots' own randomness")
    parser.add_argument("--quiet", action="store_true", help="print only the summary")


def _interval(wins: float, games: int) -> float:
    """Half-width of a 95 % normal interval for a score fraction."""
    if games == 0:
        return 0.0
    p = wins / games
    return 1.96 * math.sqrt(max(p * (1 - p), 1e-9) / games)


def run(args: argparse.Namespace) -> int:
    from frontlines.bots.registry import make_bot, parse_spec
    from frontlines.core.record import GameRecord, dump_jsonl
    from frontlines.games import ruleset as find_ruleset

    try:
        find_ruleset(args.rules)
        for spec in (args.p0, args.p1):
            if not parse_spec(spec).external:  # an engine starts when its game does
                make_bot(spec).close()  # fail fast on a bad spec
        options = rules_options(args.option)
    except (ValueError, KeyError) as exc:
        print(f"frontlines selfplay: {exc}", file=sys.stderr)
        return 2
    if args.games < 1 or args.jobs < 1:
        print("frontlines selfplay: --games and --jobs must be at least 1", file=sys.stderr)
        return 2
    jobs = [(args.rules, args.p0, args.p1, args.seed, i, not args.no_swap, options, args.bot_seed) for i in range(args.games)]
    results: list[GameResult] = []
    started = time.perf_counter()
    if args.jobs == 1:
        iterator: Any = map(_play_indexed, jobs)
        pool = None
    else:
        pool = ProcessPoolExecutor(max_workers=args.jobs)
        iterator = pool.map(_play_indexed, jobs)
    labels = {"a": args.p0, "b": args.p1}
    try:
        for result in iterator:
            results.append(result)
            if not args.quiet:
                seat0, seat1 = (labels[s] for s in result.seats)
                res = "1/2-1/2" if result.winner is None else ("1-0" if result.winner == 0 else "0-1")
                print(f"game {result.index + 1:3d}  seed {result.seed}  {seat0} vs {seat1}  {res} {result.reason}  "
                      f"{result.moves} actions", flush=True)
    finally:
        if pool is not None:
            pool.shutdown()
    elapsed = time.perf_counter() - started
    wins_a = sum(1 for r in results if r.winner_label == "a")
    wins_b = sum(1 for r in results if r.winner_label == "b")
    draws = len(results) - wins_a - wins_b
    score = wins_a + 0.5 * draws
    n = len(results)
    print(f"{args.rules}: {n} games in {elapsed:.1f} s")
    print(f"  {args.p0} (--p0): {wins_a} wins   {args.p1} (--p1): {wins_b} wins   draws/unfinished: {draws}")
    print(f"  --p0 score {100 * score / n:.1f}% ± {100 * _interval(score, n):.1f}% (95%)")
    for label in ("a", "b"):
        total = sum(r.think[label][0] for r in results)
        count = sum(r.think[label][1] for r in results)
        peak = max(r.think[label][2] for r in results)
        if count:
            print(f"  {labels[label]}: {1000 * total / count:.2f} ms per decision (max {1000 * peak:.0f} ms)")
    if args.record:
        if args.record.endswith(".jsonl"):
            text = dump_jsonl(GameRecord.from_json(r.record_json) for r in results)
        else:
            text = "\n".join(r.record_text for r in results)
        if args.record == "-":
            sys.stdout.write(text)
        else:
            with open(args.record, "w", encoding="utf-8") as handle:
                handle.write(text)
    elif n == 1 and not args.quiet:
        print()
        sys.stdout.write(results[0].record_text)
    return 0
