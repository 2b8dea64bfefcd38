"""Every ruleset of both games as an OpenSpiel game (optional extra ``frontlines[rl]``).

::

    import pyspiel
    import frontlines.rl.openspiel  # registers frontlines_battleline_basic, ..., frontlines_warmachine

    game = pyspiel.load_game("frontlines_battleline", {"claim_timing": "after_play"})
    state = game.new_initial_state()

Importing this module registers ``frontlines_<ruleset with underscores>`` for each ruleset,
its options as game parameters with the ruleset's defaults: OpenSpiel reads ``true`` and
numbers in game strings as booleans and integers, so true/false options are boolean
parameters and ``first_player`` / ``shuffler`` integers (-1 for ``random``); the others
are text.

* **Player actions** are the ruleset's dense action ids (:mod:`frontlines.core.encoding`);
  an illegal id raises ``pyspiel.SpielError`` naming it and the legal ones, and leaves the
  state as it was.
* **Chance is explicit** (docs/research.md, "The chance model"): the set-up is a sequence of
  chance nodes (who starts or shuffles, when the options leave it random; Battle Line's
  battlefields; each card dealt; War Machine's war front and leftover cards), and every
  draw is a player action (which deck or pile) followed by a chance node whose outcomes
  are the cards that could come next, equally likely. The engine then puts the chosen card
  on top and draws it (``BattleLineState.stack``, ``WarMachineState.stack``). Outcome ids
  are card numbers (0/1 for a seat or a side, a battlefield's number for a battlefield).
  Each later game of a War Machine match is dealt by chance nodes the same way.
* **Observations** come from the player's view only: the tensors are the encoding's, the
  observation string is the view's notation, the information-state string adds the
  action log as that player saw it (and the pending draw at a chance node).
* ``resample_from_infostate`` samples a full state through ``View.sample``: OpenSpiel's
  ISMCTS bot plays on it, and :func:`state_from_view` starts an OpenSpiel search from a
  view (how an OpenSpiel bot plays in our arena: :mod:`frontlines.rl.openspiel_bot`).
* A game longer than the encoding's ``max_game_length`` (when that length is not proven)
  ends there as a draw.

``pyspiel`` has no type information; this module is the typed boundary around it.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from array import array
from collections.abc import Callable, Mapping, Sequence
from itertools import repeat
from typing import Any

import numpy as np
import pyspiel

from frontlines.core.encoding import Encoding, LiveObservation
from frontlines.core.errors import IllegalAction
from frontlines.core.game import OptionSpec, Ruleset, State, View
from frontlines.games import all_rulesets, encoding
from frontlines.games.battleline.cards import NUM_CARDS, NUM_TROOPS, card_code
from frontlines.games.battleline.rules import make_config
from frontlines.games.battleline.state import (
    DRAW_TACTICS,
    DRAW_TROOP,
    NUM_FLAGS,
    SCOUT_TACTICS,
    SCOUT_TROOP,
    BattleLineState,
    BattleLineView,
)
from frontlines.games.warmachine.cards import ALL_CARDS
from frontlines.games.warmachine.cards import card_code as wm_card_code
from frontlines.games.warmachine.engine import WarMachineState, WarMachineView
from frontlines.games.warmachine.options import Opts
from frontlines.games.warmachine.rules import CHOOSE, DRAW_A, Board

_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def game_name(ruleset: str) -> str:
    """The OpenSpiel short name of ``ruleset``: ``battleline-basic`` -> ``frontlines_battleline_basic``."""
    return "frontlines_" + ruleset.replace("-", "_")


# --- the per-game chance model ---------------------------------------------------------------
class _Rules(ABC):
    """What differs between the games: the set-up as chance events, which engine actions
    draw a card, and how a drawn card is chosen. One instance per game object, shared by its
    states (copies and pickles of a state refer to it by ruleset and options)."""

    max_chance_outcomes: int
    max_chance_nodes: int  # the most chance nodes in one game's history

    def __init__(self, ruleset: str, options: dict[str, str]) -> None:
        self.ruleset = ruleset
        self.options = options
        self.encoding: Encoding = encoding(ruleset, options)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Rules:
        return self  # shared and never changed

    def __reduce__(self) -> tuple[Callable[..., _Rules], tuple[str, tuple[tuple[str, str], ...]]]:
        return _rules_for, (self.ruleset, tuple(sorted(self.options.items())))

    # ``engine`` below is None for the first deal, or the match whose next game is dealt
    @abstractmethod
    def setup_outcomes(self, done: Sequence[int], engine: State | None) -> list[int] | None:
        """The equally likely outcomes of the next set-up chance event after ``done``, or
        ``None`` when the set-up is complete."""

    @abstractmethod
    def build(self, done: Sequence[int], engine: State | None) -> State:
        """The engine state the complete set-up ``done`` makes."""

    @abstractmethod
    def setup_text(self, done: Sequence[int], outcome: int, engine: State | None) -> str:
        """The set-up event ``outcome`` (coming after ``done``) in words."""

    @abstractmethod
    def setup_seen(self, done: Sequence[int], player: int, engine: State | None) -> str:
        """What ``player`` knows of the set-up so far (for strings at set-up chance nodes)."""

    def setup_receiver(self, done: Sequence[int], engine: State | None) -> int:
        """The player into whose hand the next set-up outcome (after ``done``) goes; -1
        when it goes to nobody's hand."""
        return -1

    def new_deal(self, engine: State) -> bool:
        """Whether the engine has just begun a game of a match, dealt from its own seed: the
        OpenSpiel state deals it again with chance nodes."""
        return False

    @abstractmethod
    def is_draw(self, code: int) -> bool:
        """Whether engine action ``code`` draws a card (a chance node follows it)."""

    @abstractmethod
    def draw_outcomes(self, state: State, code: int) -> list[int] | None:
        """The cards engine action ``code`` may draw now, equally likely; ``None`` when it
        draws nothing."""

    @abstractmethod
    def stack(self, state: State, code: int, card: int) -> None:
        """Put ``card`` where the draw ``code`` takes it from."""

    @abstractmethod
    def card_text(self, card: int) -> str: ...

    @abstractmethod
    def log(self, view: View) -> list[str]:
        """The view's action log (what its player saw)."""

    @abstractmethod
    def arrivals(self, view: View) -> list[tuple[int, int]]:
        """The cards that came into the viewer's hand from chance, in order, as
        ``FrontlinesState.arrived`` holds them: (index in the log of the draw, or -1 for
        the deal; card)."""


