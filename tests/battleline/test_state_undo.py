"""push/pop, clone and notation as exact copies of a position (property-based)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from frontlines.games import new_state, parse_state
from frontlines.games.battleline.rules import RULESETS
from frontlines.games.battleline.state import BattleLineState

NAMES = [r.name for r in RULESETS]


@given(st.sampled_from(NAMES), st.integers(0, 10_000), st.integers(0, 150), st.integers(1, 25))
@settings(max_examples=40, deadline=None)
def test_push_pop_restores_exactly(ruleset: str, seed: int, prefix: int, depth: int) -> None:
    rng = random.Random(seed)
    s = new_state(ruleset, seed=seed, options={"guile_can_target_environment": "true"}
                  if ruleset not in ("battleline-basic", "schotten-totten") else None)
    assert isinstance(s, BattleLineState)
    for _ in range(prefix):
        if s.is_terminal():
            break
        s.apply(rng.choice(s.legal_actions()))
    before = s.to_notation()
    legal_before = s.legal_actions()
    history = list(s.history)
    twin = s.clone()
    pushed = []
    for _ in range(depth):
        if s.is_terminal():
            break
        a = rng.choice(s.legal_actions())
        s.push(a)
        pushed.append(a)
    assert twin.to_notation() == before, "a clone does not follow the original"
    for a in reversed(pushed):
        assert s.pop() == a
    assert s.to_notation() == before
    assert s.legal_actions() == legal_before
    assert list(s.history) == history
    again = parse_state(before)
    assert again.to_notation() == before
    assert set(again.legal_actions()) == set(legal_before)
