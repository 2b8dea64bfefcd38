"""Heuristic play: the game-independent part, and the ``heuristic`` bot.

Game knowledge lives in one :class:`GamePolicy` per game (``heuristic_battleline``,
``heuristic_warmachine``). The same object serves three users:

* the ``heuristic`` bot, which calls :meth:`GamePolicy.choose` on its view;
* ISMCTS rollouts, which call :meth:`GamePolicy.rollout_action` on a determinised full
  state, so it must be cheap (it runs thousands of times per decision);
* ISMCTS depth cut-offs, which call :meth:`GamePolicy.evaluate` for a static estimate.

The generic policy below plays randomly (claims first) and evaluates every unfinished
position as even; it is what any game without a dedicated policy gets.
"""

from __future__ import annotations

import importlib
import random

from frontlines.bots.base import Clock, SeededBot
from frontlines.core.actions import ActionKind
from frontlines.core.game import Action, Outcome, State, View


def outcome_value(outcome: Outcome | None, player: int) -> float:
    """1 for a win of ``player``, 0 for a loss, 0.5 for a draw or an unfinished game."""
    if outcome is None or outcome.winner is None:
        return 0.5
    return 1.0 if outcome.winner == player else 0.0


class GamePolicy:
    """Game knowledge used by the heuristic bot and by search. Generic defaults."""

    game = ""
    # ``ranked`` scores times this are changes of win probability (0: the scores are not
    # calibrated, search then takes no prior from them)
    prior_scale = 0.0

    def forced(self, state: State | View, legal: list[Action]) -> Action | None:
        """An action to take without thinking (a provable claim), or ``None``."""
        for action in legal:
            if state.describe_action(action).kind is ActionKind.CLAIM:
                return action
        return None

    def determinise(self, view: View, rng: random.Random) -> State:
        """A full state consistent with ``view`` (search samples one per iteration)."""
        return view.sample(rng)

    def choose(self, view: View, rng: random.Random, samples: int = 0) -> Action:
        """The full heuristic's choice for the player to move in ``view`` (``samples``:
        sampled futures per decision where the game's heuristic uses them; 0: its default)."""
        legal = view.legal_actions()
        forced = self.forced(view, legal)
        return forced if forced is not None else rng.choice(legal)

    def ranked(self, view: View, rng: random.Random, samples: int = 0) -> list[tuple[float, Action]]:
        """Legal actions with a score (higher is better), best first; used for noisy levels."""
        best = self.choose(view, rng, samples)
        return [(1.0 if a == best else 0.0, a) for a in view.legal_actions()]

    def choose_in_state(self, state: State, player: int, legal: list[Action], rng: random.Random) -> Action:
        """The heuristic's choice for ``player`` (to move) in a full ``state``, from what that
        player knows of it (search plays the rest of a turn in a sampled deal so)."""
        return self.choose(state.view(player), rng)

    def ranked_in_state(self, state: State, player: int, legal: list[Action], rng: random.Random, n: int = 0) -> list[Action]:
        """The heuristic's best ``n`` actions (0: all, best first) for ``player`` (to move) in a
        full ``state``, from what that player knows of it."""
        ranked = [a for _, a in self.ranked(state.view(player), rng)]
        return ranked[:n] if n else ranked

    def candidates(self, state: State, legal: list[Action], width: int, rng: random.Random) -> list[Action]:
        """At most ``width`` promising actions among ``legal`` (search expands only these)."""
        return legal

    def rollout_action(self, state: State, legal: list[Action], rng: random.Random) -> Action:
        """A cheap, sensible action for the player to move in a full ``state``."""
        forced = self.forced(state, legal)
        return forced if forced is not None else rng.choice(legal)

    def progress(self, view: View) -> float:
        """How much of the game is played, 0 at the start to 1 at the end, as search reads it
        to switch to its late-game settings; 0 where the game gives no such measure."""
        return 0.0

    def with_evaluation(self, samples: int, scale: float, hand: bool = False) -> GamePolicy:
        """This policy with ``evaluate`` from ``samples`` sampled futures and its confidence
        ``scale`` (0: keep the default), and with ``hand`` reading the opponent's hand in
        the sampled state it is given (the search's deal) instead of treating it as unseen;
        a game whose evaluation has no such knobs returns itself. Search uses a sharper
        evaluation late in a game."""
        return self

    def evaluate(self, state: State, player: int) -> float:
        """Estimated probability that ``player`` wins ``state`` (exact when it is over)."""
        if state.is_terminal():
            return outcome_value(state.outcome(), player)
        return 0.5


_POLICY_MODULES = {
    "battleline": "frontlines.bots.heuristic_battleline",
    "warmachine": "frontlines.bots.heuristic_warmachine",
}
_policies: dict[str, GamePolicy] = {}


def game_of(ruleset: str) -> str:
    """The game a ruleset belongs to, or ``""`` when no registered game knows it."""
    from frontlines.games import game_module

    for game in _POLICY_MODULES:
        try:  # one game module at a time: a broken or missing one must not hide the others
            if any(r.name == ruleset for r in game_module(game).rulesets):
                return game
        except (ImportError, AttributeError, LookupError):
            continue
    return ""


def policy_for(ruleset: str) -> GamePolicy:
    """The policy for ``ruleset``'s game (the generic one for unknown games)."""
    game = game_of(ruleset)
    policy = _policies.get(game)
    if policy is None:
        path = _POLICY_MODULES.get(game)
        policy = importlib.import_module(path).POLICY if path else GamePolicy()
        _policies[game] = policy
    return policy


class HeuristicBot(SeededBot):
    """Fast rule-of-thumb play. ``noise`` (0-1) makes it weaker: with that probability it
    picks among its top few moves at random, and sometimes any legal move (used by ``easy``)."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, noise: float = 0.0, samples: int = 0) -> None:
        if not 0.0 <= noise <= 1.0:
            raise ValueError(f"heuristic noise must be between 0 and 1, not {noise}")
        if not 0 <= samples <= 1000:
            raise ValueError(f"heuristic samples must be between 0 (the default) and 1000, not {samples}")
        super().__init__(seed)
        self.noise = noise
        self.samples = samples

    def choose(self, view: View, clock: Clock | None = None) -> Action:
        policy = policy_for(view.ruleset)
        legal = view.legal_actions()
        if not legal:
            raise ValueError("heuristic bot asked to move with no legal action")
        forced = policy.forced(view, legal)
        if forced is not None:
            self._last = {"forced": True}
            return forced
        if self.noise > 0.0 and self._rng.random() < self.noise:
            if self._rng.random() < 0.3:
                self._last = {"noise": "random"}
                return self._rng.choice(legal)
            ranked = policy.ranked(view, self._rng, self.samples)
            self._last = {"noise": "top3"}
            return self._rng.choice(ranked[:3])[1]
        self._last = {}
        return policy.choose(view, self._rng, self.samples)
