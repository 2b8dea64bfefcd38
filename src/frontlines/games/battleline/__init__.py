"""The Battle Line family: Battle Line, its basic game, Schotten Totten (with and without
tactics) and Battle Line: Medieval, as one :class:`GameModule` (``MODULE``)."""

from __future__ import annotations

from collections.abc import Mapping

from frontlines.core.encoding import Encoding
from frontlines.core.game import GameModule, Ruleset, State, View
from frontlines.games.battleline.reasons import REASON_WORDS
from frontlines.games.battleline.rules import GAME, RULESETS


class BattleLineModule(GameModule):
    name = GAME
    title = "Battle Line"
    rulesets: tuple[Ruleset, ...] = RULESETS
    reason_words = REASON_WORDS

    def new_state(self, ruleset: str, seed: int | None = None, options: Mapping[str, str] | None = None) -> State:
        from frontlines.games.battleline.state import BattleLineState

        self.check_ruleset(ruleset)
        return BattleLineState.deal(ruleset, seed, options)

    def parse_state(self, text: str) -> State:
        from frontlines.games.battleline.notation import parse_state

        return parse_state(text)

    def parse_view(self, text: str) -> View:
        from frontlines.games.battleline.notation import parse_view

        return parse_view(text)

    def encoding(self, ruleset: str, options: Mapping[str, str] | None = None) -> Encoding:
        from frontlines.games.battleline.tensors import encoding

        self.check_ruleset(ruleset)
        return encoding(ruleset, options)


MODULE = BattleLineModule()

__all__ = ["MODULE", "BattleLineModule"]
