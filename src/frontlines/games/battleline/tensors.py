"""Action ids and tensors of the Battle Line family for learning libraries
(:mod:`frontlines.core.encoding`; the layouts are shown in docs/research.md).

Action space. The engine's action codes are ints below 2,100 (``state.py``); a ruleset's
space is the codes that can ever be legal in it, numbered densely in code order:
``battleline-basic`` has 552 ids (540 troop plays, 9 claims, ``pass``, ``draw:troop``,
``end``), ``schotten-totten`` 498, the rulesets with tactics 2,009.

Game length. No bound is proven: a player may pass for ever while a tactic stays playable
or a claim stays unmade (docs/rules.md §2.14), so the interfaces end a game at
:data:`MAX_GAME_LENGTH` actions, far above what play reaches (random play: at most about
160 in a thousand games of each ruleset).

Tensors are relative to the viewer ("my" side first) and read the view's public fields
only. Cards are indexed by their code (0-59 troops ``colour * 10 + value - 1``, 60-69
tactics), the same in every ruleset: a card a ruleset lacks is always zero.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping, Sequence
from itertools import compress
from operator import is_not, ne
from struct import Struct

from frontlines.core.encoding import Block, Encoding, LiveObservation, player_of
from frontlines.core.game import Action, State, View
from frontlines.games.battleline.cards import (
    DESERTER,
    FOG,
    MORALE,
    MUD,
    NUM_CARDS,
    NUM_TROOPS,
    REDEPLOY,
    SCOUT,
    TACTICS_MASK,
    TRAITOR,
    TROOP_MASK,
)
from frontlines.games.battleline.codes import FLAGS_OF, NUM_SIDES, TROOP_PLAYS
from frontlines.games.battleline.rules import RULESET_BY_NAME, VARIANTS, Variant
from frontlines.games.battleline.state import (
    CLAIM_BASE,
    DESERTER_BASE,
    DRAW_TACTICS,
    DRAW_TROOP,
    END,
    EXCESS_BASE,
    NUM_FLAGS,
    PASS,
    PLAY_BASE,
    REDEPLOY_BASE,
    RETURN_BASE,
    SCOUT_PLAY,
    SCOUT_TACTICS,
    SCOUT_TROOP,
    TRAITOR_BASE,
    BattleLineState,
    BattleLineView,
)
from frontlines.games.battleline.table import Table
from frontlines.games.battleline.view import UNMARKED

MAX_GAME_LENGTH = 1000

# --- layouts ---------------------------------------------------------------------------
# card places: 0 my hand, 1-9 my side of flags 1-9, 10-18 their side, 19 my discards,
# 20 theirs (Fog and Mud count as on their owner's side of the flag they lie at)
PLACES = 21
MY_HAND, MY_SIDE, THEIR_SIDE, MY_DISCARDS, THEIR_DISCARDS = 0, 1, 10, 19, 20
FLAG_FEATURES = 12 + NUM_FLAGS
GLOBALS = 23
KNOWN = 4  # information state: per card, what the viewer remembers of its place
DEAL_SLOTS = 9  # the times before the first action: the cards dealt (at most 7 to a player)
TIME_SCALE = MAX_GAME_LENGTH + DEAL_SLOTS + 1
# every draw of a game, both players': the decks after the deal (at most 70 - 2 * 6 cards)
# and the cards Scout puts back (at most 3)
THEIR_DRAWS = 61

OBSERVATION_LAYOUT: tuple[Block, ...] = (
    Block("cards", (NUM_CARDS, PLACES),
          "per card (code 0-69): 1 in the place where the viewer sees it: 0 my hand, 1-9 my side of "
          "flags 1-9, 10-18 their side of flags 1-9, 19 my discards, 20 their discards; all zero: unseen "
          "(a deck or their hand) or not in the ruleset"),
    Block("flags", (NUM_FLAGS, FLAG_FEATURES),
          "per flag: 0 claimed by me, 1 claimed by them, 2 Fog, 3 Mud, 4 my side complete, 5 their side "
          "complete, 6 my side completed first (both complete), 7 theirs completed first, 8 my cards / 5, "
          "9 their cards / 5, 10 (capacity - 3) / 2 (Mud adds 1; battlefields make it 2-4), 11 battlefield face up, 12-20 which battlefield (one-hot, "
          "face up only)"),
    Block("global", (GLOBALS,),
          "0-5 phase one-hot (play, draw, scout, return, excess, over), 6 my turn, 7 troop deck / 60, "
          "8 tactics deck / 10, 9 my hand / 9, 10 their troops in hand / 9, 11 their tactics in hand / 9, "
          "12 tactics I played / 5, 13 they played / 5, 14 I played a leader, 15 they did, 16 Scout draws "
          "left / 3, 17 Scout returns left / 3, 18 consecutive passes (at most 2) / 2, 19 stuck turns / 2, 20 flags I "
          "hold / 9, 21 flags they hold / 9, 22 this turn passed"),
)
INFORMATION_STATE_LAYOUT: tuple[Block, ...] = (
    *OBSERVATION_LAYOUT,
    Block("known", (NUM_CARDS, KNOWN),
          "per card, what the viewer remembers: 0 in their hand (I saw it go there), 1 in a deck at a "
          "place I know, 2 that place's nearness to the top (1 top, 1/2 next, ...), 3 in my hand and "
          "they know it"),
    Block("known_by_them", (2,), "cards of the troop / tactics deck whose place they know, / 3"),
    # perfect recall: when things happened, in the player's own sequence of observations. A
    # time is (i + 1) / TIME_SCALE for the i-th card dealt to me, (DEAL_SLOTS + k + 1) /
    # TIME_SCALE for the action k of the game (0 first); 0: never
    Block("arrived", (NUM_CARDS, 3),
          "per card, when it came into my hand (dealt or drawn): 0 first, 1 again (after I put it back "
          "with Scout), 2 when I put it back on a deck with Scout"),
    Block("played", (NUM_CARDS, 2),
          "per card, 0 when a player played it from hand, 1 the flag it was played at (flag / 9; 0 for "
          "Scout, Redeploy, Deserter and Traitor)"),
    Block("moved", (NUM_CARDS, 4),
          "per card, what the guile tactics and Mud did to it: 0 Redeploy's target (flag / 10, 1 the "
          "discards), 1 taken by Deserter, 2 Traitor's target flag / 9, 3 when it was discarded from an "
          "over-full side (Mud removed)"),
    Block("claimed_at", (NUM_FLAGS,), "per flag, when it was claimed"),
    Block("their_draws", (THEIR_DRAWS, 2),
          "their draws in order (Scout's too): 1 in 0 from the troop deck, in 1 from the tactics deck"),
    Block("actions", (1,), "actions of the game so far / MAX_GAME_LENGTH"),
)

_CARDS_END = NUM_CARDS * PLACES
_FLAGS_END = _CARDS_END + NUM_FLAGS * FLAG_FEATURES
OBSERVATION_SIZE = _FLAGS_END + GLOBALS
_MEMORY_END = OBSERVATION_SIZE + NUM_CARDS * KNOWN + 2
_ARRIVED = _MEMORY_END
_PLAYED = _ARRIVED + NUM_CARDS * 3
_MOVED = _PLAYED + NUM_CARDS * 2
_CLAIMED_AT = _MOVED + NUM_CARDS * 4
_THEIR_DRAWS = _CLAIMED_AT + NUM_FLAGS
_ACTIONS = _THEIR_DRAWS + THEIR_DRAWS * 2
INFORMATION_STATE_SIZE = _ACTIONS + 1
_ZEROS_OBS = array("f", bytes(4 * OBSERVATION_SIZE))
_ZEROS_INFO = array("f", bytes(4 * INFORMATION_STATE_SIZE))

# per viewer: (flag, my side's index, their side's index, the flag's row in the tensor)
_FLAG_ROWS = tuple(
    tuple((f, 2 * f + me, 2 * f + 1 - me, _CARDS_END + f * FLAG_FEATURES) for f in range(NUM_FLAGS)) for me in (0, 1)
)


def action_codes(variant: Variant) -> tuple[int, ...]:
    """The codes that can be legal in a ruleset of ``variant``, ascending."""
    troops = [c for c in range(NUM_TROOPS) if variant.troop_mask >> c & 1]
    if not variant.tactics:
        plays = [PLAY_BASE + c * 9 + f for c in troops for f in range(NUM_FLAGS)]
        return (*plays, *range(CLAIM_BASE, CLAIM_BASE + NUM_FLAGS), PASS, DRAW_TROOP, END)
    tactics = list(range(NUM_TROOPS, NUM_CARDS))
    slotted = [*troops, *MORALE]  # what can lie in a side's slots
    placed = [*slotted, FOG, MUD]  # what can lie at a flag
    codes = [PLAY_BASE + c * 9 + f for c in placed for f in range(NUM_FLAGS)]
    codes += range(CLAIM_BASE, CLAIM_BASE + NUM_FLAGS)
    codes += (PASS, DRAW_TROOP, DRAW_TACTICS, END, SCOUT_PLAY, SCOUT_TROOP, SCOUT_TACTICS)
    codes += (RETURN_BASE + c for c in [*troops, *tactics] if c != SCOUT)  # Scout is on the table then
    codes += (REDEPLOY_BASE + c * 10 + t for c in placed for t in range(10))
    codes += (DESERTER_BASE + c for c in placed)
    codes += (TRAITOR_BASE + c * 9 + f for c in troops for f in range(NUM_FLAGS))
    codes += (EXCESS_BASE + c for c in slotted)
    return tuple(sorted(codes))


class BattleLineEncoding(Encoding):
    """:class:`Encoding` of one Battle Line family ruleset (options change nothing here)."""

    observation_layout = OBSERVATION_LAYOUT
    information_state_layout = INFORMATION_STATE_LAYOUT

    def __init__(self, ruleset: str) -> None:
        super().__init__(ruleset, action_codes(VARIANTS[ruleset]), MAX_GAME_LENGTH, False)

    def __reduce__(self) -> tuple[type[BattleLineEncoding], tuple[str]]:
        # pickled (and deep-copied: environments are) as its ruleset: a compiled class is
        # made only through its __init__
        return BattleLineEncoding, (self.ruleset,)

    def observation_tensor(self, view: View) -> array[float]:
        t = _ZEROS_OBS[:]
        _observe(_battleline_view(view), player_of(view), t)
        return t

    def observation_tensor_of(self, state: State, player: int) -> array[float]:
        # a state and its views are the same record (Table), the view with the hidden
        # cards marked unknown; the observation reads only the table, the player's own hand
        # and the sizes of the other hand and the decks, the same in both (tests compare)
        if not isinstance(state, BattleLineState) or player not in (0, 1):
            return super().observation_tensor_of(state, player)
        t = _ZEROS_OBS[:]
        _observe(state, player, t)
        return t

    def live_observation(self, player: int) -> LiveBattleLine:
        return LiveBattleLine(self, player)

    def live_information_state(self, player: int) -> LiveBattleLine:
        return LiveBattleLine(self, player, information=True)

    def information_state_tensor(self, view: View) -> array[float]:
        t = _ZEROS_INFO[:]
        me = player_of(view)
        v = _battleline_view(view)
        _observe(v, me, t)
        _remember(t, _memory(v, me))
        _recall(t, Recall(), v, me, True)
        return t

    def information_state_tensor_of(self, state: State, player: int) -> array[float]:
        # the memory is read from the full position as the view would show it (tests compare)
        if not isinstance(state, BattleLineState) or player not in (0, 1):
            return super().information_state_tensor_of(state, player)
        t = _ZEROS_INFO[:]
        _observe(state, player, t)
        _remember(t, _memory(state, player))
        _recall(t, Recall(), state, player, True)
        return t

    def private_entries(self, options: Mapping[str, str] | None = None) -> tuple[slice, ...]:
        # only the hand is private: everything else in the observation is on the table or
        # a count everyone sees
        return (slice(MY_HAND, _CARDS_END, PLACES),)


def _battleline_view(view: View) -> BattleLineView:
    if not isinstance(view, BattleLineView):
        raise TypeError(f"a Battle Line encoding needs a Battle Line view, not {type(view).__name__}")
    return view


_NO_SIDES: list[tuple[int, ...]] = [()] * NUM_SIDES
_SIDE_INDICES = range(NUM_SIDES)
_FLAG_INDICES = range(NUM_FLAGS)
_ZERO_ROW = array("f", bytes(4 * FLAG_FEATURES))
_TURN_ACTIONS = frozenset((PASS, DRAW_TROOP, DRAW_TACTICS, END))
_RARE = Struct("8f")  # global entries 12-19 in one call: faster than item by item
_COMMON = Struct("6f")  # global entries 6-11, rewritten at every update


def _table(state: State | View) -> Table:
    if not isinstance(state, Table):
        raise TypeError(f"a Battle Line encoding needs a Battle Line state or view, not {type(state).__name__}")
    return state


class LiveBattleLine(LiveObservation):
    """The observation of a Battle Line family position (a full one or ``player``'s view,
    :class:`~.table.Table`), rewriting only the cards, flags and piles that changed since
    the last update; the 23 global entries are rewritten each time.

    Each part of the table it reads is an immutable value or a list it copies (side tuples
    are replaced, never changed in place), so comparing with the copies finds every change.
    """

    __slots__ = ("base_caps", "bf_ids", "bf_up", "claimed", "completed", "discards", "fog", "guile", "hand", "information",
                 "memory", "mud", "phase", "rare", "recall", "sides", "t")

    def __init__(self, encoding: Encoding, player: int, information: bool = False) -> None:
        super().__init__(encoding, player)
        #: whether this is the information-state tensor: the observation, then the memory
        self.information = information
        self.t = (_ZEROS_INFO if information else _ZEROS_OBS)[:]
        self.memory = _NO_MEMORY  # what the memory blocks show now
        self.recall = Recall()  # how much of the game's record the recall blocks show
        # what ``t`` shows now; the initial values are those an all-zero tensor shows
        self.hand = 0
        # lists of its own (advance changes them in place)
        self.sides = _NO_SIDES[:]
        self.claimed, self.fog, self.mud = [-1] * NUM_FLAGS, [-1] * NUM_FLAGS, [-1] * NUM_FLAGS
        self.completed = [-1] * NUM_SIDES
        self.discards: list[tuple[int, ...]] = [(), ()]
        self.guile: list[tuple[int, ...]] = [(), ()]
        self.bf_up = 0
        self.bf_ids: tuple[int, ...] = ()
        self.base_caps: tuple[int, ...] = (3,) * NUM_FLAGS
        self.phase = -1  # whose one-hot entry is set (none yet)
        self.rare: tuple[int, ...] = (0, 0, 0, 0, 0, 0, 0, False)  # inputs of global entries 12-19 and 22

    def update(self, state: State | View) -> array[float]:
        v = _table(state)
        self._hand(v)
        sides = v.sides
        if sides != self.sides:
            old_sides = self.sides
            # the sides that changed, found at C speed: usually one or two of the 18
            for k in compress(_SIDE_INDICES, map(is_not, sides, old_sides)):
                self._side(k, old_sides[k], sides[k])
            self.sides = sides[:]
        dirty = 0  # flags whose row of features is rewritten below
        claimed, completed, fog, mud = v.claimed, v.completed, v.fog, v.mud
        if claimed != self.claimed or completed != self.completed or fog != self.fog or mud != self.mud:
            dirty |= self._flag_marks(v)
        if v.bf_up != self.bf_up or v.bf_ids != self.bf_ids or v.base_caps != self.base_caps:
            self.bf_up, self.bf_ids, self.base_caps = v.bf_up, v.bf_ids, v.base_caps
            dirty = (1 << NUM_FLAGS) - 1
        if dirty:
            self._flag_rows(v, dirty)
        if v.discards != self.discards or v.guile != self.guile:
            self._piles(v)
        return self._globals(v, True)

    def advance(self, state: State, actions: Sequence[Action]) -> array[float]:
        # a troop played or a claim changes its flag only; a pass, a draw or the end of a
        # turn no flag, but the turn's counts; every other action (tactics, Scout, guile,
        # discards) is rare enough to compare every part of the table
        codes: Sequence[int] = actions  # type: ignore[assignment]  # Battle Line's actions are ints
        flags = 0
        turn = False
        for a in codes:
            if a < TROOP_PLAYS:
                flags |= 1 << a % NUM_FLAGS
            elif CLAIM_BASE <= a < PASS:
                flags |= 1 << (a - CLAIM_BASE)
            elif a in _TURN_ACTIONS:
                turn = True
            else:
                return self.update(state)
        if not isinstance(state, Table):
            return self.update(state)  # (refused there)
        self._hand(state)
        if flags:
            self._flags_moved(state, flags)
        return self._globals(state, turn, True)

    def _hand(self, v: Table) -> None:
        """My hand's places."""
        hand = v.hands[self.player]
        changed = hand ^ self.hand
        if changed:
            t = self.t
            self.hand = hand
            while changed:
                low = changed & -changed
                t[(low.bit_length() - 1) * PLACES + MY_HAND] = 1.0 if hand & low else 0.0
                changed ^= low

    def _side(self, k: int, old: tuple[int, ...], side: tuple[int, ...]) -> None:
        """Side ``k`` held ``old`` and holds ``side`` now: its cards' places and its number
        of cards (of its flag's row, the only entry that depends on the side alone)."""
        t = self.t
        f = k >> 1
        mine = k & 1 == self.player
        place = (MY_SIDE if mine else THEIR_SIDE) + f
        for c in old:
            t[c * PLACES + place] = 0.0
        for c in side:
            t[c * PLACES + place] = 1.0
        t[_CARDS_END + f * FLAG_FEATURES + (8 if mine else 9)] = len(side) / 5

    def _flags_moved(self, v: Table, flags: int) -> None:
        """The flags of the bit set ``flags`` may have a new card on a side, a completed side
        or a claim (and nothing else: no Fog, Mud, battlefield or discard changed)."""
        t = self.t
        me = self.player
        sides, claimed, completed = v.sides, v.claimed, v.completed
        old_sides, old_claimed, old_completed = self.sides, self.claimed, self.completed
        dirty = 0
        for f in FLAGS_OF[flags]:
            for k in (2 * f, 2 * f + 1):
                side = sides[k]
                if side is not old_sides[k]:
                    self._side(k, old_sides[k], side)
                    old_sides[k] = side
                if completed[k] != old_completed[k]:
                    old_completed[k] = completed[k]
                    dirty |= 1 << f
            if claimed[f] != old_claimed[f]:
                old_claimed[f] = claimed[f]
                dirty |= 1 << f
                t[_FLAGS_END + 20] = claimed.count(me) / 9
                t[_FLAGS_END + 21] = claimed.count(1 - me) / 9
        if dirty:
            self._flag_rows(v, dirty)

    def _globals(self, v: Table, turn: bool, continues: bool = False) -> array[float]:
        """The global entries and the information state's memory and recall; ``turn``:
        whether the inputs of the entries that only passes, draws, ends of turns and tactics
        change may have changed; ``continues``: ``v`` is known to continue the game the
        recall blocks show (:func:`_recall` need not compare their records)."""
        t = self.t
        me = self.player
        g = _FLAGS_END
        phase = v.phase
        if phase != self.phase:
            if self.phase >= 0:
                t[g + self.phase] = 0.0
            t[g + phase] = 1.0
            self.phase = phase
        you = 1 - me
        hand = v.hands[me]
        their_hand, unknown = v.hands[you], v.hand_unknown[you]  # unknown: all zero in a full position
        _COMMON.pack_into(
            t, (g + 6) * 4,
            v.current_player() == me, len(v.tdeck) / 60, len(v.xdeck) / 10, hand.bit_count() / 9,
            ((their_hand & TROOP_MASK).bit_count() + unknown.troops) / 9,
            ((their_hand & TACTICS_MASK).bit_count() + unknown.tactics) / 9,
        )
        if turn:
            played = v.tactics_played
            rare = (played[me], played[you], v.leaders, v.scout_left, v.ret_left, v.passes, v.noops, v.turn_passed)
            if rare != self.rare:
                self._rare(rare)
        if self.information:
            memory = _memory(v, me)
            if memory != self.memory:
                self.memory = memory
                t[OBSERVATION_SIZE:_MEMORY_END] = _ZEROS_MEMORY
                _remember(t, memory)
            _recall(t, self.recall, v, me, continues)
        return t

    def _flag_marks(self, v: Table) -> int:
        """Move the Fog and Mud cards whose place changed; the flags whose claim, completion,
        Fog or Mud changed."""
        t = self.t
        me = self.player
        dirty = 0
        claimed, completed, fog, mud = v.claimed, v.completed, v.fog, v.mud
        if claimed != self.claimed:
            for f in compress(_FLAG_INDICES, map(ne, claimed, self.claimed)):
                dirty |= 1 << f
            self.claimed = claimed[:]
            t[_FLAGS_END + 20] = claimed.count(me) / 9
            t[_FLAGS_END + 21] = claimed.count(1 - me) / 9
        if completed != self.completed:
            for k in compress(_SIDE_INDICES, map(ne, completed, self.completed)):
                dirty |= 1 << (k >> 1)
            self.completed = completed[:]
        for card, now, before in ((FOG, fog, self.fog), (MUD, mud, self.mud)):
            if now != before:
                for f in compress(_FLAG_INDICES, map(ne, now, before)):
                    dirty |= 1 << f
                    old, new = before[f], now[f]
                    if old >= 0:
                        t[card * PLACES + (MY_SIDE if old == me else THEIR_SIDE) + f] = 0.0
                    if new >= 0:
                        t[card * PLACES + (MY_SIDE if new == me else THEIR_SIDE) + f] = 1.0
        self.fog, self.mud = fog[:], mud[:]
        return dirty

    def _flag_rows(self, v: Table, dirty: int) -> None:
        """Rewrite the features of the flags in the bit set ``dirty`` (zeroed, then the
        entries that are not zero: most are)."""
        t = self.t
        me = self.player
        sides, claimed, completed, fog, mud = v.sides, v.claimed, v.completed, v.fog, v.mud
        bf_up, base_caps, bf_ids = v.bf_up, v.base_caps, v.bf_ids
        rows = _FLAG_ROWS[me]
        while dirty:
            low = dirty & -dirty
            dirty ^= low
            f, i, j, row = rows[low.bit_length() - 1]
            t[row:row + FLAG_FEATURES] = _ZERO_ROW
            mine, theirs = sides[i], sides[j]
            if mine:
                t[row + 8] = len(mine) / 5
            if theirs:
                t[row + 9] = len(theirs) / 5
            owner = claimed[f]
            if owner >= 0:
                t[row + (owner != me)] = 1.0
            a, b = completed[i], completed[j]
            if a >= 0 or b >= 0:
                _completion(t, row, a, b)
            if fog[f] >= 0:
                t[row + 2] = 1.0
            if mud[f] >= 0:
                t[row + 3] = 1.0
            if bf_up:
                t[row + 10] = (base_caps[f] + (mud[f] >= 0) - 3) / 2
                if bf_up >> f & 1:
                    t[row + 11] = 1.0
                    t[row + 12 + bf_ids[f]] = 1.0
            elif mud[f] >= 0:
                t[row + 10] = 0.5  # capacity 4: (4 - 3) / 2

    def _piles(self, v: Table) -> None:
        """Rewrite the discard places: discarded cards and played guile tactics."""
        t = self.t
        me = self.player
        discards, guile = v.discards, v.guile
        for p, place in ((me, MY_DISCARDS), (1 - me, THEIR_DISCARDS)):
            old = (self.discards[p], self.guile[p])
            if old != (discards[p], guile[p]):
                for pile in old:
                    for c in pile:
                        t[c * PLACES + place] = 0.0
                for pile in (discards[p], guile[p]):
                    for c in pile:
                        t[c * PLACES + place] = 1.0
        self.discards, self.guile = discards[:], guile[:]

    def _rare(self, rare: tuple[int, ...]) -> None:
        """Write the global entries 12-19 and 22 from their inputs ``rare``."""
        t = self.t
        me = self.player
        you = 1 - me
        g = _FLAGS_END
        self.rare = rare
        mine, theirs, leaders, scout_left, ret_left, passes, noops, turn_passed = rare
        _RARE.pack_into(
            t, (g + 12) * 4, mine / 5, theirs / 5, leaders >> me & 1, leaders >> you & 1, scout_left / 3,
            ret_left / 3,
            min(passes, 2) / 2,  # rule b lets passes run on
            noops / 2,
        )
        t[g + 22] = turn_passed


