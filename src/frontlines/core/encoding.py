"""What learning libraries need of a ruleset, for every game: the fixed action space.

OpenSpiel, PettingZoo and Gymnasium want numbers where our games have actions and views:

* a **fixed action space**: ``num_actions`` dense ids ``0 .. num_actions - 1``, one per
  action that can ever be legal in the ruleset (:meth:`Encoding.action_id`,
  :meth:`Encoding.action`), and the legal ones as ids or as a 0/1 mask;
* :meth:`Encoding.returns`: per-player results, ``+1`` win, ``-1`` loss, ``0`` draw (and
  ``0`` for both while the game goes on);
* ``max_game_length``: the most actions a game may take (``length_proven`` says whether
  that is a proof or a limit the interfaces enforce by truncating the game);
* per-player **observation** and **information-state tensors**: flat float32 arrays
  (``array.array("f")``: cheap to build, and ``numpy.frombuffer`` wraps one without a
  copy) whose layout is data (:class:`Block` tuples), built from a :class:`View` only, so
  they can never carry a hidden card.

The observation is what the player sees at the table now; the information state adds
what the player remembers (cards it saw go into the other hand or back on a deck, ...).
Both read the player's view, which already is what that player may know (docs/research.md
shows every layout). The game packages implement this per ruleset
(``games/<game>/tensors.py``) and return it from :meth:`GameModule.encoding`;
``frontlines.games.encoding(ruleset)`` finds it by ruleset name.

Everything here is standard library; the optional ``rl`` interfaces (``frontlines.rl``)
turn the arrays into numpy arrays.
"""

from __future__ import annotations

from abc import abstractmethod
from array import array
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import prod
from typing import Any, cast

from frontlines.core.game import Action, Outcome, State, View
from frontlines.core.interface import Interface, rebuilt


@dataclass(frozen=True, slots=True)
class Block:
    """One named slice of a flat tensor: ``shape`` entries, row-major, after the blocks
    before it. ``help`` says what an entry means."""

    name: str
    shape: tuple[int, ...]
    help: str

    @property
    def size(self) -> int:
        return prod(self.shape)

    def __reduce__(self) -> tuple[type[Block], tuple[str, tuple[int, ...], str]]:
        # pickled (and deep-copied) as its fields, rebuilt through __init__: compiled, a
        # frozen dataclass refuses pickle's setting of one attribute at a time
        return Block, (self.name, self.shape, self.help)


def layout_size(layout: Sequence[Block]) -> int:
    return sum(b.size for b in layout)


def layout_offsets(layout: Sequence[Block]) -> dict[str, tuple[int, int]]:
    """``name -> (start, end)`` of each block in the flat tensor."""
    out: dict[str, tuple[int, int]] = {}
    start = 0
    for b in layout:
        out[b.name] = (start, start + b.size)
        start += b.size
    return out


def returns_of(outcome: Outcome | None) -> tuple[float, float]:
    """``(+1, -1)`` when player 0 won, ``(-1, +1)`` when player 1 won, ``(0, 0)`` for a draw
    or a game still going on."""
    if outcome is None or outcome.winner is None:
        return (0.0, 0.0)
    return (1.0, -1.0) if outcome.winner == 0 else (-1.0, 1.0)


