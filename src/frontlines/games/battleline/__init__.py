"""The Battle Line family: Battle Line, its basic game, Schotten Totten (with and without
tactics) and Battle Line: Medieval, as one :class:`GameModule` (``MODULE``)."""

from __future__ import annotations

from collections.abc import Mapping

from frontlines.core.encoding import Encoding
from frontlines.core.errors import UnknownRuleset
from frontlines.core.game import GameModule, Ruleset, State, View
from frontlines.games.battleline.reasons import REASON_WORDS
from frontlines.games.battleline.rules import GAME, RULESET_BY_NAME, RULESETS


class BattleLineModule(GameModule):
    name = GAME
    rulesets: tuple[Ruleset, ...] = RULESETS
    reason_words = REASON_WORDS

    def new_state(self, ruleset: str, seed: int | None = None, options: Mapping[str, str] | None = None) -> State:
        from frontlines.games.battleline.state import BattleLineState

        if ruleset not in RULESET_BY_NAME:
            raise UnknownRuleset(f"unknown Battle Line ruleset {ruleset!r}; known: {', '.join(RULESET_BY_NAME)}")
        return BattleLineState.deal(ruleset, seed, options)

    def parse_state(self, text: str) -> State:
        from frontlines.games.battleline.notation import parse_state

        return parse_state(text)

    def parse_view(self, text: str) -> View:
        from frontlines.games.battleline.notation import parse_view

        return parse_view(text)

    def encoding(self, ruleset: str, options: Mapping[str, str] | None = None) -> Encoding:
        from frontlines.games.battleline.tensors import encoding

        if ruleset not in RULESET_BY_NAME:
            raise UnknownRuleset(f"unknown Battle Line ruleset {ruleset!r}; known: {', '.join(RULESET_BY_NAME)}")
        return encoding(ruleset, options)


MODULE = BattleLineModule()

__all__ = ["MODULE", "BattleLineModule"]