def _completion(t: array[float], row: int, mine: int, theirs: int) -> None:
    """A flag's entries 4-7 from the completion times of my side and theirs (-1:
    incomplete): which sides are complete, and which was completed first."""
    if mine >= 0:
        t[row + 4] = 1.0
    if theirs >= 0:
        t[row + 5] = 1.0
        if mine >= 0:
            t[row + (6 if mine < theirs else 7)] = 1.0


def _observe(v: Table, me: int, t: array[float]) -> None:
    """Fill the observation blocks of ``t`` (zeros) from ``v``, a full position or a view of
    ``me``: the table, my hand, the sizes of their hand and of the decks."""
    hand = v.hands[me]
    sides, claimed, completed, fog, mud = v.sides, v.claimed, v.completed, v.fog, v.mud
    t[_FLAGS_END + 9] = hand.bit_count() / 9
    while hand:
        low = hand & -hand
        t[(low.bit_length() - 1) * PLACES] = 1.0  # MY_HAND
        hand ^= low
    held = [0, 0]
    # only what differs from an empty flag is written: most entries stay zero
    for f, i, j, row in _FLAG_ROWS[me]:
        mine, theirs = sides[i], sides[j]
        if mine:
            for c in mine:
                t[c * PLACES + MY_SIDE + f] = 1.0
            t[row + 8] = len(mine) / 5
        if theirs:
            for c in theirs:
                t[c * PLACES + THEIR_SIDE + f] = 1.0
            t[row + 9] = len(theirs) / 5
        owner = claimed[f]
        if owner >= 0:
            t[row + (owner != me)] = 1.0
            held[owner != me] += 1
        a, b = completed[i], completed[j]
        if a >= 0 or b >= 0:
            _completion(t, row, a, b)
        if fog[f] >= 0:
            t[row + 2] = 1.0
            t[FOG * PLACES + (MY_SIDE if fog[f] == me else THEIR_SIDE) + f] = 1.0
        if mud[f] >= 0:
            t[row + 3] = 1.0
            t[MUD * PLACES + (MY_SIDE if mud[f] == me else THEIR_SIDE) + f] = 1.0
            t[row + 10] = 0.5  # capacity 4: (4 - 3) / 2
    bf_up = v.bf_up
    if bf_up:
        base_caps, bf_ids = v.base_caps, v.bf_ids
        for f in range(NUM_FLAGS):
            row = _CARDS_END + f * FLAG_FEATURES
            t[row + 10] = (base_caps[f] + (mud[f] >= 0) - 3) / 2
            if bf_up >> f & 1:
                t[row + 11] = 1.0
                t[row + 12 + bf_ids[f]] = 1.0
    you = 1 - me
    discards, guile = v.discards, v.guile
    for place, p in ((MY_DISCARDS, me), (THEIR_DISCARDS, you)):
        for c in discards[p]:
            t[c * PLACES + place] = 1.0
        for c in guile[p]:
            t[c * PLACES + place] = 1.0
    g = _FLAGS_END
    t[g + v.phase] = 1.0
    if v.current_player() == me:
        t[g + 6] = 1.0
    t[g + 7] = len(v.tdeck) / 60
    t[g + 8] = len(v.xdeck) / 10
    their_hand, unknown = v.hands[you], v.hand_unknown[you]  # unknown: all zero in a full position
    t[g + 10] = ((their_hand & TROOP_MASK).bit_count() + unknown.troops) / 9
    t[g + 11] = ((their_hand & TACTICS_MASK).bit_count() + unknown.tactics) / 9
    played = v.tactics_played
    if played[0] or played[1]:
        t[g + 12] = played[me] / 5
        t[g + 13] = played[you] / 5
    leaders = v.leaders
    if leaders:
        t[g + 14] = float(leaders >> me & 1)
        t[g + 15] = float(leaders >> you & 1)
    if v.scout_left:
        t[g + 16] = v.scout_left / 3
    if v.ret_left:
        t[g + 17] = v.ret_left / 3
    if v.passes:
        t[g + 18] = min(v.passes, 2) / 2  # rule b lets passes run on
    if v.noops:
        t[g + 19] = v.noops / 2
    t[g + 20] = held[0] / 9
    t[g + 21] = held[1] / 9
    if v.turn_passed:
        t[g + 22] = 1.0


