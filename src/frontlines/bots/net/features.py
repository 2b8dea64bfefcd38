"""What the flag network reads of a Battle Line family position: exact facts per flag,
a few global numbers, and where every card lies, all from one player's view.

Standard library only (the numbers are plain lists; :mod:`.model` turns them into numpy
arrays). Everything is read from what ``player`` knows: the table, their own hand, the
cards of the other hand they know (a Scout put them back), card counts. A full state
and any of the viewer's views give the same numbers (tests/bots/test_net.py checks it),
so the search may call this on its sampled deals.

Three blocks (sizes in :data:`FLAG_SIZE`, :data:`GLOBAL_SIZE`, :data:`NUM_LOCATIONS`):

* **per flag** (one row for each of the nine flags, the same layout for each, read by the
  network's shared flag tower): for my side and theirs, the cards there, the formation if
  complete, the best formation reachable from my hand alone, from my hand and the unseen
  troops, and for them from the troops unseen by me; how many unseen / hand troops still
  fit each formation shape (same colour in a run, same value, same colour, a run of
  values); exact comparisons between those (a flag surely won or lost, who completed
  first); Fog, Mud and the capacity; how many other flags want the same hand cards; where
  the flag lies and who holds its neighbours f±1, f±2;
* **global**: deck and hand sizes, free slots on each side, flags held and how far each
  player is from a breakthrough or an envelopment, whose turn it is, the tactics limit and
  the tactics cards in my hand;
* **card places**: for each of the 70 cards an index of where it lies for me (my hand, my
  side of flag f, their side of flag f, their hand as known, unseen, a discard pile),
  read by the network's correction head as a sum of learned rows (NNUE-style).

The per-side facts are remembered (bounded caches keyed by the side, the pools and the
card rules), so positions that share flags (a search's leaves, one position's
afterstates) cost little more than the look-ups.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable

from frontlines.games.battleline.cards import FOG, MUD, NUM_CARDS, NUM_TROOPS, TACTICS_MASK, TROOP_MASK
from frontlines.games.battleline.codes import NUM_FLAGS, OVER, PLAY
from frontlines.games.battleline.formations import CardRules, beating_completion, evaluate_mask
from frontlines.games.battleline.table import Table

FORMAT = 2  # bump when any block's meaning or layout changes (weights record it)

# --- the blocks' layouts (names for the docs and the weights' layout hash) ---------------
SCORE_SIZE = 8  # present, rank one-hot (fog sum, host .. wedge), sum / 30
MY_SIDE = (
    ("count", 5), ("complete", SCORE_SIZE), ("best_hand", SCORE_SIZE), ("best_hand_unseen", SCORE_SIZE),
    ("fit_hand", 4), ("fit_unseen", 4), ("wild", 1),
)
THEIR_SIDE = (("count", 5), ("complete", SCORE_SIZE), ("best_unseen", SCORE_SIZE), ("fit_unseen", 4), ("wild", 1))
PAIR = (
    ("both_complete_result", 2), ("sure_win", 1), ("sure_loss", 1), ("hand_vs_theirs", 3),
    ("reach_vs_theirs", 3), ("completed_first", 2), ("fog_mud_cap4", 3), ("contention", 1),
)
CONTEXT = (("centre_distance", 5), ("neighbours", 12))
GLOBAL = (
    ("decks", 2), ("hands", 4), ("flags", 2), ("distance", 2), ("free_slots", 2), ("turn", 3),
    ("tactics_rules", 1), ("tactics_played", 2), ("leader_used", 2), ("may_play_tactic", 2),
    ("hand_tactics", 10), ("unseen_tactics", 1), ("schotten", 1), ("hand_read", 1),
)


def _size(block: tuple[tuple[str, int], ...]) -> int:
    return sum(n for _, n in block)


MY_SIDE_SIZE = _size(MY_SIDE)
THEIR_SIDE_SIZE = _size(THEIR_SIDE)
PAIR_SIZE = _size(PAIR)
CONTEXT_SIZE = _size(CONTEXT)
FLAG_SIZE = MY_SIDE_SIZE + THEIR_SIDE_SIZE + PAIR_SIZE + CONTEXT_SIZE
GLOBAL_SIZE = _size(GLOBAL)

# card places: 0 my hand, 1..9 my side of flag 1..9 (Fog and Mud I played lie on my side),
# 10..18 their side, 19 their hand (known to me), 20 unseen, 21 out of play (discards,
# guile piles), 22 a deck place I know (a card I put back with Scout)
MY_HAND, MY_SIDE_AT, THEIR_SIDE_AT, THEIR_HAND, UNSEEN, OUT, KNOWN_DECK = 0, 1, 10, 19, 20, 21, 22
NUM_LOCATIONS = 23
NUM_PLACES = NUM_CARDS * NUM_LOCATIONS  # the correction head's one-hot width


def layout() -> str:
    """The layout's text, hashed into the weights' header: weights for another layout are refused."""
    blocks = (("my_side", MY_SIDE), ("their_side", THEIR_SIDE), ("pair", PAIR), ("context", CONTEXT), ("global", GLOBAL))
    text = ";".join(f"{name}:" + ",".join(f"{k}{n}" for k, n in block) for name, block in blocks)
    return f"{FORMAT}|{text}|places{NUM_CARDS}x{NUM_LOCATIONS}"


def _f32(numbers: Iterable[float]) -> bytes:
    """Numbers as float32 bytes, the machine's order: a position's flag rows are joined
    from such pieces, remembered per flag, and a batch reads them in one numpy call."""
    return array("f", numbers).tobytes()


# --- scores -------------------------------------------------------------------------------
_NO_SCORE = (0.0,) * SCORE_SIZE
_SCORE_CODES: dict[int, tuple[float, ...]] = {}


def _score(score: int) -> tuple[float, ...]:
    """A formation score (``rank << 6 | sum``; -1: none reachable) as numbers."""
    found = _SCORE_CODES.get(score)
    if found is None:
        if score < 0:
            found = _NO_SCORE
        else:
            rank = score >> 6
            onehot = [0.0] * 6
            onehot[rank] = 1.0
            found = (1.0, *onehot, (score & 63) / 30.0)
        _SCORE_CODES[score] = found
    return found


_COUNT = tuple(tuple(1.0 if i == n else 0.0 for i in range(5)) for n in range(5))


# --- what fits a side ------------------------------------------------------------------
_FITS: dict[tuple[int, int, int], tuple[int, int, int, int]] = {}
_COLOUR = tuple(((1 << 10) - 1) << (10 * c) for c in range(6))
_VALUE = tuple(sum(1 << (10 * c + v) for c in range(6)) for v in range(10))
_EVERY = {top: sum(_VALUE[v] for v in range(top)) for top in range(1, 11)}  # every troop of values 1..top


def _fits(side: int, cap: int, max_value: int) -> tuple[int, int, int, int]:
    """Masks of the troops that could still join ``side`` (its card mask) in each shape:
    a run in one colour, one value, one colour, a run of values (wild cards ignored)."""
    key = (side, cap, max_value)
    found = _FITS.get(key)
    if found is not None:
        return found
    troops = side & TROOP_MASK
    count = troops.bit_count()
    colours = 0
    values = 0
    while troops:
        low = troops & -troops
        troops ^= low
        c = low.bit_length() - 1
        colours |= 1 << (c // 10)
        values |= 1 << (c % 10)
    every = _EVERY[max_value]
    if not values:
        found = (every, every, every, every)
    else:
        lo = (values & -values).bit_length() - 1
        hi = values.bit_length() - 1
        window = 0
        if values.bit_count() == count and hi - lo < cap:  # distinct values within a run's span
            for v in range(max(0, hi - cap + 1), min(max_value, lo + cap)):
                if not values >> v & 1:
                    window |= _VALUE[v]
        colour = _COLOUR[colours.bit_length() - 1] & ~side if colours & (colours - 1) == 0 else 0
        same_value = _VALUE[lo] & ~side if values & (values - 1) == 0 else 0
        found = (window & colour & every, same_value & every, colour & every, window & every)
    if len(_FITS) > 1 << 16:
        _FITS.clear()
    _FITS[key] = found
    return found


def _fit_counts(fits: tuple[int, int, int, int], pool: int, top: int) -> tuple[float, float, float, float]:
    a, b, c, d = fits
    return (
        min(top, (a & pool).bit_count()) / top, min(top, (b & pool).bit_count()) / top,
        min(top, (c & pool).bit_count()) / top, min(top, (d & pool).bit_count()) / top,
    )


def _rules_code(rules: CardRules) -> int:
    """The card rules as 8 bits of a cache key (hashing the rules object is far slower)."""
    return rules.max_value << 4 | rules.cavalry_value


# --- per side, remembered ------------------------------------------------------------------
# my side: (numbers, complete score, best from hand, its hand cards, best from hand + unseen)
MySide = tuple[tuple[float, ...], int, int, int, int]
TheirSide = tuple[tuple[float, ...], int, int]
_MINE: dict[tuple[int, int, int], MySide] = {}
_THEIRS: dict[tuple[int, int], TheirSide] = {}
_CACHE_MAX = 1 << 17


_BEST: dict[tuple[int, int], tuple[int, int]] = {}


def _best(rules: CardRules, side: int, shape: int, cap: int, fog: bool, pool: int) -> tuple[int, int]:
    """The best formation ``side`` can complete from ``pool`` and the pool's cards it uses
    (``(-1, 0)``: none), remembered by itself: a search's leaves differ in the card drawn,
    which changes my hand and their pool but not my hand with the unseen troops."""
    key = (shape, pool)
    found = _BEST.get(key)
    if found is None:
        best = beating_completion(side, cap, fog, pool, -1, rules)
        found = (-1, 0) if best is None else best
        if len(_BEST) >= _CACHE_MAX:
            _BEST.clear()
        _BEST[key] = found
    return found


def _wild(side: int) -> float:
    return ((side & ~TROOP_MASK).bit_count()) / 2.0


def my_side(rules: CardRules, side: int, n: int, cap: int, fog: bool, hand: int, unseen: int) -> MySide:
    """The facts of my side (card mask ``side`` of ``n`` cards) with my ``hand`` troops and
    the ``unseen`` troops."""
    shape = (side << 4 | cap << 1 | fog) << 8 | _rules_code(rules)
    key = (shape, hand, unseen)
    found = _MINE.get(key)
    if found is not None:
        return found
    if n >= cap:
        complete = evaluate_mask(side, fog, rules) if n == cap else -2  # -2: over-full, judged by the caller
        best_hand = best_reach = complete
        used = 0
    else:
        complete = -1
        best_hand, used = _best(rules, side, shape, cap, fog, hand)
        best_reach = _best(rules, side, shape, cap, fog, hand | unseen)[0]
    fits = _fits(side, cap, rules.max_value)
    numbers = (
        *_COUNT[min(n, 4)], *_score(complete), *_score(best_hand), *_score(best_reach),
        *_fit_counts(fits, hand, 6), *_fit_counts(fits, unseen, 12), _wild(side),
    )
    found = (numbers, complete, best_hand, used, best_reach)
    if len(_MINE) >= _CACHE_MAX:
        _MINE.clear()
    _MINE[key] = found
    return found


def their_side(rules: CardRules, side: int, n: int, cap: int, fog: bool, pool: int) -> TheirSide:
    """The facts of the opponent's side with the troops they may still get (``pool``)."""
    shape = (side << 4 | cap << 1 | fog) << 8 | _rules_code(rules)
    key = (shape, pool)
    found = _THEIRS.get(key)
    if found is not None:
        return found
    if n >= cap:
        complete = evaluate_mask(side, fog, rules) if n == cap else -2
        best = complete
    else:
        complete = -1
        best = _best(rules, side, shape, cap, fog, pool)[0]
    fits = _fits(side, cap, rules.max_value)
    numbers = (*_COUNT[min(n, 4)], *_score(complete), *_score(best), *_fit_counts(fits, pool, 12), _wild(side))
    found = (numbers, complete, best)
    if len(_THEIRS) >= _CACHE_MAX:
        _THEIRS.clear()
    _THEIRS[key] = found
    return found


