"""Action ids and tensors of War Machine for learning libraries
(:mod:`frontlines.core.encoding`; the layouts are shown in docs/research.md).

Action space. The engine's codes (``rules.py``) are sparse, up to 4,000; the space numbers
the 864 that exist densely, in code order: 360 deployments (card, end, position), 30
burns, 6 draws, the blind takes ``TAKE1``/``TAKE2``, 30 seen single takes, 435 seen pair
takes and ``SKIP``. The notation is unchanged: ids are only for learning libraries.

Game length, proven: the chooser's take is one action; afterwards every turn deploys or
burns one card and then draws at least one support card (a turn that cannot draw ends the
game), and a hand never shrinks while support is left (a deployment or burn is followed by
at least one draw), so nobody ever has to skip. There are 24 support cards, hence at most
24 turns and 24 draws: 1 + 24 + 24 = 49 actions, and 3 * 49 for a best-of-three match.

Tensors are relative to the viewer and read the view's board (hidden cards there are
``UNKNOWN``). Cards are indexed 0-29 in the order of ``ALL_CARDS`` (``GI``, ``GJ``, ...).
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping, Sequence
from struct import Struct

from frontlines.core.encoding import Block, Encoding, LiveObservation, layout_offsets, layout_size, player_of
from frontlines.core.game import Action, State, View
from frontlines.games.warmachine.cards import ALL_CARDS, NUM_COUNTRIES, UNKNOWN, WM
from frontlines.games.warmachine.engine import WarMachineState, WarMachineView
from frontlines.games.warmachine.options import RULESET, Opts
from frontlines.games.warmachine.rules import (
    BURN,
    BURN_HIDDEN,
    CHOOSE,
    DRAW,
    DRAW_A,
    NOWIN,
    OVER,
    PENDING,
    PLAY,
    SKIP,
    TAKE1,
    TAKE1_CARD,
    TAKE1_HIDDEN,
    TAKE2,
    TAKE2_CARDS,
    TAKE2_HIDDEN,
    WON0,
    Board,
    deploy_action,
    take2_action,
)

GAME_LENGTH = 1 + 24 + 24
NUM_WM_CARDS = len(ALL_CARDS)  # 30
POSITIONS = 6

# card places: 0 my hand, 1-6 my side of positions 1-6 war machine up, 7-12 infantry up,
# 13-24 the same on their side, 25 the war front, 26 burned by a battle, 27 burned by me,
# 28 burned by them (face-up burns), 29 leftover (seen), 30 their hand (shown at the end)
PLACES = 31
MY_SIDE, THEIR_SIDE, FRONT, BATTLE_BURNED, MY_BURNS, THEIR_BURNS, LEFTOVER, THEIR_HAND = 1, 13, 25, 26, 27, 28, 29, 30
POSITION_FEATURES = NUM_COUNTRIES + 1 + 5 + 2 + 2 * (NUM_COUNTRIES + 1) + 1
GLOBALS = 15

OBSERVATION_LAYOUT: tuple[Block, ...] = (
    Block("cards", (NUM_WM_CARDS, PLACES),
          "per card (ALL_CARDS order): 1 in the place where the viewer sees it: 0 my hand, 1-6 my side of "
          "positions 1-6 war machine up, 7-12 infantry up, 13-24 the same on their side, 25 the war front, "
          "26 burned by a battle, 27 burned by me, 28 burned by them (face-up burns only), 29 leftover (seen), "
          "30 their hand (shown at the end); all zero: unseen"),
    Block("positions", (POSITIONS, POSITION_FEATURES),
          "per position P1-P6: 0-5 country one-hot, 6 war machine depicted, 7-11 battle one-hot (open, "
          "pending, won by me, won by them, no winner), 12 my strength / 16, 13 theirs / 16, 14-20 my "
          "colour one-hot (6 countries, none), 21-27 theirs, 28 support pile / 4"),
    Block("global", (GLOBALS,),
          "0-3 phase one-hot (choose, play, draw, over), 4 my turn, 5 draws left / 2, 6 support / 24, 7 my "
          "hand / 30, 8 their hand / 30, 9 I shuffled, 10 I moved first, 11 first player known, 12 game "
          "number / 3, 13 games I won / 3, 14 games they won / 3"),
)
SUPPORT = 24  # support cards of a game: at most 24 draws


def information_state_layout(games: int) -> tuple[Block, ...]:
    """The information-state layout of a game (``games`` 1) or a best-of-three match (3):
    the observation, the starting hands, then perfect recall, per game of the match: when
    things happened in the player's own sequence of observations. A time is (k + 1) /
    max_game_length for the action k of the match (0 first); 0: never."""
    blocks = [
        *OBSERVATION_LAYOUT,
        Block("dealt", (NUM_WM_CARDS, 2),
              "per card: 0 in my starting hand, 1 in theirs (known only after a seen choice)"),
        Block("arrived", (games, NUM_WM_CARDS, 2),
              "per game and card: 0 when it came into my hand (drawn, or taken in a seen choice), 1 the "
              "support pile it came from (pile / 6; 0 taken)"),
        Block("deployed", (games, NUM_WM_CARDS, 2),
              "per game and card: 0 when it was deployed, 1 where: (side * 12 + 6 if infantry up + position) / 24 "
              "with side 0 mine, 1 theirs, positions 1-6"),
        Block("burned", (games, NUM_WM_CARDS),
              "per game and card: when it was burned from a hand (by me; by them when burns are face up)"),
        Block("their_draws", (games, SUPPORT, POSITIONS),
              "per game, their draws in order: the support pile one-hot"),
    ]
    if games > 1:
        blocks.append(Block("results", (games, 4),
                            "per finished game of the match: my score / 40, theirs / 40, I won, they won"))
    blocks.append(Block("actions", (1,), "actions so far / max_game_length"))
    return tuple(blocks)


INFORMATION_STATE_LAYOUT = information_state_layout(1)

_CARDS_END = NUM_WM_CARDS * PLACES
_POS_END = _CARDS_END + POSITIONS * POSITION_FEATURES
OBSERVATION_SIZE = _POS_END + GLOBALS
_DEALT_END = OBSERVATION_SIZE + NUM_WM_CARDS * 2
INFORMATION_STATE_SIZE = layout_size(INFORMATION_STATE_LAYOUT)
_ZEROS_OBS = array("f", bytes(4 * OBSERVATION_SIZE))


class _Places:
    """Where the recall blocks of a layout begin (``information_state_layout(games)``)."""

    def __init__(self, games: int) -> None:
        self.games = games
        self.scale = GAME_LENGTH * games  # max_game_length
        offsets = layout_offsets(information_state_layout(games))
        self.arrived = offsets["arrived"][0]
        self.deployed = offsets["deployed"][0]
        self.burned = offsets["burned"][0]
        self.their_draws = offsets["their_draws"][0]
        self.results = offsets["results"][0] if games > 1 else -1
        self.actions = offsets["actions"][0]
        self.size = self.actions + 1
        self.zeros = array("f", bytes(4 * self.size))
        self.zeros_recall = array("f", bytes(4 * (self.size - _DEALT_END)))
        # per game of the match: where its rows of arrived, deployed, burned and their_draws begin
        self.rows = tuple(
            (self.arrived + g * NUM_WM_CARDS * 2, self.deployed + g * NUM_WM_CARDS * 2, self.burned + g * NUM_WM_CARDS,
             self.their_draws + g * SUPPORT * POSITIONS) for g in range(games)
        )

    def __reduce__(self) -> tuple[type[_Places], tuple[int]]:
        # pickled (a live tensor holds its places) as its games: a compiled class is made
        # only through its __init__
        return _Places, (self.games,)


_PLACES = {1: _Places(1), 3: _Places(3)}
# card code (wm * 6 + inf) -> index 0..29; UNKNOWN (-1) maps to the sentinel at the end
_INDEX = [-1] * 37
for _i, _c in enumerate(ALL_CARDS):
    _INDEX[_c] = _i


def action_codes() -> tuple[int, ...]:
    """Every War Machine action code, ascending."""
    codes = [deploy_action(c, orient, pos) for c in ALL_CARDS for orient in (0, 1) for pos in range(POSITIONS)]
    codes += (BURN + c for c in ALL_CARDS)
    codes += (DRAW_A + p for p in range(POSITIONS))
    codes += (TAKE1, TAKE2)
    codes += (TAKE1_CARD + c for c in ALL_CARDS)
    codes += (take2_action(a, b) for i, a in enumerate(ALL_CARDS) for b in ALL_CARDS[i + 1:])
    codes.append(SKIP)
    return tuple(sorted(codes))


class WarMachineEncoding(Encoding):
    """:class:`Encoding` of War Machine; ``match=best_of_3`` triples the game length."""

    observation_layout = OBSERVATION_LAYOUT

    def __init__(self, best_of_3: bool) -> None:
        super().__init__(RULESET.name, action_codes(), GAME_LENGTH * (3 if best_of_3 else 1), True)
        self.places = _PLACES[3 if best_of_3 else 1]
        self.information_state_layout = information_state_layout(self.places.games)

    def __reduce__(self) -> tuple[type[WarMachineEncoding], tuple[bool]]:
        # pickled (and deep-copied: environments are) as its match: a compiled class is made
        # only through its __init__
        return WarMachineEncoding, (self.places.games == 3,)

    def observation_tensor(self, view: View) -> array[float]:
        b = _board_view(view).board
        t = _front_template(b, _ZEROS_OBS)
        _observe(b, player_of(view), t)
        return t

    def observation_tensor_of(self, state: State, player: int) -> array[float]:
        # the same tensor as from ``state.view(player)`` without masking a copy of the board:
        # _observe reads the hidden lists only where the view shows them (tests compare)
        if not isinstance(state, WarMachineState) or player not in (0, 1):
            return super().observation_tensor_of(state, player)
        t = _front_template(state.board, _ZEROS_OBS)
        _observe(state.board, player, t)
        return t

    def live_observation(self, player: int) -> LiveWarMachine:
        return LiveWarMachine(self, player)

    def live_information_state(self, player: int) -> LiveWarMachine:
        return LiveWarMachine(self, player, information=True)

    def information_state_tensor(self, view: View) -> array[float]:
        v = _board_view(view)
        b = v.board
        me = player_of(view)
        t = _front_template(b, self.places.zeros)
        _observe(b, me, t)
        _remember(b, me, t, b.dealt[1 - me])
        _recall(t, self.places, Recall(), b, v.record(), v.drawn, me, True)
        return t

    def information_state_tensor_of(self, state: State, player: int) -> array[float]:
        # as observation_tensor_of; the other starting hand only where the view shows it
        if not isinstance(state, WarMachineState) or player not in (0, 1):
            return super().information_state_tensor_of(state, player)
        b = state.board
        t = _front_template(b, self.places.zeros)
        _observe(b, player, t)
        _remember(b, player, t, b.dealt[1 - player] if player == 1 - b.shuffler else ())
        _recall(t, self.places, Recall(), b, state.record(), state.drawn, player, True)
        return t

    def private_entries(self, options: Mapping[str, str] | None = None) -> tuple[slice, ...]:
        # my hand, the leftover cards the chooser saw, and my burns when burns are face down
        private = [slice(0, _CARDS_END, PLACES), slice(LEFTOVER, _CARDS_END, PLACES)]
        if not Opts.resolve(options).burn_face_up:
            private.append(slice(MY_BURNS, _CARDS_END, PLACES))
        return tuple(private)


def _remember(b: Board, me: int, t: array[float], theirs: Sequence[int]) -> None:
    """The ``dealt`` block: my starting hand, and ``theirs`` (what I know of their
    starting hand)."""
    for k, cards in enumerate((b.dealt[me], theirs)):
        for c in cards:
            if c != UNKNOWN:
                t[OBSERVATION_SIZE + _INDEX[c] * 2 + k] = 1.0


def _board_view(view: View) -> WarMachineView:
    if not isinstance(view, WarMachineView):
        raise TypeError(f"a War Machine encoding needs a War Machine view, not {type(view).__name__}")
    return view


def _mark(t: array[float], cards: list[int], place: int) -> None:
    for c in cards:
        if c != UNKNOWN:
            t[_INDEX[c] * PLACES + place] = 1.0


def _front_template(b: Board, zeros: array[float]) -> array[float]:
    """``zeros`` with what the war front fixes for a whole game set: the front's cards, each
    position's country and depicted type (cached per front: tensors start as a copy)."""
    key = (len(zeros), *b.front_country, *b.front_type)
    t = _TEMPLATES.get(key)
    if t is None:
        if len(_TEMPLATES) > 4096:  # bounded: a long-running server sees many fronts
            _TEMPLATES.clear()
        t = _TEMPLATES[key] = zeros[:]
        _mark(t, b.front_cards(), FRONT)
        for p in range(POSITIONS):
            row = _CARDS_END + p * POSITION_FEATURES
            t[row + b.front_country[p]] = 1.0
            if b.front_type[p] == WM:
                t[row + 6] = 1.0
    return t[:]