_BATTLELINE_DRAWS = frozenset((DRAW_TROOP, SCOUT_TROOP, DRAW_TACTICS, SCOUT_TACTICS))


class _BattleLineRules(_Rules):
    max_chance_outcomes = NUM_CARDS

    def __init__(self, ruleset: str, options: dict[str, str]) -> None:
        super().__init__(ruleset, options)
        cfg = self.cfg = make_config(ruleset, options)
        first = cfg.get("first_player", "random")
        self.first = -1 if first == "random" else int(first)
        self.battlefields = cfg.variant.battlefields
        mode = cfg.get("battlefields", "face_down")
        self.mixed = self.battlefields and mode == "mixed"
        self.bf_up_all = self.battlefields and mode == "face_up"
        self.troops = [c for c in range(NUM_TROOPS) if cfg.variant.troop_mask >> c & 1]
        self.tactics = list(range(NUM_TROOPS, NUM_CARDS)) if cfg.variant.tactics else []
        self.hand = cfg.variant.hand_size
        # the set-up's nodes, then one per card drawn: every card of the decks once, and the
        # (at most two) cards the one Scout puts back once more
        setup = (self.first < 0) + NUM_FLAGS * (self.battlefields + self.mixed) + 2 * self.hand
        self.max_chance_nodes = setup + len(self.troops) + len(self.tactics) - 2 * self.hand + 2 * bool(self.tactics)

    def _split(self, done: Sequence[int]) -> tuple[int, list[int], list[int], list[int]]:
        """(first player or -1, battlefield per flag, face-up bits, cards dealt) so far."""
        i = 0
        first = self.first
        if first < 0 and done:
            first, i = done[0], 1
        bf: list[int] = []
        up: list[int] = []
        if self.battlefields:
            bf = list(done[i:i + NUM_FLAGS])
            i += len(bf)
            if self.mixed:
                up = list(done[i:i + NUM_FLAGS])
                i += len(up)
        return first, bf, up, list(done[i:])

    def setup_outcomes(self, done: Sequence[int], engine: State | None) -> list[int] | None:
        first, bf, up, dealt = self._split(done)
        if first < 0:
            return [0, 1]
        if self.battlefields and len(bf) < NUM_FLAGS:
            return [b for b in range(NUM_FLAGS) if b not in bf]
        if self.mixed and len(up) < NUM_FLAGS:
            return [0, 1]
        if len(dealt) < 2 * self.hand:
            gone = set(dealt)
            return [c for c in self.troops if c not in gone]
        return None

    def build(self, done: Sequence[int], engine: State | None) -> State:
        first, bf, up, dealt = self._split(done)
        bf_up = sum(b << f for f, b in enumerate(up)) if self.mixed else (1 << NUM_FLAGS) - 1 if self.bf_up_all else 0
        # the deal takes cards from the top (the end) in the order they were dealt; the rest
        # of the deck may lie in any order, since each later draw is a chance event again
        gone = set(dealt)
        troops = [c for c in self.troops if c not in gone] + dealt[::-1]
        return BattleLineState.arranged(self.cfg, first, troops, list(self.tactics), tuple(bf), bf_up)

    def _dealt_to(self, first: int, k: int) -> int:
        return first if k % 2 == 0 else 1 - first

    def setup_receiver(self, done: Sequence[int], engine: State | None) -> int:
        first, bf, up, dealt = self._split(done)
        if first < 0 or (self.battlefields and len(bf) < NUM_FLAGS) or (self.mixed and len(up) < NUM_FLAGS):
            return -1
        return self._dealt_to(first, len(dealt))

    def setup_text(self, done: Sequence[int], outcome: int, engine: State | None) -> str:
        first, bf, up, dealt = self._split(done)
        if first < 0:
            return f"player {outcome} moves first"
        if self.battlefields and len(bf) < NUM_FLAGS:
            return f"battlefield {outcome} at flag {len(bf) + 1}"
        if self.mixed and len(up) < NUM_FLAGS:
            return f"flag {len(up) + 1} battlefield {'face up' if outcome else 'face down'}"
        return f"deal {card_code(outcome)} to player {self._dealt_to(first, len(dealt))}"

    def setup_seen(self, done: Sequence[int], player: int, engine: State | None) -> str:
        first, bf, up, dealt = self._split(done)
        mine = [card_code(c) for k, c in enumerate(dealt) if self._dealt_to(first, k) == player]
        return f"set-up first={first} battlefields={bf} up={up} dealt={len(dealt)} hand={'.'.join(mine)}"

    def is_draw(self, code: int) -> bool:
        return code in _BATTLELINE_DRAWS

    def draw_outcomes(self, state: State, code: int) -> list[int] | None:
        if code in _BATTLELINE_DRAWS:
            assert isinstance(state, BattleLineState)
            return state.next_draws(code in (DRAW_TACTICS, SCOUT_TACTICS))
        return None

    def stack(self, state: State, code: int, card: int) -> None:
        assert isinstance(state, BattleLineState)
        if (card >= NUM_TROOPS) != (code in (DRAW_TACTICS, SCOUT_TACTICS)):
            raise ValueError(f"{card_code(card)} is not in the deck being drawn from")
        state.stack(card)

    def card_text(self, card: int) -> str:
        return card_code(card)

    def log(self, view: View) -> list[str]:
        return list(view.log)  # type: ignore[attr-defined]

    def arrivals(self, view: View) -> list[tuple[int, int]]:
        assert isinstance(view, BattleLineView)
        return [(-1, c) for c in view.dealt] + [(d >> 7, d & 127) for d in view.seen_drawn]


