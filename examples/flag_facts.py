"""Exact per-flag facts of a Battle Line (basic game) position, read from the observation
tensor alone: what the recipe ``examples/beat_heuristic.py`` feeds its network.

The observation (docs/research.md, "Tensors") says where every card lies for the viewer:
my hand, my side and their side of each flag, and nothing for the cards the viewer has not
seen (the decks and the other hand). From that, each open flag's numbers are facts a
player would work out at the table, found exactly with the package's formation search
(``frontlines.games.battleline.formations``; bit masks of the card codes, colour * 10 +
value - 1):

* my side: how many cards (one-hot 0-3); its formation if complete; the best formation I
  can still make there from my hand alone, and from my hand and every troop I have not
  seen; how many troops of my hand and of the unseen ones still fit each shape (one colour
  in a run, one value, one colour, a run of values);
* their side: the same from the troops I have not seen (their hand is among them);
* the pair: the result if both are complete (a tie goes to who completed first), a flag
  surely won (my complete side beats all they can still make: I may claim it) or surely
  lost, my best from hand and my best reachable against theirs (better, equal, worse),
  who completed first, and how many other flags want the hand cards my best from hand
  uses;
* where the flag lies (distance from the centre) and who holds the flags one and two away;
* the position's numbers, the same on every row: cards in the troop deck, in my hand and
  in theirs, flags held by each and how far each is from three adjacent or five, free
  slots on each side.

A play (card, flag) changes only my hand and one side, so the facts of every *afterstate*
(the position right after a card is played, before the draw) are found from the decoded
position without the engine (:meth:`Position.after`). The per-side facts are cached,
bounded: the afterstates of one decision share most of them.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from frontlines.core.encoding import layout_offsets
from frontlines.games import encoding
from frontlines.games.battleline.formations import beating_completion, evaluate_mask

RULESET = "battleline-basic"
TROOPS, FLAGS, CAP = 60, 9, 3
ENC = encoding(RULESET)
_OFFSETS = layout_offsets(ENC.observation_layout)
_PLACES = ENC.observation_layout[0].shape[1]  # 21 places per card
_CARDS = _OFFSETS["cards"][0]
_FLAG_ROWS = _OFFSETS["flags"][0]
_ROW = ENC.observation_layout[1].shape[1]
_GLOBAL = _OFFSETS["global"][0]
ALL_TROOPS = (1 << TROOPS) - 1
_COLOUR = tuple(((1 << 10) - 1) << (10 * c) for c in range(6))
_VALUE = tuple(sum(1 << (10 * c + v) for c in range(6)) for v in range(10))

SCORE = 7  # present, rank one-hot (host .. wedge), sum / 30
MY_SIZE = 4 + 3 * SCORE + 4 + 4
THEIR_SIZE = 4 + 2 * SCORE + 4
PAIR_SIZE = 2 + 2 + 3 + 3 + 2 + 1
CONTEXT_SIZE = 5 + 12
FLAG_SIZE = MY_SIZE + THEIR_SIZE + PAIR_SIZE + CONTEXT_SIZE
GLOBAL_SIZE = 10
FEATURES = FLAG_SIZE + GLOBAL_SIZE

_NO_SCORE = (0.0,) * SCORE
_SCORES: dict[int, tuple[float, ...]] = {}
_COUNT = tuple(tuple(1.0 if i == n else 0.0 for i in range(4)) for n in range(4))


def _score(score: int) -> tuple[float, ...]:
    """A formation score (rank * 64 + sum; -1: none) as numbers."""
    found = _SCORES.get(score)
    if found is None:
        if score < 0:
            found = _NO_SCORE
        else:
            rank = [0.0] * 5
            rank[(score >> 6) - 1] = 1.0
            found = (1.0, *rank, (score & 63) / 30)
        _SCORES[score] = found
    return found


def _bounded(cache: dict[Any, Any], limit: int = 1 << 17) -> dict[Any, Any]:
    if len(cache) >= limit:
        cache.clear()
    return cache


_FITS: dict[int, tuple[int, int, int, int]] = {}


def fits(side: int) -> tuple[int, int, int, int]:
    """The troops that could still join ``side`` (a card mask) in each shape: one colour in a
    run, one value, one colour, a run of values."""
    found = _FITS.get(side)
    if found is not None:
        return found
    colours = values = 0
    m = side
    while m:
        low = m & -m
        m ^= low
        c, v = divmod(low.bit_length() - 1, 10)
        colours |= 1 << c
        values |= 1 << v
    if not side:
        found = (ALL_TROOPS,) * 4
    else:
        n = side.bit_count()
        lo, hi = (values & -values).bit_length() - 1, values.bit_length() - 1
        window = 0
        if values.bit_count() == n and hi - lo < CAP:
            for v in range(max(0, hi - CAP + 1), min(10, lo + CAP)):
                if not values >> v & 1:
                    window |= _VALUE[v]
        colour = _COLOUR[colours.bit_length() - 1] & ~side if colours & (colours - 1) == 0 else 0
        same = _VALUE[lo] & ~side if values & (values - 1) == 0 else 0
        found = (window & colour, same, colour, window)
    _bounded(_FITS)[side] = found
    return found


def _best(side: int, pool: int) -> tuple[int, int]:
    """The best score ``side`` can reach with troops of ``pool`` (-1: none), and the cards used."""
    if side.bit_count() >= CAP:
        return evaluate_mask(side, False), 0
    found = beating_completion(side, CAP, False, pool, -1)
    return (-1, 0) if found is None else found


MySide = tuple[tuple[float, ...], int, int, int, int]  # numbers, complete, best from hand, its cards, best reachable
_MINE: dict[tuple[int, int, int], MySide] = {}
_THEIRS: dict[tuple[int, int], tuple[tuple[float, ...], int, int]] = {}


def my_side(side: int, hand: int, unseen: int) -> MySide:
    key = (side, hand, unseen)
    found = _MINE.get(key)
    if found is not None:
        return found
    n = side.bit_count()
    complete = evaluate_mask(side, False) if n >= CAP else -1
    best_hand, used = _best(side, hand)
    best_reach = _best(side, hand | unseen)[0]
    shapes = fits(side)
    numbers = (*_COUNT[n], *_score(complete), *_score(best_hand), *_score(best_reach),
               *((m & hand).bit_count() / 6 for m in shapes), *(min(12, (m & unseen).bit_count()) / 12 for m in shapes))
    found = (numbers, complete, best_hand, used, best_reach)
    _bounded(_MINE)[key] = found
    return found


def their_side(side: int, unseen: int) -> tuple[tuple[float, ...], int, int]:
    key = (side, unseen)
    found = _THEIRS.get(key)
    if found is not None:
        return found
    n = side.bit_count()
    complete = evaluate_mask(side, False) if n >= CAP else -1
    best = _best(side, unseen)[0]
    numbers = (*_COUNT[n], *_score(complete), *_score(best),
               *(min(12, (m & unseen).bit_count()) / 12 for m in fits(side)))
    found = (numbers, complete, best)
    _bounded(_THEIRS)[key] = found
    return found


def _cmp(a: int, b: int) -> tuple[float, float, float]:
    if a < 0 or b < 0:
        return (0.0, 0.0, 0.0)
    return (1.0, 0.0, 0.0) if a > b else (0.0, 1.0, 0.0) if a == b else (0.0, 0.0, 1.0)


# one open flag's numbers but for its contention count, context and the position's numbers,
# by (my side, theirs, hand, unseen, who completed first): the numbers (float32), the hand
# cards my best from hand uses, and the flag's certain chance (1 surely won, 0 surely lost,
# NaN open)
FlagRow = tuple[np.ndarray, int, float]
_ROWS: dict[tuple[int, int, int, int, int], FlagRow] = {}
ROW_SIZE = MY_SIZE + THEIR_SIZE + PAIR_SIZE - 1  # the pair's contention count comes later


def flag_row(mine: int, theirs: int, hand: int, unseen: int, first: int) -> FlagRow:
    """``first``: 1 I completed first, -1 they did, 0 not both complete."""
    key = (mine, theirs, hand, unseen, first)
    found = _ROWS.get(key)
    if found is not None:
        return found
    m_numbers, m_complete, m_hand, used, m_reach = my_side(mine, hand, unseen)
    t_numbers, t_complete, t_best = their_side(theirs, unseen)
    if m_complete >= 0 and t_complete >= 0:
        won = m_complete > t_complete or (m_complete == t_complete and first > 0)
        result = (1.0, 0.0) if won else (0.0, 1.0)
    else:
        result = (0.0, 0.0)
    # complete first, a tie is mine: surely won when they cannot beat it, lost likewise
    sure_win = m_complete >= 0 and t_complete < 0 and t_best <= m_complete
    sure_loss = t_complete >= 0 and m_complete < 0 and m_reach <= t_complete
    theirs_now = t_complete if t_complete >= 0 else t_best
    numbers = np.array((*m_numbers, *t_numbers, *result, float(sure_win), float(sure_loss),
                        *_cmp(m_hand, theirs_now), *_cmp(m_reach, theirs_now), float(first > 0), float(first < 0)),
                       np.float32)
    fixed = 1.0 if sure_win or result[0] > 0 else 0.0 if sure_loss or result[1] > 0 else math.nan
    found = (numbers, used, fixed)
    _bounded(_ROWS)[key] = found
    return found


_CENTRE = tuple(tuple(1.0 if i == abs(f - 4) else 0.0 for i in range(5)) for f in range(FLAGS))
_NEIGHBOUR = ((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))  # open, mine, theirs, off the line


def context(f: int, mine: int, theirs: int) -> tuple[float, ...]:
    """Where flag ``f`` lies (its distance from the centre) and who holds the flags one and
    two away (flag masks ``mine``, ``theirs``)."""
    out = list(_CENTRE[f])
    for g in (f - 2, f - 1, f + 1, f + 2):
        out.extend(_NEIGHBOUR[3 if not 0 <= g < FLAGS else 1 if mine >> g & 1 else 2 if theirs >> g & 1 else 0])
    return tuple(out)


def distance(mine: int, theirs: int) -> int:
    """How many more flags ``mine`` needs for three adjacent or five, ``theirs`` held against it."""
    best = 5 - mine.bit_count()
    for f in range(FLAGS - 2):
        triple = 7 << f
        if not theirs & triple:
            best = min(best, 3 - (mine & triple).bit_count())
    return max(0, best)


_NO_ROW = np.zeros(ROW_SIZE, np.float32)


class Position:
    """A position decoded from one observation: card masks and the flags' state."""

    __slots__ = ("deck", "first", "hand", "held_mine", "held_theirs", "mine", "their_hand", "theirs", "unseen")

    def __init__(self, x: np.ndarray) -> None:
        nz = np.flatnonzero(x[_CARDS:_CARDS + TROOPS * _PLACES]).tolist()
        hand = 0
        mine = [0] * FLAGS
        theirs = [0] * FLAGS
        seen = 0
        for i in nz:
            card, place = divmod(i, _PLACES)
            bit = 1 << card
            seen |= bit
            if place == 0:
                hand |= bit
            elif place <= FLAGS:
                mine[place - 1] |= bit
            elif place <= 2 * FLAGS:
                theirs[place - 1 - FLAGS] |= bit
        rows = x[_FLAG_ROWS:_FLAG_ROWS + FLAGS * _ROW].reshape(FLAGS, _ROW)
        claimed = rows[:, :2].tolist()
        order = rows[:, 4:8].tolist()  # my side complete, theirs, mine first, theirs first
        self.hand, self.mine, self.theirs = hand, mine, theirs
        self.unseen = ALL_TROOPS & ~seen
        self.held_mine = sum(1 << f for f in range(FLAGS) if claimed[f][0])
        self.held_theirs = sum(1 << f for f in range(FLAGS) if claimed[f][1])
        self.first = [1 if o[2] or (o[0] and not o[1]) else -1 if o[3] or (o[1] and not o[0]) else 0 for o in order]
        g = x[_GLOBAL:_GLOBAL + 12].tolist()
        self.deck = round(g[7] * 60)
        self.their_hand = round(g[10] * 9)

    def afterstates(self, plays: list[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray]:
        """The facts of each afterstate (K x 9 x FEATURES) after I play each ``(card, flag)``
        of ``plays``, and each flag's certain chance (K x 9: 1 held by me or surely won, 0
        held by them or surely lost, NaN open). Held flags have all-zero facts."""
        held_mine, held_theirs, unseen = self.held_mine, self.held_theirs, self.unseen
        held = held_mine | held_theirs
        open_flags = [f for f in range(FLAGS) if not held >> f & 1]
        mine, theirs, first = self.mine, self.theirs, self.first
        # what every afterstate shares: the flags' places and who holds what; my hand one
        # card smaller and one slot fewer on my side
        hand_size = self.hand.bit_count() - 1
        free_mine = sum(CAP - mine[f].bit_count() for f in open_flags) - 1
        free_theirs = sum(CAP - theirs[f].bit_count() for f in open_flags)
        shared = np.array([(*context(f, held_mine, held_theirs),
                            self.deck / 46, hand_size / 7, self.their_hand / 7, held_mine.bit_count() / 5,
                            held_theirs.bit_count() / 5, distance(held_mine, held_theirs) / 5,
                            distance(held_theirs, held_mine) / 5, free_mine / 27, free_theirs / 27, 1.0)
                           for f in range(FLAGS)], np.float32)  # 9 x (17 + 10)
        # the distinct flag rows: index 0 is a held flag's (zeros)
        table: list[FlagRow] = [(_NO_ROW, 0, math.nan)]
        index: dict[tuple[int, int, int], int] = {}  # (flag, card, played there) -> row
        chosen = np.zeros((len(plays), FLAGS), np.intp)
        for k, (card, flag) in enumerate(plays):
            bit = 1 << card
            hand = self.hand & ~bit
            row_ids = chosen[k]
            for f in open_flags:
                here = f == flag
                key = (f, card, here)
                i = index.get(key)
                if i is None:
                    if here:
                        side = mine[f] | bit
                        done = first[f]
                        if side.bit_count() == CAP and done == 0:
                            done = -1 if theirs[f].bit_count() == CAP else 1
                        row = flag_row(side, theirs[f], hand, unseen, done)
                    else:
                        row = flag_row(mine[f], theirs[f], hand, unseen, first[f])
                    i = index[key] = len(table)
                    table.append(row)
                row_ids[f] = i
        numbers = np.stack([r[0] for r in table])[chosen]  # K x 9 x ROW_SIZE
        used = np.array([r[1] for r in table], np.int64)[chosen]  # K x 9
        fixed = np.array([r[2] for r in table])[chosen]
        for f in range(FLAGS):
            if held >> f & 1:
                fixed[:, f] = 1.0 if held_mine >> f & 1 else 0.0
        # contention: how many other flags' best from hand want the same hand cards
        overlap = (used[:, :, None] & used[:, None, :]) != 0
        contention = np.minimum(overlap.sum(2) - (used != 0), 4) / 4
        facts = np.empty((len(plays), FLAGS, FEATURES), np.float32)
        facts[:, :, :ROW_SIZE] = numbers
        facts[:, :, ROW_SIZE] = contention
        facts[:, :, ROW_SIZE + 1:] = shared
        if held:
            facts[:, [f for f in range(FLAGS) if held >> f & 1]] = 0.0
        return facts, fixed

    def outcome_labels(self) -> np.ndarray:
        """Who won each flag, as seen at the end of a game: 1 me, 0 them (claimed, or both sides
        complete and compared), -1 not decided."""
        labels = np.full(FLAGS, -1.0, np.float32)
        for f in range(FLAGS):
            if self.held_mine >> f & 1:
                labels[f] = 1.0
            elif self.held_theirs >> f & 1:
                labels[f] = 0.0
            elif self.mine[f].bit_count() == CAP and self.theirs[f].bit_count() == CAP:
                a, b = evaluate_mask(self.mine[f], False), evaluate_mask(self.theirs[f], False)
                labels[f] = 1.0 if a > b or (a == b and self.first[f] > 0) else 0.0
        return labels