_TEMPLATES: dict[tuple[int, ...], array[float]] = {}


def _observe(b: Board, me: int, t: array[float]) -> None:
    """Fill the observation blocks of ``t`` (a :func:`_front_template`) from ``b``, a view's
    board or a full one: hidden lists are read only where the view shows them
    (``engine.mask``)."""
    you = 1 - me
    _mark(t, b.hands[me], 0)
    if b.phase == OVER:  # hands are shown for the scoring
        _mark(t, b.hands[you], THEIR_HAND)
    if b.burned_battle:
        _mark(t, b.burned_battle, BATTLE_BURNED)
    _mark(t, b.burned_by[me], MY_BURNS)
    if b.opts.burn_face_up:
        _mark(t, b.burned_by[you], THEIR_BURNS)
    if b.leftover and not b.opts.blind and me != b.shuffler:  # the chooser saw the leftover cards
        _mark(t, b.leftover, LEFTOVER)
    sides, status, strengths, colours, piles = b.sides, b.status, b.strength, b.colour, b.piles
    index = _INDEX
    for p in range(POSITIONS):
        row = _CARDS_END + p * POSITION_FEATURES
        side = sides[p]
        if side[me]:
            for x in side[me]:  # card * 2 + orientation
                t[index[x >> 1] * PLACES + MY_SIDE + (x & 1) * 6 + p] = 1.0
            t[row + 12] = strengths[p][me] / 16
        if side[you]:
            for x in side[you]:
                t[index[x >> 1] * PLACES + THEIR_SIDE + (x & 1) * 6 + p] = 1.0
            t[row + 13] = strengths[p][you] / 16
        _position_marks(t, row, me, status[p], colours[p], len(piles[p]))
    _write_globals(b, me, t)