class _WarMachineRules(_Rules):
    max_chance_outcomes = max(ALL_CARDS) + 1  # outcome ids are card numbers

    def __init__(self, ruleset: str, options: dict[str, str]) -> None:
        super().__init__(ruleset, options)
        self.opts = Opts.resolve(options)
        # per game: the front (3 cards, 3 orientations), 3 leftover cards, a node per draw
        # (at most the 24 support cards: tensors.py); who shuffles only before the first
        per_game = 6 + 3 + 24
        self.max_chance_nodes = (self.opts.shuffler < 0) + per_game * (3 if self.opts.best_of_3 else 1)

    def _split(self, done: Sequence[int], engine: State | None) -> tuple[int, list[int], list[int], list[int]]:
        """(shuffler or -1, front cards, their flips, leftover cards) so far."""
        i = 0
        # a match's next game: the shuffler alternates (the engine has set it)
        shuffler = self.opts.shuffler if engine is None else _board(engine).shuffler
        if shuffler < 0 and done:
            shuffler, i = done[0], 1
        front_part = list(done[i:i + 6])
        return shuffler, front_part[0::2], front_part[1::2], list(done[i + 6:])

    def setup_outcomes(self, done: Sequence[int], engine: State | None) -> list[int] | None:
        shuffler, front, flips, leftover = self._split(done, engine)
        if shuffler < 0:
            return [0, 1]
        if len(front) < 3 or len(flips) < len(front):
            if len(flips) < len(front):
                return [0, 1]
            # A2: a front card shows two countries not yet on the front (every card has two)
            shown = {c // 6 for c in front} | {c % 6 for c in front}
            return [c for c in ALL_CARDS if c // 6 not in shown and c % 6 not in shown]
        if len(leftover) < 3:
            return [c for c in ALL_CARDS if c not in front and c not in leftover]
        return None

    def build(self, done: Sequence[int], engine: State | None) -> State:
        shuffler, front, flips, leftover = self._split(done, engine)
        rest = [c for c in ALL_CARDS if c not in front and c not in leftover] + leftover
        if engine is not None:
            assert isinstance(engine, WarMachineState)
            engine.redeal(front, [bool(f) for f in flips], rest)
            return engine
        board = Board(self.opts)
        board.set_up(front, [bool(f) for f in flips], rest, shuffler)
        return WarMachineState(board, self.ruleset)

    def new_deal(self, engine: State) -> bool:
        return self.opts.best_of_3 and _board(engine).phase == CHOOSE

    def setup_text(self, done: Sequence[int], outcome: int, engine: State | None) -> str:
        shuffler, front, flips, _ = self._split(done, engine)
        if shuffler < 0:
            return f"player {outcome} shuffles"
        if len(front) < 3 or len(flips) < len(front):
            if len(flips) < len(front):
                return f"front card {len(front)} {'infantry' if outcome else 'war machine'} end first"
            return f"front card {len(front) + 1} is {wm_card_code(outcome)}"
        return f"leftover card {wm_card_code(outcome)}"

    def setup_seen(self, done: Sequence[int], player: int, engine: State | None) -> str:
        shuffler, front, flips, leftover = self._split(done, engine)
        cards = ".".join(wm_card_code(c) for c in front)
        game = "" if engine is None else f" game={_board(engine).game_no}"
        return f"set-up{game} shuffler={shuffler} front={cards} flips={flips} leftover={len(leftover)}"

    def is_draw(self, code: int) -> bool:
        return DRAW_A <= code < DRAW_A + 6

    def draw_outcomes(self, state: State, code: int) -> list[int] | None:
        if DRAW_A <= code < DRAW_A + 6:
            assert isinstance(state, WarMachineState)
            return state.next_draws()
        return None

    def stack(self, state: State, code: int, card: int) -> None:
        assert isinstance(state, WarMachineState)
        state.stack(code - DRAW_A, card)

    def card_text(self, card: int) -> str:
        return wm_card_code(card)

    def log(self, view: View) -> list[str]:
        return list(view.log())  # type: ignore[attr-defined]

    def arrivals(self, view: View) -> list[tuple[int, int]]:
        assert isinstance(view, WarMachineView)
        return [(d >> 7, d & 127) for d in view.drawn]


def _board(engine: State) -> Board:
    assert isinstance(engine, WarMachineState)
    return engine.board


_RULES: dict[tuple[str, tuple[tuple[str, str], ...]], _Rules] = {}


def _rules_for(ruleset: str, options: tuple[tuple[str, str], ...]) -> _Rules:
    key = (ruleset, options)
    rules = _RULES.get(key)
    if rules is None:
        cls = _WarMachineRules if _ruleset(ruleset).game == "warmachine" else _BattleLineRules
        rules = _RULES[key] = cls(ruleset, dict(options))
    return rules


def _ruleset(name: str) -> Ruleset:
    for r in all_rulesets():
        if r.name == name:
            return r
    raise ValueError(f"unknown ruleset {name!r}")


# --- game, state and observer ---------------------------------------------------------------
_BOOLS = frozenset(("true", "false"))


def _param_default(option: OptionSpec) -> bool | int | str:
    """The OpenSpiel parameter of an option: OpenSpiel reads ``true``/``false`` and numbers in
    a game string as booleans and integers, so options with such values become boolean or
    integer parameters (the one word among numbers, ``random``, becomes -1)."""
    choices = set(option.choices)
    if choices and choices <= _BOOLS:
        return option.default == "true"
    numbers = {c for c in choices if c.lstrip("-").isdigit()}
    if numbers and len(choices - numbers) <= 1:
        return int(option.default) if option.default in numbers else -1
    return option.default


def _option_text(option: OptionSpec, value: object) -> str:
    """A game parameter back as the option's text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and value == -1:
        words = [c for c in option.choices if not c.lstrip("-").isdigit()]
        if len(words) == 1:
            return words[0]
    return str(value)


def _game_type(r: Ruleset) -> Any:
    return pyspiel.GameType(
        short_name=game_name(r.name),
        long_name=f"Frontlines {r.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={o.name: _param_default(o) for o in r.options},
    )


class FrontlinesGame(pyspiel.Game):  # type: ignore[misc]
    """One ruleset with one set of options, as an OpenSpiel game."""

    def __init__(self, ruleset: str, params: Mapping[str, object] | None = None) -> None:
        r = _ruleset(ruleset)
        specs = {o.name: o for o in r.options}
        unknown = set(params or {}) - set(specs)
        if unknown:
            raise ValueError(f"unknown parameter {sorted(unknown)[0]!r} for {game_name(ruleset)}; known: {', '.join(specs)}")
        given = {k: _option_text(specs[k], v) for k, v in (params or {}).items()}
        options = r.resolve_options(given)
        self.rules = _rules_for(ruleset, tuple(sorted(options.items())))
        enc = self.rules.encoding
        info = pyspiel.GameInfo(
            num_distinct_actions=enc.num_actions,
            max_chance_outcomes=self.rules.max_chance_outcomes,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=enc.max_game_length,
        )
        super().__init__(_game_type(r), info, dict(params or {}))

    def new_initial_state(self) -> FrontlinesState:
        return FrontlinesState(self)

    def max_chance_nodes_in_history(self) -> int:
        """The most chance nodes one game can pass (OpenSpiel's default is
        ``max_game_length``, 1,000 player actions for the Battle Line family): with it,
        ``max_history_length`` bounds a real history."""
        return self.rules.max_chance_nodes

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> FrontlinesObserver:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type is None:
            return FrontlinesObserver(self.rules, perfect_recall=False)
        perfect_recall = bool(iig_obs_type.perfect_recall)
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.SINGLE_PLAYER and iig_obs_type.public_info:
            return FrontlinesObserver(self.rules, perfect_recall)
        if private == pyspiel.PrivateInfoType.NONE and iig_obs_type.public_info and not perfect_recall:
            return FrontlinesObserver(self.rules, perfect_recall=False, public=True)
        raise ValueError("supported observers: a player's own (private_info=SINGLE_PLAYER, public_info=True), with"
                         " or without perfect recall, and the public one (private_info=NONE, public_info=True,"
                         f" perfect_recall=False); not {iig_obs_type}")


class _Engine:
    """Holds the engine state so that OpenSpiel's clone (a deep copy of the Python state)
    uses the engine's own fast clone."""

    __slots__ = ("state",)

    def __init__(self, state: State) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        return _Engine(self.state.clone())


class FrontlinesState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: the set-up chance events, then the engine state (and, in a War
    Machine match, the set-up of each later game)."""

    def __init__(self, game: FrontlinesGame) -> None:
        super().__init__(game)
        self.rules: _Rules = game.rules
        self.dealing = True  # in a set-up: its chance events come next
        self.setup: list[int] = []  # the set-up's chance outcomes so far
        self.engine: _Engine | None = None
        self.pending = -1  # the engine's draw action waiting for its chance outcome
        self.moves = 0  # player actions so far
        self.prefix: tuple[list[str], list[str]] = ([], [])  # log before a resampled state began
        # the cards that came into each player's hand from chance nodes, in order:
        # (index in the engine's log of the draw that brought it, or -1 for the deal; card)
        self.arrived: tuple[list[tuple[int, int]], list[tuple[int, int]]] = ([], [])
        self.seen = _Seen()  # each player's tensors, kept up to date along the game
        # OpenSpiel asks who is to move several times per action: kept up to date by _update
        self.player = _CHANCE
        self._start()

    def _engine_or_none(self) -> State | None:
        return None if self.engine is None else self.engine.state

    def _live(self) -> State:
        """The engine state (outside the first set-up)."""
        assert self.engine is not None
        return self.engine.state

    def _start(self) -> None:
        engine = self._engine_or_none()
        if self.dealing and self.rules.setup_outcomes(self.setup, engine) is None:
            self.engine = _Engine(self.rules.build(self.setup, engine))
            self.dealing = False
            self.setup = []
            self.seen.moves = [-1] * 4  # a new deal: each live tensor compares everything once
            self._update()

    def _update(self) -> None:
        if self.dealing or self.pending >= 0:
            self.player = _CHANCE
            return
        engine = self._live()
        enc = self.rules.encoding
        if engine.is_terminal() or (not enc.length_proven and self.moves >= enc.max_game_length):
            self.player = _TERMINAL
        else:
            player = engine.current_player()
            assert player is not None
            self.player = player

    # --- the OpenSpiel interface --------------------------------------------------------
    def current_player(self) -> int:
        return self.player

    def is_terminal(self) -> bool:
        return self.player == _TERMINAL

    def _legal_actions(self, player: int) -> list[int]:
        assert self.engine is not None
        ids = self.rules.encoding.legal_ids(self.engine.state)
        ids.sort()  # OpenSpiel wants them ascending
        return ids

    # The next two answer Python callers directly, as OpenSpiel's C++ side would, without the
    # half-dozen calls back into Python that make up most of a step's cost from Python.
    def legal_actions(self, player: int | None = None) -> list[int]:
        current = self.player
        if current == _CHANCE:
            return self._chance_outcomes() if player is None or player == _CHANCE else []
        if current == _TERMINAL or (player is not None and player != current):
            return []
        return self._legal_actions(current)

    def is_chance_node(self) -> bool:
        return self.player == _CHANCE

    def chance_outcomes(self) -> list[tuple[int, float]]:
        outcomes = self._chance_outcomes()
        return list(zip(outcomes, repeat(1.0 / len(outcomes))))

    def _chance_outcomes(self) -> list[int]:
        if self.dealing:
            outcomes = self.rules.setup_outcomes(self.setup, self._engine_or_none())
            assert outcomes is not None
            return outcomes
        assert self.engine is not None
        drawn = self.rules.draw_outcomes(self.engine.state, self.pending)
        assert drawn
        return drawn

    def _apply_action(self, action: int) -> None:
        if self.player == _CHANCE:
            self._apply_chance(action)
        else:
            self._apply_player(action)
        self._update()

    def _apply_chance(self, action: int) -> None:
        if self.dealing:
            outcomes = self._chance_outcomes()
            if action not in outcomes:
                raise pyspiel.SpielError(self._not_chance(action, outcomes))
            receiver = self.rules.setup_receiver(self.setup, self._engine_or_none())
            if receiver >= 0:
                self.arrived[receiver].append((-1, action))
            self.setup.append(action)
            self._start()
            return
        assert self.engine is not None
        engine = self.engine.state
        try:
            self.rules.stack(engine, self.pending, action)  # checks that the card may come next
        except ValueError:
            raise pyspiel.SpielError(self._not_chance(action, self._chance_outcomes())) from None
        drawer = engine.current_player()
        engine.apply(self.pending)
        if drawer is not None:
            self.arrived[drawer].append((len(engine.history) - 1, action))
        self.pending = -1
        self.dealing = self.rules.new_deal(engine)

    def _not_chance(self, action: int, outcomes: list[int]) -> str:
        return f"{action} is not a chance outcome here; the outcomes are {', '.join(map(str, outcomes))}"

    def _apply_player(self, action: int) -> None:
        assert self.engine is not None
        enc = self.rules.encoding
        engine = self.engine.state
        codes = enc.codes
        code = codes[action] if type(action) is int and 0 <= action < len(codes) else -1
        if code < 0 or self.player == _TERMINAL:
            raise pyspiel.SpielError(self._illegal(action, enc.legal_ids(engine) if self.player >= 0 else []))
        if self.rules.is_draw(code):
            if not engine.is_legal(code):
                raise pyspiel.SpielError(self._illegal(action, enc.legal_ids(engine)))
            self.pending = code  # the chance node that follows chooses the card
        else:
            try:
                engine.apply(code)  # checks legality, and changes nothing when it raises
            except IllegalAction:
                raise pyspiel.SpielError(self._illegal(action, enc.legal_ids(engine))) from None
            self.dealing = self.rules.new_deal(engine)
        self.moves += 1

    def _illegal(self, action: int, legal: list[int]) -> str:
        assert self.engine is not None
        enc = self.rules.encoding
        engine = self.engine.state
        try:
            what = f"{action} ({engine.action_to_text(enc.action(action))})"
        except ValueError:
            what = f"{action} (not an action id of {self.rules.ruleset}: ids are 0..{enc.num_actions - 1})"
        options = ", ".join(f"{i} ({engine.action_to_text(enc.action(i))})" for i in sorted(legal))
        return f"illegal action {what} in {game_name(self.rules.ruleset)}; legal: {options or 'none (the game is over)'}"

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.dealing:
                return self.rules.setup_text(self.setup, action, self._engine_or_none())
            return f"draw {self.rules.card_text(action)}"
        try:
            code = self.rules.encoding.action(action)
        except ValueError:
            return f"invalid action {action}"
        if self.engine is not None:
            return self.engine.state.action_to_text(code)
        return str(code)

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        assert self.engine is not None
        return list(self.rules.encoding.returns(self.engine.state))

    def rewards(self) -> list[float]:
        # rewards come at the end: the returns (answered here rather than by OpenSpiel's
        # default, which calls back into Python for is_terminal and returns)
        return self.returns()

    # The tensors answer Python callers directly too (rl_environment asks for both players'
    # at every step): kept up to date per player along the game rather than built afresh,
    # and handed over as numpy arrays rather than OpenSpiel's Python lists.
    def observation_tensor(self, player: int | None = None) -> np.ndarray[Any, np.dtype[np.float32]]:
        """The observation tensor of ``player`` (default: the player to move), as a new
        float32 numpy array (OpenSpiel's C++ games give a list; both index and convert
        alike). All zero during the set-up."""
        return np.frombuffer(self.tensor(self.player if player is None else player, False), np.float32).copy()

    def information_state_tensor(self, player: int | None = None) -> np.ndarray[Any, np.dtype[np.float32]]:
        """The information-state tensor of ``player``, as :meth:`observation_tensor`."""
        return np.frombuffer(self.tensor(self.player if player is None else player, True), np.float32).copy()

    def tensor(self, player: int, information: bool) -> array[float]:
        """``player``'s observation (or information-state) tensor now, in the array its
        live tensor keeps (rewritten by the next call: copy it to keep it)."""
        if player != 0 and player != 1:  # the common case first, quickly
            if not isinstance(player, int | np.integer):
                raise TypeError(f"a player is an int, not {player!r}")
            raise pyspiel.SpielError(f"no tensor for player {int(player)}: players are 0 and 1")
        enc = self.rules.encoding
        if self.dealing or self.engine is None:  # nothing to see before the deal is complete
            return _zeros(enc.information_state_size if information else enc.observation_size)
        seen = self.seen
        k = player + 2 * information
        live = seen.tensors[k] or seen.live(enc, int(player), information)
        engine = self.engine.state
        # the same game some moves on (a state's engine only ever makes moves, and a new deal
        # starts afresh): the live tensor rewrites what those moves change
        history = engine.history
        last, moves = seen.moves[k], len(history)
        seen.moves[k] = moves
        if 0 <= last <= moves:
            return live.advance(engine, history[last:])
        return live.update(engine)

    def __str__(self) -> str:
        if self.dealing:
            game = "" if self.engine is None else f" after {self.engine.state.to_notation()}"
            return f"set-up{game}: " + " ".join(map(str, self.setup))
        engine = self._live()
        text = engine.to_notation()
        return text if self.pending < 0 else f"{text} (drawing: {engine.action_to_text(self.pending)})"

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> FrontlinesState:
        """A state ``player_id`` cannot tell from this one, its hidden cards drawn through
        ``View.sample`` (``probability_sampler`` gives the randomness, in [0, 1))."""
        if self.dealing or self.engine is None:
            raise pyspiel.SpielError("resample_from_infostate is not supported during the set-up")
        rng = random.Random(int(probability_sampler() * (1 << 53)))
        return self._from_view(self.engine.state.view(player_id), rng)

    def _from_view(self, view: View, rng: random.Random) -> FrontlinesState:
        new: FrontlinesState = self.get_game().new_initial_state()
        new.setup = []
        new.dealing = False
        new.engine = _Engine(view.sample(rng))
        new.pending = self.pending
        new.moves = self.moves
        viewer = view.viewer
        if viewer is None:  # a spectator's view: what everyone saw
            seen = self.rules.log(view)
            new.prefix = (seen, seen[:])
        else:
            # the game as the viewer saw it, with how its cards came: the viewer's information
            # state (string and tensor) of the new state is the view's
            new.engine.state.adopt_record(view)
            new.arrived[viewer].extend(self.rules.arrivals(view))
        new._update()
        return new

    def information_log(self, view: View) -> list[str]:
        """The action log as ``view``'s player saw it since the set-up, each of its own
        draws with the card it brought (``draw:troop=R7``)."""
        viewer = view.viewer
        assert viewer is not None
        log = self.rules.log(view)
        text = self.rules.card_text
        for k, card in self.arrived[viewer]:
            if 0 <= k < len(log):
                log[k] += "=" + text(card)
        return self.prefix[viewer] + log

    def dealt(self, player: int) -> list[int]:
        """The cards dealt to ``player`` in the set-up, in the order they came."""
        return [card for k, card in self.arrived[player] if k < 0]

    def view(self, player: int | None) -> View:
        """``player``'s view of the engine state (the set-up must be complete)."""
        if self.dealing or self.engine is None:
            raise ValueError("the set-up is not complete: there is no view yet")
        return self.engine.state.view(player)


class _Seen:
    """A state's live tensors, one per player and kind, made when first asked for. A copy
    of the state (OpenSpiel's clone deep-copies it) starts with none: its first tensors are
    built whole, then kept up to date along its own game."""

    __slots__ = ("moves", "tensors")

    def __init__(self) -> None:
        self.tensors: list[LiveObservation | None] = [None] * 4
        self.moves = [-1] * 4  # per tensor: the engine's moves at its last update (-1: none yet)

    def live(self, enc: Encoding, player: int, information: bool) -> LiveObservation:
        k = player + 2 * information
        live = self.tensors[k]
        if live is None:
            live = self.tensors[k] = enc.live_information_state(player) if information else enc.live_observation(player)
        return live

    def __deepcopy__(self, memo: dict[int, Any]) -> _Seen:
        return _Seen()

    def __reduce__(self) -> tuple[type[_Seen], tuple[()]]:
        return _Seen, ()


_ZEROS: dict[int, array[float]] = {}


def _zeros(size: int) -> array[float]:
    zeros = _ZEROS.get(size)
    if zeros is None:
        zeros = _ZEROS[size] = array("f", bytes(4 * size))
    return zeros


class FrontlinesObserver:
    """OpenSpiel's observer interface: ``tensor``/``dict`` filled by ``set_from``, strings by
    ``string_from``. Three kinds:

    * a player's observation (what the player sees now);
    * with perfect recall, the player's information state: the observation and what the
      player remembers; the string adds the cards dealt to the player in the order they
      came and the action log as the player saw it, each of its own draws with the card
      it brought, so two histories the player can tell apart never share a string;
    * public (``private_info=NONE``): what everyone sees, the observation without the
      player's private entries (its hand, ...: ``Encoding.private_entries``) and a
      spectator's view as the string.
    """

    def __init__(self, rules: _Rules, perfect_recall: bool, public: bool = False) -> None:
        enc = rules.encoding
        self.perfect_recall = perfect_recall
        self.public = public
        self.private = enc.private_entries(rules.options) if public else ()
        layout = enc.information_state_layout if perfect_recall else enc.observation_layout
        size = enc.information_state_size if perfect_recall else enc.observation_size
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, Any] = {}
        start = 0
        for block in layout:
            self.dict[block.name] = self.tensor[start:start + block.size].reshape(block.shape)
            start += block.size

    def set_from(self, state: FrontlinesState, player: int) -> None:
        tensor = self.tensor
        tensor[:] = np.frombuffer(state.tensor(player, self.perfect_recall), dtype=np.float32)
        for entries in self.private:
            tensor[entries] = 0.0

    def string_from(self, state: FrontlinesState, player: int) -> str:
        rules = state.rules
        if state.dealing or state.engine is None:
            return rules.setup_seen(state.setup, -1 if self.public else player, state._engine_or_none())
        view = state.engine.state.view(None if self.public else player)
        text = view.to_notation()
        if self.perfect_recall:
            dealt = state.dealt(player)
            if dealt:
                text += " | dealt: " + ".".join(map(rules.card_text, dealt))
            text += " | log: " + "; ".join(state.information_log(view))
        if state.pending >= 0:
            text += f" | drawing: {view.action_to_text(state.pending)}"
        return text


def state_from_view(game: FrontlinesGame, view: View, rng: random.Random, moves: int = 0) -> FrontlinesState:
    """An OpenSpiel state consistent with ``view`` (its hidden cards sampled), from which an
    OpenSpiel search may choose ``view.viewer``'s action: its information state for that
    player is the view's (a spectator's view: any position everyone sees alike)."""
    start: FrontlinesState = game.new_initial_state()
    start.moves = moves
    return start._from_view(view, rng)


def view_options(view: View) -> dict[str, str]:
    """The rules options of the game ``view`` belongs to."""
    if _ruleset(view.ruleset).game == "warmachine":
        return dict(view.board.opts.names)  # type: ignore[attr-defined]
    return dict(view.cfg.options)  # type: ignore[attr-defined]


def _param_value(option: OptionSpec, text: str) -> bool | int | str:
    """Option text as the value of its OpenSpiel parameter (:func:`_param_default`)."""
    default = _param_default(option)
    if isinstance(default, bool):
        return text == "true"
    if isinstance(default, int):
        return int(text) if text.lstrip("-").isdigit() else -1
    return text


def load(ruleset: str, options: Mapping[str, str] | None = None) -> FrontlinesGame:
    """The OpenSpiel game of ``ruleset`` with ``options`` given as our option texts (what
    ``pyspiel.load_game`` gives for the matching parameters)."""
    r = _ruleset(ruleset)
    resolved = r.resolve_options(options)
    params = {o.name: _param_value(o, resolved[o.name]) for o in r.options}
    game: FrontlinesGame = pyspiel.load_game(game_name(ruleset), params)
    return game


# one subclass per ruleset, registered as OpenSpiel registers its own Python games (a class;
# a plain function as the factory makes the interpreter abort at exit)
_GAME_CLASSES: dict[str, type[FrontlinesGame]] = {}


def _register() -> None:
    registered = set(pyspiel.registered_names())
    for r in all_rulesets():
        name = game_name(r.name)
        if name in registered:
            continue

        def __init__(self: FrontlinesGame, params: Mapping[str, object] | None = None, _ruleset: str = r.name) -> None:
            FrontlinesGame.__init__(self, _ruleset, params)

        cls = _GAME_CLASSES[name] = type(f"Game_{name}", (FrontlinesGame,), {"__init__": __init__})
        pyspiel.register_game(_game_type(r), cls)


_register()

__all__ = ["FrontlinesGame", "FrontlinesObserver", "FrontlinesState", "game_name", "load", "state_from_view", "view_options"]
