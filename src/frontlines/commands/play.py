"""``frontlines play``: the full-screen terminal game (Textual)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from frontlines.commands.options import add_option_argument, rules_options

# plain Python: no terminal library yet
from frontlines.tui.session import OPPONENTS, GameConfig, find_record, load_record, resume_config

if TYPE_CHECKING:
    from frontlines.tui.app import FrontlinesApp

HELP = ("Play in the terminal against a bot or a person at the same keyboard. Without flags a "
        "setup screen asks for the game, the opponent, your seat and the seed.")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", metavar="RULESET", help="ruleset name (see `frontlines rules`); skips the setup screen")
    parser.add_argument("--opponent", choices=OPPONENTS,
                        help="bot level, or human for pass-and-play (default medium; with --load, the saved game's)")
    parser.add_argument("--seat", type=seat_number, metavar="p1|p2",
                        help="your seat: p1 (Player 1) or p2 (Player 2); default p1, with --load the saved game's "
                        "(the older 0 and 1 still mean p1 and p2)")
    parser.add_argument("--seed", type=int, help="deal seed (default: random)")
    parser.add_argument("--first", choices=("random", "me", "opponent"), default="random",
                        help="who moves first (War Machine: who chooses the leftover cards)")
    add_option_argument(parser)
    parser.add_argument("--load", type=Path, metavar="RECORD", help="continue a saved game record")
    parser.add_argument("--replay", type=Path, metavar="RECORD", help="step through a game record with the arrow keys")
    parser.add_argument("--save-dir", type=Path, default=None,
                        help="folder for saved games (default: your data folder, ~/.local/share/frontlines/saves "
                        "or $XDG_DATA_HOME/frontlines/saves); --load and --replay also look there for a bare file name")
    parser.add_argument("--bot-delay", type=float, default=0.4, help="seconds between a bot's actions (default 0.4)")


def seat_number(text: str) -> int:
    """``--seat``: ``p1``/``p2`` as the terminal names the seats everywhere (``Player 1 (P1)``);
    ``0``/``1``, the engine's numbers and this flag's earlier values, still mean P1 and P2."""
    seat = {"p1": 0, "p2": 1, "0": 0, "1": 1}.get(text.strip().lower())
    if seat is None:
        raise argparse.ArgumentTypeError(f"choose p1 or p2, not {text!r}")
    return seat


def _record_problem(path: Path) -> str:
    """Why ``path`` cannot be loaded or replayed (empty when it can): missing, unreadable,
    not a record, or a record whose actions do not replay."""
    from frontlines.core.errors import FrontlinesError
    from frontlines.tui.session import replay_states

    if not path.is_file():
        return "no such record file"
    try:
        replay_states(load_record(path))
    except OSError as exc:
        return str(exc.strerror or exc)
    except (FrontlinesError, ValueError, KeyError, UnicodeDecodeError) as exc:
        return f"not a valid game record ({' '.join(str(exc).split())})"
    return ""


def run(args: argparse.Namespace) -> int:
    try:
        from frontlines.tui.app import FrontlinesApp  # noqa: F401 - textual is an optional dependency
    except ImportError as exc:
        print(f"frontlines play needs the terminal extra: pip install 'frontlines[tui]' ({exc})", file=sys.stderr)
        return 2
    app = make_app(args)
    if isinstance(app, str):  # found here, before the full-screen app takes the terminal
        print(f"frontlines play: {app}", file=sys.stderr)
        return 2
    app.run()
    return 0


def make_app(args: argparse.Namespace) -> FrontlinesApp | str:
    """The app the flags ask for, or why they cannot be met."""
    from frontlines.tui.app import FrontlinesApp

    try:
        options = rules_options(args.option)
    except ValueError as exc:
        return str(exc)
    # a bare file name is also looked for in the saves folder
    load, replay = (find_record(path, args.save_dir) if path is not None else None for path in (args.load, args.replay))
    for flag, path in (("--load", load), ("--replay", replay)):
        problem = _record_problem(path) if path is not None else ""
        if problem:
            return f"{flag} {path}: {problem}"
    if args.rules is not None:
        from frontlines.core.errors import UnknownRuleset
        from frontlines.games import ruleset

        try:
            ruleset(args.rules).resolve_options(options)
        except (UnknownRuleset, ValueError) as exc:
            return str(exc)
    if load is not None:
        # a saved game goes on with the seats it was saved with; a flag given here wins
        config = resume_config(load_record(load), opponent=args.opponent, seat=args.seat, seed=args.seed)
    else:
        config = GameConfig(ruleset=args.rules or "battleline", opponent=args.opponent or "medium",
                            seat=args.seat if args.seat is not None else 0, seed=args.seed, options=options,
                            first=args.first)
    # Any of the game flags means "start now"; the setup screen is for a bare `frontlines play`.
    skip_setup = args.rules is not None or args.opponent is not None or args.seat is not None or args.seed is not None
    return FrontlinesApp(config, load=load, replay=replay, setup=not skip_setup,
                         bot_delay=max(0.0, args.bot_delay), save_dir=args.save_dir)