def _position_marks(t: array[float], row: int, me: int, status: int, colour: list[int], pile: int) -> None:
    """A position's battle one-hot, each side's colour and its support pile, in its row
    ``row`` (entries 7-11, 14-27 and 28, zero before)."""
    if status < WON0:  # open or pending
        t[row + 7 + status] = 1.0
    elif status == NOWIN:
        t[row + 11] = 1.0
    else:
        t[row + (9 if status - WON0 == me else 10)] = 1.0
    you = 1 - me
    t[row + 14 + (colour[me] if colour[me] >= 0 else NUM_COUNTRIES)] = 1.0
    t[row + 21 + (colour[you] if colour[you] >= 0 else NUM_COUNTRIES)] = 1.0
    t[row + 28] = pile / 4


def _write_globals(b: Board, me: int, t: array[float]) -> None:
    """The global entries, all of them: those that moves change, then those fixed for a game."""
    _write_moving_globals(b, me, t)
    you = 1 - me
    wins = [0, 0]
    for _s0, _s1, w in b.results:
        if w >= 0:
            wins[w] += 1
    _GAME_GLOBALS.pack_into(
        t, (_POS_END + 9) * 4,
        b.shuffler == me, b.first == me, b.first >= 0, b.game_no / 3, wins[me] / 3, wins[you] / 3,
    )


