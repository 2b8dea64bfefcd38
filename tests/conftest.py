"""Suite-wide settings: slow soak/strength runs only when FRONTLINES_SLOW=1; a quick end."""

from __future__ import annotations

import gc
import os
from pathlib import Path

import pytest

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("FRONTLINES_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow run; set FRONTLINES_SLOW=1")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """Collect the garbage now, then freeze what is left, so that what pytest does after the
    session ends (its unraisable-exception check runs a full collection) is quick.

    Under xdist this runs before the worker reports that it has finished; once every worker
    has, the controller stops them and a worker still busy 5 s later is sent SIGINT (execnet).
    A full collection of a worker's heap took longer than that on a loaded machine, and the
    KeyboardInterrupt landed in Hypothesis' garbage-collector callback ("Exception ignored
    in ... gc_callback"). Garbage found here is still reported (pytest's hook is in place).
    """
    gc.collect()
    gc.freeze()


@pytest.fixture(scope="session")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where tests put their screenshots and screen captures (under web/, tui/, screenshots/):
    a temporary folder, so that a test run leaves the checkout (and its tracked pictures) as
    it was; the checkout's artifacts/ only in a run made on purpose to refresh the pictures
    that docs and people look at, with FRONTLINES_ARTIFACTS=1."""
    if os.environ.get("FRONTLINES_ARTIFACTS") == "1":
        return ARTIFACTS
    return tmp_path_factory.mktemp("artifacts")
