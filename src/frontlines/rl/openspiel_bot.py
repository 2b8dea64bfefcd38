"""An OpenSpiel search as one of our bots: ``openspiel:ALGORITHM,key=value,...`` in bot specs.

So a researcher rates an OpenSpiel algorithm against our levels with the arena's tables and
intervals::

    frontlines arena --rules battleline --bot os=openspiel:ismcts,simulations=200 --bot heuristic

Like every bot, it only gets its own view. Each decision builds an OpenSpiel state that
agrees with the view (:func:`frontlines.rl.openspiel.state_from_view`, hidden cards sampled)
and asks the algorithm for that player's action:

* ``ismcts``: OpenSpiel's Information Set MCTS, which draws a fresh consistent state for
  every simulation (``resample_from_infostate``, our view sampler);
* ``mcts``: OpenSpiel's MCTS on one sampled state (a single determinisation: it does not
  see the hidden cards, it guesses them once).

Options: ``simulations=N`` (default 100), ``uct_c=C`` (2.0), ``rollouts=N`` random playouts
per leaf (1), ``world_samples=N`` (ismcts: states drawn per decision, -1 no limit).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from frontlines.bots.base import Bot, Clock
from frontlines.core.game import Action, View
from frontlines.rl.openspiel import FrontlinesGame, load, state_from_view, view_options

ALGORITHMS = ("ismcts", "mcts")
_DEFAULTS: dict[str, float] = {"simulations": 100, "uct_c": 2.0, "rollouts": 1, "world_samples": -1}


class OpenSpielBot(Bot):
    """One of OpenSpiel's search bots, playing from our views."""

    def __init__(self, algorithm: str, options: dict[str, str] | None = None, seed: int | None = None) -> None:
        if algorithm not in ALGORITHMS:
            raise ValueError(f"unknown OpenSpiel algorithm {algorithm!r}; known: {', '.join(ALGORITHMS)}")
        self.algorithm = algorithm
        self.name = f"openspiel:{algorithm}"
        self.params = dict(_DEFAULTS)
        for key, text in (options or {}).items():
            if key not in _DEFAULTS or (key == "world_samples" and algorithm != "ismcts"):
                known = [k for k in _DEFAULTS if algorithm == "ismcts" or k != "world_samples"]
                raise ValueError(f"unknown openspiel:{algorithm} option {key!r}; known: {', '.join(known)}")
            try:
                self.params[key] = float(text) if key == "uct_c" else int(text)
            except ValueError:
                raise ValueError(f"option {key}={text!r} of openspiel:{algorithm} must be a number") from None
        if self.params["simulations"] < 1 or self.params["rollouts"] < 1:
            raise ValueError("simulations and rollouts must be at least 1")
        self._seed = seed
        self._rng = random.Random(seed)
        self._games: dict[tuple[str, tuple[tuple[str, str], ...]], tuple[FrontlinesGame, Any]] = {}
        self._last: dict[str, Any] = {}

    def new_game(self, ruleset: str, seat: int, seed: int | None = None) -> None:
        if seed is not None:  # a per-game seed keeps a match reproducible in any game order
            self._rng = random.Random(f"{self._seed}:{seed}:{seat}")

    def _search(self, view: View) -> tuple[FrontlinesGame, Any]:
        options = view_options(view)
        key = (view.ruleset, tuple(sorted(options.items())))
        found = self._games.get(key)
        if found is None:
            game = load(view.ruleset, options)
            found = self._games[key] = (game, self._make(game))
        return found

    def _make(self, game: FrontlinesGame) -> Any:
        p = self.params
        np_rng = np.random.RandomState(self._rng.randrange(1 << 31))
        evaluator = mcts.RandomRolloutEvaluator(int(p["rollouts"]), np_rng)
        if self.algorithm == "ismcts":
            return ismcts.ISMCTSBot(game, evaluator, p["uct_c"], int(p["simulations"]),
                                    max_world_samples=int(p["world_samples"]), random_state=np_rng)
        return mcts.MCTSBot(game, p["uct_c"], int(p["simulations"]), evaluator, solve=False, random_state=np_rng)

    def choose(self, view: View, clock: Clock | None = None) -> Action:
        legal = view.legal_actions()
        if not legal:
            raise ValueError("openspiel bot asked to move with no legal action")
        if len(legal) == 1:
            return legal[0]
        game, bot = self._search(view)
        state = state_from_view(game, view, self._rng, moves=len(game.rules.log(view)))
        action_id = bot.step(state)
        action = game.rules.encoding.action(int(action_id))
        if action not in legal:  # never expected: the sampled state has the view's legal actions
            raise pyspiel.SpielError(f"OpenSpiel chose {action_id}, not legal here")
        self._last = {"legal": len(legal), "simulations": int(self.params["simulations"])}
        return action

    def info(self) -> dict[str, Any]:
        return dict(self._last)


def make_openspiel_bot(options: dict[str, str], text: str, seed: int | None = None) -> OpenSpielBot:
    """The bot of an ``openspiel:`` spec, read by the registry: ``options`` holds its
    ``algorithm`` and the ``key=value`` options, ``text`` is the spec (the bot's name)."""
    rest = dict(options)
    bot = OpenSpielBot(rest.pop("algorithm", ""), rest, seed)
    bot.name = text
    return bot


__all__ = ["ALGORITHMS", "OpenSpielBot", "make_openspiel_bot"]
