"""One module per ``frontlines`` subcommand (see :mod:`frontlines.cli`)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from frontlines.core.errors import FrontlinesError


def run_command(name: str, run: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    """``run(args)``, with a user's mistake that the command did not catch itself (a file
    that is missing or not a record, a bad ruleset or option) as one line on stderr and
    status 2 (or the error's own ``exit_status``), never a traceback."""
    try:
        return run(args)
    except (FrontlinesError, OSError) as exc:
        print(f"frontlines {name}: {_one_line(exc)}", file=sys.stderr)
        status = getattr(exc, "exit_status", 2)
        return status if isinstance(status, int) else 2


def _one_line(exc: BaseException) -> str:
    """The error's message on one line (an OSError names its file)."""
    if isinstance(exc, OSError) and exc.filename is not None:
        return f"{exc.filename}: {exc.strerror or exc}"
    return " ".join(str(exc).split()) or type(exc).__name__
