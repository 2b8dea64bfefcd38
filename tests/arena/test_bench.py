"""``frontlines bench`` runs its quick measurements and writes JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from frontlines.cli import main


def test_bench_smoke(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "bench.json"
    code = main(["bench", "--runs", "1", "--games", "2", "--rules", "battleline-basic", "--rules", "warmachine",
                 "--proofs", "200", "--ismcts-time", "0.05", "--json", str(out)])
    assert code == 0
    text = capsys.readouterr().out
    assert "random games/s" in text and "proofs/s" in text and "iterations/s" in text
    data = json.loads(out.read_text())
    assert set(data["games_per_second"]) == {"battleline-basic", "warmachine"}
    assert data["proofs_per_second"] > 0 and data["ismcts_iterations_per_second"] > 0
