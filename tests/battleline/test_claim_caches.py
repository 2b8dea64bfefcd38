"""The engine's caches of legal actions and claims against a computation from scratch.

A position caches its legal list (``legal_cache``), its flag masks (``masks``) and, shared
by its copies, views and their samples, the claim answers and proofs (``ClaimMemo``); a
proof cache is shared by every game (``claims._proof_cache``). Each entry is checked
against the position before use. Here, at every decision of random games of every ruleset
(with tactics, guile on Fog and Mud, face-up battlefields), and of positions made from
them every way a position can be made (a clone, a pickle, notation, a push/pop, a view and
its samples, played on a few moves while the original waits), the legal actions and every
claim result must equal those of an uncached copy (an empty memo, no legal list or
masks, the proof cache emptied, every proof made afresh).
"""

from __future__ import annotations

import pickle
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from frontlines.games import new_state, parse_state
from frontlines.games.battleline import claims
from frontlines.games.battleline.claims import claim_result
from frontlines.games.battleline.codes import CLAIM_BASE, NUM_FLAGS, PASS
from frontlines.games.battleline.moves import claim_window, generate
from frontlines.games.battleline.rules import RULESETS
from frontlines.games.battleline.state import BattleLineState, BattleLineView
from frontlines.games.battleline.table import TABLE_FIELDS, ClaimMemo, values

NAMES = [r.name for r in RULESETS]
GUILE = {"guile_can_target_environment": "true", "mud_removed_excess": "owner_discards"}
FACE_UP = {"battlefields": "face_up", "battlefield_set": "house"}


def options_of(ruleset: str, variant: int) -> dict[str, str] | None:
    """Rules options that reach the rarer rules: guile on Fog and Mud with the owner's
    discards, Medieval's face-up battlefields (some forbid cards at flags)."""
    if variant == 1 and ruleset in ("battleline", "schotten-totten-tactics"):
        return GUILE
    if variant == 1 and ruleset == "medieval":
        return FACE_UP
    return None


def uncached(t: BattleLineState | BattleLineView) -> BattleLineState | BattleLineView:
    """A copy of ``t`` (a state or a view) with none of its caches: an empty claim memo,
    no legal list, no flag masks."""
    fields = dict(zip(TABLE_FIELDS, values(t), strict=True))
    fields.update(memo=ClaimMemo(), legal_cache=None, masks=None)
    copy = type(t)(*(fields[name] for name in TABLE_FIELDS))
    if isinstance(t, BattleLineView) and isinstance(copy, BattleLineView):
        copy.viewer = t.viewer
    return copy


def check(t: BattleLineState | BattleLineView) -> None:
    """``t``'s legal actions and claim results, cached, equal the uncached ones."""
    cached = t.legal_actions()
    saved = dict(claims._proof_cache)
    claims._proof_cache.clear()
    try:
        bare = uncached(t)
        assert cached == bare.legal_actions(), t.to_notation()
        for f in range(NUM_FLAGS):
            for p in (0, 1):
                fresh = claim_result(bare, f, p, exact=True)
                assert claim_result(t, f, p).claimable == fresh.claimable, (f, p, t.to_notation())
                # the claims the move generator lists are exactly the provable ones
                if p == t.current_player() and claim_window(t) and (t.claimed[f] < 0):
                    assert (CLAIM_BASE + f in cached) == fresh.claimable, (f, p, t.to_notation())
        if isinstance(t, BattleLineState):
            assert cached == generate(uncached(t))
    finally:
        claims._proof_cache.update(saved)


def derived(s: BattleLineState, rng: random.Random) -> list[BattleLineState | BattleLineView]:
    """Positions made from ``s`` every way the engine makes one (sharing its claim memo
    where the engine shares it)."""
    out: list[BattleLineState | BattleLineView] = [s.clone(), pickle.loads(pickle.dumps(s))]
    again = parse_state(s.to_notation())
    assert isinstance(again, BattleLineState)
    out.append(again)
    mover = s.current_player()
    if mover is not None:
        view = s.view(mover)
        out += [view, view.sample(rng), s.view(1 - mover).sample(rng)]
    return out


def play_on(t: BattleLineState | BattleLineView, rng: random.Random, moves: int) -> None:
    """Check ``t``, then play up to ``moves`` random moves on it (a state), checking each."""
    check(t)
    if not isinstance(t, BattleLineState):
        return
    for _ in range(moves):
        if t.is_terminal():
            return
        t.apply(rng.choice(t.legal_actions()))
        check(t)


@given(st.sampled_from(NAMES), st.integers(0, 1), st.integers(0, 1 << 30))
@settings(max_examples=25, deadline=None)
def test_cached_legal_actions_and_claims_equal_a_computation_from_scratch(ruleset: str, variant: int, seed: int) -> None:
    rng = random.Random(seed)
    s = new_state(ruleset, seed=seed, options=options_of(ruleset, variant))
    assert isinstance(s, BattleLineState)
    while not s.is_terminal():
        check(s)
        if rng.random() < 0.15:  # positions made from this one, played on, this one waiting
            for t in derived(s, rng):
                play_on(t, rng, rng.randrange(4))
            check(s)
        if rng.random() < 0.1:  # a few moves pushed and popped
            depth = 0
            for _ in range(rng.randrange(1, 4)):
                if s.is_terminal():
                    break
                s.push(rng.choice(s.legal_actions()))
                check(s)
                depth += 1
            for _ in range(depth):
                s.pop()
            check(s)
        legal = [a for a in s.legal_actions() if isinstance(a, int)]
        # claims and passes rarely come up at random: give them more weight
        claims_now = [a for a in legal if CLAIM_BASE <= a <= PASS]
        s.apply(rng.choice(claims_now) if claims_now and rng.random() < 0.3 else rng.choice(legal))
    check(s)
