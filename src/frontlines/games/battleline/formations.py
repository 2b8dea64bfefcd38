"""Formation strength for the Battle Line family, and the best completion of a side.

A *score* is one ``int`` that orders formations: ``rank * 64 + sum`` for ranks 1..5
(host .. wedge), and the plain ``sum`` (rank 0) under Fog, where formations are ignored.
Sums never reach 64 (four cards of 10 make 40), so larger score == stronger side, and the
rank and sum can be read back with :func:`rank_of` and :func:`sum_of`.

Wild (morale) cards take their best assignment: a Leader (AL, DA) any colour and value
1..max_value, Companion Cavalry (CC) any colour at ``cavalry_value``, Shield Bearers (SB)
any colour at 1..3. A wild may duplicate a card that exists elsewhere (docs/rules.md §2.10).

How it is fast: everything works on bitmasks. Per colour, the unseen troop values are a
10-bit mask; run-shaped formations (wedge, skirmish) are answered by two table lookups
("which run starts fit in these values", "which run starts contain these values");
battalion and host take the top-k values from a table or a short scan. The best
completion is found by trying the ranks from wedge downwards and stopping at the first
rank that can be reached, so no k-subset of the unseen cards is ever enumerated.
Complete sides are cached by their card mask.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from frontlines.games.battleline.cards import ALEXANDER, COMPANION_CAVALRY, DARIUS, NUM_COLOURS, SHIELD_BEARERS

__all__ = [
    "BATTLELINE_CARDS",
    "RANK_NAMES",
    "SCHOTTEN_CARDS",
    "CardRules",
    "beating_completion",
    "best_completion",
    "evaluate",
    "evaluate_mask",
    "formation_name",
    "make_score",
    "rank_of",
    "sum_of",
]

RANK_NAMES = {5: "wedge", 4: "phalanx", 3: "battalion", 2: "skirmish", 1: "host"}
FOG_NAME = "fog sum"  # rank 0: formations ignored, sums compared
WEDGE, PHALANX, BATTALION, SKIRMISH, HOST = 5, 4, 3, 2, 1

_RANK_SHIFT = 6  # score = rank << 6 | sum
_SUM_MASK = (1 << _RANK_SHIFT) - 1
_VALUE_BITS = 10  # each colour occupies 10 card codes whatever the ruleset
_TEN = (1 << _VALUE_BITS) - 1
# the lowest and highest scores of each rank, for the search's early exits
_WEDGE_BASE, _PHALANX_BASE, _BATTALION_BASE, _SKIRMISH_BASE = (r << _RANK_SHIFT for r in (5, 4, 3, 2))
_WEDGE_TOP, _PHALANX_TOP, _BATTALION_TOP, _SKIRMISH_TOP = (r << _RANK_SHIFT | _SUM_MASK for r in (5, 4, 3, 2))
_TROOPS_60 = (1 << 60) - 1
_BIT = tuple(1 << c for c in range(70))

# Side summary tuple, cached per side mask (see _Tables.side_info):
# (cards, colour or -1 (none) or -2 (mixed), value bits, troops repeat a value,
#  troop sum, leaders, has CC, has SB, wild maximum sum, value-bit options for runs)
_SideInfo = tuple[int, int, int, bool, int, int, bool, bool, int, tuple[int, ...]]


def make_score(rank: int, total: int) -> int:
    """The score of a formation of ``rank`` (0 under Fog) and card sum ``total``."""
    return rank << _RANK_SHIFT | total


def rank_of(score: int) -> int:
    """5 wedge .. 1 host; 0 means Fog (sum only)."""
    return score >> _RANK_SHIFT


def sum_of(score: int) -> int:
    return score & _SUM_MASK


def formation_name(score: int) -> str:
    return RANK_NAMES.get(score >> _RANK_SHIFT, FOG_NAME)


# Entries each cache holds before it is emptied (it refills with what is used next), per
# set of card rules: side summaries (side_cache, about 250 bytes an entry), and complete
# sides' scores with and without Fog (eval_plain, eval_fog, about 65 bytes an entry each).
# Sized by benchmarks/bench_eval_caches.py on a server's work (160 heuristic games in four
# rulesets, 2 ISMCTS games, 20,000 claim proofs): the work touched 5,559 side summaries and
# 20,170 scores in all; hit rates 99.62 / 99.70 / 99.70 % (sides) and 81.7 / 88.1 / 88.9 /
# 88.9 % (scores) at limits 4,096 / 16,384 / 65,536 / 2^20, the work's CPU time the same
# within the noise. At these limits the caches of one set of card rules hold at most about
# 4 MB of sides and 2 x 4 MB of scores; at the former 2^19 and 2^20 a long-running server's
# could grow to about 130 MB and 2 x 45 MB (677,040 complete sides of 3 or 4 cards) first.
SIDE_CACHE_LIMIT = 1 << 14
EVAL_CACHE_LIMIT = 1 << 16


class _Tables:
    """Lookup tables and caches for one (max_value, cavalry_value) pair."""

    def __init__(self, max_value: int, cavalry_value: int) -> None:
        self.max_value = max_value
        self.cavalry_value = cavalry_value
        # every troop card of the ruleset (ST has no value 10)
        self.troop_mask = sum(1 << (c * 10 + v) for c in range(NUM_COLOURS) for v in range(max_value))
        # value_mask[x]: the six cards of value x
        self.value_mask = [0] + [sum(1 << (c * 10 + x - 1) for c in range(NUM_COLOURS)) for x in range(1, 11)]
        # top_k[k][values]: sum of the k highest values in a 10-bit value mask, -1 if fewer
        # than k; built by peeling off the highest value: top_k[k][m] = hv + top_k[k-1][m - hv]
        size = 1 << _VALUE_BITS
        self.top_k: list[list[int]] = [[0] * size]
        for _k in range(1, max_value + 1):
            prev = self.top_k[-1]
            row = [-1] * size
            for m in range(1, size):
                high = m.bit_length()
                rest = prev[m ^ (1 << (high - 1))]
                if rest >= 0:
                    row[m] = high + rest
            self.top_k.append(row)
        self._runs: dict[tuple[int, int], list[int]] = {}
        self._contains: dict[int, list[int]] = {}
        # (n << 3 | leaders) -> (runs, contains) for the hot path: one dict look-up
        self.run_pair: dict[int, tuple[list[int], list[int]]] = {}
        self.side_cache: dict[int, _SideInfo] = {}
        self.eval_plain: dict[int, int] = {}
        self.eval_fog: dict[int, int] = {}

    def runs(self, n: int, leaders: int) -> list[int]:
        """[values] -> run starts (bit v-1 for start v) missing at most ``leaders`` values."""
        key = (n, leaders)
        table = self._runs.get(key)
        if table is None:
            table = self._runs[key] = self._run_starts(n, lambda run, m: (run & ~m).bit_count() <= leaders)
        return table

    def contains(self, n: int) -> list[int]:
        """[values] -> run starts whose run holds all of ``values`` (within max_value)."""
        table = self._contains.get(n)
        if table is None:
            table = self._contains[n] = self._run_starts(n, lambda run, m: m & ~run == 0)
        return table

    def _run_starts(self, n: int, fits: Callable[[int, int], bool]) -> list[int]:
        """[values] -> the starts (bit v-1 for start v) of the runs of ``n`` values within
        max_value (as value masks) that ``fits(run, values)``."""
        starts = [(v, ((1 << n) - 1) << (v - 1)) for v in range(1, self.max_value - n + 2)]
        table = [0] * (1 << _VALUE_BITS)
        for m in range(1 << _VALUE_BITS):
            acc = 0
            for v, run in starts:
                if fits(run, m):
                    acc |= 1 << (v - 1)
            table[m] = acc
        return table

    def run_tables(self, n: int, leaders: int) -> tuple[list[int], list[int]]:
        pair = self.run_pair.get(n << 3 | leaders)
        if pair is None:
            pair = self.run_pair[n << 3 | leaders] = (self.runs(n, leaders), self.contains(n))
        return pair

    def side_info(self, side: int) -> _SideInfo:
        info = self.side_cache.get(side)
        if info is None:
            info = self._summarise(side)
            if len(self.side_cache) >= SIDE_CACHE_LIMIT:  # bounded memory; refills lazily
                self.side_cache.clear()
            self.side_cache[side] = info
        return info

    def _summarise(self, side: int) -> _SideInfo:
        if side >> 64 or side < 0:  # bits 60..63 are the morale cards; 64..69 never stand in a side
            raise ValueError("a formation holds troop and morale cards only")
        if side & _TROOPS_60 & ~self.troop_mask:
            raise ValueError(f"card value above {self.max_value} in this ruleset")
        colours = -1
        values = 0
        dup = False
        total = 0
        troops = side & _TROOPS_60
        ntroops = 0
        while troops:
            low = troops & -troops
            troops ^= low
            card = low.bit_length() - 1
            colour, vbit = divmod(card, 10)
            if colours == -1:
                colours = colour
            elif colours != colour:
                colours = -2
            dup = dup or bool(values >> vbit & 1)
            values |= 1 << vbit
            total += vbit + 1
            ntroops += 1
        leaders = (side >> ALEXANDER & 1) + (side >> DARIUS & 1)
        cc = bool(side >> COMPANION_CAVALRY & 1)
        sb = bool(side >> SHIELD_BEARERS & 1)
        wild_max = leaders * self.max_value + cc * self.cavalry_value + sb * 3
        # value masks the run formations may need to contain once CC and SB are placed
        options: tuple[int, ...] = ()
        if not dup:
            base = values
            ok = True
            if cc:
                cav = 1 << (self.cavalry_value - 1)
                ok = not base & cav
                base |= cav
            if ok:
                options = tuple(base | b for b in (4, 2, 1) if not base & b) if sb else (base,)
        ncards = ntroops + leaders + cc + sb
        return (ncards, colours, values, dup, total, leaders, cc, sb, wild_max, options)


_TABLES: dict[tuple[int, int], _Tables] = {}


def _tables_for(max_value: int, cavalry_value: int) -> _Tables:
    key = (max_value, cavalry_value)
    t = _TABLES.get(key)
    if t is None:
        t = _TABLES[key] = _Tables(max_value, cavalry_value)
    return t


@dataclass(frozen=True)
class CardRules:
    """The card values of a ruleset: troops 1..max_value, Cavalry/Spy at cavalry_value."""

    max_value: int
    cavalry_value: int
    _t: _Tables = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not 3 <= self.max_value <= 10 or not 1 <= self.cavalry_value <= self.max_value:
            raise ValueError("max_value must be 3..10 and cavalry_value 1..max_value")
        object.__setattr__(self, "_t", _tables_for(self.max_value, self.cavalry_value))

    def __reduce__(self) -> tuple[type[CardRules], tuple[int, int]]:
        # pickle/deepcopy carry the two numbers, never the shared tables and caches
        return (CardRules, (self.max_value, self.cavalry_value))

    @property
    def troop_mask(self) -> int:
        """Bitmask of every troop card of the ruleset's deck."""
        return self._t.troop_mask


