"""``frontlines bot NAME``: a built-in bot as an external engine on stdin/stdout."""

from __future__ import annotations

import argparse
import sys

HELP = (
    "Run a built-in bot (random, heuristic, ismcts:time=0.5, expert, …) as an engine speaking our "
    "frontlines protocol (docs/protocol.md) or, with --protocol classic, the classic community protocol."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("spec", metavar="NAME", help="bot spec as in the arena: random, heuristic, ismcts:time=0.5, expert, …")
    parser.add_argument("--protocol", choices=("frontlines", "classic"), default="frontlines",
                        help="protocol to speak (default frontlines)")
    parser.add_argument("--seed", type=int, default=None, help="random seed of the bot")
    parser.add_argument("--name", default=None, help="name announced to the host (default: the bot's name)")


def run(args: argparse.Namespace) -> int:
    from frontlines.bots.registry import make_bot

    try:
        bot = make_bot(args.spec, args.seed)
    except ValueError as exc:
        print(f"frontlines bot: {exc}", file=sys.stderr)
        return 2
    if args.protocol == "classic":
        from frontlines.bots.classic import serve_classic

        return serve_classic(bot, name=args.name, seed=args.seed)
    from frontlines.bots.engine import EngineServer

    # The bot already built checks the spec; the server rebuilds it only when options change.
    server = EngineServer(args.spec, seed=args.seed, name=args.name, factory=lambda spec, seed: bot if spec == args.spec and seed == args.seed else make_bot(spec, seed))
    return server.serve()
