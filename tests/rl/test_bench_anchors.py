"""benchmarks/bench_rl_anchors.py (issue 27's anchors) runs and says which build it timed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_anchor_table_names_the_build_it_timed() -> None:
    """The compiled build moves every figure of ours by half or more (docs/research.md),
    so a table without the build it timed cannot be read against the goals."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_rl_anchors.py"), "--rulesets", "battleline-basic",
         "--runs", "1", "--seconds", "0.02"],
        capture_output=True, text=True, check=True, timeout=600,
    )
    lines = done.stdout.splitlines()
    assert lines[0].split()[:2] in (["build", "pure"], ["build", "compiled"]), lines[0]
    assert any(line.startswith("| battleline-basic |") for line in lines)
