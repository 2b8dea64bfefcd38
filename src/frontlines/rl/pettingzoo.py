"""Every ruleset as a PettingZoo AEC environment (the ``rl`` extra).

>>> from frontlines.rl.pettingzoo import env
>>> e = env(ruleset="battleline-basic")
>>> e.reset(seed=1)
>>> obs, reward, termination, truncation, info = e.last()
>>> sorted(obs), obs["observation"].shape, obs["action_mask"].shape
(['action_mask', 'observation'], (1682,), (552,))

Agents ``player_0`` and ``player_1`` are the seats. A turn may take several actions of the
same player (a card, claims, a draw): ``agent_selection`` is always the player to move.
Observations are dictionaries: ``observation``, the agent's tensor (float32; the
observation tensor, or with ``observation="information_state"`` the information-state
tensor, docs/research.md) and ``action_mask`` (int8, 1 for the legal action ids; all zero
when it is not the agent's turn). Actions are the ruleset's dense action ids;
``action_space(agent).sample()`` without a mask draws among the ids legal for the player to
move (:class:`~frontlines.rl._common.LegalDiscrete`); ``view(agent)`` is the agent's view as
the Python API's object (its own cards only, as its observation). Rewards come
at the end: +1 win, -1 loss, 0 draw. A Battle Line game still going at
``max_game_length`` actions is truncated. ``render_mode="ansi"``: ``render()`` returns the
table as the terminal game lays it out (``"human"`` prints it).

``env()`` is wrapped as PettingZoo's classic environments are: an illegal action id ends
the game, -1 for the player who sent it and 0 for the other (as ``TerminateIllegalWrapper``
does), an id outside the space fails an assertion (``AssertOutOfBoundsWrapper``), and
``reset()`` must come before anything else (``OrderEnforcingWrapper``); the three in one
``OrderEnforcingWrapper``, for speed. ``raw_env()`` is the same environment unwrapped: dealt from the start, and an illegal action id raises
:class:`~frontlines.rl._common.IllegalActionId` (an ``AssertionError``) naming it and the
legal ones, changing nothing.

Rules options are keyword arguments with text values: ``env(ruleset="battleline",
claim_timing="after_play")``.
"""

from __future__ import annotations

from typing import Any

from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from frontlines.core.game import View
from frontlines.rl._common import IllegalActionId, Observation, Table

AGENTS = ("player_0", "player_1")
_SEATS = {agent: seat for seat, agent in enumerate(AGENTS)}


def env(ruleset: str = "battleline-basic", render_mode: str | None = None, observation: str = "observation",
        **options: str) -> AECEnv:
    """The AEC environment of ``ruleset`` with ``options``, wrapped as PettingZoo's classic
    environments are: an illegal action id ends the game, -1 for the player who sent it
    (``TerminateIllegalWrapper``), an id outside the space is an assertion error
    (``AssertOutOfBoundsWrapper``), and ``reset()`` must come first
    (``OrderEnforcingWrapper``). :class:`raw_env` is the environment without them."""
    return _Classic(raw_env(ruleset, render_mode=render_mode, observation=observation, **options))


# The AEC attributes that every step reads, several times: PettingZoo's wrappers find them
# through __getattr__ at each layer; _Classic reads them from the environment, as properties.
_AEC_ATTRIBUTES = ("agent_selection", "agents", "terminations", "truncations", "rewards", "infos",
                   "_cumulative_rewards")
_BEFORE_RESET = frozenset(("agents", "terminations", "truncations", "rewards", "infos", "agent_selection"))


def _forwarded(name: str) -> property:
    guarded = name in _BEFORE_RESET

    def get(self: _Classic) -> Any:
        if guarded and not self._has_reset:  # what OrderEnforcingWrapper refuses before reset()
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self._raw, name)

    def put(self: _Classic, value: Any) -> None:
        setattr(self._raw, name, value)

    return property(get, put)


