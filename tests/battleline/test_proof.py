"""Claim proofs (docs/rules.md §2.12): hand-made cases and a brute-force reference."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from frontlines.core.reasons import english
from frontlines.games.battleline.cards import (
    ALEXANDER,
    COMPANION_CAVALRY,
    SHIELD_BEARERS,
    TACTICS_MASK,
    cards_of,
    mask_of,
    parse_card,
    troop,
    value_of,
)
from frontlines.games.battleline.formations import (
    BATTLELINE_CARDS,
    SCHOTTEN_CARDS,
    CardRules,
    evaluate,
)
from frontlines.games.battleline.proof import ProofResult, prove
from frontlines.games.battleline.reasons import PROOF_WORDS, REASON_WORDS

BL, ST = BATTLELINE_CARDS, SCHOTTEN_CARDS


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def claim(
    mine: str,
    theirs: str,
    visible: str = "",
    *,
    capacity: int = 3,
    fog: bool = False,
    first: bool = True,
    final: bool = False,
    rules: CardRules = BL,
) -> ProofResult:
    """Prove with unseen = every troop of the deck not on this flag and not in ``visible``."""
    a, b = cards(mine), cards(theirs)
    seen = mask_of(tuple(a + b + cards(visible)))
    result = prove(
        a, b, capacity=capacity, fog=fog, unseen_troops=rules.troop_mask & ~seen,
        claimant_completed_first=first, opponent_final=final, rules=rules,
    )
    if result.counterexample is not None:  # every counterexample must really win
        assert not result.claimable
        assert not seen & mask_of(result.counterexample)
        assert len(b) + len(result.counterexample) == capacity
        assert evaluate(b + list(result.counterexample), fog, rules) > evaluate(a, fog, rules)
    return result


# ---------------------------------------------------------------- both sides complete

def test_complete_win() -> None:
    r = claim("R8 R9 R10", "B5 G5 Y5")
    assert (r.claimable, r.counterexample, r.reason) == (True, None, "both complete: your wedge (27) beats a phalanx (15)")


def test_complete_loss() -> None:
    r = claim("B5 G5 Y5", "R8 R9 R10")
    assert not r.claimable and r.counterexample is None
    assert r.reason == "both complete: their wedge (27) beats your phalanx (15)"


def test_complete_higher_sum_same_rank() -> None:
    assert claim("B2 B9 B10", "G2 G8 G10").claimable
    assert not claim("G2 G8 G10", "B2 B9 B10").claimable


def test_tie_completed_first_wins() -> None:
    r = claim("B2 B8 B10", "G2 G8 G10", first=True)
    assert (r.claimable, r.counterexample, r.reason) == (True, None, "tie at battalion 20: you completed first")


def test_tie_completed_second_loses() -> None:
    r = claim("B2 B8 B10", "G2 G8 G10", first=False)
    assert (r.claimable, r.counterexample, r.reason) == (False, None, "tie at battalion 20: you completed second")


def test_complete_under_fog() -> None:
    assert not claim("R1 R2 R3", "B9 B10 G1", fog=True).claimable  # wedge means nothing, 6 < 20
    r = claim("R10 B10 G1", "Y9 P9 O3", fog=True, first=False)
    assert (r.claimable, r.counterexample, r.reason) == (False, None, "tie at sum 21: you completed second")


def test_complete_stall_flag_does_not_matter() -> None:
    assert not claim("R1 B2 G4", "R8 R9 R10", final=True).claimable


# ---------------------------------------------------------------- opponent incomplete

def test_unbeatable_wedge() -> None:
    r = claim("R8 R9 R10", "B1")
    assert (r.claimable, r.counterexample, r.reason) == (True, None, "no unseen troop cards can beat your wedge (27)")
    assert claim("R8 R9 R10", "").claimable


def test_proof_fails_with_counterexample() -> None:
    r = claim("R5 R6 R7", "B8")
    assert not r.claimable
    assert r.counterexample == tuple(cards("B9 B10"))
    assert r.reason == "B9 B10 would make a stronger wedge (27 > 18)"


def test_proof_fails_against_higher_rank() -> None:
    r = claim("R5 B5 G5", "")
    assert not r.claimable and r.counterexample is not None
    assert r.reason.endswith("would make a wedge (27), beating your phalanx (15)")


def test_visible_cards_block_the_opponent() -> None:
    # B7 and B10 are gone: B8 B9 can no longer become a wedge, and a battalion is below a wedge
    assert not claim("R5 R6 R7", "B8 B9").claimable
    assert claim("R5 R6 R7", "B8 B9", "B7 B10").claimable


def test_tie_at_best_goes_to_claimant() -> None:
    # B6 gives B4 B5 B6 = wedge 15, a tie: the opponent would place the last card
    r = claim("R4 R5 R6", "B4 B5", "B3 B7")
    assert r.claimable


def test_phalanx_needs_the_missing_card() -> None:
    assert not claim("R10 B10 G10", "Y9").claimable  # Y8 Y10 make a wedge
    assert claim("R10 B10 G10", "Y9", "Y8").claimable  # no wedge through Y9 left, phalanx 27 < 30


def test_claimants_hand_counts_as_unseen() -> None:
    # the claimant may hold B9 B10, but the proof may not use that: they stay unseen
    assert not claim("R5 R6 R7", "B8").claimable
    # once played somewhere on the table they are public
    assert claim("R5 R6 R7", "B8", "B9 B10 B7 B6 O8 Y8 G8 P8").claimable


def test_unplayed_tactics_never_block() -> None:
    a, b = cards("R5 R6 R7"), cards("B8 B9")
    seen = mask_of(tuple(a + b + cards("B7 B10")))
    plain = prove(a, b, capacity=3, fog=False, unseen_troops=BL.troop_mask & ~seen)
    with_tactics = prove(a, b, capacity=3, fog=False, unseen_troops=(BL.troop_mask & ~seen) | TACTICS_MASK)
    assert plain == with_tactics and plain.claimable


def test_opponents_played_morale_counts() -> None:
    r = claim("R7 R8 R9", "AL B9")
    assert not r.claimable and r.counterexample is not None
    assert claim("R8 R9 R10", "AL B9").claimable
    r = claim("R1 R2 R3", "SB B2")  # SB as 3 with B4: wedge 9
    assert not r.claimable


def test_claimant_wilds_best_assignment() -> None:
    assert claim("AL R9 R10", "").claimable
    assert claim("AL CC SB", "", "").claimable is False


def test_too_few_unseen_cards() -> None:
    deck = [f"{c}{v}" for c in "ROYGBP" for v in range(1, 11)]
    on_table = [c for c in deck if c not in {"R1", "B1", "G2", "Y1", "P7"}]
    r = claim("R1 B1 G2", "Y1", " ".join(on_table))  # only P7 unseen, two cards needed
    assert r.claimable and r.reason.startswith("only 1 unseen troop card left and they need 2")
    r = claim("R1 B1 G2", "", " ".join([*on_table, "Y1", "P7"]))
    assert r.claimable and r.reason.startswith("only 0 unseen troop cards left and they need 3")


def test_stall_opponent_final() -> None:
    r = claim("R1 B2 G4", "B10 B9", final=True)
    assert r.claimable and "never be completed" in r.reason


def test_claimant_incomplete() -> None:
    r = claim("R8 R9", "")
    assert (r.claimable, r.counterexample, r.reason) == (False, None, "your side is not complete (2 of 3 cards)")
    assert not claim("R7 R8 R9", "", capacity=4).claimable


def test_fog_proofs() -> None:
    r = claim("R1 R2 R3", "B10", fog=True)
    assert not r.claimable and r.reason.endswith("would make a higher sum (30 > 6)")
    # Y10 + O10 + P10 = 30 at best: a tie, which goes to the claimant
    assert claim("R10 B10 G10", "Y10", fog=True).claimable
    assert not claim("R10 B10 G9", "Y10", fog=True).claimable


def test_mud_proofs() -> None:
    assert claim("R7 R8 R9 R10", "B1", capacity=4).claimable
    r = claim("R1 R2 R3 R4", "", capacity=4)
    assert not r.claimable and r.counterexample is not None and len(r.counterexample) == 4
    assert not claim("R1 R2 R3 R4", "B5 B6 B7", capacity=4).claimable
    # B5 B6 G7 can only become a skirmish or less: the wedge 1-2-3-4 holds
    assert claim("R1 R2 R3 R4", "B5 B6 G7", capacity=4).claimable


def test_schotten_totten() -> None:
    assert claim("R7 R8 R9", "", rules=ST).claimable  # colour run 7-8-9 is unbeatable
    r = claim("R6 R7 R8", "B9", rules=ST)
    assert not r.claimable and r.counterexample == tuple(cards("B7 B8"))
    assert r.counterexample is not None and all(value_of(c) <= 9 for c in r.counterexample)
    # the Spy is a 7: Spy B8 B9 is a colour run of 24
    r = claim("R4 R5 R6", "CC B9", rules=ST)
    assert not r.claimable and r.counterexample == tuple(cards("B8"))
    # no tens: a side with a ten is malformed
    with pytest.raises(ValueError):
        prove(cards("R8 R9 R10"), [], capacity=3, fog=False, unseen_troops=ST.troop_mask, rules=ST)


def test_bad_calls_raise() -> None:
    with pytest.raises(ValueError):
        prove(cards("R1 R2 R3 R4"), [], capacity=3, fog=False, unseen_troops=0)
    with pytest.raises(ValueError):
        prove(cards("R1 R2 R3"), cards("R3"), capacity=3, fog=False, unseen_troops=0)
    with pytest.raises(ValueError):
        prove(cards("R1 R2 R3"), cards("B1 B2 B3 B4"), capacity=3, fog=False, unseen_troops=0)


# ---------------------------------------------------------------- brute-force reference

def ref_prove(mine: Sequence[int], theirs: Sequence[int], n: int, fog: bool, unseen: Sequence[int],
              first: bool, rules: CardRules) -> tuple[bool, list[frozenset[int]]]:
    """(claimable, every completion that beats the claimant) by enumerating k-subsets."""
    me = evaluate(mine, fog, rules)
    if len(theirs) == n:
        them = evaluate(theirs, fog, rules)
        return (me > them or (me == them and first)), []
    pool = [c for c in unseen if c not in mine and c not in theirs]
    winners = [
        frozenset(extra) for extra in itertools.combinations(pool, n - len(theirs))
        if evaluate(list(theirs) + list(extra), fog, rules) > me
    ]
    return not winners, winners


@st.composite
def flags(draw: st.DrawFn) -> tuple[list[int], list[int], int, bool, list[int], bool, CardRules]:
    rules = draw(st.sampled_from([BL, ST]))
    n = draw(st.sampled_from([3, 3, 4]))
    fog = draw(st.booleans())
    colours = draw(st.lists(st.integers(0, 5), min_size=1, max_size=3, unique=True))
    low = draw(st.integers(1, rules.max_value - 2))
    pool = [troop(c, v) for c in colours for v in range(low, rules.max_value + 1)]
    everything = [troop(c, v) for c in range(6) for v in range(1, rules.max_value + 1)]
    wild_a = draw(st.lists(st.sampled_from([ALEXANDER, COMPANION_CAVALRY, SHIELD_BEARERS]), max_size=1))
    source = pool if len(pool) >= n and draw(st.booleans()) else everything  # shaped or random claimant
    mine = wild_a + draw(st.lists(st.sampled_from(source), min_size=n - len(wild_a), max_size=n - len(wild_a), unique=True))
    free = [c for c in pool if c not in mine]
    wild_b = [] if wild_a else draw(st.lists(st.sampled_from([ALEXANDER, COMPANION_CAVALRY, SHIELD_BEARERS]), max_size=1))
    size = draw(st.integers(0, n))
    theirs = wild_b + draw(st.lists(st.sampled_from(free or everything), max_size=max(0, size - len(wild_b)), unique=True))
    theirs = [c for c in theirs if c not in mine][:n]
    rest = [c for c in pool if c not in mine and c not in theirs]
    wanted = min(len(rest), n - len(theirs))  # mostly enough cards to complete, sometimes not
    unseen = draw(st.lists(st.sampled_from(rest), min_size=max(0, wanted - draw(st.integers(0, 1))), max_size=10, unique=True)) if rest else []
    first = draw(st.booleans())
    return mine, theirs, n, fog, unseen, first, rules


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(flags())
def test_prove_matches_brute_force(flag: tuple[list[int], list[int], int, bool, list[int], bool, CardRules]) -> None:
    mine, theirs, n, fog, unseen, first, rules = flag
    result = prove(mine, theirs, capacity=n, fog=fog, unseen_troops=mask_of(tuple(unseen)),
                   claimant_completed_first=first, rules=rules)
    expected, winners = ref_prove(mine, theirs, n, fog, unseen, first, rules)
    assert result.claimable == expected, result.reason
    if result.counterexample is not None:
        assert frozenset(result.counterexample) in winners
    elif not expected and len(theirs) < n:
        pytest.fail("a failed proof against an incomplete side must name a counterexample")
    assert result.reason


def test_reference_agrees_on_cards_of() -> None:
    assert cards_of(mask_of(tuple(cards("R1 B10")))) == cards("R1 B10")


# The sentence shapes other code parses (docs/proofs.md, "Reason sentences").
_F = r"(?:wedge|phalanx|battalion|skirmish|host) \(\d+\)|sum \d+"
REASON_SHAPES = [
    r"your side is not complete \(\d+ of \d+ cards\)",
    rf"both complete: your (?:{_F}) beats (?:a (?:{_F})|sum \d+)",
    rf"both complete: their (?:{_F}) beats your (?:{_F})",
    r"tie at (?:(?:wedge|phalanx|battalion|skirmish|host) \d+|sum \d+): you completed (?:first|second)",
    rf"their side can never be completed: your (?:{_F}) wins",
    r"only \d+ unseen troop cards? left and they need \d+: their side can never be completed",
    rf"no unseen troop cards can beat your (?:{_F})",
    r"(?:[ROYGBP]\d+ ?)+ would make a higher sum \(\d+ > \d+\)",
    r"(?:[ROYGBP]\d+ ?)+ would make a stronger (?:wedge|phalanx|battalion|skirmish|host) \(\d+ > \d+\)",
    rf"(?:[ROYGBP]\d+ ?)+ would make a (?:{_F}), beating your (?:{_F})",
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(flags(), st.booleans())
def test_reasons_keep_their_documented_shapes(flag: tuple[list[int], list[int], int, bool, list[int], bool, CardRules],
                                              final: bool) -> None:
    import re

    mine, theirs, n, fog, unseen, first, rules = flag
    for claimant in (mine, mine[:-1]):
        result = prove(claimant, theirs, capacity=n, fog=fog, unseen_troops=mask_of(tuple(unseen)),
                       claimant_completed_first=first, opponent_final=final, rules=rules)
        assert any(re.fullmatch(shape, result.reason) for shape in REASON_SHAPES), result.reason
        # the same proof as data: a proof code whose parameters fill its words
        assert result.why.code in PROOF_WORDS and english(result.why, REASON_WORDS) == result.reason


@pytest.mark.parametrize("rules", [BL, ST])
def test_full_deck_positions_match_enumeration(rules: CardRules) -> None:
    """Seeded mid-game flags over the whole deck, checked against every k-subset of the unseen cards."""
    import random

    rng = random.Random(20260 + rules.max_value)
    deck = cards_of(rules.troop_mask)
    for _ in range(120):
        rng.shuffle(deck)
        n = 4 if rng.random() < 0.15 else 3
        fog = rng.random() < 0.15
        mine = deck[:n]
        theirs = deck[n:n + rng.randint(0, n - 1)]
        if rng.random() < 0.2:
            mine = [rng.choice([ALEXANDER, COMPANION_CAVALRY, SHIELD_BEARERS]), *mine[1:]]
        visible = deck[n + len(theirs):n + len(theirs) + rng.randint(15, 30)]
        unseen = rules.troop_mask & ~mask_of(tuple(mine + theirs + visible))
        result = prove(mine, theirs, capacity=n, fog=fog, unseen_troops=unseen, rules=rules)
        me = evaluate(mine, fog, rules)
        beaten = any(  # stops at the first winning completion
            evaluate(theirs + list(extra), fog, rules) > me
            for extra in itertools.combinations(cards_of(unseen), n - len(theirs))
        )
        assert result.claimable == (not beaten)
        if beaten:
            assert result.counterexample is not None
            assert mask_of(result.counterexample) & ~unseen == 0
            assert evaluate(theirs + list(result.counterexample), fog, rules) > me


def test_the_claim_proof_cache_stays_small_on_long_work() -> None:
    """A server asks for proofs for as long as it runs (every view of a table): the claim
    proofs' cache keeps at most its limit's entries, and those a few MB at their fullest,
    where 50,000 whole results let it reach some 35 MB before emptying."""
    import random
    import sys

    from frontlines.games import new_state
    from frontlines.games.battleline import claims

    def size(obj: object, seen: set[int]) -> int:  # the cache's own bytes, a shared object once
        if id(obj) in seen or obj is None or isinstance(obj, bool) or (isinstance(obj, int) and -5 <= obj <= 256):
            return 0
        seen.add(id(obj))
        own = sys.getsizeof(obj)
        if isinstance(obj, dict):
            return own + sum(size(k, seen) + size(v, seen) for k, v in obj.items())
        if isinstance(obj, (tuple, list)):
            return own + sum(size(v, seen) for v in obj)
        if hasattr(obj, "__dict__"):
            return own + size(vars(obj), seen)
        slots = getattr(type(obj), "__slots__", ())
        return own + sum(size(getattr(obj, name), seen) for name in slots if hasattr(obj, name))

    t = new_state("battleline", seed=1)
    rng = random.Random(30)
    claims._proof_cache.clear()
    for _ in range(claims.PROOF_CACHE_LIMIT + 1000):  # past the limit: it empties and fills again
        cards = rng.sample(range(60), 3 + rng.randint(0, 2))
        unseen = sum(1 << c for c in range(60) if c not in cards and rng.random() < 0.6)
        claims._shared_result(t, tuple(cards[:3]), tuple(cards[3:]), 3, False, True, False, unseen,
                              len(cards) == 6, 0, False)
        assert len(claims._proof_cache) <= claims.PROOF_CACHE_LIMIT
    filled = claims._proof_cache
    full = size(filled, set()) / len(filled) * claims.PROOF_CACHE_LIMIT
    claims._proof_cache.clear()
    assert full < 4 * 2**20, full  # bytes at its fullest
