"""What every bot is: built-in, homemade, or an external engine behind a protocol.

A bot only ever receives its own :class:`~frontlines.core.game.View`; it never sees the
full state. Subclass :class:`Bot` and implement :meth:`Bot.choose` to write a homemade bot::

    class FirstLegal(Bot):
        name = "first-legal"

        def choose(self, view, clock=None):
            return view.legal_actions()[0]
"""

from __future__ import annotations

import random
from abc import abstractmethod
from typing import Any

from frontlines.core.game import Action, View
from frontlines.core.interface import Interface
from frontlines.core.referee import Clock as Clock  # bots are handed the referee's clock
from frontlines.core.referee import PlayerError


class BotError(PlayerError):
    """A bot failed: it crashed, hung, answered garbage or an illegal action.

    ``reason`` is one word for records and tables (a ``core.referee.Failure``): ``timeout``,
    ``illegal``, ``garbage``, ``crash``, ``protocol``. The referee ends the game with
    the bot losing.
    """


class Bot(Interface):
    """A player. One instance plays one game at a time. (An
    :class:`~frontlines.core.interface.Interface`, not an ``abc.ABC``: the search's bot is
    compiled, and ``isinstance`` against it must be exact in the compiled build.)"""

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


class SeededBot(Bot):
    """A bot that draws on its own random source (``_rng``). ``seed`` seeds the instance; each
    game's seed (:meth:`new_game`) makes a fresh source from it, the game's seed and the seat,
    so that a match plays the same games whatever order they run in. :meth:`info` is what
    the last :meth:`choose` put in ``_last``."""

    def __init__(self, seed: int | None = None) -> None:
        self._seed = seed
        self._rng = random.Random(seed)
        self._last: dict[str, Any] = {}

    def new_game(self, ruleset: str, seat: int, seed: int | None = None) -> None:
        if seed is not None:
            base = 0 if self._seed is None else self._seed
            self._rng = random.Random(f"{base}:{seed}:{seat}")

    def info(self) -> dict[str, Any]:
        return dict(self._last)


def decision_seconds(seconds: float | None, clock: Clock | None) -> float | None:
    """The seconds a search may spend on one decision: its own ``seconds`` (``None``: no
    limit of time), and with a game clock at most 90 % of the clock's share for this move
    (the rest is a margin for the work around the search)."""
    if clock is None or clock.time_left is None:
        return seconds
    share = clock.budget(moves_left_guess=25)
    assert share is not None
    limit = share if seconds is None else min(seconds, share)
    return max(0.01, 0.9 * limit)

