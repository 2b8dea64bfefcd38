"""Shuffling for the engines: ``random.Random.shuffle`` with the generator's bits drawn
directly.

Every sample of a view shuffles the unseen cards, so a search shuffles once per
iteration. This is the standard library's loop (Fisher-Yates, each index drawn with
``getrandbits`` and rejection, as ``Random._randbelow`` does), inlined: the same
permutation from the same generator state, and the generator left in the same state
(tests/test_chance.py checks both), one call fewer per card, and a C loop in the compiled
build (docs/performance.md).
"""

from __future__ import annotations

import random
from typing import Any


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """Shuffle ``items`` in place exactly as ``rng.shuffle(items)`` would."""
    if type(rng) is not random.Random:  # a subclass may draw its numbers otherwise
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]
