"""War Machine (docs/rules.md §6): a 30-card WWII game for two, behind the common game interface.

``MODULE`` is what :mod:`frontlines.games` loads. See docs/warmachine.md for the card
codes, action text, notation and the view dictionary.
"""

from frontlines.games.warmachine.engine import MODULE, WarMachineModule, WarMachineState, WarMachineView

__all__ = ["MODULE", "WarMachineModule", "WarMachineState", "WarMachineView"]
