"""The one small interface every game module implements.

Bots, the arena, the engine protocol, the terminal game and the web app are written
against these classes only; they never import a game module directly (they look games
up in :mod:`frontlines.games`).

Design points:

* An *action* is any hashable, immutable value chosen by the game (a small tuple, an
  ``int``…). Equal actions mean the same move in every state of the same information
  set, which is what ISMCTS needs. Text form goes through ``action_to_text`` /
  ``parse_action`` so notation stays the game's business.
* ``apply`` validates; an illegal action raises :class:`IllegalAction` and leaves the
  state untouched. ``push``/``pop`` give undo, ``clone`` an independent copy.
* ``view(player)`` is what that player may know; ``view(None)`` is the public view.
  A view can list the viewer's legal actions (when it is the viewer's turn) and can
  ``sample`` a full state consistent with itself — the determinisation search bots use.

A whole game through the interface (the games are found in :mod:`frontlines.games`):

>>> import random
>>> from frontlines.games import new_state
>>> state, rng = new_state("battleline-basic", seed=5), random.Random(5)
>>> while not state.is_terminal():
...     state.push(rng.choice(state.legal_actions()))
>>> outcome = state.outcome()
>>> outcome.winner, outcome.reason == Termination.ENVELOPMENT
(1, True)
>>> while state.history:  # undo it all
...     _ = state.pop()
>>> state == new_state("battleline-basic", seed=5)
True
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar

from frontlines.core.actions import ActionRecord
from frontlines.core.errors import IllegalAction, UnknownRuleset
from frontlines.core.interface import Interface
from frontlines.core.reasons import Reason

if TYPE_CHECKING:
    from frontlines.core.encoding import Encoding

Action = Hashable

PLAYERS = (0, 1)


class Termination(StrEnum):
    """Why a game ended: the ``reason`` of an :class:`Outcome` (docs/rules.md §7).

    A ``StrEnum``, so a reason is still its word in records, JSON and comparisons:

    >>> Termination.TIE_BREAK == "tie-break", f"{Termination.TIE_BREAK}"
    (True, 'tie-break')
    >>> Termination("time").out_of_rules
    True
    """

    BREAKTHROUGH = "breakthrough"  # three adjacent flags
    ENVELOPMENT = "envelopment"  # five flags
    STALL = "stall"  # no progress possible (Battle Line family)
    SCORE = "score"  # War Machine: the higher total
    TIE_BREAK = "tie-break"  # War Machine: equal totals, the battle nearest the box
    DRAW = "draw"  # War Machine: equal totals and no tie-break
    MATCH = "match"  # War Machine: a best-of-three match decided
    RESIGNATION = "resignation"
    TIME = "time"
    FORFEIT = "forfeit"  # a rule of play broken (an illegal or garbled bot move, a crash)
    LIMIT = "limit"  # stopped by a referee's move limit (a tool's safeguard, not a rule)
    UNFINISHED = "unfinished"  # never finished (reported by tools; no game ends so)

    @property
    def out_of_rules(self) -> bool:
        """Ended by a player leaving the game, not by its rules (records add a Termination tag)."""
        return self in OUT_OF_RULES


OUT_OF_RULES = frozenset({Termination.RESIGNATION, Termination.TIME, Termination.FORFEIT})


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended.

    ``winner`` is 0, 1 or ``None`` for a draw (or a game with no winner).
    ``reason`` is a :class:`Termination` (a plain word is accepted and checked).
    ``scores`` holds per-player points where the game scores (War Machine).
    ``detail`` is free text for humans (e.g. why a bot forfeited).

    >>> Outcome(0, Termination.BREAKTHROUGH).to_dict()
    {'winner': 0, 'reason': 'breakthrough', 'scores': None, 'detail': ''}
    """

    winner: int | None
    reason: Termination
    scores: tuple[int, int] | None = None
    detail: str = ""

    def __post_init__(self) -> None:
        if type(self.reason) is not Termination:  # a word from a record or a caller: check it
            object.__setattr__(self, "reason", Termination(self.reason))

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "reason": self.reason.value,
            "scores": list(self.scores) if self.scores is not None else None,
            "detail": self.detail,
        }


