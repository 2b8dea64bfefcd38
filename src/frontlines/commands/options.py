"""``--option NAME=VALUE``: the ruleset options of ``selfplay``, ``play`` and ``arena``, read once.

>>> rules_options(["claim_timing=after_play", " first_player = 1 "])
{'claim_timing': 'after_play', 'first_player': '1'}
>>> rules_options(["tactics"])
Traceback (most recent call last):
    ...
ValueError: --option wants NAME=VALUE, not 'tactics'

Whether a name and value exist is the ruleset's business (``Ruleset.resolve_options``).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable


def add_option_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="rules option (repeatable), e.g. claim_timing=start_of_turn; see `frontlines rules`")


def rules_options(items: Iterable[str]) -> dict[str, str]:
    """``NAME=VALUE`` items as a dictionary (a later item wins); ``ValueError`` for a malformed one."""
    options: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"--option wants NAME=VALUE, not {item!r}")
        options[name.strip()] = value.strip()
    return options
