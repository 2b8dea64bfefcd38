"""One record of a Battle Line family position: the table and its hidden parts.

A :class:`Table` holds every fact of a position: its setup (ruleset options, battlefield
cards), the table everyone sees, and the hidden parts (hands, decks, who knows where a
card lies). A full state is a table with nothing unknown; a player's view is the same
record with what that player may not know marked unknown (``view.mask``), and sampling
fills the unknowns at random (``view.fill``). :class:`~.state.BattleLineState` and
:class:`~.state.BattleLineView` are thin classes over it; the rules (``moves``,
``claims``, ``explain``) and the notation (``text``) read it.

Adding a fact to a position is one new field here: copies, undo, views and samples carry
every field (:func:`values`); only a hidden one needs a line in ``view.mask`` and
``view.fill``, and one that players see needs its tokens in ``text``.

Representation, chosen for speed of random play and cheap copies:

* each flag side is a ``tuple`` of cards in placement order, 18 of them
  (``index = flag * 2 + player``), so a copy is one shallow list copy;
* hands and "known card" sets are ``int`` bitmasks; decks are lists, top = end;
* ``public`` is every card that has ever been face up (a troop on the table stays public
  even when discarded), so the unseen troops of a proof are ``troops & ~public``;
* unknown cards: a deck card the viewer does not know is ``unknown(knowers)`` (negative),
  and a hand's unknown cards are counted in ``hand_unknown``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import MISSING, dataclass, field, fields
from itertools import combinations
from operator import attrgetter
from typing import Any, NamedTuple

from frontlines.core.game import Outcome
from frontlines.games.battleline.cards import TACTICS_MASK
from frontlines.games.battleline.codes import EXCESS, NUM_FLAGS, NUM_SIDES, OVER, PLAY, Phase
from frontlines.games.battleline.formations import BATTLELINE_CARDS, SCHOTTEN_CARDS, CardRules, evaluate
from frontlines.games.battleline.medieval import PLAIN, Effects, load_set
from frontlines.games.battleline.proof import ProofResult
from frontlines.games.battleline.rules import Config


class Unknown(NamedTuple):
    """A hand's cards that the viewer does not know (all zero in a full state)."""

    troops: int
    tactics: int
    known_to_other: int  # how many of them the other player knows (shown to spectators)


NOTHING_UNKNOWN = Unknown(0, 0, 0)


def unknown(knowers: int) -> int:
    """The deck entry of a card the viewer does not know; ``knowers`` (bit p: player p
    knows it) stays public, as everyone saw it go back."""
    return -1 - knowers


def knowers_of_unknown(entry: int) -> int:
    """Inverse of :func:`unknown`."""
    return -1 - entry


class ProofMemo(NamedTuple):
    """The last full claim result of a side (``claims.claim_result``)."""

    mine: tuple[int, ...]  # the side tuples it was found with (identity: tuples never change)
    theirs: tuple[int, ...]
    lead: int  # completion time of mine minus that of theirs
    final: bool  # whether the opponent could no longer add cards
    unseen: int  # the unseen troops it was found with
    result: ProofResult
    complete: bool  # both sides complete: nothing else matters
    env: int  # Mud and Fog at the flag (mud * 3 + fog)


# The yes/no claim answer of a side (``claims.claims_of``), without a ProofResult:
# (mine, theirs, env, final, claimable, mask) - the two side tuples and the flag's Mud and
# Fog it was found with; final: 0/1 whether the opponent was final, or 2/3 with both sides
# complete: the claimant completed first/second; the answer; and mask: the unseen troops of
# a "yes", or the winning completion of a "no" (-1: any). A plain tuple, written and read
# whole (``claims`` unpacks it into those names): the move generator reads it on every call,
# and a named tuple's construction and unpacking cost several times a plain one's there.
ClaimAnswer = tuple[tuple[int, ...], tuple[int, ...], int, int, bool, int]


class ClaimMemo:
    """Claim answers per side, shared by a state's copies, its views and their samples: a
    pure cache, each entry checked against the position before use (``claims``)."""

    __slots__ = ("answers", "proofs")

    def __init__(self) -> None:
        self.proofs: list[ProofMemo | None] = [None] * NUM_SIDES
        self.answers: list[ClaimAnswer | None] = [None] * NUM_SIDES


def _sides() -> list[tuple[int, ...]]:
    return [()] * NUM_SIDES