# what the memory blocks of an information state are made of (:func:`_memory`)
Memory = tuple[int, int, tuple[tuple[int, int, int], ...], tuple[tuple[int, int, int], ...], int]
_NO_MEMORY: Memory = (0, 0, (), (), 0)
_ZEROS_MEMORY = array("f", bytes(4 * (_MEMORY_END - OBSERVATION_SIZE)))
_ZEROS_RECALL = array("f", bytes(4 * (INFORMATION_STATE_SIZE - _MEMORY_END)))


def _memory(v: Table, me: int) -> Memory:
    """What ``me`` remembers in ``v``, a full position or a view of ``me`` (the same for
    both): the cards of their hand I saw go there, the cards of my hand they know, the
    marked places of each deck (position from the top, knowers, card or -1 when I do not
    know it), and which decks' marks they know (``theirs``: a count per deck, packed)."""
    known = v.known
    k0, k1 = known
    if not (k0 | k1) and type(v) is BattleLineState:
        return _NO_MEMORY  # nobody knows where a hidden card is (the common case)
    you = 1 - me
    mine = known[me]
    # in a view, their hand holds only the cards I know, and my hand is all mine
    seen = v.hands[you] & mine
    marked = v.hands[me] & known[you]
    decks: list[tuple[tuple[int, int, int], ...]] = []
    for deck in (v.tdeck, v.xdeck):
        if not (k0 | k1) and (not deck or min(deck) >= UNMARKED):
            decks.append(())  # nobody knows a place in this deck (the common case)
            continue
        marks: list[tuple[int, int, int]] = []
        n = len(deck)
        for i in range(n - 1, -1, -1):
            c = deck[i]
            if c >= 0:  # a view holds only the cards its viewer knows; a full position all
                knowers = (k0 >> c & 1) | (k1 >> c & 1) << 1
                if knowers:
                    marks.append((n - 1 - i, knowers, c if mine >> c & 1 else -1))
            elif c != UNMARKED:
                marks.append((n - 1 - i, -1 - c, -1))
        decks.append(tuple(marks))
    theirs = sum(m[1] >> you & 1 for m in decks[0]) | sum(m[1] >> you & 1 for m in decks[1]) << 8
    return (seen, marked, decks[0], decks[1], theirs)


