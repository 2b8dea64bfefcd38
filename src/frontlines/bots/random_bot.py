"""The ``random`` bot: a uniformly random legal action, except that a provable claim is always taken.

Claims are recognised by the game's description of each action (kind ``claim``), so the
bot needs nothing game-specific; in War Machine there are no claims and it is purely random.
"""

from __future__ import annotations

from frontlines.bots.base import Clock, SeededBot
from frontlines.core.actions import ActionKind
from frontlines.core.game import Action, View


def claim_actions(view: View, actions: list[Action]) -> list[Action]:
    """The claims among ``actions`` (the game offers a claim only when it is provable)."""
    return [a for a in actions if view.describe_action(a).kind is ActionKind.CLAIM]


class RandomBot(SeededBot):
    """Uniformly random legal action; provable claims first."""

    name = "random"

    def choose(self, view: View, clock: Clock | None = None) -> Action:
        legal = view.legal_actions()
        if not legal:
            raise ValueError("random bot asked to move with no legal action")
        claims = claim_actions(view, legal)
        action = claims[0] if claims else self._rng.choice(legal)
        self._last = {"legal": len(legal), "claim": bool(claims)}
        return action
