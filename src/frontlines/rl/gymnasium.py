"""Every ruleset as a single-agent Gymnasium environment against one of our bots (the
``rl`` extra). Importing this module registers:

* ``frontlines/BattleLine-v0``: keywords ``ruleset`` (any Battle Line family ruleset,
  default ``battleline-basic``), ``opponent`` (a bot spec: ``random``, ``heuristic``,
  ``ismcts:iterations=200``, a level, ...; default ``random``), ``seat`` (0, 1, or ``None``
  for a random seat each game; default 0), ``observation`` (``observation`` or
  ``information_state``), ``illegal`` (see below), ``render_mode`` (``ansi``, ``human``),
  and rules options as further keywords (text values);
* ``frontlines/WarMachine-v0``: the same for ``warmachine``.

>>> import gymnasium, frontlines.rl.gymnasium
>>> env = gymnasium.make("frontlines/BattleLine-v0", opponent="heuristic")
>>> obs, info = env.reset(seed=1)
>>> obs["observation"].shape, obs["action_mask"].shape
((1682,), (552,))

The agent acts whenever it is its turn; the opponent's actions happen inside ``step``.
Observations are like PettingZoo's (``observation`` tensor, ``action_mask``);
``env.action_masks()`` gives the mask too (what maskable learners call). The reward is +1,
-1 or 0 when the game ends, 0 before; a Battle Line game still going at
``max_game_length`` actions is truncated.

``env.action_space`` is a ``Discrete`` space whose ``sample()`` without a mask draws among
the legal ids of the current position (:class:`~frontlines.rl._common.LegalDiscrete`): a
random agent that steps ``env.action_space.sample()`` always plays legal moves.

An illegal action id (``illegal="raise"``, the default) raises
:class:`~frontlines.rl._common.IllegalActionId`, an ``AssertionError`` naming the action and
the legal ones, and changes nothing. ``illegal="lose"`` ends the game instead, lost (reward
-1, ``info["illegal"]`` says why), like PettingZoo's ``TerminateIllegalWrapper``: for
learners that cannot mask actions. One exception to raising: the id of the action space's
last ``sample()``, drawn in an earlier position (before a reset or a move) and illegal now,
loses the game as with ``illegal="lose"``. Gymnasium's ``check_env`` does exactly that (it
samples, then resets with a seed, then steps the sample, twice, to see the same result), so
it passes with the default settings.
"""

from __future__ import annotations

import random
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium.envs.registration import register, registry

from frontlines.bots.base import Bot
from frontlines.bots.registry import make_bot
from frontlines.core.game import Action, State
from frontlines.rl._common import IllegalActionId, Observation, Table

ILLEGAL = ("raise", "lose")


class FrontlinesEnv(gymnasium.Env[Observation, np.int64]):
    """One seat of a ruleset against a bot (see the module's documentation)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012 (Gymnasium declares it so)

    def __init__(self, ruleset: str = "battleline-basic", opponent: str = "random", seat: int | None = 0,
                 observation: str = "observation", illegal: str = "raise", render_mode: str | None = None,
                 **options: str) -> None:
        if seat not in (0, 1, None):
            raise ValueError(f"seat must be 0, 1 or None (a random seat each game), not {seat!r}")
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal must be one of {', '.join(ILLEGAL)}, not {illegal!r}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        self.table = Table(ruleset, options, observation)
        self.observation_space = self.table.observation_space  # type: ignore[assignment]
        self.action_space = self.table.action_space
        self.render_mode = render_mode
        self.illegal = illegal
        self.opponent_spec = opponent
        self.opponent: Bot = make_bot(opponent)  # ValueError names the known bots
        self._seat_choice = seat
        self.seat = 0 if seat is None else seat
        self._games = random.Random()
        self._forfeited = False

    # --- the Gymnasium API ----------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._games.seed(seed)
        game_seed = self._games.randrange(1 << 62)
        self.table.deal(game_seed)
        self.seat = self._games.randrange(2) if self._seat_choice is None else self._seat_choice
        self.opponent.new_game(self.table.ruleset, 1 - self.seat, seed=game_seed)
        self._forfeited = False
        self._opponent_moves()
        return self.table.observe(self.seat), self._info()

    def step(self, action: np.int64 | int) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        table = self.table
        if table.over() or table.truncated() or self._forfeited:
            raise IllegalActionId("the game is over: call reset()")
        try:
            table.play(action)
        except IllegalActionId as exc:
            # a sample the action space drew in an earlier position forfeits instead of
            # raising: check_env samples one, then resets, then steps it (see the module text)
            stale = table.action_space.stale(action)
            if self.illegal == "raise" and not stale:
                raise
            self._forfeited = True
            info = self._info()
            info["illegal"] = f"{exc} (drawn by the action space in an earlier position)" if stale else str(exc)
            return table.observe(self.seat), -1.0, True, False, info
        self._opponent_moves()
        terminated = table.over()
        reward = table.encoding.returns(table.state)[self.seat] if terminated else 0.0
        return table.observe(self.seat), reward, terminated, table.truncated(), self._info()

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        """1 for the legal action ids (all zero once the game is over)."""
        if self._forfeited:
            return np.zeros(self.table.encoding.num_actions, np.int8)
        return self.table.mask(self.seat)

    def render(self) -> str | None:
        return self.table.render(self.render_mode)

    def close(self) -> None:
        self.opponent.close()

    # --- inside ---------------------------------------------------------------------
    def _opponent_moves(self) -> None:
        """Let the bot play until it is the agent's turn or the game ends."""
        table = self.table
        state = table.state
        other = 1 - self.seat
        while state.current_player() == other and not table.truncated():
            state.apply(self._opponent_action(state, other))

    def _opponent_action(self, state: State, other: int) -> Action:
        """The bot's action: its view, then its choice (what asking the bot costs)."""
        return self.opponent.choose(state.view(other))

    def _info(self) -> dict[str, Any]:
        return {"seat": self.seat, "moves": len(self.table.state.history)}


def _register() -> None:
    for env_id, ruleset in (("frontlines/BattleLine-v0", "battleline-basic"), ("frontlines/WarMachine-v0", "warmachine")):
        if env_id not in registry:
            register(id=env_id, entry_point=FrontlinesEnv, kwargs={"ruleset": ruleset})


_register()

__all__ = ["ILLEGAL", "FrontlinesEnv", "IllegalActionId"]
