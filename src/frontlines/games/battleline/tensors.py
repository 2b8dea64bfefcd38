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
from collections.abc import Mapping

from frontlines.core.encoding import Block, Encoding, player_of
from frontlines.core.game import State, View
from frontlines.games.battleline.cards import (
    FOG,
    MORALE,
    MUD,
    NUM_CARDS,
    NUM_TROOPS,
    SCOUT,
    TACTICS_MASK,
    TROOP_MASK,
)
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
from frontlines.games.battleline.text import deck_marks
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
)

_CARDS_END = NUM_CARDS * PLACES
_FLAGS_END = _CARDS_END + NUM_FLAGS * FLAG_FEATURES
OBSERVATION_SIZE = _FLAGS_END + GLOBALS
INFORMATION_STATE_SIZE = OBSERVATION_SIZE + NUM_CARDS * KNOWN + 2
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

    def information_state_tensor(self, view: View) -> array[float]:
        t = _ZEROS_INFO[:]
        me = player_of(view)
        v = _battleline_view(view)
        _observe(v, me, t)
        _remember(v, me, t)
        return t


def _battleline_view(view: View) -> BattleLineView:
    if not isinstance(view, BattleLineView):
        raise TypeError(f"a Battle Line encoding needs a Battle Line view, not {type(view).__name__}")
    return view


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
        a = completed[i]
        if a >= 0:
            t[row + 4] = 1.0
        b = completed[j]
        if b >= 0:
            t[row + 5] = 1.0
            if a >= 0:
                t[row + (6 if a < b else 7)] = 1.0
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


def _remember(v: BattleLineView, me: int, t: array[float]) -> None:
    """Fill the memory blocks of an information-state tensor from the view ``v``."""
    base = OBSERVATION_SIZE
    you = 1 - me
    seen = v.hands[you]  # in a view: the cards of their hand I know
    while seen:
        low = seen & -seen
        t[base + (low.bit_length() - 1) * KNOWN] = 1.0
        seen ^= low
    marked = v.hands[me] & v.known[you]
    while marked:
        low = marked & -marked
        t[base + (low.bit_length() - 1) * KNOWN + 3] = 1.0
        marked ^= low
    theirs = [0, 0]
    for k, deck in enumerate((v.tdeck, v.xdeck)):
        if deck.count(UNMARKED) == len(deck):
            continue  # nobody knows a place in this deck (the common case): nothing to mark
        for pos, knowers, c in deck_marks(v, deck):
            if c >= 0:
                t[base + c * KNOWN + 1] = 1.0
                t[base + c * KNOWN + 2] = 1 / (1 + pos)
            if knowers >> you & 1:
                theirs[k] += 1
    end = base + NUM_CARDS * KNOWN
    t[end] = theirs[0] / 3
    t[end + 1] = theirs[1] / 3


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


__all__ = ["INFORMATION_STATE_LAYOUT", "MAX_GAME_LENGTH", "OBSERVATION_LAYOUT", "BattleLineEncoding", "action_codes",
           "encoding"]
