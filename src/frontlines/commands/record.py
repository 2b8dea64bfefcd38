"""``frontlines record``: check, replay and convert game records."""

from __future__ import annotations

import argparse
import json
import sys

HELP = "Check a game record (text or JSON lines), print its final position, or convert it."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="record file (.txt/.pgn-style text, .json, or .jsonl for many); - for stdin")
    parser.add_argument("--to", choices=("text", "json", "jsonl", "final"), default="final",
                        help="what to print: the record as text or JSON, or the final position (default)")


def read_input(path: str) -> str:
    """The text of the file ``path``, or of stdin for ``-``."""
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def run(args: argparse.Namespace) -> int:
    from frontlines.core.errors import FrontlinesError
    from frontlines.core.record import dump_jsonl, load_records
    from frontlines.games import parse_state

    try:
        text = read_input(args.file)
    except OSError as exc:  # the record's file; an error writing the output is not about it
        print(f"frontlines record: {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    try:
        for number, record in enumerate(load_records(text), 1):
            final = record.replay(parse_state)  # proves every action legal
            if args.to == "text":
                print(record.to_text())
            elif args.to == "json":
                print(json.dumps(record.to_json(), ensure_ascii=False, indent=2))
            elif args.to == "jsonl":
                sys.stdout.write(dump_jsonl([record]))
            else:
                outcome = final.outcome()
                print(f"game {number}: {len(record.actions)} actions, result {record.tags.get('Result', '*')}"
                      f" ({outcome.reason if outcome else 'unfinished'})")
                print(final.to_notation())
    except (FrontlinesError, ValueError, KeyError, UnicodeDecodeError) as exc:
        print(f"frontlines record: {args.file} is not a valid record: {exc}", file=sys.stderr)
        return 2
    return 0
