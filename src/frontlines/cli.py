"""The ``frontlines`` console command.

Each subcommand lives in its own module under :mod:`frontlines.commands` and provides
``HELP: str``, ``add_arguments(parser)`` and ``run(args) -> int``. Modules are imported
only when their subcommand runs, so ``frontlines prove`` never pays for the web stack.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn

# name -> (module, one-line help). The help is repeated here so that ``--help`` needs no imports.
COMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("frontlines.commands.serve", "start the web app (http://127.0.0.1:8000)"),
    "db": ("frontlines.commands.db", "create, migrate (upgrade) or copy the web database, show its revision (current)"),
    "play": ("frontlines.commands.play", "full-screen terminal game"),
    "prove": ("frontlines.commands.prove", "claim proofs: JSON lines on stdin -> JSON lines on stdout"),
    "selfplay": ("frontlines.commands.selfplay", "bots play each other and print the result and the record"),
    "bot": ("frontlines.commands.bot", "run a built-in bot as an external engine on stdin/stdout"),
    "arena": ("frontlines.commands.arena", "matches among bots, with ratings and confidence intervals"),
    "train": ("frontlines.commands.train", "train the flag network's weights (self-play; seeded, resumable)"),
    "bench": ("frontlines.commands.bench", "speed figures: random games/s, proofs/s, ISMCTS iterations/s"),
    "rules": ("frontlines.commands.rules", "list rulesets and their options"),
    "record": ("frontlines.commands.record", "check, replay, convert game records (text <-> JSON)"),
    "analyse": ("frontlines.commands.analyse", "review a game record: win chance before and after each move, mistakes"),
}


class OneLineParser(argparse.ArgumentParser):
    """A mistake on the command line is one line on stderr and status 2, as every other
    mistake a command reports (argparse printed its whole usage block first); ``--help``
    still shows the usage."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {' '.join(message.split())} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="frontlines", description="Battle Line family and War Machine.")
    from frontlines import __version__

    parser.add_argument("--version", action="version", version=f"frontlines {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (_module, help_text) in COMMANDS.items():
        sub.add_parser(name, help=help_text, add_help=False)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from frontlines.commands import end_quietly, stdout_closed

    try:
        try:
            return _dispatch(list(sys.argv[1:] if argv is None else argv))
        finally:  # flushed here, so that a reader gone away is seen here, not at exit
            sys.stdout.flush()
    except BrokenPipeError:
        if not stdout_closed():
            raise
        return end_quietly()  # `frontlines rules | head`: no message, as for any filter


def _dispatch(args: list[str]) -> int:
    if not args or args[0] not in COMMANDS:
        parser = build_parser()
        if not args:
            parser.print_help()
            return 2
        parser.parse_args(args)  # prints the usage error for an unknown command
        return 2
    name = args[0]
    module = importlib.import_module(COMMANDS[name][0])
    parser = OneLineParser(prog=f"frontlines {name}", description=module.HELP)
    module.add_arguments(parser)
    ns = parser.parse_args(args[1:])
    from frontlines.commands import run_command

    return run_command(name, module.run, ns)

if __name__ == "__main__":
    raise SystemExit(main())
