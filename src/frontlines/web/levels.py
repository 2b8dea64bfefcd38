"""The bot levels the pages offer, in players' words.

Which levels exist, and in which order, is ``bots/levels.py``'s ``BOT_OPPONENTS``; this module
gives each a name and a line for people (English msgids: the catalogs translate them, and
``i18n.extract_messages`` lists them). The pages get the list from the server (every page's
template carries it), so a level added there shows up on the home page by itself; a test
fails while it has no words here.
"""

from __future__ import annotations

from frontlines.bots.levels import BOT_OPPONENTS, LEVELS

# level id -> (name, what playing it is like)
LEVEL_WORDS: dict[str, tuple[str, str]] = {
    "random": ("Random", "Plays any legal move at random."),
    "easy": ("Easy", "A beginner: careless with half of its moves."),
    "medium": ("Medium", "A club player: slips now and then."),
    "heuristic": ("Heuristic", "The same player as Hard, under its own name."),
    "hard": ("Hard", "Strong: never careless, and answers at once."),
    "expert": ("Expert", "Thinks ahead before each move."),
    "master": ("Master", "Thinks ahead longest: the strongest, up to two seconds a move."),
}


def bot_levels() -> list[dict[str, object]]:
    """Every level a game may be played against, weakest first: ``id``, ``name``,
    ``description`` and ``offered`` (whether the home page offers it: not a level that is
    another's bot under its own name, as ``heuristic`` is ``hard``)."""
    aliases = {spec for spec, _ in LEVELS.values()}
    out: list[dict[str, object]] = []
    for level in BOT_OPPONENTS:
        name, description = LEVEL_WORDS.get(level, (level.capitalize(), ""))
        out.append({"id": level, "name": name, "description": description,
                    "offered": level in LEVELS or level not in aliases})
    return out


def messages() -> list[str]:
    """The level words, for the catalogs."""
    return [w for words in LEVEL_WORDS.values() for w in words]
