"""benchmarks/pool_arena.py: --paired-with (two runs of the same chunks compared deal by deal)
and --sprt (the arena's SPRT over a head-to-head's chunks pooled)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from frontlines.arena.sprt import SPRT

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


def _pool() -> Any:
    spec = importlib.util.spec_from_file_location("pool_arena", ROOT / "benchmarks" / "pool_arena.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _pentanomial_chunk(path: Path, seed: int, pentanomial: list[int]) -> Path:
    """An arena --json file of one pairing, its games all decided (no draws)."""
    deals = sum(pentanomial)
    a_wins = pentanomial[2] + 2 * pentanomial[4]  # (no draws: only 0, 1 or 2 wins a deal)
    data = {
        "config": {"seed": seed},
        "pairs": [{
            "a": "master", "b": "hard", "games": 2 * deals, "a_wins": a_wins, "b_wins": 2 * deals - a_wins,
            "draws": 0, "errors": 0, "paired": {"deals": deals, "pentanomial": pentanomial},
        }],
    }
    path.write_text(json.dumps(data))
    return path


def test_the_sprt_is_the_arenas_over_the_pooled_pairs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pool = _pool()
    first = _pentanomial_chunk(tmp_path / "c-1.json", 1, [1, 0, 4, 0, 5])
    second = _pentanomial_chunk(tmp_path / "c-2.json", 2, [0, 0, 3, 0, 7])
    arena = SPRT(elo0=108, elo1=191)
    arena.counts = [1.0, 0.0, 7.0, 0.0, 12.0]
    assert pool.main(["--sprt", "elo0=108,elo1=191,alpha=0.05,beta=0.05", str(first), str(second)]) == 0
    out = capsys.readouterr().out
    assert "master vs hard: 40 games, 31-9-0" in out
    assert "pentanomial [1, 0, 7, 0, 12]" in out
    assert f"LLR {arena.llr:+.3f}" in out and "undecided" in out
    # --decided: silent, 1 while undecided, 0 once the pooled pairs decide; a pattern that
    # matched no file yet counts as nothing played
    assert pool.main(["--sprt", "elo0=108,elo1=191", "--decided", str(first), str(second)]) == 1
    assert pool.main(["--sprt", "elo0=108,elo1=191", "--decided", str(tmp_path / "c-*.json")]) == 1
    assert capsys.readouterr().out == ""
    third = _pentanomial_chunk(tmp_path / "c-3.json", 3, [0, 0, 2, 0, 18])
    arena.counts = [1.0, 0.0, 9.0, 0.0, 30.0]
    assert arena.decision() == "H1"
    assert pool.main(["--sprt", "elo0=108,elo1=191", "--decided", str(first), str(second), str(third)]) == 0
