"""``games.chance.shuffle`` is ``random.Random.shuffle``, draw for draw."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from frontlines.games.chance import shuffle


@given(st.integers(0, 2**64), st.integers(0, 70))
def test_the_same_permutation_and_generator_state_as_the_standard_library(seed: int, size: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    mine, reference = list(range(size)), list(range(size))
    shuffle(ours, mine)
    theirs.shuffle(reference)
    assert mine == reference
    assert ours.getstate() == theirs.getstate()


def test_a_generator_of_its_own_kind_shuffles_its_own_way() -> None:
    class Counting(random.Random):
        calls = 0

        def shuffle(self, x: list[int]) -> None:
            self.calls += 1
            super().shuffle(x)

    rng = Counting(3)
    items = list(range(10))
    shuffle(rng, items)
    assert rng.calls == 1 and sorted(items) == list(range(10))
