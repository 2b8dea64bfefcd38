"""A fake clock under the ISMCTS search, for tests of its time budget (no fixture in a
conftest.py: a second module named conftest would shadow tests/web's for its importers)."""

from __future__ import annotations

import pytest

import frontlines.bots.ismcts


class SearchClock:
    """Stands in for the ``time`` module of the search: every reading of the clock is
    ``step`` seconds after the one before, so a time budget buys a known number of
    iterations whatever the machine's speed or load (a test times nothing)."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.now = 0.0
        self.readings = 0

    def perf_counter(self) -> float:
        self.readings += 1
        # a search that never looks at its deadline would loop for ever: stop it here
        assert self.readings < 100_000, "the search kept going past its time budget"
        now = self.now
        self.now += self.step
        return now


def search_clock(monkeypatch: pytest.MonkeyPatch, step: float) -> SearchClock:
    """Put a :class:`SearchClock` under the ISMCTS search (until the test ends)."""
    clock = SearchClock(step)
    monkeypatch.setattr(frontlines.bots.ismcts, "time", clock)
    return clock