def _cmp(a: int, b: int) -> tuple[float, float, float]:
    if a < 0 or b < 0:
        return (0.0, 0.0, 0.0)
    return (1.0, 0.0, 0.0) if a > b else (0.0, 1.0, 0.0) if a == b else (0.0, 0.0, 1.0)


def _mask(cards: tuple[int, ...]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


_CENTRE = tuple(tuple(1.0 if i == abs(f - 4) else 0.0 for i in range(5)) for f in range(NUM_FLAGS))
_NEIGHBOUR = ((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))  # open, mine, theirs, off the line
_CONTEXT: dict[tuple[int, int, int], bytes] = {}


def _context(f: int, mine: int, theirs: int) -> bytes:
    """Where flag ``f`` lies and who holds f-2, f-1, f+1, f+2 (flag masks ``mine``, ``theirs``)."""
    key = (f, mine, theirs)
    found = _CONTEXT.get(key)
    if found is None:
        out = list(_CENTRE[f])
        for g in (f - 2, f - 1, f + 1, f + 2):
            code = 3 if not 0 <= g < NUM_FLAGS else 1 if mine >> g & 1 else 2 if theirs >> g & 1 else 0
            out.extend(_NEIGHBOUR[code])
        found = _f32(out)
        if len(_CONTEXT) > 1 << 16:
            _CONTEXT.clear()
        _CONTEXT[key] = found
    return found


def _distance(mine: int, theirs: int) -> int:
    """How many more flags ``mine`` (a flag mask) needs for a breakthrough or an envelopment,
    given the opponent holds ``theirs``."""
    best = 5 - mine.bit_count()
    for f in range(NUM_FLAGS - 2):
        triple = 7 << f
        if not theirs & triple:
            best = min(best, 3 - (mine & triple).bit_count())
    return max(0, best)


class Facts:
    """One position's numbers for the network, from ``player``'s view.

    ``flags``: 9 rows of :data:`FLAG_SIZE` float32 numbers as bytes (zeros for a claimed
    flag; :meth:`flag_numbers` reads them as a list); ``claimed``: per flag
    1 (mine), 0 (theirs) or -1 (open); ``glob``: :data:`GLOBAL_SIZE` numbers; ``places``:
    70 indices into the correction head's rows (``card * NUM_LOCATIONS + location``)."""

    __slots__ = ("claimed", "flags", "glob", "places")

    def __init__(self, flags: bytes, claimed: list[int], glob: list[float], places: list[int]) -> None:
        self.flags = flags
        self.claimed = claimed
        self.glob = glob
        self.places = places

    def flag_numbers(self) -> list[float]:
        """The nine flag rows one after the other, as numbers."""
        numbers = array("f")
        numbers.frombytes(self.flags)
        return numbers.tolist()


# One open flag's numbers but its contention count and context, and the hand cards its best
# completion from hand uses, by (both sides, the pools, completion order, Mud, rules)
FlagRow = tuple[bytes, int]
_ROWS: dict[tuple[int, int, int, int, int], FlagRow] = {}
_MASKS: dict[tuple[int, ...], int] = {}


def _side_mask(cards: tuple[int, ...]) -> int:
    m = _MASKS.get(cards)
    if m is None:
        m = 0
        for c in cards:
            m |= 1 << c
        if len(_MASKS) > 1 << 16:
            _MASKS.clear()
        _MASKS[cards] = m
    return m


def _flag_row(t: Table, f: int, me: int, hand: int, unseen: int, pool: int, cap: int, fog: bool) -> FlagRow:
    """The numbers of open flag ``f`` before its contention count and context (see ``_ROWS``)."""
    rules = t.rules
    mine_cards = t.sides[2 * f + me]
    theirs_cards = t.sides[2 * f + 1 - me]
    mine_mask = _side_mask(mine_cards)
    theirs_mask = _side_mask(theirs_cards)
    completed = t.completed
    both = len(mine_cards) >= cap and len(theirs_cards) >= cap
    first_mine = both and completed[2 * f + me] < completed[2 * f + 1 - me]
    mud = t.mud[f] >= 0
    shape = ((mine_mask << 4 | cap << 1 | fog) << 2 | first_mine << 1 | mud) << 8 | _rules_code(rules)
    key = (shape, theirs_mask, hand, unseen, pool)
    found = _ROWS.get(key)
    if found is not None:
        return found
    mine = my_side(rules, mine_mask, len(mine_cards), cap, fog, hand, unseen)
    theirs = their_side(rules, theirs_mask, len(theirs_cards), cap, fog, pool)
    if mine[1] == -2:  # over-full (Mud removed): its best cap cards
        score = evaluate_mask(_mask(t.side_cards(f, me)), fog, rules)
        mine = (mine[0], score, score, 0, score)
    if theirs[1] == -2:
        score = evaluate_mask(_mask(t.side_cards(f, 1 - me)), fog, rules)
        theirs = (theirs[0], score, score)
    m_complete, m_hand, m_reach = mine[1], mine[2], mine[4]
    t_complete, t_best = theirs[1], theirs[2]
    both = m_complete >= 0 and t_complete >= 0
    if both:
        won = m_complete > t_complete or (m_complete == t_complete and first_mine)
        result = (1.0, 0.0) if won else (0.0, 1.0)
    else:
        result = (0.0, 0.0)
    sure_win = m_complete >= 0 and t_complete < 0 and m_complete >= t_best
    sure_loss = t_complete >= 0 and m_complete < 0 and t_complete >= m_reach
    theirs_now = t_complete if t_complete >= 0 else t_best
    row = (
        *mine[0], *theirs[0], *result, 1.0 if sure_win else 0.0, 1.0 if sure_loss else 0.0,
        *_cmp(m_hand, theirs_now), *_cmp(m_reach, theirs_now),
        1.0 if first_mine else 0.0, 1.0 if both and not first_mine else 0.0,
        1.0 if fog else 0.0, 1.0 if mud else 0.0, 1.0 if cap >= 4 else 0.0,
    )
    found = (_f32(row), mine[3])
    if len(_ROWS) >= _CACHE_MAX:
        _ROWS.clear()
    _ROWS[key] = found
    return found


def facts(t: Table, player: int, opponent_hand: bool = False) -> Facts:
    """The network's inputs for ``t`` (a state or any view that shows ``player``'s hand) as
    ``player`` sees it. The game must not be over. With ``opponent_hand``, ``t`` is a full
    state (a search's sampled deal) whose opponent hand counts as known: its cards are
    where the opponent's known cards go, and no longer unseen (the ``hand_read`` input says
    which kind of position the network is given)."""
    me, opp = player, 1 - player
    variant = t.cfg.variant
    hand = t.hands[me]
    known = t.known[me]
    known_theirs = t.hands[opp] if opponent_hand else t.hands[opp] & known
    known_deck = 0
    if known & ~known_theirs:
        for c in t.tdeck + t.xdeck:
            if c >= 0 and known >> c & 1:
                known_deck |= 1 << c
    hand_troops = hand & TROOP_MASK
    unseen = t.troops_all & ~t.public & ~hand & ~known_theirs
    their_pool = unseen | (known_theirs & TROOP_MASK)
    sides = t.sides
    claimed_by = t.claimed
    mine_flags = theirs_flags = 0
    for f in range(NUM_FLAGS):
        owner = claimed_by[f]
        if owner == me:
            mine_flags |= 1 << f
        elif owner == opp:
            theirs_flags |= 1 << f
    rows: list[FlagRow | None] = [None] * NUM_FLAGS
    free_mine = free_theirs = 0
    base_caps, mud, fogs, effects = t.base_caps, t.mud, t.fog, t.effects
    for f in range(NUM_FLAGS):
        if claimed_by[f] >= 0:
            continue
        cap = base_caps[f] + (mud[f] >= 0)
        fog = fogs[f] >= 0 or effects[f].sum_only
        free_mine += max(0, cap - len(sides[2 * f + me]))
        free_theirs += max(0, cap - len(sides[2 * f + opp]))
        rows[f] = _flag_row(t, f, me, hand_troops, unseen, their_pool, cap, fog)
    flags: list[bytes] = []
    claimed = [-1] * NUM_FLAGS
    for f in range(NUM_FLAGS):
        row = rows[f]
        if row is None:
            claimed[f] = 1 if claimed_by[f] == me else 0
            flags.append(_ZERO_FLAG)
            continue
        flags.append(row[0])
        used = row[1]
        contention = 0
        if used:
            for g in range(NUM_FLAGS):
                other = rows[g]
                if g != f and other is not None and other[1] & used:
                    contention += 1
        flags.append(_CONTENTION[min(contention, 4)])
        flags.append(_context(f, mine_flags, theirs_flags))
    # --- global
    their_hand = t.hand_count(opp)
    their_tactics = t.hand_tactics(opp)
    hand_tactics = hand & TACTICS_MASK
    tactics = variant.tactics
    troops_dealt = variant.troop_mask.bit_count() - 2 * variant.hand_size
    to_move = t.current_player()
    # my turn before my card play / my turn after it (drawing, Scout) / theirs
    turn = ((1.0, 0.0, 0.0) if t.phase == PLAY else (0.0, 1.0, 0.0)) if to_move == me else (0.0, 0.0, 1.0)
    played = t.tactics_played
    tactics_hand = [0.0] * 10
    m = hand_tactics
    while m:
        low = m & -m
        m ^= low
        tactics_hand[low.bit_length() - 1 - NUM_TROOPS] = 1.0
    unseen_tactics = (TACTICS_MASK & ~t.public & ~hand & ~known_theirs).bit_count() if tactics else 0
    glob = [
        len(t.tdeck) / max(1, troops_dealt), len(t.xdeck) / 10.0,
        hand_troops.bit_count() / 7.0, hand_tactics.bit_count() / 4.0,
        (their_hand - their_tactics) / 7.0, their_tactics / 4.0,
        mine_flags.bit_count() / 5.0, theirs_flags.bit_count() / 5.0,
        _distance(mine_flags, theirs_flags) / 5.0, _distance(theirs_flags, mine_flags) / 5.0,
        free_mine / 27.0, free_theirs / 27.0,
        *turn,
        1.0 if tactics else 0.0,
        played[me] / 4.0, played[opp] / 4.0,
        float(t.leaders >> me & 1), float(t.leaders >> opp & 1),
        1.0 if tactics and played[me] <= played[opp] else 0.0,
        1.0 if tactics and played[opp] <= played[me] else 0.0,
        *tactics_hand,
        unseen_tactics / 10.0,
        1.0 if variant.schotten else 0.0,
        1.0 if opponent_hand else 0.0,
    ]
    return Facts(b"".join(flags), claimed, glob, places(t, me, hand, known_theirs, known_deck))


_ZERO_FLAG = _f32((0.0,) * FLAG_SIZE)
_CONTENTION = tuple(_f32((k / 4.0,)) for k in range(5))  # how many other flags want the same hand cards (4: 4 or more)


_BASE_PLACES: dict[int, list[int]] = {}


def places(t: Table, me: int, hand: int, known_theirs: int, known_deck: int) -> list[int]:
    """Each card's place for ``me`` as an index ``card * NUM_LOCATIONS + location``."""
    exists = t.troops_all | (TACTICS_MASK if t.cfg.variant.tactics else 0)
    base = _BASE_PLACES.get(exists)
    if base is None:  # every card unseen, or out of play where the ruleset has no such card
        base = _BASE_PLACES[exists] = [c * NUM_LOCATIONS + (UNSEEN if exists >> c & 1 else OUT) for c in range(NUM_CARDS)]
    out = base.copy()
    opp = 1 - me
    sides = t.sides
    for f in range(NUM_FLAGS):
        for c in sides[2 * f + me]:
            out[c] = c * NUM_LOCATIONS + MY_SIDE_AT + f
        for c in sides[2 * f + opp]:
            out[c] = c * NUM_LOCATIONS + THEIR_SIDE_AT + f
    if t.cfg.variant.tactics:
        for f in range(NUM_FLAGS):
            if t.fog[f] >= 0:
                out[FOG] = FOG * NUM_LOCATIONS + (MY_SIDE_AT if t.fog[f] == me else THEIR_SIDE_AT) + f
            if t.mud[f] >= 0:
                out[MUD] = MUD * NUM_LOCATIONS + (MY_SIDE_AT if t.mud[f] == me else THEIR_SIDE_AT) + f
        for pile in (*t.discards, *t.guile):
            for c in pile:
                out[c] = c * NUM_LOCATIONS + OUT
    else:
        for pile in t.discards:
            for c in pile:
                out[c] = c * NUM_LOCATIONS + OUT
    for where, mask in ((MY_HAND, hand), (THEIR_HAND, known_theirs), (KNOWN_DECK, known_deck)):
        while mask:
            low = mask & -mask
            mask ^= low
            c = low.bit_length() - 1
            out[c] = c * NUM_LOCATIONS + where
    return out


def over(t: Table) -> bool:
    return t.phase == OVER
