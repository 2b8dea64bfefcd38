"""What the PettingZoo and Gymnasium environments share: one game of a ruleset behind
action ids, numpy observations, the illegal-action error and the text of the table."""

from __future__ import annotations

import operator
import random
import weakref
from array import array
from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from frontlines.core.errors import IllegalAction
from frontlines.core.game import Action, State, View
from frontlines.games import encoding, new_state, ruleset

OBSERVATIONS = ("observation", "information_state")
Observation = dict[str, npt.NDArray[Any]]


class IllegalActionId(IllegalAction, AssertionError):
    """An action id that is not legal now; the game is unchanged.

    An ``AssertionError`` because that is what PettingZoo's and Gymnasium's own environments
    raise for an action they refuse (``assert action_space.contains(action)``, "played
    illegal move"), and our :class:`~frontlines.core.errors.IllegalAction` too.
    """


class LegalDiscrete(spaces.Discrete):
    """The action space of an environment: ``Discrete(num_actions)`` whose ``sample()``
    without a mask draws uniformly among the ids legal in the environment's position, so a
    random agent that calls ``action_space.sample()`` always plays a legal move.

    The draw uses the space's own generator (``action_space.seed(s)`` makes it
    reproducible); ``sample(mask=...)`` and ``sample(probability=...)`` are Discrete's, and
    ``contains`` is the whole space (a legal id depends on the position; ``step`` checks it).
    The space refers to its game weakly and never carries it: a copy refers to the same
    game, and a pickle (what a vector environment sends between processes) is the plain
    ``Discrete`` space, whose ``sample()`` draws among all ids.
    """

    def __init__(self, table: Table) -> None:
        super().__init__(table.encoding.num_actions)
        self._table = weakref.ref(table)
        self._size = int(self.n)  # a Python int: comparing one with numpy's n is slow

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        table = self._table()
        if mask is not None or probability is not None or table is None:
            return super().sample(mask, probability)
        legal = table.encoding.legal_ids(table.state) if not table.over() else []
        if not legal:  # the game is over: any id
            return super().sample()
        return np.int64(legal[int(self.np_random.integers(len(legal)))])

    def contains(self, x: Any) -> bool:
        if type(x) is int:  # the common case, without Discrete's numpy checks
            return 0 <= x < self._size
        return super().contains(x)

    def __reduce__(self) -> tuple[type[spaces.Discrete], tuple[int]]:
        return spaces.Discrete, (int(self.n),)


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
        self.action_space = LegalDiscrete(self)
        # each seat's tensor, brought up to date at each observe (only what the moves since
        # its last observe changed is rewritten)
        if observation == "observation":
            self.live = (enc.live_observation(0), enc.live_observation(1))
        else:
            self.live = (enc.live_information_state(0), enc.live_information_state(1))
        # per seat: the live tensor last returned, a numpy view of it (copied for each
        # observation: cheaper than copying the array and wrapping the copy), and the
        # position it shows (the state object and its number of moves)
        self._tensors: list[array[float]] = [array("f"), array("f")]
        self._views: list[npt.NDArray[np.float32]] = [np.zeros(0, np.float32), np.zeros(0, np.float32)]
        self._seen_states: list[State | None] = [None, None]
        self._seen_moves = [-1, -1]
        self._ids = enc.action_ids()
        # the legal actions of the last position a mask was made for (``mask``), and that position
        self._legal: list[Action] = []
        self._legal_state: State | None = None
        self._legal_moves = -1
        self.num_actions = enc.num_actions
        self._rng = random.Random()
        self.deals = 0  # games dealt so far: with the number of moves, names a position
        self.state: State = new_state(self.ruleset, seed=self._rng.randrange(1 << 62), options=self.options)

    def deal(self, seed: int | None) -> None:
        """A new game; a seed makes it and every later deal without a seed reproducible."""
        if seed is not None:
            self._rng.seed(seed)
        self.state = new_state(self.ruleset, seed=self._rng.randrange(1 << 62), options=self.options)
        self.deals += 1

    def position(self) -> int:
        """A number that differs for every position this table's games go through."""
        return self.deals << 32 | len(self.state.history)

    def observe(self, seat: int) -> Observation:
        """The observation of ``seat``: its tensor and its legal actions (none when it is not
        its turn). Both arrays are new (a learner may keep them)."""
        state = self.state
        history = state.history
        moves = len(history)
        seen = self._seen_moves[seat]
        # asked again in the same position (several observers, api_test): no update
        if self._seen_states[seat] is not state or seen != moves:
            live = self.live[seat]
            # the same game some moves on (a table only ever applies moves to its game): the
            # tensor rewrites what those moves change; another game: what differs
            if self._seen_states[seat] is state and seen < moves:
                tensor = live.advance(state, history[seen:])
            else:
                tensor = live.update(state)
            if tensor is not self._tensors[seat]:  # the games' live tensors are one array, rewritten
                self._tensors[seat] = tensor
                self._views[seat] = np.frombuffer(tensor, np.float32)
            self._seen_states[seat] = state
            self._seen_moves[seat] = moves
        return {"observation": self._views[seat].copy(), "action_mask": self.mask(seat)}

    def mask(self, seat: int) -> npt.NDArray[np.int8]:
        """1 for the ids ``seat`` may play now (all zero when it is not its turn)."""
        state = self.state
        mask = bytearray(self.num_actions)  # wrapped without a copy below
        if state.current_player() == seat:
            ids = self._ids
            legal = self._legal = state.legal_actions()  # (a new list: kept for play())
            self._legal_state = state
            self._legal_moves = len(state.history)
            # a Python loop over a bytearray: faster than numpy's scatter for the tens of
            # legal actions a position has (measured)
            for code in legal:
                mask[ids[code]] = 1  # type: ignore[call-overload]  # codes are ints here
        return np.frombuffer(mask, np.int8)

    def play(self, action_id: object) -> None:
        """Play the action with id ``action_id`` for the player to move; ``IllegalActionId``
        (game unchanged) when it is not legal now."""
        state = self.state
        codes = self.encoding.codes
        # the common case first: a Python int in the space, among the legal actions the
        # engine listed for the mask of this very position: applied without asking again
        if type(action_id) is int and 0 <= action_id < len(codes):
            code = codes[action_id]
            if self._legal_state is state and self._legal_moves == len(state.history) and code in self._legal:
                state.apply_legal(code)
                return
        else:
            code = self._code(action_id)
        try:
            state.apply(code)  # checks legality and changes nothing when it raises
        except IllegalAction as exc:
            raise IllegalActionId(
                f"action id {action_id} ({state.action_to_text(code)}) is not legal now ({exc}); {self.legal_text()}"
            ) from None

    def _code(self, action_id: object) -> int:
        try:
            return self.encoding.action(operator.index(action_id))  # type: ignore[arg-type, return-value]
        except (TypeError, ValueError) as exc:
            raise IllegalActionId(f"{action_id!r} is not an action id: {exc}; {self.legal_text()}") from None

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

    def view(self, seat: int) -> View:
        """``seat``'s view of the game now: what that player may know, the same information
        as its observation tensor, as the Python API's object (``frontlines.core.game.View``)."""
        return self.state.view(seat)

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
    """Plain text of ``state``'s table for spectators, laid out as the terminal game lays it
    out: a column per flag (per position in War Machine), player 2's cards above, player 1's
    below, then a line of counts and who moves or who won."""
    d = state.view(None).to_dict()
    columns: list[tuple[list[str], list[str], list[str]]] = []
    if state.game == "warmachine":
        for pos in d["front"]:
            sides = [[c["code"] + ("^" if c["up"] == "war_machine" else "v") for c in side] for side in pos["sides"]]
            won = f"won P{pos['winner'] + 1}" if pos["winner"] is not None else pos["status"]
            middle = [f"{pos['index']} {pos['country']}", f"{'WM' if pos['value'] == 2 else 'inf'} p{pos['pile']}", won]
            columns.append((sides[1], middle, sides[0]))
        counts = f"support {d['support']}  burned {d['burned']}  hands {d['hand_sizes'][0]}-{d['hand_sizes'][1]}"
    else:
        for flag in d["flags"]:
            marks = "".join(m for m, on in (("F", flag["fog"]), ("M", flag["mud"])) if on)
            owner = flag["claimed_by"]
            middle = [f"{flag['index']}{marks}" + (f" P{owner + 1}" if owner is not None else "")]
            columns.append((list(flag["sides"][1]), middle, list(flag["sides"][0])))
        hands = d["hand_sizes"]
        counts = f"hands {hands[0]}-{hands[1]}  troop deck {d['troop_deck']}  tactics deck {d['tactics_deck']}"
    width = max(8, *(len(x) for col in columns for part in col for x in part)) + 1
    depth = max(4, *(max(len(col[0]), len(col[2])) for col in columns))
    rows = max(len(col[1]) for col in columns)
    lines = []
    for r in range(depth):  # player 2's cards, the newest nearest the middle
        lines.append([(col[0][depth - 1 - r] if depth - 1 - r < len(col[0]) else "") for col in columns])
    lines += [[col[1][r] if r < len(col[1]) else "" for col in columns] for r in range(rows)]
    lines += [[col[2][r] if r < len(col[2]) else "" for col in columns] for r in range(depth)]
    body = ["|".join(cell.center(width) for cell in line).rstrip() for line in lines]
    outcome = state.outcome()
    if outcome is not None:
        who = "a draw" if outcome.winner is None else f"P{outcome.winner + 1} wins"
        end = f"game over: {who} ({outcome.reason})"
    else:
        end = f"P{(state.current_player() or 0) + 1} to move"
    return "\n".join([f"{state.ruleset}  move {len(state.history)}  (P2 above, P1 below)", *body, counts, end])


__all__ = ["OBSERVATIONS", "IllegalActionId", "LegalDiscrete", "Observation", "Table", "table_text"]