def _remember(t: array[float], memory: Memory) -> None:
    """Write ``memory`` into the memory blocks of ``t`` (zeros)."""
    base = OBSERVATION_SIZE
    seen, marked, tdeck, xdeck, theirs = memory
    while seen:
        low = seen & -seen
        t[base + (low.bit_length() - 1) * KNOWN] = 1.0
        seen ^= low
    while marked:
        low = marked & -marked
        t[base + (low.bit_length() - 1) * KNOWN + 3] = 1.0
        marked ^= low
    for marks in (tdeck, xdeck):
        for pos, _knowers, c in marks:
            if c >= 0:
                t[base + c * KNOWN + 1] = 1.0
                t[base + c * KNOWN + 2] = 1 / (1 + pos)
    end = base + NUM_CARDS * KNOWN
    t[end] = (theirs & 255) / 3
    t[end + 1] = (theirs >> 8) / 3


class Recall:
    """How much of a game's record the recall blocks of a tensor show: the cards dealt, the
    actions written (a copy, to tell a later position of the same game from another game),
    the player's draws written and the opponent's draws counted."""

    __slots__ = ("dealt", "drawn", "hist", "theirs")

    def __init__(self) -> None:
        self.dealt: tuple[int, ...] = ()
        self.hist: list[int] = []
        self.drawn = 0
        self.theirs = 0


