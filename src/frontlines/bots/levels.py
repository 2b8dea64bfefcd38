"""Playing levels for people: ``easy`` < ``medium`` < ``hard`` < ``expert``.

Each level is just a bot spec (see :mod:`frontlines.bots.registry`), so the arena can
check that they are ordered by strength and users can reproduce any level by hand:

* ``easy``   - the heuristic, but a third of its moves are picked among its top three
  or at random: it makes the mistakes of a beginner.
* ``medium`` - the plain heuristic (a few milliseconds a move).
* ``hard``   - ISMCTS with half a second per move, one process.
* ``expert`` - ISMCTS with two seconds per move on two worker processes.
"""

from __future__ import annotations

LEVELS: dict[str, tuple[str, str]] = {
    "easy": ("heuristic:noise=0.35", "beginner: the heuristic with frequent mistakes"),
    "medium": ("heuristic", "club player: the full heuristic, instant moves"),
    "hard": ("ismcts:time=0.5", "strong: ISMCTS, 0.5 s per move"),
    "expert": ("ismcts:time=2,workers=2", "expert: ISMCTS, 2 s per move on two processes"),
}


def level_spec(name: str) -> str:
    """The bot spec behind a level name; ``KeyError`` for an unknown level."""
    return LEVELS[name][0]
