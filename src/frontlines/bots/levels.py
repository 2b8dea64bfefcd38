"""Playing levels for people: ``easy`` < ``medium`` < ``hard`` < ``expert``.

Each level is just a bot spec (see :mod:`frontlines.bots.registry`), so the arena can
check that they are ordered by strength and users can reproduce any level by hand:

* ``easy``   - the heuristic, but half of its moves are picked among its top three or,
  now and then, at random: the mistakes of a beginner.
* ``medium`` - the heuristic with an occasional slip (15 % of its moves).
* ``hard``   - the plain heuristic: instant, and never careless.
* ``expert`` - ISMCTS, a quarter of a second per move, built on that heuristic.

Why one search level, and a short one: while the search's cut-off evaluation was
saturated, ISMCTS did not get stronger with time in Battle Line, so two search levels
could not be told apart. Calibrated (2026-12-01), one second a move measured 68.8 % against
the heuristic and a quarter second 62.5 % (80 games each, within the noise; docs/bots.md has
the figures), so ``expert`` stays quick until a longer run separates them. The heuristic's
noise gives clear, measured steps below it.
"""

from __future__ import annotations

LEVELS: dict[str, tuple[str, str]] = {
    "easy": ("heuristic:noise=0.5", "beginner: the heuristic, half of its moves careless"),
    "medium": ("heuristic:noise=0.15", "club player: the heuristic with occasional slips"),
    "hard": ("heuristic", "strong: the full heuristic, instant moves"),
    "expert": ("ismcts:time=0.25", "expert: ISMCTS search, a quarter of a second per move"),
}


# The bots a person can choose to play against, weakest first ("heuristic" is "hard"
# under its own name). The terminal and the web offer them in this order.
BOT_OPPONENTS: tuple[str, ...] = ("random", "easy", "medium", "heuristic", "hard", "expert")


def level_spec(name: str) -> str:
    """The bot spec behind a level name; ``KeyError`` for an unknown level."""
    return LEVELS[name][0]