_NO_DRAWS: array[int] = array("i")
_THEIR_DECK = {DRAW_TROOP: 0, SCOUT_TROOP: 0, DRAW_TACTICS: 1, SCOUT_TACTICS: 1}


def _recall(t: array[float], r: Recall, v: Table, me: int, continues: bool) -> None:
    """Bring the recall blocks of ``t`` (they show ``r``) up to ``v``, a full position or a
    view of ``me``: the actions of its record since ``r``, or, in another game (different
    cards dealt, a record that does not begin with ``r``'s; compared unless ``continues``),
    all of them afresh. A position without a record (parsed, sampled) has empty blocks.

    Passes, ends of turns and the opponent's Scout returns are not written: each is the
    only action its player could make there (the phase, which the other actions fix, says
    so)."""
    hist: list[int]
    actors: list[int]
    drawn: array[int]
    if type(v) is BattleLineState:
        hist, actors, drawn, dealt = v.hist, v.actors, v.drawn, v.dealt[me]
    elif isinstance(v, BattleLineView):
        hist, actors, drawn, dealt = v.seen_hist, v.seen_actors, v.seen_drawn, v.dealt
    elif isinstance(v, BattleLineState):
        hist, actors, drawn, dealt = v.hist, v.actors, v.drawn, v.dealt[me]
    else:
        hist, actors, drawn, dealt = [], [], _NO_DRAWS, ()
    done = r.hist
    n = len(done)
    end = len(hist)
    if (dealt is not r.dealt and dealt != r.dealt) or end < n or not (continues or hist[:n] == done):
        t[_MEMORY_END:] = _ZEROS_RECALL
        done = r.hist = []
        r.dealt, r.drawn, r.theirs = dealt, 0, 0
        n = 0
        for i, c in enumerate(dealt):
            t[_ARRIVED + c * 3] = (i + 1) / TIME_SCALE
    if end > n:
        for k in range(n, end):
            a = hist[k]
            if a < CLAIM_BASE:
                if a >= 0:  # (-1: the opponent's Scout return, as a view shows it)
                    c, f = divmod(a, 9)
                    i = _PLAYED + c * 2
                    t[i] = (DEAL_SLOTS + k + 1) / TIME_SCALE
                    t[i + 1] = (f + 1) / 9
            elif a < PASS:
                t[_CLAIMED_AT + a - CLAIM_BASE] = (DEAL_SLOTS + k + 1) / TIME_SCALE
            elif a < RETURN_BASE:
                deck = _THEIR_DECK.get(a, -1)
                if deck >= 0:
                    if actors[k] != me:
                        if r.theirs < THEIR_DRAWS:
                            t[_THEIR_DRAWS + r.theirs * 2 + deck] = 1.0
                        r.theirs += 1
                elif a == SCOUT_PLAY:
                    t[_PLAYED + SCOUT * 2] = (DEAL_SLOTS + k + 1) / TIME_SCALE
            else:
                _write_guile(t, a, (DEAL_SLOTS + k + 1) / TIME_SCALE, actors[k] == me)
        done += hist[n:end]
    if len(drawn) > r.drawn:
        for d in drawn[r.drawn:]:
            k, c = d >> 7, d & 127
            if actors[k] == me:
                i = _ARRIVED + c * 3
                t[i if t[i] == 0.0 else i + 1] = (DEAL_SLOTS + k + 1) / TIME_SCALE
        r.drawn = len(drawn)
    t[_ACTIONS] = end / MAX_GAME_LENGTH


