"""``frontlines selfplay``: two bots play one or more games; prints results and records.

Each bot only ever receives its own view. Game ``i`` is dealt with seed ``SEED + i``; with
several games the seats alternate (``--p0`` sits first in even games) so that neither spec
profits from the first move, unless ``--no-swap``. ``--jobs N`` plays games in parallel
processes (the results do not depend on it); ``--backend ray`` plays them on Ray workers
instead (``--jobs`` of them, default one per CPU of the cluster; docs/arena.md).

The referee (:mod:`frontlines.core.referee`) plays each game: a bot that crashes, fails
to start or answers an illegal action forfeits, and a game still going after 20,000
actions is stopped unfinished (reason ``limit``, result ``*``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from frontlines.commands.backend import add_backend_arguments, open_backend
from frontlines.commands.options import add_option_argument, rules_options
from frontlines.core.referee import GameResult, Referee

HELP = "Bots play each other; print the results and the game record."


@dataclass
class SelfplayGame:
    """One refereed game, seen from the two specs (``a`` = ``--p0``, ``b`` = ``--p1``)."""

    index: int
    seed: int
    seats: tuple[str, str]  # which spec ("a"/"b") sat at seat 0 and seat 1
    result: GameResult
    record: dict[str, Any] | None  # JSON form; None where nobody reads it (no --record, many games)

    @property
    def winner_label(self) -> str | None:
        return None if self.result.winner is None else self.seats[self.result.winner]

    def think(self, label: str) -> tuple[float, int, float]:
        """(seconds, decisions, slowest decision) of the spec ``label``."""
        seat = self.seats.index(label)
        return self.result.think[seat], self.result.decisions[seat], self.result.longest[seat]


@dataclass
class Tally:
    """What the summary needs, summed game by game: a run of a million games keeps no game."""

    games: int = 0
    wins: dict[str, int] = field(default_factory=lambda: {"a": 0, "b": 0})
    think: dict[str, float] = field(default_factory=lambda: {"a": 0.0, "b": 0.0})
    decisions: dict[str, int] = field(default_factory=lambda: {"a": 0, "b": 0})
    slowest: dict[str, float] = field(default_factory=lambda: {"a": 0.0, "b": 0.0})

    def add(self, game: SelfplayGame) -> None:
        self.games += 1
        if game.winner_label is not None:
            self.wins[game.winner_label] += 1
        for label in ("a", "b"):
            seconds, decisions, slowest = game.think(label)
            self.think[label] += seconds
            self.decisions[label] += decisions
            self.slowest[label] = max(self.slowest[label], slowest)


# (ruleset, spec a, spec b, base seed, index, swap, options, bot seed, keep the record)
Job = tuple[str, str, str, int, int, bool, dict[str, str], int, bool]


class SelfplayWorker:
    """Plays selfplay games where a backend runs it; bots are built per game (their seeds are per game)."""

    def play(self, job: Job) -> SelfplayGame:
        return _play_indexed(job)

    def close(self) -> None:
        pass


def _play_indexed(job: Job) -> SelfplayGame:
    from frontlines.bots.registry import make_bot
    from frontlines.games import new_state

    ruleset, spec_a, spec_b, base_seed, index, swap, options, bot_seed, keep_record = job
    seed = base_seed + index
    seats = ("b", "a") if swap and index % 2 == 1 else ("a", "b")
    by_label = {"a": spec_a, "b": spec_b}
    specs = (by_label[seats[0]], by_label[seats[1]])
    referee = Referee(new_state(ruleset, seed=seed, options=options))
    bots = [make_bot(specs[0], bot_seed * 1000 + 2 * index), make_bot(specs[1], bot_seed * 1000 + 2 * index + 1)]
    try:
        result = referee.play(bots, seed=seed)
    finally:
        for bot in bots:
            bot.close()
    # a record costs a tenth of a quick game's time to build, and its bytes to send back
    record = referee.record(specs, {"Seed": str(seed)}).to_json() if keep_record else None
    return SelfplayGame(index, seed, seats, result, record)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", required=True, help="ruleset name (see `frontlines rules`)")
    parser.add_argument("--p0", required=True, help="bot spec of the first player, e.g. heuristic, ismcts:time=1, hard")
    parser.add_argument("--p1", required=True, help="bot spec of the second player")
    parser.add_argument("--seed", type=int, default=0, help="deal seed of the first game (game i uses SEED+i)")
    parser.add_argument("--games", type=int, default=1, help="number of games (default 1)")
    parser.add_argument("--record", metavar="FILE", help="write the records here (.jsonl: JSON lines; else text; - for stdout)")
    add_option_argument(parser)
    parser.add_argument("--no-swap", action="store_true", help="keep --p0 in seat 0 in every game")
    parser.add_argument("--jobs", type=int, default=None,
                        help="games played in parallel processes (default 1); with --backend ray, Ray workers "
                        "(default: one per CPU of the cluster)")
    add_backend_arguments(parser)
    parser.add_argument("--bot-seed", type=int, default=1, help="seed of the bots' own randomness")
    parser.add_argument("--quiet", action="store_true", help="print only the summary")


def _unwritable(path: str | None) -> str:
    """Why records cannot be written to ``path`` (empty when they can, or for stdout)."""
    if not path or path == "-":
        return ""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if target.is_dir():
        return "it is a folder"
    if not folder.is_dir():
        return f"no such folder {folder}"
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        return "permission denied"
    return ""


def _tell(args: argparse.Namespace, labels: dict[str, str], result: SelfplayGame) -> None:
    if not args.quiet:
        seat0, seat1 = (labels[s] for s in result.seats)
        game = result.result
        res = "1/2-1/2" if game.winner is None else ("1-0" if game.winner == 0 else "0-1")
        print(f"game {result.index + 1:3d}  seed {result.seed}  {seat0} vs {seat1}  {res} {game.reason}  "
              f"{game.actions} actions", flush=True)


def _write_record(sink: IO[str], game: SelfplayGame, path: str, *, first: bool) -> None:
    """One game's record, as the whole file would have it (JSON lines, or texts between blank lines)."""
    from frontlines.core.record import GameRecord, dump_jsonl

    assert game.record is not None  # kept: there is a --record
    record = GameRecord.from_json(game.record)
    sink.write(dump_jsonl([record]) if path.endswith(".jsonl") else ("" if first else "\n") + record.to_text())
    sink.flush()


