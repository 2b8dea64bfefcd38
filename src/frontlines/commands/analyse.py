"""``frontlines analyse``: review a game record move by move (win chance before and after).

For every decision where the mover had a choice, the sampling search judges the move
played and the moves it prefers on the same deals, from the mover's view as it was
(``frontlines.bots.analysis``): the mover's win chance with the best move (*before*),
with the move played (*after*), the move the search prefers and how much was lost.
Mistakes and blunders are marked. ``--json`` prints the same as one JSON object per game.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

HELP = "Review a game record: per move, the mover's win chance before and after, the better move, the loss."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="record file (text, .json, or .jsonl for many games); - for stdin")
    parser.add_argument("--json", action="store_true", help="one JSON object per game instead of a table")
    parser.add_argument("--game", type=int, default=0, metavar="N",
                        help="review only game N of a file of many (1 = the first; default: every game)")
    parser.add_argument("--deals", type=int, default=0, metavar="N",
                        help="sampled deals per decision (default 24; more is slower and surer)")
    parser.add_argument("--width", type=int, default=0, metavar="N",
                        help="the heuristic's best N moves judged beside the move played (default 6)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the sampled deals (default 0)")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")


def _percent(x: float) -> str:
    return f"{100 * x:5.1f}%"


def _table(record: Any, reviews: list[Any], summary: Any) -> str:
    tags = record.tags
    head = (f"{tags.get('Ruleset', '?')}: {tags.get('Player0', '?') or 'player 0'} (0) vs "
            f"{tags.get('Player1', '?') or 'player 1'} (1), result {tags.get('Result', '*')}")
    rows = [head, f"{'#':>4}  {'seat':>4}  {'move':<14}{'before':>7}  {'after':>7}  {'best':<14}{'lost':>6}"]
    for r in reviews:
        mark = {"blunder": "  ?? blunder", "mistake": "  ? mistake"}.get(r.verdict, "")
        exact = " (exact)" if r.exact else ""
        rows.append(f"{r.index + 1:>4}  {r.player:>4}  {r.move:<14}{_percent(r.before):>7}  {_percent(r.after):>7}  "
                    f"{r.best:<14}{100 * r.loss:6.1f}{mark}{exact}")
    for p in (0, 1):
        rows.append(f"seat {p}: {summary.decisions[p]} decisions, mean loss {100 * summary.mean_loss[p]:.1f} points, "
                    f"{summary.mistakes[p]} mistakes, {summary.blunders[p]} blunders")
    return "\n".join(rows)


def run(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from frontlines.bots.analysis import REVIEW_PARAMS, review_record, summarise
    from frontlines.commands.record import read_input
    from frontlines.core.errors import FrontlinesError
    from frontlines.core.record import load_records
    from frontlines.games import parse_state

    if args.deals < 0 or args.width < 0 or args.game < 0:
        print("frontlines analyse: --deals, --width and --game must not be negative", file=sys.stderr)
        return 2
    params = replace(REVIEW_PARAMS, deals=args.deals or REVIEW_PARAMS.deals, width=args.width or REVIEW_PARAMS.width)
    try:
        records = load_records(read_input(args.file))
    except OSError as exc:
        print(f"frontlines analyse: {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except (FrontlinesError, ValueError, UnicodeDecodeError) as exc:
        print(f"frontlines analyse: {args.file} is not a valid record: {exc}", file=sys.stderr)
        return 2
    if args.game > len(records):
        print(f"frontlines analyse: {args.file} holds {len(records)} game(s), not {args.game}", file=sys.stderr)
        return 2
    chosen = [(args.game, records[args.game - 1])] if args.game else list(enumerate(records, 1))
    for number, record in chosen:
        def progress(done: int, total: int, number: int = number) -> None:
            if not args.quiet:
                print(f"\rgame {number}: {done}/{total} decisions", end="" if done < total else "\n", file=sys.stderr)

        try:
            reviews = review_record(record, parse_state, params, args.seed, progress)
        except (FrontlinesError, ValueError, KeyError) as exc:
            print(f"frontlines analyse: game {number} of {args.file} is not a valid record: {exc}", file=sys.stderr)
            return 2
        summary = summarise(reviews)
        if args.json:
            print(json.dumps({"game": number, "tags": {k: v for k, v in record.tags.items() if k != "Setup"},
                              "moves": [r.to_dict() for r in reviews], "summary": summary.to_dict(),
                              "params": {"deals": params.deals, "width": params.width, "seed": args.seed}},
                             ensure_ascii=False))
        else:
            print(_table(record, reviews, summary))
    return 0
