"""War Machine (docs/rules.md §6): a 30-card WWII game for two, behind the common game interface.

``MODULE`` is what :mod:`frontlines.games` loads. See docs/warmachine.md for the card
codes, action text, notation and the view dictionary.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from frontlines.core.encoding import Encoding
from frontlines.core.game import GameModule, Ruleset, State
from frontlines.games.warmachine.engine import WarMachineState, WarMachineView
from frontlines.games.warmachine.notation import GAME, parse_board
from frontlines.games.warmachine.options import RULESET, Opts
from frontlines.games.warmachine.reasons import REASON_WORDS
from frontlines.games.warmachine.rules import Board


# The game module sits above the engine (as Battle Line's does) so that the engine and
# the tensors, which read engine states, do not import each other.
class WarMachineModule(GameModule):
    name = GAME
    title = "War Machine"
    rulesets: tuple[Ruleset, ...] = (RULESET,)
    reason_words = REASON_WORDS

    def new_state(self, ruleset: str, seed: int | None = None, options: Mapping[str, str] | None = None) -> State:
        return self.new_game(ruleset, seed, options)

    def new_game(self, ruleset: str = "warmachine", seed: int | None = None,
                 options: Mapping[str, str] | None = None) -> WarMachineState:
        """Like :meth:`new_state`, typed as the concrete state."""
        self.check_ruleset(ruleset)
        opts = Opts.resolve(options)
        if seed is None:
            seed = random.randrange(1 << 62)
        seed &= (1 << 62) - 1
        rng = random.Random(seed)
        b = Board(opts)
        shuffler = opts.shuffler if opts.shuffler >= 0 else rng.randrange(2)
        b.deal(rng, shuffler)
        if opts.best_of_3:
            b.match_seed = seed
        return WarMachineState(b, ruleset)

    def encoding(self, ruleset: str, options: Mapping[str, str] | None = None) -> Encoding:
        from frontlines.games.warmachine.tensors import encoding

        self.check_ruleset(ruleset)
        return encoding(options)

    def parse_state(self, text: str) -> WarMachineState:
        board, _ = parse_board(text, view=False)
        return WarMachineState(board)

    def parse_view(self, text: str) -> WarMachineView:
        board, viewer = parse_board(text, view=True)
        return WarMachineView(board, viewer)


MODULE = WarMachineModule()

__all__ = ["MODULE", "WarMachineModule", "WarMachineState", "WarMachineView"]
