"""Formation scores and best completions, against hand-made cases and a brute-force reference."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from frontlines.games.battleline.cards import (
    ALEXANDER,
    COMPANION_CAVALRY,
    DARIUS,
    FOG,
    SHIELD_BEARERS,
    cards_of,
    parse_card,
    troop,
)
from frontlines.games.battleline.formations import (
    BATTLELINE_CARDS,
    RANK_NAMES,
    SCHOTTEN_CARDS,
    CardRules,
    beating_completion,
    best_completion,
    evaluate,
    evaluate_mask,
    formation_name,
    make_score,
    rank_of,
    sum_of,
)

BL, ST = BATTLELINE_CARDS, SCHOTTEN_CARDS
WILDS = (ALEXANDER, DARIUS, COMPANION_CAVALRY, SHIELD_BEARERS)


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


# (cards, fog, rules, expected name, expected sum)
GOLDEN: list[tuple[str, bool, CardRules, str, int]] = [
    # plain troops, three cards
    ("R1 R2 R3", False, BL, "wedge", 6),
    ("R8 R9 R10", False, BL, "wedge", 27),
    ("P6 P4 P5", False, BL, "wedge", 15),
    ("G9 G10 G1", False, BL, "battalion", 20),  # no wrap-around
    ("G10 G1 G2", False, BL, "battalion", 13),
    ("R10 B10 Y10", False, BL, "phalanx", 30),
    ("R1 O1 Y1", False, BL, "phalanx", 3),
    ("B2 B5 B9", False, BL, "battalion", 16),
    ("R1 R3 R5", False, BL, "battalion", 9),
    ("R4 B5 G6", False, BL, "skirmish", 15),
    ("R4 R5 G6", False, BL, "skirmish", 15),  # colours may partly repeat
    ("B1 P2 B3", False, BL, "skirmish", 6),
    ("O8 Y9 G10", False, BL, "skirmish", 27),
    ("R9 R10 B1", False, BL, "host", 20),
    ("R10 B9 G1", False, BL, "host", 20),  # 9-10-1 is not a run
    ("R1 B1 G2", False, BL, "host", 4),
    ("R3 B3 R4", False, BL, "host", 10),
    ("R2 B4 G6", False, BL, "host", 12),
    # one Leader
    ("AL R9 R10", False, BL, "wedge", 27),
    ("AL R1 R2", False, BL, "wedge", 6),
    ("AL R1 R3", False, BL, "wedge", 6),
    ("AL R8 R10", False, BL, "wedge", 27),
    ("DA R5 B5", False, BL, "phalanx", 15),
    ("AL R5 B7", False, BL, "skirmish", 18),
    ("AL R2 B9", False, BL, "host", 21),
    ("DA R1 R9", False, BL, "battalion", 20),
    ("AL R1 B1", False, BL, "phalanx", 3),
    ("DA G10 B10", False, BL, "phalanx", 30),
    ("AL R10 B9", False, BL, "skirmish", 27),
    ("AL R1 B2", False, BL, "skirmish", 6),
    # Companion Cavalry (8)
    ("CC R9 R10", False, BL, "wedge", 27),
    ("CC R7 R9", False, BL, "wedge", 24),
    ("CC R6 R7", False, BL, "wedge", 21),
    ("CC R8 B8", False, BL, "phalanx", 24),
    ("CC R1 R2", False, BL, "battalion", 11),
    ("CC R9 B10", False, BL, "skirmish", 27),
    ("CC B5 G9", False, BL, "host", 22),
    ("CC R8 R9", False, BL, "battalion", 25),  # CC is 8 only: no 7-8-9 with a second 8
    # Shield Bearers (1..3)
    ("SB R1 R2", False, BL, "wedge", 6),
    ("SB R2 R3", False, BL, "wedge", 6),
    ("SB R3 R4", False, BL, "wedge", 9),
    ("SB R4 R5", False, BL, "wedge", 12),
    ("SB R5 R6", False, BL, "battalion", 14),
    ("SB B3 G3", False, BL, "phalanx", 9),
    ("SB B2 G2", False, BL, "phalanx", 6),
    ("SB B4 G4", False, BL, "host", 11),
    ("SB B4 G5", False, BL, "skirmish", 12),
    ("SB B1 G2", False, BL, "skirmish", 6),
    # several wilds
    ("CC SB R5", False, BL, "battalion", 16),
    ("CC SB B9", False, BL, "battalion", 20),
    ("AL CC SB", False, BL, "battalion", 21),
    ("AL CC R9", False, BL, "wedge", 27),
    ("AL CC R10", False, BL, "wedge", 27),
    ("AL CC R7", False, BL, "wedge", 24),
    ("AL CC R8", False, BL, "phalanx", 24),  # phalanx outranks the battalion
    ("AL CC R1", False, BL, "battalion", 19),
    ("AL SB R1", False, BL, "wedge", 6),
    ("AL SB R4", False, BL, "wedge", 12),
    ("AL SB R5", False, BL, "wedge", 12),
    ("AL SB R6", False, BL, "battalion", 19),
    ("AL SB B3", False, BL, "wedge", 9),
    ("AL DA CC", False, BL, "wedge", 27),  # never in play (one Leader each) but well defined
    ("AL DA R5", False, BL, "wedge", 18),
    # Fog: sums only, wilds at their maximum
    ("R8 R9 R10", True, BL, "fog sum", 27),
    ("R1 B1 G1", True, BL, "fog sum", 3),
    ("AL CC SB", True, BL, "fog sum", 21),
    ("AL R1 R2", True, BL, "fog sum", 13),
    ("SB R1 R2", True, BL, "fog sum", 6),
    ("CC B2 G3", True, BL, "fog sum", 13),
    # Mud: four cards
    ("R1 R2 R3 R4", False, BL, "wedge", 10),
    ("R7 R8 R9 R10", False, BL, "wedge", 34),
    ("R5 B5 G5 Y5", False, BL, "phalanx", 20),
    ("B1 B3 B5 B7", False, BL, "battalion", 16),
    ("R1 B2 G3 Y4", False, BL, "skirmish", 10),
    ("R1 R2 R3 B4", False, BL, "skirmish", 10),
    ("R1 R2 R3 B5", False, BL, "host", 11),
    ("R8 R9 R10 R1", False, BL, "battalion", 28),  # no wrap-around
    ("AL R7 R8 R10", False, BL, "wedge", 34),
    ("AL CC R9 R10", False, BL, "wedge", 34),
    ("AL CC SB R1", False, BL, "battalion", 22),
    ("CC R8 B8 G8", False, BL, "phalanx", 32),
    ("SB R1 R2 R4", False, BL, "wedge", 10),
    ("R1 B1 G1 Y2", False, BL, "host", 5),
    ("R7 R8 R9 R10", True, BL, "fog sum", 34),
    ("AL CC SB R1", True, BL, "fog sum", 22),
    # Schotten Totten: values 1..9, Joker 1..9, Spy 7
    ("R7 R8 R9", False, ST, "wedge", 24),
    ("AL R8 R9", False, ST, "wedge", 24),
    ("AL R9 B9", False, ST, "phalanx", 27),
    ("AL R1 B2", False, ST, "skirmish", 6),
    ("CC R8 R9", False, ST, "wedge", 24),
    ("CC R9 G9", False, ST, "host", 25),
    ("CC R6 R8", False, ST, "wedge", 21),
    ("AL CC SB", False, ST, "battalion", 19),
    ("AL CC SB", True, ST, "fog sum", 19),
    ("AL R8 R1", False, ST, "battalion", 18),
    ("R6 R7 R8 R9", False, ST, "wedge", 30),
    ("AL R9 B8", False, ST, "skirmish", 24),  # the Joker cannot be a 10
    ("CC R7 B7", False, ST, "phalanx", 21),
]


@pytest.mark.parametrize(("text", "fog", "rules", "name", "total"), GOLDEN)
def test_golden(text: str, fog: bool, rules: CardRules, name: str, total: int) -> None:
    score = evaluate(cards(text), fog, rules)
    assert (formation_name(score), sum_of(score)) == (name, total)
    assert rank_of(score) == (0 if fog else {v: k for k, v in RANK_NAMES.items()}[name])
    assert score == make_score(rank_of(score), total)


def test_order_of_ranks_beats_sums() -> None:
    host = evaluate(cards("R10 B10 G9"), False)
    skirmish = evaluate(cards("R1 B2 G3"), False)
    assert skirmish > host
    assert evaluate(cards("R1 R2 R3"), False) > evaluate(cards("R10 B10 G10"), False)
    # under Fog only sums count
    assert evaluate(cards("R1 R2 R3"), True) < evaluate(cards("R10 B9 G1"), True)


def test_card_order_does_not_matter() -> None:
    for perm in itertools.permutations(cards("AL R7 B9")):
        assert evaluate(perm, False) == evaluate(cards("AL R7 B9"), False)


def test_bad_sides_raise() -> None:
    with pytest.raises(ValueError):
        evaluate([troop(0, 1), troop(0, 1), troop(0, 2)], False)
    with pytest.raises(ValueError):
        evaluate([FOG, troop(0, 1), troop(0, 2)], False)
    with pytest.raises(ValueError):
        evaluate(cards("R10 R8 R9"), False, ST)  # no tens in Schotten Totten
    with pytest.raises(ValueError):
        CardRules(max_value=10, cavalry_value=11)


def test_best_completion_basics() -> None:
    everything = BL.troop_mask
    assert best_completion(cards("R9"), 3, False, everything) == (evaluate(cards("R8 R9 R10"), False), (troop(0, 8), troop(0, 10)))
    assert best_completion([], 3, False, everything) is not None
    assert best_completion(cards("R9"), 3, False, 1 << troop(0, 10)) is None  # one card, two needed
    # the side's own cards are never taken twice
    assert best_completion(cards("R9 R10"), 3, False, 1 << troop(0, 9)) is None
    # complete side: nothing added
    assert best_completion(cards("R1 R2 R3"), 3, False, 0) == (evaluate(cards("R1 R2 R3"), False), ())
    # ST never adds a value 10, even when the mask offers one
    found = best_completion(cards("B9"), 3, False, everything, ST)
    assert found is not None
    assert found == (make_score(5, 24), (troop(4, 7), troop(4, 8)))
    # fog: highest values
    found = best_completion(cards("AL"), 3, True, everything)
    assert found is not None and sum_of(found[0]) == 30
    # mud: four cards
    found = best_completion(cards("G2"), 4, False, everything)
    assert found is not None and found[0] == make_score(5, 14)


# ---------------------------------------------------------------- brute-force reference

def _shape(concrete: Sequence[tuple[int, int]]) -> int:
    """Rank of concrete (colour, value) cards."""
    colours = {c for c, _ in concrete}
    values = sorted(v for _, v in concrete)
    run = all(b == a + 1 for a, b in itertools.pairwise(values))
    if run and len(colours) == 1:
        return 5
    if len(set(values)) == 1:
        return 4
    if len(colours) == 1:
        return 3
    if run:
        return 2
    return 1


@cache
def ref_evaluate(side: frozenset[int], fog: bool, max_value: int, cavalry: int) -> int:
    troops = [(c // 10, c % 10 + 1) for c in side if c < 60]
    wilds = [c for c in side if c >= 60]
    # a wild's colour only matters as "same as a troop" or "some other colour"
    colour_choices = sorted({c for c, _ in troops} | {next(c for c in range(7) if c not in {t for t, _ in troops})})
    per_wild = []
    for w in wilds:
        if w in (ALEXANDER, DARIUS):
            values = list(range(1, max_value + 1))
        elif w == COMPANION_CAVALRY:
            values = [cavalry]
        else:
            values = [1, 2, 3]
        per_wild.append([(c, v) for c in colour_choices for v in values])
    best = -1
    for choice in itertools.product(*per_wild):
        concrete = troops + list(choice)
        total = sum(v for _, v in concrete)
        score = total if fog else make_score(_shape(concrete), total)
        best = max(best, score)
    return best


def ref_best(side: Sequence[int], n: int, fog: bool, avail: Sequence[int], rules: CardRules) -> int | None:
    k = n - len(side)
    best = None
    for extra in itertools.combinations(avail, k):
        s = ref_evaluate(frozenset(side) | frozenset(extra), fog, rules.max_value, rules.cavalry_value)
        best = s if best is None else max(best, s)
    return best


@st.composite
def pools(draw: st.DrawFn, rules: CardRules) -> list[int]:
    """Troop cards concentrated on a few colours and a value window, so runs are common."""
    colours = draw(st.lists(st.integers(0, 5), min_size=1, max_size=3, unique=True))
    low = draw(st.integers(1, rules.max_value))
    high = draw(st.integers(low, rules.max_value))
    return [troop(c, v) for c in colours for v in range(low, high + 1)]


@st.composite
def complete_sides(draw: st.DrawFn) -> tuple[list[int], CardRules]:
    rules = draw(st.sampled_from([BL, ST]))
    n = draw(st.sampled_from([3, 3, 4]))
    wilds = draw(st.lists(st.sampled_from(WILDS), max_size=min(n, 3), unique=True))
    pool = draw(pools(rules))
    extra = [troop(c, v) for c in range(6) for v in range(1, rules.max_value + 1)]
    need = n - len(wilds)
    troops = draw(st.lists(st.sampled_from(pool if len(pool) >= need else extra), min_size=need, max_size=need, unique=True))
    return wilds + troops, rules


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(complete_sides(), st.booleans())
def test_evaluate_matches_brute_force(side_rules: tuple[list[int], CardRules], fog: bool) -> None:
    side, rules = side_rules
    expected = ref_evaluate(frozenset(side), fog, rules.max_value, rules.cavalry_value)
    assert evaluate(side, fog, rules) == expected


@st.composite
def partial_positions(draw: st.DrawFn) -> tuple[list[int], int, list[int], CardRules]:
    rules = draw(st.sampled_from([BL, ST]))
    n = draw(st.sampled_from([3, 3, 4]))
    size = draw(st.integers(0, n))
    wilds = draw(st.lists(st.sampled_from(WILDS), max_size=min(size, 2), unique=True))
    pool = draw(pools(rules))
    troops = draw(st.lists(st.sampled_from(pool), max_size=size - len(wilds), unique=True))
    side = wilds + troops
    rest = [c for c in pool if c not in troops]
    avail = draw(st.lists(st.sampled_from(rest), max_size=9, unique=True)) if rest else []
    return side, n, avail, rules


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(partial_positions(), st.booleans())
def test_best_completion_matches_brute_force(pos: tuple[list[int], int, list[int], CardRules], fog: bool) -> None:
    side, n, avail, rules = pos
    mask = sum(1 << c for c in avail)
    found = best_completion(side, n, fog, mask, rules)
    expected = ref_best(side, n, fog, avail, rules)
    if expected is None:
        assert found is None
        return
    assert found is not None
    score, added = found
    assert score == expected
    assert len(added) == n - len(side)
    assert set(added) <= set(avail)
    assert evaluate(side + list(added), fog, rules) == score


def test_mask_level_helpers() -> None:
    side = cards("AL R9 R10")
    mask = sum(1 << c for c in side)
    assert evaluate_mask(mask, False) == evaluate(side, False) == make_score(5, 27)
    assert evaluate_mask(mask, True) == 29
    theirs = 1 << troop(4, 9)
    everything = BL.troop_mask
    # best completion above a floor, or None when nothing beats the floor
    found = beating_completion(theirs, 3, False, everything, make_score(5, 24))
    assert found == (make_score(5, 27), (1 << troop(4, 8)) | (1 << troop(4, 10)))
    assert beating_completion(theirs, 3, False, everything, make_score(5, 27)) is None
    assert beating_completion(theirs, 3, False, 0, -1) is None


def test_rules_pickle_and_copy_cheaply() -> None:
    import copy
    import pickle

    data = pickle.dumps(ST)
    assert len(data) < 200 and pickle.loads(data) == ST
    assert copy.deepcopy(BL) == BL and copy.deepcopy(BL)._t is BL._t


def test_cards_helper_roundtrip() -> None:
    assert cards_of(BL.troop_mask) == list(range(60))
    assert len(cards_of(ST.troop_mask)) == 54


def test_the_evaluation_caches_stay_small_on_long_work() -> None:
    """A server evaluates side after side for as long as it runs: the caches of one set of
    card rules keep at most their limits' entries (sized by benchmarks/bench_eval_caches.py),
    a few MB, where the former limits let them grow past 100 MB before emptying."""
    import random
    import sys

    from frontlines.games.battleline import formations

    rng = random.Random(30)
    t = SCHOTTEN_CARDS._t  # the card rules fewer tests use: their caches are not warm
    for table in (t.eval_plain, t.eval_fog, t.side_cache):
        table.clear()
    cards = [c for c in range(64) if (c < 60 and c % 10 != 9) or c >= 60]  # Schotten Totten: values 1-9
    for _ in range(200_000):  # three times the scores' limit
        side = rng.sample(cards, rng.choice((3, 4)))
        evaluate_mask(sum(1 << c for c in side), rng.random() < 0.5, SCHOTTEN_CARDS)
        t.side_info(sum(1 << c for c in side[:-1]))
    assert len(t.side_cache) <= formations.SIDE_CACHE_LIMIT
    assert len(t.eval_plain) <= formations.EVAL_CACHE_LIMIT and len(t.eval_fog) <= formations.EVAL_CACHE_LIMIT

    def size(obj: object) -> int:  # the cache's own bytes: its table, its keys, its values
        if isinstance(obj, dict):
            return sys.getsizeof(obj) + sum(size(k) + size(v) for k, v in obj.items())
        if isinstance(obj, tuple):
            return sys.getsizeof(obj) + sum(size(v) for v in obj)
        return sys.getsizeof(obj) if isinstance(obj, int) and not -5 <= obj <= 256 else 0

    full = {name: size(table) / max(1, len(table)) * limit for name, table, limit in (
        ("sides", t.side_cache, formations.SIDE_CACHE_LIMIT), ("plain", t.eval_plain, formations.EVAL_CACHE_LIMIT),
        ("fog", t.eval_fog, formations.EVAL_CACHE_LIMIT))}
    assert sum(full.values()) < 16 * 2**20, full  # bytes at their fullest
