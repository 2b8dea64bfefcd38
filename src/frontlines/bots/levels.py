"""Playing levels for people: ``easy`` < ``medium`` < ``hard`` < ``expert`` < ``master``.

Each level is just a bot spec (see :mod:`frontlines.bots.registry`), so the arena can
check that they are ordered by strength and users can reproduce any level by hand:

* ``easy``   - the heuristic, but half of its moves are picked among its top three or,
  now and then, at random: the mistakes of a beginner.
* ``medium`` - the heuristic with a careless move one time in four.
* ``hard``   - the plain heuristic: instant, and never careless.
* ``expert`` - ``pimc``: every candidate move judged on the same 32 sampled deals, the
  opponent answering in each deal as if it knew them, the positions judged by the
  heuristic's evaluation (about a tenth of a second a move in Battle Line on one core). In
  ``battleline`` (with tactics) it adds the search's second stage on 48 deals (``refine=3``, no
  network; about a second a move), measured there over issue 28's 70 % line against ``hard``.
* ``master`` - the same search with the learned flag network judging the positions where
  weights cover the ruleset (``net=1``; today ``battleline-basic``, ``battleline``,
  ``schotten-totten`` and ``medieval``, only with numpy:
  elsewhere it plays as ``expert``); a few tenths of a second a move, capped at 2 s. In
  Battle Line with tactics, Schotten Totten and Medieval it adds the search's second stage
  (``refine``: the best three moves judged again on three times the deals, one ply deeper),
  measured there to lift it over issue 28's lines against ``hard`` (80 % in ``battleline``,
  70 % in the other two; :data:`RULESET_SPECS`; about a second a move).

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
    "expert": ("pimc:time=1", "expert: moves compared on the same 32 sampled deals (about 0.1 s; in battleline the "
               "best three again on 48, about 1 s)"),
    "master": ("pimc:net=1,time=2", "master: that search judged by the learned flag network where it has weights (up to 2 s)"),
}


# Where a level plays another spec in one ruleset: level -> {ruleset: spec}. Only what was
# measured to pay in that ruleset (docs/bots.md, "Issue 28's gate 3", "... gate 4"); elsewhere the level's
# spec above plays.
RULESET_SPECS: dict[str, dict[str, str]] = {
    "expert": {"battleline": "pimc:refine=3,refine_deals=48,time=2"},
    "master": {
        "battleline": "pimc:net=1,refine=3,refine_deals=96,time=2",
        "schotten-totten": "pimc:net=1,refine=3,refine_deals=96,time=2",
        "medieval": "pimc:net=1,refine=3,refine_deals=96,time=2",
    },
}


# The bots a person can choose to play against, weakest first ("heuristic" is "hard"
# under its own name). The terminal and the web offer them in this order.
BOT_OPPONENTS: tuple[str, ...] = ("random", "easy", "medium", "heuristic", "hard", "expert", "master")


def level_spec(name: str, ruleset: str | None = None) -> str:
    """The bot spec behind a level name, in ``ruleset`` where given; ``KeyError`` for an
    unknown level."""
    spec = LEVELS[name][0]
    return spec if ruleset is None else RULESET_SPECS.get(name, {}).get(ruleset, spec)


def describe_level(name: str) -> str:
    """The spec behind a level for people: ``pimc:net=1,time=2`` or, where a ruleset plays
    another, ``pimc:net=1,time=2; schotten-totten: pimc:...``."""
    others = RULESET_SPECS.get(name, {})
    return "; ".join([LEVELS[name][0], *(f"{ruleset}: {spec}" for ruleset, spec in sorted(others.items()))])
