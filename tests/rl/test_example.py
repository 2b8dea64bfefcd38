"""examples/learn_battleline.py learns: its short run beats ``random`` clearly.

The run is deterministic (seeded deals, bots and policy), so the score it reaches is the
same on every run of the same code; the threshold leaves room below what it reaches.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("numpy")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "learn_battleline.py"


def test_the_example_learns_to_beat_random() -> None:
    run = subprocess.run([sys.executable, str(EXAMPLE), "--short"], capture_output=True, text=True, timeout=1200)
    assert run.returncode == 0, run.stdout + run.stderr  # --short asserts a score of 65 % or more
    last = run.stdout.strip().splitlines()[-1]
    assert last.startswith("after") and "against random" in last