BATTLELINE_CARDS = CardRules(max_value=10, cavalry_value=8)
SCHOTTEN_CARDS = CardRules(max_value=9, cavalry_value=7)


def _cards(mask: int) -> tuple[int, ...]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


def _drop_low(mask: int, count: int) -> int:
    """``mask`` without its ``count`` lowest bits."""
    for _ in range(count):
        mask &= mask - 1
    return mask


def _search(t: _Tables, side: int, n: int, fog: bool, avail: int, floor: int) -> tuple[int, int] | None:
    """Best (score, added cards mask) for ``side`` completed to ``n`` cards from ``avail``.

    Only answers scores above ``floor``: returns None when no completion beats it (or
    when there are too few cards to complete at all). Ranks are tried from wedge down;
    the first reachable rank holds the best score, since any completion meeting a rank's
    shape scores at least that rank.
    """
    info = t.side_cache.get(side)
    if info is None:
        info = t.side_info(side)
    ncards, colour, values, _dup, tsum, leaders, cc, sb, wild_max, run_opts = info
    k = n - ncards
    if k < 0:
        raise ValueError(f"{ncards} cards cannot fit a side of {n}")
    if k:
        avail &= t.troop_mask & ~side
        if avail.bit_count() < k:
            return None
    else:
        avail = 0
    if fog:
        return _host(t, tsum + wild_max, k, avail, floor, 0)

    # --- wedge: one colour, consecutive values
    if floor < _WEDGE_TOP and run_opts and colour != -2:
        pair = t.run_pair.get(n << 3 | leaders) or t.run_tables(n, leaders)
        runs, contains = pair
        best_v = 0
        best = (0, 0, 0)
        for c in (colour,) if colour >= 0 else range(NUM_COLOURS):
            a = avail >> (c * 10) & _TEN
            for opt in run_opts:
                starts = runs[opt | a] & contains[opt]
                if starts:
                    v = starts.bit_length()
                    if v > best_v:
                        best_v = v
                        best = (c, opt, a)
        if best_v:
            score = _WEDGE_BASE | (n * best_v + n * (n - 1) // 2)
            if score <= floor:
                return None
            c, opt, a = best
            pick = _run_values(n, best_v, opt, a, leaders)
            added = 0
            while pick:
                low = pick & -pick
                pick ^= low
                added |= low << (c * 10)
            return score, added
    if floor >= _PHALANX_TOP:
        return None

    # --- phalanx: one value
    if values & (values - 1) == 0:
        if values:
            xs: Sequence[int] = (values.bit_length(),)
        elif cc:
            xs = (t.cavalry_value,)
        else:
            xs = range(3 if sb else t.max_value, 0, -1)
        for x in xs:
            if (cc and x != t.cavalry_value) or (sb and x > 3):
                continue
            same = avail & t.value_mask[x]
            if same.bit_count() >= k:
                score = _PHALANX_BASE | n * x
                if score <= floor:
                    return None
                added = 0
                for _ in range(k):
                    low = same & -same
                    same ^= low
                    added |= low
                return score, added
            if values:
                break
    if floor >= _BATTALION_TOP:
        return None

    # --- battalion: one colour
    if colour != -2:
        top = t.top_k[k]
        best_sum = -1
        best_c = 0
        for c in (colour,) if colour >= 0 else range(NUM_COLOURS):
            s = top[avail >> (c * 10) & _TEN]
            if s > best_sum:
                best_sum = s
                best_c = c
        if best_sum >= 0:
            score = _BATTALION_BASE | (tsum + wild_max + best_sum)
            if score <= floor:
                return None
            a = avail >> (best_c * 10) & _TEN
            added = 0
            for _ in range(k):
                high = 1 << (a.bit_length() - 1)
                a ^= high
                added |= high << (best_c * 10)
            return score, added
    if floor >= _SKIRMISH_TOP:
        return None

    # --- skirmish: consecutive values, any colours
    if run_opts:
        a = avail
        if k:
            a = (avail | avail >> 10 | avail >> 20 | avail >> 30 | avail >> 40 | avail >> 50) & _TEN
        pair = t.run_pair.get(n << 3 | leaders) or t.run_tables(n, leaders)
        runs, contains = pair
        best_v = 0
        best_opt = 0
        for opt in run_opts:
            starts = runs[opt | a] & contains[opt]
            if starts:
                v = starts.bit_length()
                if v > best_v:
                    best_v = v
                    best_opt = opt
        if best_v:
            score = _SKIRMISH_BASE | (n * best_v + n * (n - 1) // 2)
            if score <= floor:
                return None
            pick = _run_values(n, best_v, best_opt, a, leaders)
            added = 0
            while pick:
                low = pick & -pick
                pick ^= low
                same = avail & t.value_mask[low.bit_length()]
                added |= same & -same
            return score, added

    return _host(t, tsum + wild_max, k, avail, floor, HOST)


def _run_values(n: int, start: int, fixed: int, avail_values: int, leaders: int) -> int:
    """Values (bit v-1) the added troops take in the run from ``start``; leaders fill the gaps."""
    need = (((1 << n) - 1) << (start - 1)) & ~fixed
    gaps = need & ~avail_values  # no card left for these: leaders take them
    rest = need & avail_values
    return _drop_low(rest, leaders - gaps.bit_count())


def _host(t: _Tables, base: int, k: int, avail: int, floor: int, rank: int) -> tuple[int, int] | None:
    """Highest-sum completion (host, or any formation under Fog)."""
    total = base
    added = 0
    need = k
    x = t.max_value
    while need:
        same = avail & t.value_mask[x]
        while same and need:
            low = same & -same
            same ^= low
            added |= low
            total += x
            need -= 1
        x -= 1
    score = rank << _RANK_SHIFT | total
    if score <= floor:
        return None
    return score, added


def evaluate(cards: Sequence[int], fog: bool, rules: CardRules = BATTLELINE_CARDS) -> int:
    """Score of a complete side (all of ``cards``), wilds at their best assignment."""
    mask = 0
    for c in cards:
        mask |= _BIT[c]
    if mask.bit_count() != len(cards):
        raise ValueError(f"repeated card in {list(cards)}")
    t = rules._t
    score = (t.eval_fog if fog else t.eval_plain).get(mask)
    if score is None:
        score = _score_new(t, mask, len(cards), fog)
    return score


def evaluate_mask(side_mask: int, fog: bool, rules: CardRules = BATTLELINE_CARDS) -> int:
    """:func:`evaluate` for a side given as a card bitmask."""
    t = rules._t
    score = (t.eval_fog if fog else t.eval_plain).get(side_mask)
    if score is None:
        score = _score_new(t, side_mask, side_mask.bit_count(), fog)
    return score


def _score_new(t: _Tables, mask: int, n: int, fog: bool) -> int:
    """Score a complete side not in the cache yet, and cache it."""
    if n >= 2 and not mask & ~t.troop_mask:
        score = _troops_score(mask, n, fog)
    else:
        found = _search(t, mask, n, fog, 0, -1)
        if found is None:  # cannot happen: with nothing to add the side is its own completion
            raise AssertionError("no score for a complete side")
        score = found[0]
    cache = t.eval_fog if fog else t.eval_plain
    if len(cache) >= EVAL_CACHE_LIMIT:  # bounded memory; refills lazily
        cache.clear()
    cache[mask] = score
    return score


def _troops_score(mask: int, n: int, fog: bool) -> int:
    """The score of ``n`` >= 2 distinct troop cards (no wilds): what ``_search`` finds with
    nothing to add, read off the colours and values directly."""
    colours = 0
    values = 0
    total = 0
    dup = False
    while mask:
        low = mask & -mask
        mask ^= low
        colour, vbit = divmod(low.bit_length() - 1, 10)
        colours |= 1 << colour
        dup = dup or bool(values >> vbit & 1)
        values |= 1 << vbit
        total += vbit + 1
    if fog:
        return total
    run = not dup and values // (values & -values) == (1 << n) - 1
    if colours & (colours - 1) == 0:
        rank = WEDGE if run else BATTALION
    elif values & (values - 1) == 0:
        rank = PHALANX
    else:
        rank = SKIRMISH if run else HOST
    return rank << _RANK_SHIFT | total


def best_completion(
    cards: Sequence[int], capacity: int, fog: bool, available_troops: int, rules: CardRules = BATTLELINE_CARDS
) -> tuple[int, tuple[int, ...]] | None:
    """Best score reachable by adding ``capacity - len(cards)`` troops from ``available_troops``.

    Returns (score, added cards ascending), or None if too few troops are available.
    Cards already on the side are never taken from ``available_troops``.
    """
    mask = 0
    for c in cards:
        mask |= _BIT[c]
    if mask.bit_count() != len(cards):
        raise ValueError(f"repeated card in {list(cards)}")
    found = _search(rules._t, mask, capacity, fog, available_troops, -1)
    if found is None:
        return None
    return found[0], _cards(found[1])


def beating_completion(
    side_mask: int, capacity: int, fog: bool, available_troops: int, floor: int, rules: CardRules = BATTLELINE_CARDS
) -> tuple[int, int] | None:
    """Mask-level search for the proof code: best (score, added mask) above ``floor``, else None."""
    return _search(rules._t, side_mask, capacity, fog, available_troops, floor)