class Encoding(Interface):
    """Action ids, masks, returns and tensors of one ruleset (with its options).

    Actions of both games are ``int`` codes; :class:`Encoding` numbers those that can ever be
    legal in the ruleset densely, in code order, so the ids of a ruleset never change while
    its action space does not (``codes`` is the table).
    """

    ruleset: str
    #: the action codes of the space, in id order
    codes: tuple[int, ...]
    #: the most actions (both players') one game may take
    max_game_length: int
    #: True: no game can be longer (a proof, docs/research.md); False: the interfaces end a
    #: game that reaches ``max_game_length`` (truncation; OpenSpiel: a draw)
    length_proven: bool
    observation_layout: tuple[Block, ...]
    information_state_layout: tuple[Block, ...]

    def __init__(self, ruleset: str, codes: Sequence[int], max_game_length: int, length_proven: bool) -> None:
        self.ruleset = ruleset
        self.codes = tuple(codes)
        self.max_game_length = max_game_length
        self.length_proven = length_proven
        # code -> id as a list: indexing is faster than a dict lookup on the hot path
        table = [-1] * (max(self.codes) + 1)
        for i, code in enumerate(self.codes):
            table[code] = i
        self._ids = table

    @property
    def num_actions(self) -> int:
        return len(self.codes)

    @property
    def observation_size(self) -> int:
        return layout_size(self.observation_layout)

    @property
    def information_state_size(self) -> int:
        return layout_size(self.information_state_layout)

    # --- actions -------------------------------------------------------------------------
    def action_id(self, action: Action) -> int:
        """The dense id of ``action``; ``ValueError`` if it is not in this ruleset's space."""
        if type(action) is int and 0 <= action < len(self._ids):
            i = self._ids[action]
            if i >= 0:
                return i
        raise ValueError(f"{action!r} is not an action of {self.ruleset}")

    def action(self, action_id: object) -> Action:
        """The action with id ``action_id``; ``ValueError`` outside ``0 .. num_actions - 1``
        (and for what is not an ``int``: typed ``object`` so that the compiled build answers
        the same, where an ``int`` parameter is checked before the body with a ``TypeError``)."""
        if type(action_id) is not int or not 0 <= action_id < len(self.codes):
            raise ValueError(f"action id {action_id!r} is outside 0..{len(self.codes) - 1} ({self.ruleset})")
        return self.codes[action_id]

    def action_ids(self) -> list[int]:
        """The ids by action code: ``action_ids()[code]`` is ``action_id(code)`` for the
        codes of the space, -1 for codes outside it (a table for loops over many actions)."""
        return self._ids

    def legal_ids(self, source: State | View) -> list[int]:
        """Ids of the legal actions of the player to move (a view: of its viewer), in the
        order the game lists them."""
        return list(map(self._ids.__getitem__, source.legal_actions()))  # type: ignore[arg-type]

    def legal_mask(self, source: State | View) -> list[int]:
        """``num_actions`` entries, 1 where the action is legal."""
        mask = [0] * len(self.codes)
        for i in self.legal_ids(source):
            mask[i] = 1
        return mask

    # --- results -------------------------------------------------------------------------
    def returns(self, source: State | View) -> tuple[float, float]:
        """Per-player results (:func:`returns_of`): +1 win, -1 loss, 0 draw or not over."""
        return returns_of(source.outcome())

    def truncated(self, state: State) -> bool:
        """Whether the interfaces must stop ``state`` here: it is not over but has taken
        ``max_game_length`` actions (never, when the length is proven)."""
        return not state.is_terminal() and len(state.history) >= self.max_game_length

    # --- tensors -------------------------------------------------------------------------
    @abstractmethod
    def observation_tensor(self, view: View) -> array[float]:
        """What ``view.viewer`` sees at the table now, in :attr:`observation_layout`
        (``observation_size`` floats). The view must belong to a player, not a spectator."""

    def observation_tensor_of(self, state: State, player: int) -> array[float]:
        """``observation_tensor(state.view(player))``; games may compute it without
        building the view, reading only what the view holds (tests compare the two)."""
        return self.observation_tensor(state.view(player))

    def live_observation(self, player: int) -> LiveObservation:
        """An object that keeps ``player``'s observation tensor up to date as a game goes
        on, cheaper than building it afresh each time (what the environments use)."""
        return LiveObservation(self, player)

    @abstractmethod
    def information_state_tensor(self, view: View) -> array[float]:
        """The observation and what the viewer remembers, in
        :attr:`information_state_layout`."""

    def information_state_tensor_of(self, state: State, player: int) -> array[float]:
        """``information_state_tensor(state.view(player))``; games may compute it without
        building the view (tests compare the two)."""
        return self.information_state_tensor(state.view(player))

    def live_information_state(self, player: int) -> LiveObservation:
        """Like :meth:`live_observation`, for the information-state tensor."""
        return LiveInformationState(self, player)

    def private_entries(self, options: Mapping[str, str] | None = None) -> tuple[slice, ...]:
        """The entries of the observation tensor that only its player may know (the
        player's own hand, ...), as slices: a public observation is the observation with
        these zero. Every other entry is public (docs/research.md)."""
        return ()


class LiveObservation:
    """One player's observation tensor, kept up to date: :meth:`update` returns the tensor of
    the state it is given, writing only what differs from the last state it was given.

    Any state or view of ``player`` may be given (of the encoding's ruleset), in any order: the games compare
    what the tensor is made of, not the moves between, so a new game or an unrelated
    position only costs more. The returned array is the object's own and is rewritten by
    the next :meth:`update`: copy it to keep it. This base class builds the tensor afresh;
    the games override :meth:`update`.
    """

    __slots__ = ("encoding", "player")

    def __init__(self, encoding: Encoding, player: int) -> None:
        if player not in (0, 1):
            raise ValueError(f"an observation belongs to player 0 or 1, not {player!r}")
        self.encoding = encoding
        self.player = player

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled (and deep-copied: environments are) as its fields, rebuilt through
        # __init__ and then given them: a compiled class is made only through its __init__
        return rebuilt, (type(self), (self.encoding, self.player), fields_of(self))

    def update(self, state: State | View) -> array[float]:
        """``observation_tensor_of(state, player)`` (of a view of ``player``:
        ``observation_tensor(view)``), in an array that the next call rewrites."""
        if isinstance(state, View):
            return self.encoding.observation_tensor(state)
        return self.encoding.observation_tensor_of(state, self.player)

    def advance(self, state: State, actions: Sequence[Action]) -> array[float]:
        """:meth:`update` for ``state`` when the last update was given this same state
        object and ``state`` has made exactly ``actions`` since (none undone): the games
        rewrite only what those moves can change, instead of comparing every part of the
        position with what the tensor shows (the environments, which own their game, call
        this at every step). This base class calls :meth:`update`."""
        return self.update(state)


class LiveInformationState(LiveObservation):
    """:class:`LiveObservation` of the information-state tensor (this base class builds it
    afresh; the games override :meth:`update`)."""

    __slots__ = ()

    def update(self, state: State | View) -> array[float]:
        if isinstance(state, View):
            return self.encoding.information_state_tensor(state)
        return self.encoding.information_state_tensor_of(state, self.player)


def fields_of(obj: object) -> dict[str, Any]:
    """The attributes of ``obj`` by name, as pickle reads them in either build (compiled:
    a dict of the class's attributes; pure Python: ``(__dict__, slots)``)."""
    state = obj.__getstate__()
    if isinstance(state, tuple):
        own, slots = cast(tuple[dict[str, Any] | None, dict[str, Any] | None], state)
        return {**(own or {}), **(slots or {})}
    return dict(cast(dict[str, Any], state))


def player_of(view: View) -> int:
    """The view's player; ``ValueError`` for a spectator's view (tensors are per player)."""
    viewer = view.viewer
    if viewer not in (0, 1):
        raise ValueError("tensors describe a player's view, not a spectator's")
    assert viewer is not None
    return viewer


__all__ = ["Block", "Encoding", "LiveInformationState", "LiveObservation", "fields_of", "layout_offsets", "layout_size", "player_of", "returns_of"]
