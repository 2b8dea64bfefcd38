"""Fixtures for the bot tests."""

from __future__ import annotations

from collections.abc import Callable

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


@pytest.fixture
def search_clock(monkeypatch: pytest.MonkeyPatch) -> Callable[[float], SearchClock]:
    """``search_clock(step)`` puts a :class:`SearchClock` under the ISMCTS search."""

    def install(step: float) -> SearchClock:
        clock = SearchClock(step)
        monkeypatch.setattr(frontlines.bots.ismcts, "time", clock)
        return clock

    return install
