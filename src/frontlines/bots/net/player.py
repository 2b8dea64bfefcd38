"""``netply``: the flag network playing one ply deep (Battle Line family).

For each legal action the bot applies it to a copy of a position consistent with its view
and asks the network for its own win chance there, all actions in one batch, and plays
the best. A draw (which deck) is judged by its mean over a few sampled deals, the same
deals for each deck. A provable claim is always taken. Where the network does not play
(no numpy, no weights for the ruleset, War Machine) it plays as the heuristic does.

Options (``netply:key=value,...``): ``temperature`` (0: the best action; above 0: an action
drawn with chance proportional to ``exp(logit(value) / temperature)``, for self-play),
``epsilon`` (the share of uniformly random actions), ``draws`` (sampled deals per draw
choice, default 4), ``weights`` (a weights file instead of the packaged one).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from frontlines.bots.base import Clock, SeededBot
from frontlines.bots.heuristic import policy_for
from frontlines.core.game import Action, State, View
from frontlines.games.battleline.codes import DRAW_TACTICS, DRAW_TROOP, SCOUT_TACTICS, SCOUT_TROOP

_CHANCE = frozenset((DRAW_TROOP, DRAW_TACTICS, SCOUT_TROOP, SCOUT_TACTICS))


class NetPlyBot(SeededBot):
    name = "netply"

    def __init__(
        self, seed: int | None = None, temperature: float = 0.0, epsilon: float = 0.0, draws: int = 4,
        weights: str = "",
    ) -> None:
        super().__init__(seed)
        if temperature < 0 or not 0 <= epsilon <= 1 or not 1 <= draws <= 64:
            raise ValueError("netply: temperature >= 0, epsilon 0-1, draws 1-64")
        self.temperature = temperature
        self.epsilon = epsilon
        self.draws = draws
        self.weights = weights
        self._evaluator: Any = None
        self._ruleset = ""

    def new_game(self, ruleset: str, seat: int, seed: int | None = None) -> None:
        super().new_game(ruleset, seat, seed)
        self._evaluator = _evaluator_for(ruleset, self.weights)
        self._ruleset = ruleset

    def choose(self, view: View, clock: Clock | None = None) -> Action:
        if view.ruleset != self._ruleset:
            self._evaluator = _evaluator_for(view.ruleset, self.weights)
            self._ruleset = view.ruleset
        policy = policy_for(view.ruleset)
        legal = view.legal_actions()
        if not legal:
            raise ValueError("netply bot asked to move with no legal action")
        forced = policy.forced(view, legal)
        if forced is not None or len(legal) == 1:
            self._last = {"forced": True}
            return forced if forced is not None else legal[0]
        ev = self._evaluator
        if ev is None:
            self._last = {"fallback": "heuristic"}
            return policy.choose(view, self._rng)
        if self.epsilon and self._rng.random() < self.epsilon:
            self._last = {"random": True}
            return self._rng.choice(legal)
        values = self.action_values(view, legal)
        best = max(range(len(legal)), key=values.__getitem__)
        pick = best
        if self.temperature > 0:
            logits = [_logit(v) / self.temperature for v in values]
            top = max(logits)
            weights = [math.exp(x - top) for x in logits]
            pick = self._rng.choices(range(len(legal)), weights)[0]
        self._last = {"value": values[pick], "best": values[best], "actions": len(legal)}
        return legal[pick]

    def action_values(self, view: View, legal: list[Action]) -> list[float]:
        """The bot's win chance after each of ``legal``, in one batch."""
        me = view.viewer
        assert me is not None
        ev = self._evaluator
        rng = self._rng
        base = view.sample(rng)
        chance = [a for a in legal if a in _CHANCE]
        deals: list[State] = [base] + [view.sample(rng) for _ in range(self.draws - 1)] if chance else [base]
        after: list[State] = []
        spans: list[tuple[int, int]] = []
        for a in legal:
            start = len(after)
            for s in deals if a in _CHANCE else (base,):
                t = s.clone()
                t.apply(a)
                after.append(t)
            spans.append((start, len(after)))
        values = ev.values(after, me)
        return [sum(values[i:j]) / (j - i) for i, j in spans]


def _logit(p: float) -> float:
    p = min(1.0 - 1e-6, max(1e-6, p))
    return math.log(p / (1.0 - p))


def _evaluator_for(ruleset: str, weights: str) -> Any:
    """The evaluator for ``ruleset`` (``None`` where the network does not play)."""
    try:
        from frontlines.bots.net.value import Evaluator, evaluator
    except ImportError:  # no numpy
        return None
    from frontlines.bots.heuristic import game_of

    if game_of(ruleset) != "battleline":
        return None
    if weights:
        net = _weights_file(weights)
        return Evaluator(net) if ruleset in net.rulesets or not net.rulesets else None
    return evaluator(ruleset)


_FILES: dict[str, Any] = {}


def _weights_file(path: str) -> Any:
    from frontlines.bots.net.model import FlagNet

    net = _FILES.get(path)
    if net is None:
        net = _FILES[path] = FlagNet.load(Path(path))
    return net


def make_netply(options: dict[str, str], seed: int | None) -> NetPlyBot:
    """A :class:`NetPlyBot` from spec options (text values); ``ValueError`` names a bad one."""
    known = {"temperature", "epsilon", "draws", "weights"}
    unknown = set(options) - known
    if unknown:
        raise ValueError(f"unknown netply option {sorted(unknown)[0]!r}; known: {', '.join(sorted(known))}")
    try:
        return NetPlyBot(
            seed,
            temperature=float(options.get("temperature", "0")),
            epsilon=float(options.get("epsilon", "0")),
            draws=int(options.get("draws", "4")),
            weights=options.get("weights", ""),
        )
    except ValueError as exc:
        raise ValueError(f"netply: {exc}") from None
