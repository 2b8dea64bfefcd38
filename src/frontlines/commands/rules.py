"""``frontlines rules``: the rulesets and their options."""

from __future__ import annotations

import argparse
import json

HELP = "List every ruleset with its options and defaults."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def run(args: argparse.Namespace) -> int:
    from frontlines.games import all_rulesets

    rulesets = all_rulesets()
    if args.json:
        print(json.dumps([
            {"name": r.name, "game": r.game, "title": r.title,
             "options": [{"name": o.name, "default": o.default, "choices": list(o.choices), "help": o.help} for o in r.options]}
            for r in rulesets
        ], indent=2))
        return 0
    for r in rulesets:
        print(f"{r.name:26} {r.title}")
        for o in r.options:
            print(f"    {o.name} = {o.default}  ({' | '.join(o.choices)})  {o.help}")
    return 0