def _write_moving_globals(b: Board, me: int, t: array[float]) -> None:
    """The global entries 0-8, which a move changes: the phase, whose turn, the draws left,
    the support left and the hands' sizes (9-14 stay as they are while a game is played)."""
    phase = b.phase
    _MOVING_GLOBALS.pack_into(
        t, _POS_END * 4,
        phase == 0, phase == 1, phase == 2, phase == 3,  # CHOOSE, PLAY, DRAW, OVER
        phase != OVER and b.to_move == me,
        b.draws_left / 2 if phase == DRAW else 0.0,
        b.support / 24,
        len(b.hands[me]) / 30,
        len(b.hands[1 - me]) / 30,
    )


_NO_CARDS: list[int] = []
_MOVING_GLOBALS = Struct("9f")
_GAME_GLOBALS = Struct(f"{GLOBALS - 9}f")
_ZERO_ROW = array("f", bytes(4 * (POSITION_FEATURES - 7)))  # a row's entries 7 on (0-6: the front's)
_ZERO_DEALT = array("f", bytes(4 * NUM_WM_CARDS * 2))


class LiveWarMachine(LiveObservation):
    """The observation (or information state) of a War Machine position, a full one or
    ``player``'s view, rewriting only the card places and positions that changed since the
    last update; a new front (a new game) starts from its template, and the 15 global
    entries are rewritten each time. Every list it reads is compared with a copy of what
    it wrote, so any position may follow any other."""

    __slots__ = ("colour", "dealt", "front", "game_no", "hand", "information", "piles", "places", "rare", "recall", "sides",
                 "status", "t", "zeros")

    def __init__(self, encoding: Encoding, player: int, information: bool = False) -> None:
        super().__init__(encoding, player)
        self.information = information
        self.places = encoding.places if isinstance(encoding, WarMachineEncoding) else _PLACES[1]
        self.zeros = self.places.zeros if information else _ZEROS_OBS
        self.t = self.zeros[:]
        self.recall = Recall()  # how much of the game's record the recall blocks show
        self.front: tuple[int, ...] = ()  # no front yet: the first update writes everything
        self.hand: list[int] = []
        self.rare: list[list[int]] = []  # the cards shown in each place of _RARE_PLACES
        self.sides: list[list[list[int]]] = []
        self.status: list[int] = []
        self.colour: list[list[int]] = []
        self.piles: list[int] = []  # the size of each support pile
        self.dealt: tuple[list[int], list[int]] = ([], [])
        self.game_no = -1  # the game of a match the tensor shows

    def update(self, state: State | View) -> array[float]:
        record: tuple[list[int], list[int]]
        if isinstance(state, WarMachineState):
            b = state.board
            view = False
            record, drawn = state.record(), state.drawn
        elif isinstance(state, WarMachineView):
            b = state.board
            view = True
            record, drawn = state.record(), state.drawn
        else:
            raise TypeError(f"a War Machine encoding needs a War Machine state or view, not {type(state).__name__}")
        t = self.t
        front = (*b.front_country, *b.front_type)
        if front != self.front:  # a new war front: its template, and nothing of the last game
            self.front = front
            t[:] = _front_template(b, self.zeros)
            self.recall = Recall()
            self.hand = []
            self.rare = [_NO_CARDS] * len(_RARE_PLACES)
            self.sides = [[_NO_CARDS, _NO_CARDS] for _ in range(POSITIONS)]
            self.status = [-1] * POSITIONS  # no status: every row is written
            self.colour = [[-2, -2] for _ in range(POSITIONS)]
            self.piles = [-1] * POSITIONS
            self.dealt = ([], [])
        self.game_no = b.game_no
        # the positions: cards, strengths, battles, colours, support piles
        sides, status, colour = b.sides, b.status, b.colour
        piles = list(map(len, b.piles))
        if sides != self.sides or status != self.status or colour != self.colour:
            old_sides, old_status, old_colour = self.sides, self.status, self.colour
            for p in range(POSITIONS):
                if sides[p] != old_sides[p] or status[p] != old_status[p] or colour[p] != old_colour[p]:
                    self._position(b, p, piles)
            self.status = status[:]
            self.colour = [c[:] for c in colour]
        t = self._rest(b, piles, view)
        if self.information:
            _recall(t, self.places, self.recall, b, record, drawn, self.player, False)
        return t

    def advance(self, state: State, actions: Sequence[Action]) -> array[float]:
        # a deployment changes its position, a draw its support pile, a burn the burned
        # cards; and each of them the hands and the global entries that moves change. A
        # battle fought (a status changed), a game's end or start: every part compared
        codes: Sequence[int] = actions  # type: ignore[assignment]  # War Machine's actions are ints
        touched = piles = 0
        burned = False
        for a in codes:
            if a < BURN:  # a deployment: card * 12 + orientation * 6 + position
                touched |= 1 << a % POSITIONS
            elif a < DRAW_A:
                burned = True
            elif a < TAKE1:
                piles |= 1 << (a - DRAW_A)
            elif a != SKIP:  # a take: a game's start
                return self.update(state)
        if not isinstance(state, WarMachineState):
            return self.update(state)
        b = state.board
        if b.status != self.status or b.game_no != self.game_no or b.phase == OVER:
            return self.update(state)
        t = self.t
        me = self.player
        pile_sizes = list(map(len, b.piles)) if touched else self.piles
        colour = b.colour
        while touched:
            low = touched & -touched
            touched ^= low
            p = low.bit_length() - 1
            self._position(b, p, pile_sizes)
            self.colour[p] = colour[p][:]
        while piles:
            low = piles & -piles
            piles ^= low
            p = low.bit_length() - 1
            size = self.piles[p] = len(b.piles[p])
            t[_CARDS_END + p * POSITION_FEATURES + 28] = size / 4
        self._hand(b)
        if burned:
            self._shown(b)
        _write_moving_globals(b, me, t)
        if self.information:
            _recall(t, self.places, self.recall, b, state.record(), state.drawn, me, True)
        return t

    def _position(self, b: Board, p: int, piles: list[int]) -> None:
        """Rewrite position ``p`` from ``b``: the forces on each side and the position's row
        (the copies of its sides and pile too; the caller keeps its status and colour)."""
        t = self.t
        me = self.player
        you = 1 - me
        side, old = b.sides[p], self.sides[p]
        if side[me] != old[me]:
            _move_forces(t, old[me], side[me], MY_SIDE + p)
        if side[you] != old[you]:
            _move_forces(t, old[you], side[you], THEIR_SIDE + p)
        self.sides[p] = [side[0][:], side[1][:]]
        row = _CARDS_END + p * POSITION_FEATURES
        t[row + 7:row + POSITION_FEATURES] = _ZERO_ROW
        strength = b.strength[p]
        if side[me]:
            t[row + 12] = strength[me] / 16
        if side[you]:
            t[row + 13] = strength[you] / 16
        _position_marks(t, row, me, b.status[p], b.colour[p], piles[p])
        self.piles[p] = piles[p]

    def _hand(self, b: Board) -> None:
        hand = b.hands[self.player]
        if hand != self.hand:
            _move(self.t, self.hand, hand, 0)
            self.hand = hand[:]

    def _shown(self, b: Board) -> None:
        """The places that change now and then: their hand when shown, the burned cards,
        the leftover cards the chooser saw (what _observe shows)."""
        me = self.player
        you = 1 - me
        rare = self.rare
        leftover = b.leftover
        theirs = b.hands[you] if b.phase == OVER else _NO_CARDS  # hands are shown for the scoring
        burned_theirs = b.burned_by[you] if b.opts.burn_face_up else _NO_CARDS
        seen = leftover if leftover and not b.opts.blind and me != b.shuffler else _NO_CARDS
        if (theirs != rare[0] or b.burned_battle != rare[1] or b.burned_by[me] != rare[2] or burned_theirs != rare[3]
                or seen != rare[4]):
            shown = (theirs, b.burned_battle, b.burned_by[me], burned_theirs, seen)
            for k, place in enumerate(_RARE_PLACES):
                if shown[k] != rare[k]:
                    _move(self.t, rare[k], shown[k], place)
            self.rare = [x[:] for x in shown]

    def _rest(self, b: Board, piles: list[int], view: bool) -> array[float]:
        """Everything but the positions' forces and rows: my hand, the places that change
        now and then, the support piles, the global entries and the starting hands."""
        t = self.t
        me = self.player
        you = 1 - me
        self._hand(b)
        self._shown(b)
        if piles != self.piles:
            for p in range(POSITIONS):
                if piles[p] != self.piles[p]:
                    t[_CARDS_END + p * POSITION_FEATURES + 28] = piles[p] / 4
            self.piles = piles
        _write_globals(b, me, t)
        if self.information:
            dealt = (b.dealt[me], b.dealt[you] if view or me == 1 - b.shuffler else _NO_CARDS)
            if dealt != self.dealt:
                t[OBSERVATION_SIZE:_DEALT_END] = _ZERO_DEALT
                _remember(b, me, t, dealt[1])
                self.dealt = (dealt[0][:], dealt[1][:])
        return t


