"""Playing levels for people: ``easy`` < ``medium`` < ``hard`` < ``expert`` < ``master``.

Each level is just a bot spec (see :mod:`frontlines.bots.registry`), so the arena can
check that they are ordered by strength and users can reproduce any level by hand:

* ``easy``   - the heuristic, but half of its moves are picked among its top three or,
  now and then, at random: the mistakes of a beginner.
* ``medium`` - the heuristic with an occasional slip (15 % of its moves).
* ``hard``   - the plain heuristic: instant, and never careless.
* ``expert`` - ISMCTS built on that heuristic, 400 iterations a move (about a quarter
  of a second in Battle Line on one core).
* ``master`` - the same search, 2400 iterations a move (about 1.6 s; the level may think
  up to 2 s a move on one core).

The search levels are budgets of **iterations**, not of time: with the same seed they play
the same moves whatever the machine's load (a time budget made results depend on it). The
``time`` in their specs is only a safety cap, far above what the iterations take on an idle
core; a search that reaches it stops early, and only then does the load matter. Lower levels
are the heuristic with less and less noise, which gives clear, measured steps; whether
``master`` is clearly above ``expert`` is for the arena to show (docs/bots.md).
"""

from __future__ import annotations

LEVELS: dict[str, tuple[str, str]] = {
    "easy": ("heuristic:noise=0.5", "beginner: the heuristic, half of its moves careless"),
    "medium": ("heuristic:noise=0.15", "club player: the heuristic with occasional slips"),
    "hard": ("heuristic", "strong: the full heuristic, instant moves"),
    "expert": ("ismcts:iterations=400,time=1", "expert: ISMCTS search, 400 iterations a move (about 0.25 s)"),
    "master": ("ismcts:iterations=2400,time=2", "master: ISMCTS search, 2400 iterations a move (up to 2 s)"),
}


# The bots a person can choose to play against, weakest first ("heuristic" is "hard"
# under its own name). The terminal and the web offer them in this order.
BOT_OPPONENTS: tuple[str, ...] = ("random", "easy", "medium", "heuristic", "hard", "expert", "master")


def level_spec(name: str) -> str:
    """The bot spec behind a level name; ``KeyError`` for an unknown level."""
    return LEVELS[name][0]
