"""Game-independent core: the game interface, errors and game records."""

from frontlines.core.errors import FrontlinesError, IllegalAction, NotationError, UnknownRuleset
from frontlines.core.game import Action, GameModule, OptionSpec, Outcome, Ruleset, State, View

__all__ = [
    "Action",
    "FrontlinesError",
    "GameModule",
    "IllegalAction",
    "NotationError",
    "OptionSpec",
    "Outcome",
    "Ruleset",
    "State",
    "UnknownRuleset",
    "View",
]
