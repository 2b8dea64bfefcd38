"""The flag network (:mod:`frontlines.bots.net`) at a search's cut-off: ``ismcts:value=S``.

:func:`learned_policy` wraps a Battle Line policy so that its ``evaluate`` (the win chance
where the search's look-ahead stops) is the network's, mixed with today's evaluation by
the share ``mix``; move ranking, candidates and rollouts stay the heuristic's. With the
policy's ``eval_hand`` the network reads the sampled deal's opponent hand, as today's
evaluation then does.

numpy is optional (``frontlines[ai]``): without it, or without weights for the ruleset,
:func:`learned_policy` returns the policy it was given and the search plays on with
today's evaluation (``available()`` says which). This module imports numpy only through
:mod:`frontlines.bots.net.value`, inside functions.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from frontlines.bots.heuristic import GamePolicy, outcome_value
from frontlines.core.game import Action, State, View


def _evaluator(ruleset: str) -> Any:
    try:
        from frontlines.bots.net.value import evaluator  # numpy, the optional extra
    except ImportError:
        return None
    return evaluator(ruleset)


def available(ruleset: str) -> bool:
    """Whether the flag network plays in ``ruleset`` here (numpy, weights for it)."""
    return _evaluator(ruleset) is not None


class LearnedPolicy(GamePolicy):
    """A game policy whose ``evaluate`` is the flag network's (share ``mix``, the rest the
    policy's own). It wraps the policy rather than subclassing it: the compiled build
    compiles ``BattleLinePolicy``, and an interpreted class cannot inherit from a compiled one."""

    def __init__(self, evaluator: Any, mix: float, base: GamePolicy) -> None:
        self.evaluator = evaluator
        self.mix = mix
        self.base = base
        self.game = base.game
        self.prior_scale = base.prior_scale
        self.hand = bool(getattr(base, "eval_hand", False))

    def forced(self, state: State | View, legal: list[Action]) -> Action | None:
        return self.base.forced(state, legal)

    def determinise(self, view: View, rng: random.Random) -> State:
        return self.base.determinise(view, rng)

    def choose(self, view: View, rng: random.Random, samples: int = 0) -> Action:
        return self.base.choose(view, rng, samples)

    def ranked(self, view: View, rng: random.Random, samples: int = 0) -> list[tuple[float, Action]]:
        return self.base.ranked(view, rng, samples)

    def choose_in_state(self, state: State, player: int, legal: list[Action], rng: random.Random) -> Action:
        return self.base.choose_in_state(state, player, legal, rng)

    def ranked_in_state(self, state: State, player: int, legal: list[Action], rng: random.Random, n: int = 0) -> list[Action]:
        return self.base.ranked_in_state(state, player, legal, rng, n)

    def candidates(self, state: State, legal: list[Action], width: int, rng: random.Random) -> list[Action]:
        return self.base.candidates(state, legal, width, rng)

    def rollout_action(self, state: State, legal: list[Action], rng: random.Random) -> Action:
        return self.base.rollout_action(state, legal, rng)

    def progress(self, view: View) -> float:
        return self.base.progress(view)

    def with_evaluation(self, samples: int, scale: float, hand: bool = False) -> GamePolicy:
        base = self.base.with_evaluation(samples, scale, hand)
        return self if base is self.base else _learned(self.evaluator, self.mix, base)

    def evaluate(self, state: State, player: int) -> float:
        if state.is_terminal():
            return outcome_value(state.outcome(), player)
        value: float = self.evaluator.value(state, player, self.hand)
        if self.mix >= 1.0:
            return value
        return self.mix * value + (1.0 - self.mix) * self.base.evaluate(state, player)


def learned_policy(policy: GamePolicy, ruleset: str, mix: float = 1.0, evaluator: Any = None) -> GamePolicy:
    """``policy`` with the flag network's evaluation (share ``mix``) where it plays (see
    :func:`available`), else ``policy`` itself: today's evaluation."""
    evaluator = evaluator or _evaluator(ruleset)
    if evaluator is None or policy.game != "battleline" or mix <= 0:
        return policy
    return _learned(evaluator, mix, policy)


@cache
def _learned(evaluator: Any, mix: float, base: GamePolicy) -> LearnedPolicy:
    return LearnedPolicy(evaluator, mix, base)
