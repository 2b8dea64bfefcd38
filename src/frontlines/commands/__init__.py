"""One module per ``frontlines`` subcommand (see :mod:`frontlines.cli`)."""

from __future__ import annotations

import argparse
import os
import select
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
        if isinstance(exc, BrokenPipeError) and stdout_closed():
            raise  # the reader of our output went away (`| head`): main() ends quietly
        print(f"frontlines {name}: {_one_line(exc)}", file=sys.stderr)
        status = getattr(exc, "exit_status", 2)
        return status if isinstance(status, int) else 2


def _one_line(exc: BaseException) -> str:
    """The error's message on one line (an OSError names its file)."""
    if isinstance(exc, OSError) and exc.filename is not None:
        return f"{exc.filename}: {exc.strerror or exc}"
    return " ".join(str(exc).split()) or type(exc).__name__


# The exit status of a command whose output's reader went away: what a shell reports for a
# program that SIGPIPE ended (128 + 13), as for `yes | head`.
READER_GONE = 141


def stdout_closed() -> bool:
    """Whether nobody reads our standard output any more (a pipe whose reader exited).

    A BrokenPipeError may come from an engine's pipe too (the arena, a bot): that one is a
    real error. Polling stdout tells them apart: a pipe or socket with no reader polls as
    an error or a hang-up, a file or terminal never does."""
    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(events & (select.POLLERR | select.POLLHUP) for _fd, events in poller.poll(0))
    except (OSError, ValueError, AttributeError):  # no stdout, or not a real file
        return False


def end_quietly() -> int:
    """Stop writing to a standard output nobody reads, with no message: what is left in its
    buffer goes to /dev/null (else Python's flush at exit reports the broken pipe)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return READER_GONE