class View(Interface):
    """What one player (or a spectator, ``viewer is None``) may know of a state.

    An :class:`~frontlines.core.interface.Interface`, not an ``abc.ABC``: compiled views
    subclass it, and ``isinstance`` against them must be exact in the compiled build."""

    __slots__ = ()  # so that a game's slotted state or view has no __dict__

    viewer: int | None

    @property
    @abstractmethod
    def ruleset(self) -> str: ...

    @abstractmethod
    def current_player(self) -> int | None:
        """Who must act now; ``None`` when the game is over."""

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def outcome(self) -> Outcome | None: ...

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """The viewer's legal actions; empty when it is not the viewer's turn."""

    @abstractmethod
    def sample(self, rng: random.Random) -> State:
        """A full state consistent with everything this view knows."""

    @abstractmethod
    def to_notation(self) -> str:
        """One-line text that :func:`parse_view` of the same game turns back into an equal view."""

    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """JSON-ready description for user interfaces (never more than the viewer may see)."""

    @abstractmethod
    def action_to_text(self, action: Action) -> str: ...

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """Parse action text; raises :class:`frontlines.core.errors.NotationError`."""

    @abstractmethod
    def describe_action(self, action: Action) -> ActionRecord:
        """``action`` as a typed record (kind, card, flag, …) in this position: how bots
        and user interfaces learn what a move does without reading its text. Raises
        :class:`frontlines.core.errors.NotationError` for a value that is no action of the game."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, View) and self.to_notation() == other.to_notation()

    def __hash__(self) -> int:
        return hash(self.to_notation())


class State(Interface):
    """A full game state (all hidden information included). An
    :class:`~frontlines.core.interface.Interface` for the reason :class:`View` is."""

    __slots__ = ()  # so that a game's slotted state or view has no __dict__

    @property
    @abstractmethod
    def game(self) -> str:
        """The game module's name: ``battleline`` or ``warmachine``."""

    @property
    @abstractmethod
    def ruleset(self) -> str: ...

    @abstractmethod
    def current_player(self) -> int | None: ...

    @abstractmethod
    def legal_actions(self) -> list[Action]: ...

    @abstractmethod
    def apply(self, action: Action) -> None:
        """Play ``action``; raise :class:`IllegalAction` (state unchanged) if illegal."""

    def apply_legal(self, action: Action) -> None:
        """:meth:`apply` for an action of this very position's :meth:`legal_actions`, which
        the caller has just read: games may skip finding out again whether it is legal
        (the environments, which check an id against the mask they made). Anything else
        must go through :meth:`apply`."""
        self.apply(action)

    @abstractmethod
    def push(self, action: Action) -> None:
        """Like :meth:`apply`, remembering how to :meth:`pop` it."""

    @abstractmethod
    def pop(self) -> Action:
        """Undo the last :meth:`push`; return the action undone."""

    @abstractmethod
    def clone(self) -> State: ...

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def outcome(self) -> Outcome | None: ...

    @abstractmethod
    def resign(self, player: int, reason: str = "resignation", detail: str = "") -> None:
        """End the game with ``player`` losing (resignation, time, forfeit).

        ``reason`` is a :class:`Termination` or its word; any other word raises ``ValueError``.
        """

    @abstractmethod
    def view(self, player: int | None) -> View: ...

    @abstractmethod
    def to_notation(self) -> str:
        """One-line full-state text; the game's ``parse_state`` round-trips it."""

    @abstractmethod
    def action_to_text(self, action: Action) -> str: ...

    @abstractmethod
    def parse_action(self, text: str) -> Action: ...

    @abstractmethod
    def describe_action(self, action: Action) -> ActionRecord:
        """Like :meth:`View.describe_action`."""

    @property
    @abstractmethod
    def history(self) -> Sequence[Action]:
        """Actions applied since the initial position, in order."""

    def is_legal(self, action: Action) -> bool:
        return action in self.legal_actions()

    def adopt_record(self, view: View) -> None:
        """Take over ``view``'s record of the game for this state, a sample of ``view``
        (:meth:`View.sample`, which starts without one): the history as the view's player saw
        it and how that player's cards came, so that the player's information-state tensor of
        this state is the view's (perfect recall, docs/research.md). What that player did not
        see stays unknown in the record. Games whose information state holds no record need
        not override this."""

    def why_not(self, action: Action) -> Reason | None:
        """Why ``action`` is not legal now, as a :class:`~frontlines.core.reasons.Reason`
        (its words are the game module's ``reason_words``); ``None`` exactly when it is
        legal. Games override this with the rule that forbids it."""
        return None if self.is_legal(action) else Reason("not_legal")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_notation() == other.to_notation()

    # A state changes with every ``apply``: as a dict key or set member it would be lost
    # after the next move. Use :meth:`key` instead.
    __hash__ = None  # type: ignore[assignment]

    def key(self) -> str:
        """An immutable snapshot of the whole position, hidden cards included, to use as a
        dict key or set member: equal for equal states (``a == b`` exactly when
        ``a.key() == b.key()``), and unchanged by later moves of the state."""
        return self.to_notation()


