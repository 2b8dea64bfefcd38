"""Property tests: any option set, any seed, any random line of play keeps the invariants."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from frontlines.games.warmachine import MODULE
from frontlines.games.warmachine.options import OPTIONS

from .test_soak import check_invariants, check_views

option_sets = st.fixed_dictionaries({o.name: st.sampled_from(o.choices) for o in OPTIONS})


@settings(max_examples=25, deadline=None)
@given(options=option_sets, seed=st.integers(0, 2**40), line=st.integers(0, 2**32))
def test_any_options_any_game(options: dict[str, str], seed: int, line: int) -> None:
    rng = random.Random(line)
    s = MODULE.new_game(seed=seed, options=options)
    steps = 0
    while not s.is_terminal():
        check_invariants(s)
        if steps % 9 == 0:
            check_views(s, rng)
            assert MODULE.parse_state(s.to_notation()).to_notation() == s.to_notation()
        before = s.to_notation()
        a = rng.choice(s.legal_actions())
        s.push(a)
        if steps % 5 == 0:  # undo and redo leave no trace
            assert s.pop() == a and s.to_notation() == before
            s.push(a)
        steps += 1
    check_invariants(s)
    check_views(s, rng)
    out = s.outcome()
    assert out is not None and out.winner in (0, 1, None)