def _write_guile(t: array[float], a: int, when: float, mine: bool) -> None:
    """Write the rarer action ``a`` (a Scout return, a guile tactic, a discard from an
    over-full side) made at time ``when`` (``mine``: by the tensor's player)."""
    if a < REDEPLOY_BASE:
        if mine:  # the opponent's returns are not written (above)
            t[_ARRIVED + (a - RETURN_BASE) * 3 + 2] = when
    elif a < DESERTER_BASE:
        c, g = divmod(a - REDEPLOY_BASE, 10)
        t[_PLAYED + REDEPLOY * 2] = when
        t[_MOVED + c * 4] = (g + 1) / 10
    elif a < TRAITOR_BASE:
        t[_PLAYED + DESERTER * 2] = when
        t[_MOVED + (a - DESERTER_BASE) * 4 + 1] = 1.0
    elif a < EXCESS_BASE:
        c, g = divmod(a - TRAITOR_BASE, 9)
        t[_PLAYED + TRAITOR * 2] = when
        t[_MOVED + c * 4 + 2] = (g + 1) / 9
    else:
        t[_MOVED + (a - EXCESS_BASE) * 4 + 3] = when


_encodings: dict[str, BattleLineEncoding] = {}


def encoding(ruleset: str, options: Mapping[str, str] | None = None) -> BattleLineEncoding:
    """The (shared) encoding of ``ruleset``; options are checked, but change nothing here."""
    spec = RULESET_BY_NAME.get(ruleset)
    if spec is None:
        raise ValueError(f"unknown Battle Line ruleset {ruleset!r}; known: {', '.join(RULESET_BY_NAME)}")
    spec.resolve_options(options)
    enc = _encodings.get(ruleset)
    if enc is None:
        enc = _encodings[ruleset] = BattleLineEncoding(ruleset)
    return enc


__all__ = ["INFORMATION_STATE_LAYOUT", "MAX_GAME_LENGTH", "OBSERVATION_LAYOUT", "BattleLineEncoding", "LiveBattleLine",
           "action_codes", "encoding"]
