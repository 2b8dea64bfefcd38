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
``env.action_masks()`` gives the mask too (what maskable learners call), and
``env.unwrapped.view()`` the agent's view as the Python API's object (its own cards only,
as the observation). The reward is +1,
-1 or 0 when the game ends, 0 before; a Battle Line game still going at
``max_game_length`` actions is truncated.

``env.action_space`` is a ``Discrete`` space whose ``sample()`` without a mask draws among
the legal ids of the current position (:class:`~frontlines.rl._common.LegalDiscrete`): a
random agent that steps ``env.action_space.sample()`` always plays legal moves. The space
does not carry the game (a pickle of it is the plain ``Discrete`` space).

An illegal action id (``illegal="lose"``, the default) ends the game, lost (reward -1,
``info["illegal"]`` names the action and the legal ones; the game itself unchanged), as
PettingZoo's ``TerminateIllegalWrapper`` does: so an agent that samples the whole space,
``action_space.sample()`` of a vector environment included, never stops the run.
``illegal="raise"`` raises :class:`~frontlines.rl._common.IllegalActionId` instead, an
``AssertionError`` naming the action and the legal ones, and changes nothing (for
debugging an agent that should only play legal ids).

Vector environments (``gymnasium.make_vec``) work with Gymnasium's defaults: with the
next-step autoreset, the step that ends a game returns its last observation, and the next
step resets that environment whatever its action. That last observation's ``action_mask``
is therefore all ones (any id will do), never all zero, so masked sampling
(``action_space.sample(mask)``, a masked softmax) works at every step; ``action_masks()``
says the same once a game is over.
"""

from __future__ import annotations

import random
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium.envs.registration import register, registry

from frontlines.bots.base import Bot
from frontlines.bots.registry import make_bot
from frontlines.core.game import Action, State, View
from frontlines.rl._common import IllegalActionId, Observation, Table

ILLEGAL = ("raise", "lose")


class FrontlinesEnv(gymnasium.Env[Observation, np.int64]):
    """One seat of a ruleset against a bot (see the module's documentation)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012 (Gymnasium declares it so)

    def __init__(self, ruleset: str = "battleline-basic", opponent: str = "random", seat: int | None = 0,
                 observation: str = "observation", illegal: str = "lose", render_mode: str | None = None,
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
        return self._observe(), self._info()

    def step(self, action: np.int64 | int) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        table = self.table
        if self._over():
            raise IllegalActionId("the game is over: call reset()")
        try:
            table.play(action)
        except IllegalActionId as exc:
            if self.illegal == "raise":
                raise
            self._forfeited = True
            info = self._info()
            info["illegal"] = str(exc)
            return self._observe(), -1.0, True, False, info
        self._opponent_moves()
        terminated = table.over()
        reward = table.encoding.returns(table.state)[self.seat] if terminated else 0.0
        return self._observe(), reward, terminated, table.truncated(), self._info()

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        """1 for the legal action ids; all ones once the game is over (see the module text)."""
        if self._over():
            return np.ones(self.table.encoding.num_actions, np.int8)
        return self.table.mask(self.seat)

    def view(self) -> View:
        """The agent's view of the game now (``frontlines.core.game.View``): what its
        observation encodes, as the Python API's object, for agents that read positions
        with the package's tools (legal actions as codes, ``view.sample``, the flag
        network's features). The opponent's hidden cards stay hidden."""
        return self.table.view(self.seat)

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

    def _over(self) -> bool:
        table = self.table
        return self._forfeited or table.over() or table.truncated()

    def _observe(self) -> Observation:
        """The agent's observation; once the game is over, its mask is all ones: the step
        that follows in a vector environment is an autoreset, which ignores its action."""
        obs = self.table.observe(self.seat)
        if self._over():
            obs["action_mask"] = np.ones(self.table.encoding.num_actions, np.int8)
        return obs

    def _info(self) -> dict[str, Any]:
        return {"seat": self.seat, "moves": len(self.table.state.history)}


def _register() -> None:
    for env_id, ruleset in (("frontlines/BattleLine-v0", "battleline-basic"), ("frontlines/WarMachine-v0", "warmachine")):
        if env_id not in registry:
            register(id=env_id, entry_point=FrontlinesEnv, kwargs={"ruleset": ruleset})


_register()

__all__ = ["ILLEGAL", "FrontlinesEnv", "IllegalActionId"]