def _per_side() -> list[int]:
    return [-1] * NUM_SIDES


def _per_flag() -> list[int]:
    return [-1] * NUM_FLAGS


def _pair() -> list[int]:
    return [0, 0]


def _piles() -> list[tuple[int, ...]]:
    return [(), ()]


@dataclass(slots=True, eq=False)
class Table:
    """Every fact of a position, or of what one player knows of it (see the module text)."""

    # --- the setup: fixed for a game, shared by every copy, view and sample (see setup())
    cfg: Config
    bf_ids: tuple[int, ...]
    bf_up: int
    effects: tuple[Effects, ...]
    base_caps: tuple[int, ...]
    forbid_any: bool
    rules: CardRules
    troops_all: int
    memo: ClaimMemo
    # --- the table, seen by everyone (its lists are below)
    leaders: int = 0  # bit p: player p has played a leader (never resets)
    public: int = 0
    to_move: int = 0
    phase: Phase = PLAY
    counter: int = 0
    scout_left: int = 0  # Scout draws still to make
    scout_n: int = 0  # Scout draws this Scout makes in all (up to 3)
    ret_left: int = 0
    excess: tuple[int, ...] = ()  # side indices whose owner must discard (Mud removed)
    turn_passed: bool = False
    turn_noop: bool = False
    turn_claims: bool = False
    passes: int = 0
    noops: int = 0
    turn_claimed: bool = False  # a claim was made this turn (turn_claims: one was made or possible)
    idle: int = 0  # turns in a row that only passed: no card drawn, no claim made (moves.IDLE_TURNS)
    out: Outcome | None = None
    # --- hidden: the unknown cards of each hand, counted (all zero in a full state)
    hand_unknown: tuple[Unknown, Unknown] = (NOTHING_UNKNOWN, NOTHING_UNKNOWN)
    # --- caches of the rules (moves.py), carried with the position they describe; never
    # changed in place, only replaced
    legal_cache: list[int] | None = None
    masks: tuple[int, int, int] | None = None  # see moves.flag_masks
    # --- mutable lists come last, each with a default factory: values() copies exactly these
    # the table
    sides: list[tuple[int, ...]] = field(default_factory=_sides)
    completed: list[int] = field(default_factory=_per_side)  # completion time of a side, -1 while incomplete
    claimed: list[int] = field(default_factory=_per_flag)  # who claimed each flag, -1 nobody
    fog: list[int] = field(default_factory=_per_flag)  # owner of the Fog at the flag, -1 none
    mud: list[int] = field(default_factory=_per_flag)
    discards: list[tuple[int, ...]] = field(default_factory=_piles)
    guile: list[tuple[int, ...]] = field(default_factory=_piles)
    tactics_played: list[int] = field(default_factory=_pair)
    # the hidden parts
    hands: list[int] = field(default_factory=_pair)  # the cards known to be in each hand
    tdeck: list[int] = field(default_factory=list)  # top = last; unknown(knowers) where the viewer does not know
    xdeck: list[int] = field(default_factory=list)
    known: list[int] = field(default_factory=_pair)  # cards in decks / the other hand whose place player p knows

    # --- reading the record ------------------------------------------------------------
    def current_player(self) -> int | None:
        if self.phase == OVER:
            return None
        if self.phase == EXCESS:
            return self.excess[0] & 1
        return self.to_move

    def capacity(self, flag: int) -> int:
        return self.base_caps[flag] + (self.mud[flag] >= 0)

    def is_fog(self, flag: int) -> bool:
        return self.fog[flag] >= 0 or self.effects[flag].sum_only

    def unseen_troops(self) -> int:
        """Troops not face up on the table: decks plus both hands (what proofs may use)."""
        return self.cfg.variant.troop_mask & ~self.public

    def decks_empty(self) -> bool:
        return not self.tdeck and not self.xdeck

    def hand_count(self, player: int) -> int:
        u = self.hand_unknown[player]
        return self.hands[player].bit_count() + u.troops + u.tactics

    def hand_tactics(self, player: int) -> int:
        return (self.hands[player] & TACTICS_MASK).bit_count() + self.hand_unknown[player].tactics

    def owned(self, player: int) -> int:
        m = 0
        for f in range(NUM_FLAGS):
            if self.claimed[f] == player:
                m |= 1 << f
        return m

    def side_cards(self, flag: int, player: int) -> tuple[int, ...]:
        """The side as judged: all its cards, or its best ``capacity`` when over-full."""
        cards = self.sides[flag * 2 + player]
        cap = self.capacity(flag)
        if len(cards) > cap:
            return best_subset(cards, cap, self.is_fog(flag), self.rules)
        return cards


