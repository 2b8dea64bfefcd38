"""Registry of game modules and their rulesets.

Everything outside ``frontlines.games`` finds games here, by ruleset name, so that bots,
the arena and the user interfaces carry no game-specific code.

>>> from frontlines.games import all_rulesets, new_state, parse_state
>>> [r.name for r in all_rulesets()]
['battleline', 'battleline-basic', 'schotten-totten', 'schotten-totten-tactics', 'medieval', 'warmachine']
>>> state = new_state("schotten-totten", seed=3)  # the same seed deals the same game
>>> state.current_player(), len(state.legal_actions())
(0, 54)
>>> state.apply(state.parse_action("R9@5"))
>>> view = state.view(1).to_dict()  # what player 1 may know: not player 0's hand
>>> view["hands"], view["log"]
([None, ['Y6', 'G4', 'G8', 'P4', 'P5', 'P9']], ['R9@5'])
>>> parse_state(state.to_notation()) == state  # one line of text holds the whole position
True
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping

from frontlines.core.encoding import Encoding
from frontlines.core.errors import NotationError, UnknownRuleset
from frontlines.core.game import GameModule, Ruleset, State, View

# Game modules in the order user interfaces list them. Each module exposes ``MODULE``.
_MODULE_PATHS = {
    "battleline": "frontlines.games.battleline",
    "warmachine": "frontlines.games.warmachine",
}
_loaded: dict[str, GameModule] = {}


def game_module(name: str) -> GameModule:
    """The game module called ``name`` (``battleline`` or ``warmachine``)."""
    module = _loaded.get(name)
    if module is None:
        path = _MODULE_PATHS.get(name)
        if path is None:
            raise UnknownRuleset(f"unknown game {name!r}; known: {', '.join(_MODULE_PATHS)}")
        module = importlib.import_module(path).MODULE
        _loaded[name] = module
    return module


def all_rulesets() -> list[Ruleset]:
    """Every ruleset of every game, in display order."""
    return [r for name in _MODULE_PATHS for r in game_module(name).rulesets]


def ruleset(name: str) -> Ruleset:
    for r in all_rulesets():
        if r.name == name:
            return r
    known = ", ".join(r.name for r in all_rulesets())
    raise UnknownRuleset(f"unknown ruleset {name!r}; known: {known}")


def module_for(ruleset_name: str) -> GameModule:
    return game_module(ruleset(ruleset_name).game)


def new_state(ruleset_name: str, seed: int | None = None, options: Mapping[str, str] | None = None) -> State:
    """A freshly dealt game of ``ruleset_name``."""
    return module_for(ruleset_name).new_state(ruleset_name, seed=seed, options=options)


def encoding(ruleset_name: str, options: Mapping[str, str] | None = None) -> Encoding:
    """Action ids, masks, returns and tensors of ``ruleset_name`` (:mod:`frontlines.core.encoding`)."""
    return module_for(ruleset_name).encoding(ruleset_name, options)


def _game_of_notation(text: str) -> GameModule:
    head = text.strip().split(" ", 1)[0]
    game = head.split(":", 1)[0]
    if game not in _MODULE_PATHS:
        raise NotationError(f"position notation must start with a game name ({', '.join(_MODULE_PATHS)}), got {head!r}")
    return game_module(game)


def parse_state(text: str) -> State:
    """Parse a full-state notation of any game (it names its game first)."""
    return _game_of_notation(text).parse_state(text)


def parse_view(text: str) -> View:
    """Parse a view notation of any game (it names its game first)."""
    return _game_of_notation(text).parse_view(text)


__all__ = ["all_rulesets", "encoding", "game_module", "module_for", "new_state", "parse_state", "parse_view", "ruleset"]
