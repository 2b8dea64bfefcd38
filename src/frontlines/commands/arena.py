"""``frontlines arena``: matches among built-in and external bots, with ratings.

The flags are a contract other programs rely on (see ``docs/arena.md``)::

    frontlines arena --rules RULESET --games N --seed S --workers K \\
        --bot NAME=SPEC --bot NAME=SPEC ... --json FILE [--backend ray [--ray-address ADDR]]
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from frontlines.commands.backend import add_backend_arguments, open_backend
from frontlines.commands.options import add_option_argument, rules_options

HELP = (
    "Play a round robin (or --gauntlet NAME, or --sprt on two bots) among built-in and external bots on "
    "paired deals, then print Bradley–Terry ratings with 95% intervals and per-pair Wilson intervals."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", default="battleline", metavar="RULESET", help="ruleset (warmachine for War Machine); default battleline")
    add_option_argument(parser)
    parser.add_argument("--games", type=int, default=None, metavar="N",
                        help="games per pairing, played as N/2 deals with seats swapped (rounded up to even; default 20); "
                        "with --sprt the most games before giving up (default 2000)")
    parser.add_argument("--seed", type=int, default=1, metavar="S", help="match seed: deal k gets the same cards in every pairing")
    parser.add_argument("--workers", type=int, default=None, metavar="K",
                        help="worker processes (default 1: play in this process); with --backend ray, Ray workers "
                        "(default: one per CPU of the cluster)")
    add_backend_arguments(parser)
    parser.add_argument("--bot", action="append", default=[], metavar="NAME=SPEC",
                        help="a participant: random, heuristic, ismcts:time=0.5, expert, … or cmd:<command line> (external); "
                        "NAME= may be left out")
    parser.add_argument("--protocol", choices=("frontlines", "classic"), default="frontlines",
                        help="protocol spoken by the cmd: bots (default frontlines)")
    parser.add_argument("--classic-strict", action="store_true",
                        help="classic-protocol bots forfeit an invalid play (default: repaired as the original "
                        "classic engine does, and counted as repairs; docs/protocol.md)")
    parser.add_argument("--gauntlet", metavar="NAME", help="NAME plays every other bot; the others do not play each other")
    parser.add_argument("--sprt", metavar="SPEC", help="elo0=0,elo1=50,alpha=0.05,beta=0.05[,mode=trinomial]: "
                        "is the first bot stronger than the second? plays pairs until decided or --games")
    parser.add_argument("--time", type=float, default=None, metavar="SECONDS", help="each player's clock per game")
    parser.add_argument("--increment", type=float, default=0.0, metavar="SECONDS", help="added to a clock after every decision")
    parser.add_argument("--move-timeout", type=float, default=None, metavar="SECONDS",
                        help="external bots without a clock: seconds per answer (default 10)")
    parser.add_argument("--anchor", default=None, metavar="NAME", help="rate NAME (or 'first': the first --bot) at 0; default: mean rating 0")
    parser.add_argument("--records", metavar="PATH", help="save every game: a directory of text records, or a .jsonl file")
    parser.add_argument("--json", metavar="FILE", help="write ratings and pair results as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def parse_bots(items: list[str]) -> list[tuple[str, str]]:
    """``NAME=SPEC`` items (``SPEC`` alone is named after itself); names must be unique."""
    from frontlines.bots.registry import parse_spec

    out: list[tuple[str, str]] = []
    for item in items:
        head, sep, rest = item.partition("=")
        # "cmd:python bot.py --x=1" has '=' inside the spec: a name never holds ':' or spaces.
        if sep and head and ":" not in head and " " not in head:
            name, spec = head.strip(), rest.strip()
        else:
            name, spec = item.strip(), item.strip()
            if parse_spec(spec).external:  # named after the last word of its command line
                name = spec.split()[-1].rsplit("/", 1)[-1]
        if not spec:
            raise ValueError(f"--bot {item!r} has no spec")
        if any(n == name for n, _ in out):
            raise ValueError(f"two bots are called {name!r}; name them with NAME=SPEC")
        out.append((name, spec))
    return out


def run(args: argparse.Namespace) -> int:
    from frontlines.arena.match import MatchConfig, check_match, run_match

    try:
        bots = parse_bots(args.bot)
        options = rules_options(args.option)
        config = MatchConfig(
            ruleset=args.rules,
            bots=bots,
            games=args.games if args.games is not None else (2000 if args.sprt else 20),
            seed=args.seed,
            protocol=args.protocol,
            gauntlet=args.gauntlet,
            sprt=args.sprt,
            time=args.time,
            increment=args.increment,
            move_timeout=args.move_timeout,
            anchor=args.anchor,
            records=args.records,
            options=tuple(options.items()),
            progress=not args.quiet,
            classic_repair=not args.classic_strict,
        )
        check_match(config)  # a mistake is told before a cluster is started or joined
        with open_backend(args.backend, args.ray_address, args.workers) as (config.backend, config.workers):
            report = run_match(config)
    except (ValueError, KeyError) as exc:
        print(f"frontlines arena: {exc}", file=sys.stderr)
        return 2
    print(report.text)
    if args.json:
        payload: dict[str, Any] = report.data
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(payload, fh, indent=2)
            fh.write("\n")
    return 130 if report.stopped else 0  # 128 + SIGINT, as a shell reports a stopped command