@dataclass(frozen=True)
class OptionSpec:
    """A named rules option with its allowed values and its default.

    ``help`` explains it for the command line, naming the values as they are typed. For
    players the option says the same in words: ``label`` (what it decides), ``words`` (one
    per choice, in the order of ``choices``) and ``about`` (its help). These English words
    are the one source every user interface shows: the terminal as they are, the web app
    through its catalogs, which translate each of them.
    """

    name: str
    default: str
    choices: tuple[str, ...]
    help: str = ""
    label: str = ""
    words: tuple[str, ...] = ()
    about: str = ""

    def __post_init__(self) -> None:
        if self.words and len(self.words) != len(self.choices):
            raise ValueError(f"option {self.name}: {len(self.words)} words for {len(self.choices)} choices")

    def title(self) -> str:
        """The option in players' words (its name where it has none)."""
        return self.label or self.name

    def choice_words(self, choice: str) -> str:
        """``choice`` in players' words (the value itself where it has none)."""
        if self.words and choice in self.choices:
            return self.words[self.choices.index(choice)]
        return choice

    def explanation(self) -> str:
        """The option's help for players (the command line's where it has none)."""
        return self.about or self.help


@dataclass(frozen=True)
class Ruleset:
    """A named preset of a game: what ``--rules NAME`` selects."""

    name: str
    game: str
    title: str
    options: tuple[OptionSpec, ...] = field(default_factory=tuple)
    description: str = ""
    # what players call the places fought over ("flag"; Schotten Totten's "stone"), for
    # interfaces that word the options before any view exists; "" where the game has none
    place_name: str = ""

    def resolve_options(self, given: Mapping[str, str] | None) -> dict[str, str]:
        """Defaults overlaid with ``given``; unknown names or values raise ``ValueError``."""
        result = {o.name: o.default for o in self.options}
        specs = {o.name: o for o in self.options}
        for key, value in (given or {}).items():
            spec = specs.get(key)
            if spec is None:
                raise ValueError(f"unknown option {key!r} for {self.name}; known: {', '.join(specs) or 'none'}")
            if spec.choices and value not in spec.choices:
                raise ValueError(f"option {key} must be one of {', '.join(spec.choices)}, not {value!r}")
            result[key] = value
        return result


class GameModule(ABC):
    """What a game package registers with :mod:`frontlines.games`."""

    name: str
    title: ClassVar[str]  # the game's name for people, in messages ("Battle Line")
    rulesets: tuple[Ruleset, ...]
    # English words of the game's refusal reasons: reason code -> template with {param}
    # fields (frontlines.core.reasons); the user interfaces translate these.
    reason_words: ClassVar[Mapping[str, str]] = {"not_legal": "that move is not legal now"}

    @abstractmethod
    def new_state(self, ruleset: str, seed: int | None = None, options: Mapping[str, str] | None = None) -> State:
        """A freshly dealt game; the same seed and options give the same deal."""

    @abstractmethod
    def parse_state(self, text: str) -> State:
        """Inverse of :meth:`State.to_notation`; raises ``NotationError``."""

    @abstractmethod
    def parse_view(self, text: str) -> View:
        """Inverse of :meth:`View.to_notation`; raises ``NotationError``."""

    @abstractmethod
    def encoding(self, ruleset: str, options: Mapping[str, str] | None = None) -> Encoding:
        """Fixed action ids, masks, returns and tensors of ``ruleset`` with ``options``, for
        learning libraries (:mod:`frontlines.core.encoding`)."""

    def check_ruleset(self, ruleset: str) -> None:
        """Raise :class:`UnknownRuleset`, naming the known ones, unless ``ruleset`` is one of
        this game's."""
        known = [r.name for r in self.rulesets]
        if ruleset not in known:
            raise UnknownRuleset(f"unknown {self.title} ruleset {ruleset!r}; known: {', '.join(known)}")


__all__ = [
    "PLAYERS",
    "Action",
    "GameModule",
    "IllegalAction",
    "OptionSpec",
    "Outcome",
    "Ruleset",
    "State",
    "View",
]