# the places of LiveWarMachine.rare, in its order
_RARE_PLACES = (THEIR_HAND, BATTLE_BURNED, MY_BURNS, THEIR_BURNS, LEFTOVER)


def _move_forces(t: array[float], old: list[int], new: list[int], place: int) -> None:
    """A side whose forces (``card * 2 + orientation``) were ``old`` holds ``new`` now
    (``place``: the side's place for war machines up; infantry up is 6 places on)."""
    for x in old:
        t[_INDEX[x >> 1] * PLACES + place + (x & 1) * 6] = 0.0
    for x in new:
        t[_INDEX[x >> 1] * PLACES + place + (x & 1) * 6] = 1.0


def _move(t: array[float], old: list[int], new: list[int], place: int) -> None:
    """``place`` held the cards of ``old``; it holds those of ``new`` now."""
    for c in old:
        if c != UNKNOWN:
            t[_INDEX[c] * PLACES + place] = 0.0
    for c in new:
        if c != UNKNOWN:
            t[_INDEX[c] * PLACES + place] = 1.0


assert PENDING == 1  # the battle one-hot above relies on OPEN, PENDING = 0, 1
assert (CHOOSE, PLAY, DRAW, OVER) == (0, 1, 2, 3)  # the phase one-hot of _write_globals

