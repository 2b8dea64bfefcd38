"""Bot kinds from the optional extras: read by the registry, built only when named (runs
without the extras installed)."""

from __future__ import annotations

import importlib

import pytest

from frontlines.bots import registry


def test_an_openspiel_spec_reads_its_algorithm_first() -> None:
    spec = registry.parse_spec("openspiel:ISMCTS,simulations=50,uct_c=1.5")
    assert spec.name == "openspiel"
    assert spec.options == {"algorithm": "ismcts", "simulations": "50", "uct_c": "1.5"}
    with pytest.raises(ValueError, match="key=value"):
        registry.parse_spec("openspiel:mcts,simulations")


def test_a_missing_extra_is_named_in_the_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str, package: str | None = None) -> object:
        raise ImportError(f"No module named {name!r}")

    monkeypatch.setattr(importlib, "import_module", missing)
    with pytest.raises(ValueError, match=r"pip install 'frontlines\[rl\]'"):
        registry.make_bot("openspiel:ismcts")