class _Classic(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's classic wrapping of :class:`raw_env` in one layer, for speed (the three
    wrappers, each forwarding every attribute through ``__getattr__``, cost a third of a
    step): ``OrderEnforcingWrapper`` itself (nothing before ``reset()``), with the
    assertion of ``AssertOutOfBoundsWrapper`` and the rule of ``TerminateIllegalWrapper``
    (an illegal action ends the game, -1 for its player and 0 for the other, terminated and
    truncated as that wrapper marks them) in its ``step``."""

    def __init__(self, env: raw_env) -> None:
        self._raw = env
        super().__init__(env)

    def observe(self, agent: str) -> Observation:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self._raw.observe(agent)

    def last(self, observe: bool = True) -> tuple[Any, ...]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        raw = self._raw  # raw_env.last, inlined: called at every step
        agent = raw.agent_selection
        return (raw.table.observe(_SEATS[agent]) if observe else None, raw._cumulative_rewards[agent],
                raw.terminations[agent], raw.truncations[agent], raw.infos[agent])

    def step(self, action: Any) -> None:
        raw = self._raw
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        self._has_updated = True
        if not raw.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = raw.agent_selection
        if raw.terminations[agent] or raw.truncations[agent]:
            raw.step(action)
            return
        if type(action) is not int or not 0 <= action < raw.table.num_actions:  # the common case checked here
            assert raw.action_spaces[agent].contains(action), "action is not in action space"
        try:
            raw._play(agent, action)
        except IllegalActionId:  # the game is unchanged
            EnvLogger.warn_on_illegal_move()
            raw._forfeit(agent, -1.0)


for _name in _AEC_ATTRIBUTES:
    setattr(_Classic, _name, _forwarded(_name))


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo is untyped; the name is its convention
    """The environment without wrappers (see the module's documentation): dealt and usable
    from the start, and an illegal action id raises :class:`IllegalActionId`."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo declares it so)
        "render_modes": ["ansi", "human"], "name": "frontlines_v0", "is_parallelizable": False, "render_fps": 4,
    }

    def __init__(self, ruleset: str = "battleline-basic", render_mode: str | None = None,
                 observation: str = "observation", **options: str) -> None:
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        self.table = Table(ruleset, options, observation)
        self.metadata = {**self.metadata, "name": f"frontlines_{self.table.ruleset.replace('-', '_')}_v0"}
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.observation_spaces = dict.fromkeys(AGENTS, self.table.observation_space)
        self.action_spaces = dict.fromkeys(AGENTS, self.table.action_space)
        self._start()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _start(self) -> None:
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[self.table.state.current_player() or 0]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.table.deal(seed)
        self._start()

    def observe(self, agent: str) -> Observation:
        seat = _SEATS.get(agent)
        if seat is None:
            raise ValueError(f"no agent {agent!r}: the agents are {', '.join(AGENTS)}")
        return self.table.observe(seat)

    def last(self, observe: bool = True) -> tuple[Any, ...]:
        # AECEnv.last's result, read directly: it is called at every step
        agent = self.agent_selection
        assert agent is not None
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionId(f"{agent} must act: {self.table.legal_text()}")
        self._play(agent, action)

    def _play(self, agent: str, action: Any) -> None:
        """Play ``action`` for ``agent``, the agent to move, in a game that goes on."""
        table = self.table
        table.play(action)
        self._cumulative_rewards[agent] = 0.0
        state = table.state
        player = state.current_player()
        if player is None:  # the game is over
            self.rewards = dict(zip(AGENTS, table.encoding.returns(state), strict=True))
            self.terminations = dict.fromkeys(AGENTS, True)
            self.agent_selection = AGENTS[1 - _SEATS[agent]]
            self._accumulate_rewards()
            return
        # the game goes on: every reward stays 0 (rewards come at the end), so the dicts
        # are left as they are rather than rebuilt at every step
        if len(state.history) >= table.encoding.max_game_length:  # Encoding.truncated, the game not being over
            self.truncations = dict.fromkeys(AGENTS, True)
        self.agent_selection = AGENTS[player]

    def _forfeit(self, agent: str, reward: float) -> None:
        """End the game at once, ``reward`` for ``agent`` and 0 for the other (what
        PettingZoo's TerminateIllegalWrapper does to an illegal move)."""
        self._cumulative_rewards[agent] = 0.0
        self.terminations = dict.fromkeys(AGENTS, True)
        self.truncations = dict.fromkeys(AGENTS, True)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self.rewards[agent] = reward
        self._accumulate_rewards()
        self._deads_step_first()

    def view(self, agent: str) -> View:
        """``agent``'s view of the game now (``frontlines.core.game.View``): what its
        observation encodes, as the Python API's object (its own cards only)."""
        seat = _SEATS.get(agent)
        if seat is None:
            raise ValueError(f"no agent {agent!r}: the agents are {', '.join(AGENTS)}")
        return self.table.view(seat)

    def render(self) -> str | None:
        return self.table.render(self.render_mode)

    def close(self) -> None:
        pass


__all__ = ["AGENTS", "IllegalActionId", "env", "raw_env"]