def run(args: argparse.Namespace) -> int:
    from frontlines.arena.ratings import wilson
    from frontlines.bots.registry import make_bot, parse_spec
    from frontlines.core.errors import FrontlinesError
    from frontlines.core.record import GameRecord
    from frontlines.games import ruleset as find_ruleset

    try:
        find_ruleset(args.rules)
        for spec in (args.p0, args.p1):
            if not parse_spec(spec).external:  # an engine starts when its game does
                make_bot(spec).close()  # fail fast on a bad spec
        options = rules_options(args.option)
        find_ruleset(args.rules).resolve_options(options)
    except (ValueError, KeyError, FrontlinesError) as exc:
        print(f"frontlines selfplay: {exc}", file=sys.stderr)
        return 2
    if args.games < 1 or (args.jobs is not None and args.jobs < 1):
        print("frontlines selfplay: --games and --jobs must be at least 1", file=sys.stderr)
        return 2
    problem = _unwritable(args.record)
    if problem:  # checked before the games: an hour of play must not end in a lost record
        print(f"frontlines selfplay: cannot write --record {args.record}: {problem}", file=sys.stderr)
        return 2
    # the records are read only when written (--record) or printed (one game, not --quiet)
    keep_records = bool(args.record) or (args.games == 1 and not args.quiet)
    jobs = ((args.rules, args.p0, args.p1, args.seed, i, not args.no_swap, options, args.bot_seed, keep_records)
            for i in range(args.games))
    labels = {"a": args.p0, "b": args.p1}
    tally = Tally()
    waiting: dict[int, SelfplayGame] = {}  # finished before an earlier game: told in game order
    replayed: list[tuple[int, int]] = []
    shown: list[SelfplayGame] = []  # the one game whose record is printed after the summary
    # Each record is written as soon as the games before it are done, so that a stopped run
    # keeps what it played, and no record stays in memory (about 10 KB a game). A file gets
    # them at once; stdout (--record -) after the summary lines, as before, through a
    # temporary file.
    to_stdout = args.record == "-"
    sink: IO[str] | None = None
    if to_stdout:
        sink = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115
    elif args.record:
        sink = open(args.record, "w", encoding="utf-8")  # noqa: SIM115

    def finished(job: Job, game: SelfplayGame, replays: int) -> bool:
        if replays:
            replayed.append((game.index, replays))
        waiting[game.index] = game
        while tally.games in waiting:
            game = waiting.pop(tally.games)
            _tell(args, labels, game)
            if sink is not None:
                _write_record(sink, game, "" if to_stdout else args.record, first=tally.games == 0)
            elif args.games == 1 and not args.quiet:
                shown.append(game)
            tally.add(game)
        return False

    stopped = False
    started = time.perf_counter()
    try:
        with open_backend(args.backend, args.ray_address, args.jobs) as (backend, _workers):
            started = time.perf_counter()  # Ray's start-up is not the games' time
            backend.run(SelfplayWorker, jobs, finished)
    except KeyboardInterrupt:
        stopped = True  # stopped by hand: the games played are summed up (and their records kept)
    finally:
        if sink is not None and not to_stdout:
            sink.close()
    elapsed = time.perf_counter() - started
    n = tally.games
    if stopped:
        print(f"stopped by hand after {n} of {args.games} games")
        if not n:
            return 130
    wins_a, wins_b = tally.wins["a"], tally.wins["b"]
    draws = n - wins_a - wins_b
    score = wins_a + 0.5 * draws
    print(f"{args.rules}: {n} game{'s' if n != 1 else ''} in {elapsed:.1f} s")
    print(f"  {args.p0} (--p0): {wins_a} wins   {args.p1} (--p1): {wins_b} wins   draws/unfinished: {draws}")
    # Wilson, unlike a normal interval, stays honest for a few games and at 0 % or 100 %
    low, high = wilson(score, n)
    print(f"  --p0 score {100 * score / n:.1f}% (95% interval {100 * low:.1f}%-{100 * high:.1f}%)")
    for label in ("a", "b"):
        count = tally.decisions[label]
        if count:
            print(f"  {labels[label]}: {1000 * tally.think[label] / count:.2f} ms per decision "
                  f"(max {1000 * tally.slowest[label]:.0f} ms)")
    for index, times in sorted(replayed):
        print(f"  game {index + 1} was played again from its deal: its worker died ({times} time{'s' if times > 1 else ''})")
    if sink is not None and to_stdout:
        sys.stdout.flush()
        with sink:
            sink.seek(0)
            shutil.copyfileobj(sink, sys.stdout)
    elif shown and shown[0].record is not None:
        print()
        sys.stdout.write(GameRecord.from_json(shown[0].record).to_text())
    return 130 if stopped else 0