TABLE_FIELDS = tuple(f.name for f in fields(Table))
# the fields holding lists (the ones with a default factory) come last, so that a copy is the
# other fields as they are, then copies of these lists
_LISTS = tuple(f.name for f in fields(Table) if f.default_factory is not MISSING)
if TABLE_FIELDS[len(TABLE_FIELDS) - len(_LISTS):] != _LISTS:
    raise TypeError("Table: declare the list fields (with a default factory) after all the others")
_SHARED = attrgetter(*TABLE_FIELDS[: len(TABLE_FIELDS) - len(_LISTS)])
_LIST_VALUES = attrgetter(*_LISTS)


def values(t: Table) -> tuple[Any, ...]:
    """Every field of ``t`` in order, lists copied (their items are immutable): the
    arguments of an independent copy, ``type(t)(*values(t))`` or any subclass's."""
    return (*_SHARED(t), *map(list.copy, _LIST_VALUES(t)))


def shared_values(t: Table) -> tuple[Any, ...]:
    """The fields before the lists, as they are (immutable or shared): with
    :func:`list_copies`, :func:`values` in two parts, for a caller that copies one
    record many times (``view.Deal``)."""
    return _SHARED(t)


def list_copies(t: Table) -> map[list[Any]]:
    """Copies of the list fields, in order."""
    return map(list.copy, _LIST_VALUES(t))


def restore(t: Table, saved: Sequence[Any]) -> None:
    """Set every field of ``t`` from ``saved`` (a :func:`values` list)."""
    for name, value in zip(TABLE_FIELDS, saved, strict=True):
        setattr(t, name, value)


_PLAIN_EFFECTS: tuple[Effects, ...] = (PLAIN,) * NUM_FLAGS
_PLAIN_CAPS = tuple(e.capacity for e in _PLAIN_EFFECTS)


def battlefield_effects(cfg: Config, bf_ids: tuple[int, ...], bf_up: int) -> tuple[Effects, ...]:
    """Per-flag effects: plain everywhere unless a face-up battlefield of the set says more."""
    if not bf_ids:
        return _PLAIN_EFFECTS
    cards = load_set(cfg.get("battlefield_set", "plain")).cards
    return tuple(cards[bf_ids[f]].effects if bf_up >> f & 1 else PLAIN for f in range(NUM_FLAGS))


Setup = tuple[Config, tuple[int, ...], int, tuple[Effects, ...], tuple[int, ...], bool, CardRules, int, ClaimMemo]


def setup(cfg: Config, bf_ids: tuple[int, ...] = (), bf_up: int = 0) -> Setup:
    """The setup fields of a new game's table (the first arguments of ``Table``)."""
    effects = battlefield_effects(cfg, bf_ids, bf_up)
    if effects is _PLAIN_EFFECTS:
        caps, forbid_any = _PLAIN_CAPS, False
    else:
        caps, forbid_any = tuple(e.capacity for e in effects), any(e.forbid for e in effects)
    rules = SCHOTTEN_CARDS if cfg.variant.schotten else BATTLELINE_CARDS
    return cfg, bf_ids, bf_up, effects, caps, forbid_any, rules, cfg.variant.troop_mask, ClaimMemo()


def best_subset(cards: tuple[int, ...], cap: int, fog: bool, rules: CardRules) -> tuple[int, ...]:
    """The strongest ``cap`` cards of an over-full side (only after Mud is removed)."""
    best: tuple[int, ...] = cards[:cap]
    best_score = -1
    for sub in combinations(cards, cap):
        score = evaluate(sub, fog, rules)
        if score > best_score:
            best, best_score = sub, score
    return best


def flag_holding(sides: Sequence[tuple[int, ...]], card: int, player: int | None = None) -> int:
    """The flag (0-8) where ``card`` lies on ``sides`` (a state's or a view's), on ``player``'s
    side or on either; -1 when it is not on the table."""
    for i, side in enumerate(sides):
        if card in side and (player is None or i % 2 == player):
            return i // 2
    return -1