class Recall:
    """How much of a game's record the recall blocks of a tensor show: the actions written
    (a copy, to tell a later position of the same match from another one), the draws
    passed in the record's list of draws, the game of the match and the opponent's draws
    in it."""

    __slots__ = ("drawn", "game", "hist", "results", "theirs")

    def __init__(self) -> None:
        self.hist: list[int] = []
        self.drawn = 0
        self.game = 0
        self.theirs = 0
        self.results = 0  # the match's finished games written


def _recall(t: array[float], places: _Places, r: Recall, b: Board, record: tuple[list[int], list[int]],
            drawn: array[int], me: int, continues: bool) -> None:
    """Bring the recall blocks of ``t`` (they show ``r``) up to the position of board ``b``
    whose record (actions, who made each) is ``record`` and whose draws are ``drawn``: the
    actions since ``r``, or all of them afresh in another match (a record that does not
    begin with ``r``'s; compared unless ``continues``). Of the opponent's actions only what
    ``me`` saw is written (:func:`~.notation.public_action_text`)."""
    hist, actors = record
    n = len(r.hist)
    end = len(hist)
    if end < n or not (continues or hist[:n] == r.hist):
        t[_DEALT_END:] = places.zeros_recall
        r.hist, r.drawn, r.game, r.theirs, r.results = [], 0, 0, 0, 0
        n = 0
    scale = places.scale
    if end > n:
        index = _INDEX
        # the game of the match: each take after the record's first action begins the next
        # one (a record may begin in the middle of a game: a position read from notation);
        # where its blocks begin
        game, theirs, j = r.game, r.theirs, r.drawn
        arrived, deployed, burned, draws = places.rows[game]
        for k in range(n, end):
            a = hist[k]
            mine = actors[k] == me
            if a < BURN:  # a deployment: card * 12 + orientation * 6 + position
                i = deployed + index[a // 12] * 2
                t[i] = (k + 1) / scale
                t[i + 1] = _WHERE[mine][a % 12]
            elif a < DRAW_A:
                # (a masked burn is "mine" only in a state sampled from the other's view)
                if (mine or b.opts.burn_face_up) and a != BURN_HIDDEN:
                    t[burned + index[a - BURN]] = (k + 1) / scale
            elif a < TAKE1:
                if mine:  # the card it brought: the draws are in the order of the record
                    while j < len(drawn) and drawn[j] >> 7 < k:
                        j += 1
                    if j < len(drawn) and drawn[j] >> 7 == k:
                        i = arrived + index[drawn[j] & 127] * 2
                        t[i] = (k + 1) / scale
                        t[i + 1] = (a - DRAW_A + 1) / 6
                else:
                    if theirs < SUPPORT:
                        t[draws + theirs * POSITIONS + a - DRAW_A] = 1.0
                    theirs += 1
            elif a != SKIP:  # a take: a game begins
                if k:
                    game = min(game + 1, places.games - 1)
                    arrived, deployed, burned, draws = places.rows[game]
                theirs = 0
                if mine and a >= TAKE1_CARD and a not in (TAKE1_HIDDEN, TAKE2_HIDDEN):
                    taken = [a - TAKE1_CARD] if a < TAKE2_CARDS else list(divmod(a - TAKE2_CARDS, 36))
                    for c in taken:
                        t[arrived + index[c] * 2] = (k + 1) / scale
        r.game, r.theirs, r.drawn = game, theirs, j
        r.hist += hist[n:end]
    results = b.results
    if places.results >= 0 and len(results) != r.results:
        r.results = len(results)
        you = 1 - me
        for g, (s0, s1, w) in enumerate(results[:places.games]):
            scores = (s0, s1)
            i = places.results + g * 4
            t[i] = scores[me] / 40
            t[i + 1] = scores[you] / 40
            t[i + 2] = float(w == me)
            t[i + 3] = float(w == you)
    t[places.actions] = end / scale


# a deployment's "where" entry, by the tensor player's side (mine: 0, theirs: 1... indexed by
# ``mine``, a bool: False first) and the code's orientation * 6 + position
_WHERE = (tuple((12 + x + 1) / 24 for x in range(12)), tuple((x + 1) / 24 for x in range(12)))


_encodings: dict[bool, WarMachineEncoding] = {}


def encoding(options: Mapping[str, str] | None = None) -> WarMachineEncoding:
    """The (shared) encoding of War Machine with ``options`` (unknown ones raise ``ValueError``)."""
    best_of_3 = Opts.resolve(options).best_of_3
    enc = _encodings.get(best_of_3)
    if enc is None:
        enc = _encodings[best_of_3] = WarMachineEncoding(best_of_3)
    return enc


__all__ = ["GAME_LENGTH", "INFORMATION_STATE_LAYOUT", "OBSERVATION_LAYOUT", "LiveWarMachine", "WarMachineEncoding",
           "action_codes", "encoding"]
