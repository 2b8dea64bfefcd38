"""Playing levels for people: ``easy`` < ``medium`` < ``hard`` < ``expert`` < ``master``.

Each level is just a bot spec (see :mod:`frontlines.bots.registry`), so the arena can
check that they are ordered by strength and users can reproduce any level by hand:

* ``easy``   - the heuristic, but half of its moves are picked among its top three or,
  now and then, at random: the mistakes of a beginner.
* ``medium`` - the heuristic with a careless move one time in four.
* ``hard``   - the plain heuristic: instant, and never careless.
* ``expert`` - ``pimc``: every candidate move judged on the same 32 sampled deals, the
  opponent answering in each deal as if it knew them, the positions judged by the
  heuristic's evaluation (about a tenth of a second a move in Battle Line on one core).
* ``master`` - the same search with the learned flag network judging the positions where
  weights cover the ruleset (``net=1``; today ``battleline-basic``, ``battleline``,
  ``schotten-totten`` and ``medieval``, only with numpy:
  elsewhere it plays as ``expert``); a few tenths of a second a move, capped at 2 s.

The search levels are budgets of **work** (deals and candidates), not of time: with the same
seed they play the same moves whatever the machine's load. The ``time`` in their specs is
only a safety cap, far above what the work takes on an idle core; a search that reaches it
stops early, and only then does the load matter. Each step is measured against the level
below on paired deals (docs/bots.md, "Levels").
"""

from __future__ import annotations

LEVELS: dict[str, tuple[str, str]] = {
    "easy": ("heuristic:noise=0.5", "beginner: the heuristic, half of its moves careless"),
    "medium": ("heuristic:noise=0.25", "club player: the heuristic, one move in four careless"),
    "hard": ("heuristic", "strong: the full heuristic, instant moves"),
    "expert": ("pimc:time=1", "expert: moves compared on the same 32 sampled deals (about 0.1 s)"),
    "master": ("pimc:net=1,time=2", "master: that search judged by the learned flag network where it has weights (up to 2 s)"),
}


# The bots a person can choose to play against, weakest first ("heuristic" is "hard"
# under its own name). The terminal and the web offer them in this order.
BOT_OPPONENTS: tuple[str, ...] = ("random", "easy", "medium", "heuristic", "hard", "expert", "master")


def level_spec(name: str) -> str:
    """The bot spec behind a level name; ``KeyError`` for an unknown level."""
    return LEVELS[name][0]
