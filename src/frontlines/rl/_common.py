"""What the PettingZoo and Gymnasium environments share: one game of a ruleset behind
action ids, numpy observations, the illegal-action error and the text of the table."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from frontlines.core.errors import IllegalAction
from frontlines.core.game import State
from frontlines.games import encoding, new_state, ruleset

OBSERVATIONS = ("observation", "information_state")
Observation = dict[str, npt.NDArray[Any]]


class IllegalActionId(IllegalAction, AssertionError):
    """An action id that is not legal now; the game is unchanged.

    An ``AssertionError`` because that is what PettingZoo's and Gymnasium's own environments
    raise for an action they refuse (``assert action_space.contains(action)``, "played
    illegal move"), and our :class:`~frontlines.core.errors.IllegalAction` too.
    """


class Table:
    """One game of ``ruleset`` seen through action ids: the part of an environment that
    does not depend on the library."""

    def __init__(self, ruleset_name: str, options: Mapping[str, str], observation: str) -> None:
        spec = ruleset(ruleset_name)  # UnknownRuleset names the known ones
        self.ruleset = spec.name
        self.options = {str(k): str(v) for k, v in options.items()}
        spec.resolve_options(self.options)  # a bad option fails here, not at the first reset
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation must be one of {', '.join(OBSERVATIONS)}, not {observation!r}")
        self.observation = observation
        self.encoding = encoding(self.ruleset, self.options)
        enc = self.encoding
        size = enc.observation_size if observation == "observation" else enc.information_state_size
        # every entry of both tensors lies in [-1, 1] (docs/research.md)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(-1.0, 1.0, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (enc.num_actions,), np.int8),
        })
        self.action_space = spaces.Discrete(enc.num_actions)
        self._rng = random.Random()
        self.state: State = new_state(self.ruleset, seed=self._rng.randrange(1 << 62), options=self.options)

    def deal(self, seed: int | None) -> None:
        """A new game; a seed makes it and every later deal without a seed reproducible."""
        if seed is not None:
            self._rng.seed(seed)
        self.state = new_state(self.ruleset, seed=self._rng.randrange(1 << 62), options=self.options)

    def observe(self, seat: int) -> Observation:
        """The observation of ``seat``: its tensor and its legal actions (none when it is not
        its turn)."""
        enc = self.encoding
        state = self.state
        if self.observation == "observation":
            tensor = enc.observation_tensor_of(state, seat)
        else:
            tensor = enc.information_state_tensor(state.view(seat))
        mask = np.zeros(enc.num_actions, np.int8)
        if state.current_player() == seat:
            mask[enc.legal_ids(state)] = 1
        return {"observation": np.frombuffer(tensor, np.float32), "action_mask": mask}

    def play(self, action_id: object) -> None:
        """Play the action with id ``action_id`` for the player to move; ``IllegalActionId``
        (game unchanged) when it is not legal now."""
        state = self.state
        try:
            action = self.encoding.action(int(action_id))  # type: ignore[call-overload]
        except (TypeError, ValueError) as exc:
            raise IllegalActionId(f"{action_id!r} is not an action id: {exc}; {self.legal_text()}") from None
        try:
            state.apply(action)  # checks legality and changes nothing when it raises
        except IllegalAction as exc:
            raise IllegalActionId(
                f"action id {action_id} ({state.action_to_text(action)}) is not legal now ({exc}); {self.legal_text()}"
            ) from None

    def legal_text(self, most: int = 40) -> str:
        """The legal actions as ``id (text)``, for error messages."""
        state = self.state
        legal = state.legal_actions()
        if not legal:
            return "no action is legal now (the game is over)"
        enc = self.encoding
        items = [f"{enc.action_id(a)} ({state.action_to_text(a)})" for a in legal[:most]]
        more = f" and {len(legal) - most} more" if len(legal) > most else ""
        return f"legal: {', '.join(items)}{more}"

    def over(self) -> bool:
        return self.state.is_terminal()

    def truncated(self) -> bool:
        return self.encoding.truncated(self.state)

    def render(self, mode: str | None) -> str | None:
        """``render()`` of both libraries: ``ansi`` returns :func:`table_text`, ``human``
        prints it."""
        if mode is None:
            gymnasium.logger.warn("render() called without a render_mode; make the env with render_mode='ansi'")
            return None
        if mode == "human":
            print(table_text(self.state))
            return None
        return table_text(self.state)


def table_text(state: State) -> str:
    """Plain text of ``state``'s table for spectators: the terminal game's drawing (it needs
    Rich, part of the ``rl`` extra), a line of counts, and the result once there is one."""
    view = state.view(None)
    d = view.to_dict()
    if state.game == "warmachine":
        from frontlines.tui.warmachine import status_line
        from frontlines.tui.warmachine import table_text as front_text

        body = front_text(d, 0, 80).plain
        counts = status_line(d).plain
    else:
        from frontlines.tui.render import plain_table

        body = plain_table(d, 0, names=["P1", "P2"])
        hands = d.get("hand_sizes") or ["?", "?"]
        counts = f"hands {hands[0]}-{hands[1]}  troop deck {d.get('troop_deck', '?')}  tactics deck {d.get('tactics_deck', '?')}"
    lines = [f"{state.ruleset}  move {len(state.history)}", body, counts]
    outcome = state.outcome()
    if outcome is not None:
        who = "draw" if outcome.winner is None else f"P{outcome.winner + 1} wins"
        lines.append(f"game over: {who} ({outcome.reason})")
    else:
        lines.append(f"P{(state.current_player() or 0) + 1} to move")
    return "\n".join(lines)


__all__ = ["OBSERVATIONS", "IllegalActionId", "Observation", "Table", "table_text"]
