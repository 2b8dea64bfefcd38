"""The examples learn: learn_battleline.py's short run beats ``random`` clearly, and
beat_heuristic.py's (the recipe against ``heuristic``) gains clearly against ``easy``.

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


RECIPE = Path(__file__).resolve().parents[2] / "examples" / "beat_heuristic.py"


@pytest.mark.timeout(1200)  # under a minute of CPU; many minutes on a loaded machine
def test_the_recipe_learns(tmp_path: Path) -> None:
    """examples/beat_heuristic.py --short: two rounds of 100 training games against
    ``heuristic`` through Gymnasium, each followed by a fit of the flag network on all the
    afterstates so far, lift its greedy player against ``easy`` (measured through Gymnasium
    on fixed paired deals) by at least ten points (the script asserts it); it keeps its
    state (shards, weights, progress) and draws its curve."""
    run = subprocess.run([sys.executable, str(RECIPE), "--short", "--state", str(tmp_path)], capture_output=True,
                         text=True, timeout=1200)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.strip().splitlines()[-1].startswith("against easy:")
    assert (tmp_path / "curve.png").read_bytes().startswith(b"\x89PNG")
    assert (tmp_path / "net.npz").exists() and len(list((tmp_path / "shards").glob("*.npz"))) == 2
    # redrawing the curve only draws: it neither trains on to the default ten iterations nor measures
    progress = (tmp_path / "progress.json").read_text()
    redraw = subprocess.run([sys.executable, str(RECIPE), "--state", str(tmp_path), "--draw-only",
                             "--plot", str(tmp_path / "again.png")], capture_output=True, text=True, timeout=300)
    assert redraw.returncode == 0, redraw.stdout + redraw.stderr
    assert (tmp_path / "again.png").read_bytes().startswith(b"\x89PNG")
    assert (tmp_path / "progress.json").read_text() == progress
    assert len(list((tmp_path / "shards").glob("*.npz"))) == 2
