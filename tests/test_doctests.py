"""The examples in the main modules' docstrings run (python-chess's habit: docs that run).

(``bots.registry`` and ``commands.options`` have theirs run by tests/bots/test_bots_registry.py.)
"""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "frontlines.core.game",
    "frontlines.core.interface",
    "frontlines.core.record",
    "frontlines.games",
    "frontlines.games.battleline.proof",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0, f"{name} has no example"
    assert result.failed == 0
