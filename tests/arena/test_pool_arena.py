"""benchmarks/pool_arena.py --paired-with: two runs of the same chunks compared deal by deal."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _chunk(path: Path, seed: int, wins: list[int]) -> Path:
    """A ``--json`` file of one chunk: deal d's two games, ``wins[d]`` of them won by net."""
    games = []
    for deal, won in enumerate(wins):
        for seat in (0, 1):
            players = ["net", "heuristic"] if seat == 0 else ["heuristic", "net"]
            net_won = seat < won  # the first `won` games of the deal
            games.append({"deal": deal, "players": players, "winner": players.index("net" if net_won else "heuristic")})
    path.write_text(json.dumps({"config": {"seed": seed}, "pairs": [{"a": "net", "b": "heuristic"}], "games": games}))
    return path


def test_paired_with_gives_the_difference_per_chunk_and_over_deals(tmp_path: Path) -> None:
    new = [_chunk(tmp_path / "n1.json", 1, [2, 1, 1, 0]), _chunk(tmp_path / "n2.json", 2, [2, 2, 1, 1])]
    old = [_chunk(tmp_path / "o1.json", 1, [1, 1, 1, 0]), _chunk(tmp_path / "o2.json", 2, [2, 1, 1, 0])]
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "pool_arena.py"), *map(str, new), "--paired-with", *map(str, old)],
                         capture_output=True, text=True, check=True).stdout
    assert "seed 1: net won 4 of 8 against 3" in out and "seed 2: net won 6 of 8 against 4" in out
    # chunks +12.5 % and +25 %: mean +18.75 %; deals: +0.5 (twice, halved: 0.5 of a deal's two games) in 3 of 8
    assert "2 chunks: score +18.75% [" in out
    assert "over 8 deals +18.75% [" in out
    mismatched = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "pool_arena.py"), str(new[0]), "--paired-with", str(old[1])],
                                capture_output=True, text=True, check=False)
    assert mismatched.returncode != 0 and "no seed in both runs" in mismatched.stderr
