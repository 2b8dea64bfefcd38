"""The flag network as an evaluation: a player's win chance in a position, one at a time
or many in one numpy call (needs numpy: ``frontlines[ai]``).

    from frontlines.bots.net.value import evaluator
    ev = evaluator("battleline-basic")          # None without numpy or weights for it
    ev.value(state, player)                     # player's win chance, from player's view
    ev.values([s1, s2, ...], player)            # many positions, one batch
    ev.afterstates(state, player, actions)      # each action applied to a copy, then judged
    ev.value(deal, player, opponent_hand=True)  # in a sampled deal, reading the opponent's hand there
    evaluate = ev.evaluation(opponent_hand=True)  # a (state, player) -> chance callable, e.g. for pimc

``state`` may be a full state (a search's sampled deal) or the player's view: only what
``player`` knows is read (``features``), so both give the same number; with
``opponent_hand`` the deal's opponent hand is read as well (the network was trained on
such positions too, told which kind it is given).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import cast

import numpy as np

from frontlines.bots.heuristic import outcome_value
from frontlines.bots.net.features import Facts, facts
from frontlines.bots.net.model import Batch, FlagNet, FloatArray, WeightsError, stack
from frontlines.core.game import Action, State, View
from frontlines.games.battleline.table import Table

WEIGHTS_DIR = Path(__file__).with_name("weights")
ENV_WEIGHTS = "FRONTLINES_NET_WEIGHTS"  # a weights file to use instead of the packaged ones


class Evaluator:
    """A :class:`FlagNet` with the calls a bot or a search makes."""

    def __init__(self, net: FlagNet) -> None:
        self.net = net

    def facts(self, position: State | View | Table, player: int, opponent_hand: bool = False) -> Facts:
        return facts(cast(Table, position), player, opponent_hand)

    def batch_values(self, items: Sequence[Facts]) -> FloatArray:
        """Game chances of stacked facts (one numpy forward pass)."""
        if not items:
            return np.zeros(0, dtype=np.float32)
        return self.net.values(stack(items))

    def value(self, position: State | View, player: int, opponent_hand: bool = False) -> float:
        """``player``'s chance to win ``position`` (exact when the game is over)."""
        if position.is_terminal():
            return outcome_value(position.outcome(), player)
        return float(self.batch_values([self.facts(position, player, opponent_hand)])[0])

    def evaluation(self, opponent_hand: bool = False) -> Callable[[State, int], float]:
        """:meth:`value` as a ``(state, player) -> chance`` function (a search's evaluation)."""

        def evaluate(state: State, player: int) -> float:
            return self.value(state, player, opponent_hand)

        return evaluate

    def batch_evaluation(self, opponent_hand: bool = False) -> Callable[[Sequence[State], int], list[float]]:
        """:meth:`values` as a ``(states, player) -> chances`` function: the batch evaluation
        the sampling search (``bots.pimc``) calls at its leaves; with ``opponent_hand`` each
        state's opponent hand is read as known (a deal is a world where it is)."""

        def evaluate(states: Sequence[State], player: int) -> list[float]:
            return self.values(states, player, opponent_hand)

        return evaluate

    def values(self, positions: Sequence[State | View], player: int, opponent_hand: bool = False) -> list[float]:
        """``player``'s chance in each of ``positions``, the open ones in one batch."""
        out = [0.0] * len(positions)
        todo: list[int] = []
        items: list[Facts] = []
        for i, pos in enumerate(positions):
            if pos.is_terminal():
                out[i] = outcome_value(pos.outcome(), player)
            else:
                todo.append(i)
                items.append(self.facts(pos, player, opponent_hand))
        for i, v in zip(todo, self.batch_values(items).tolist(), strict=True):
            out[i] = v
        return out

    def afterstates(self, state: State, player: int, actions: Sequence[Action], opponent_hand: bool = False) -> list[float]:
        """``player``'s chance after each of ``actions`` is applied to a copy of ``state``
        (a full state whose player to move may make them), in one batch."""
        after: list[State] = []
        for a in actions:
            s = state.clone()
            s.apply(a)
            after.append(s)
        return self.values(after, player, opponent_hand)

    def flag_chances(self, position: State | View, player: int, opponent_hand: bool = False) -> list[float]:
        """``player``'s chance to take each flag (claimed ones exact)."""
        flags, _, _ = self.net.forward(stack([self.facts(position, player, opponent_hand)]))
        return [float(x) for x in flags[0]]

    def forward(self, batch: Batch) -> tuple[FloatArray, FloatArray]:
        flags, values, _ = self.net.forward(batch)
        return flags, values


def weights_path(ruleset: str) -> Path:
    """Where the packaged weights for ``ruleset`` lie (whether or not there are any)."""
    return WEIGHTS_DIR / f"{ruleset}.npz"


@cache
def _load(path: str) -> Evaluator:
    return Evaluator(FlagNet.load(Path(path)))


def evaluator(ruleset: str) -> Evaluator | None:
    """The packaged evaluation for ``ruleset`` (or the file ``FRONTLINES_NET_WEIGHTS``
    names, when it covers ``ruleset``); ``None`` where there are no weights for it. Weights
    that are there but do not fit this code raise :class:`WeightsError`."""
    override = os.environ.get(ENV_WEIGHTS)
    if override:
        ev = _load(override)
        return ev if ruleset in ev.net.rulesets else None
    path = weights_path(ruleset)
    if not path.exists():
        for candidate in sorted(WEIGHTS_DIR.glob("*.npz")) if WEIGHTS_DIR.is_dir() else []:
            ev = _load(str(candidate))
            if ruleset in ev.net.rulesets:
                return ev
        return None
    ev = _load(str(path))
    if ruleset not in ev.net.rulesets:
        raise WeightsError(f"{path} does not cover {ruleset} (it covers {', '.join(sorted(ev.net.rulesets))})")
    return ev
