"""The terminal's tests never touch the real per-user data folder: saves go to a temporary one."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def data_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``$XDG_DATA_HOME`` for one test: the default saves folder lies inside it."""
    home = tmp_path_factory.mktemp("data-home")
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home
