"""What every bot is: built-in, homemade, or an external engine behind a protocol.

A bot only ever receives its own :class:`~frontlines.core.game.View`; it never sees the
full state. Subclass :class:`Bot` and implement :meth:`Bot.choose` to write a homemade bot::

    class FirstLegal(Bot):
        name = "first-legal"

        def choose(self, view, clock=None):
            return view.legal_actions()[0]
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

from frontlines.core.game import Action, View


@dataclass(frozen=True, slots=True)
class Clock:
    """Time control seen by the bot about to move (seconds)."""

    time_left: float | None = None
    increment: float = 0.0

    def budget(self, moves_left_guess: int = 20) -> float | None:
        """A simple share of the remaining time for one decision."""
        if self.time_left is None:
            return None
        return max(0.01, self.time_left / max(1, moves_left_guess) + 0.8 * self.increment)


class BotError(Exception):
    """A bot failed: it crashed, hung, answered garbage or an illegal action.

    ``reason`` is one word for records and tables: ``timeout``, ``illegal``, ``garbage``,
    ``crash``, ``protocol``.
    """

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


class Bot(ABC):
    """A player. One instance plays one game at a time."""

    name: str = "bot"

    def new_game(self, ruleset: str, seat: int, seed: int | None = None) -> None:
        """Called before each game; ``seat`` is 0 or 1."""

    @abstractmethod
    def choose(self, view: View, clock: Clock | None = None) -> Action:
        """The action to play in ``view`` (it is the viewer's turn)."""

    def info(self) -> dict[str, Any]:
        """What the last search found (e.g. ``{"win_probability": 0.62, "iterations": 4000}``)."""
        return {}

    def close(self) -> None:
        """Release processes or threads the bot holds."""
