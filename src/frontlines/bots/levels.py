"""Playing levels for people: ``easy`` < ``medium`` < ``hard`` < ``expert``.

Each level is just a bot spec (see :mod:`frontlines.bots.registry`), so the arena can
check that they are ordered by strength and users can reproduce any level by hand:

* ``easy``   - the heuristic, but half of its moves are picked among its top three or,
  now and then, at random: the mistakes of a beginner.
* ``medium`` - the heuristic with an occasional slip (15 % of its moves).
* ``hard``   - the plain heuristic: instant, and never careless.
* ``expert`` - ISMCTS, one second per move, built on that heuristic.

Why not search at two levels: over the budgets that are pleasant to wait for (a quarter
of a second to a few seconds a move), ISMCTS's strength grows too little with time for
two search levels to be told apart (docs/bots.md has the figures); the heuristic's noise
gives clear, measured steps below it.
"""

from __future__ import annotations

LEVELS: dict[str, tuple[str, str]] = {
    "easy": ("heuristic:noise=0.5", "beginner: the heuristic, half of its moves careless"),
    "medium": ("heuristic:noise=0.15", "club player: the heuristic with occasional slips"),
    "hard": ("heuristic", "strong: the full heuristic, instant moves"),
    "expert": ("ismcts:time=1", "expert: ISMCTS search, 1 s per move"),
}


def level_spec(name: str) -> str:
    """The bot spec behind a level name; ``KeyError`` for an unknown level."""
    return LEVELS[name][0]
