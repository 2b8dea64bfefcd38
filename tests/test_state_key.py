"""States are mutable, so not hashable; ``State.key()`` is their immutable key."""

from __future__ import annotations

import pytest

from frontlines.games import all_rulesets, new_state


@pytest.mark.parametrize("ruleset", [r.name for r in all_rulesets()])
def test_states_are_not_hashable_but_have_a_key(ruleset: str) -> None:
    s = new_state(ruleset, seed=5)
    with pytest.raises(TypeError):
        hash(s)
    key = s.key()
    table = {key: "start"}
    twin = s.clone()
    assert twin == s and twin.key() == key
    s.apply(s.legal_actions()[0])
    assert s.key() != key and twin.key() == key  # a key does not move with the state
    assert table[twin.key()] == "start"
