"""SPRT accept/reject on synthetic streams of pairs."""

from __future__ import annotations

import random

import pytest

from frontlines.arena.ratings import expected_score
from frontlines.arena.sprt import SPRT, llr, parse_sprt


def game(rng: random.Random, elo: float, draw: float = 0.1) -> float:
    if rng.random() < draw:
        return 0.5
    return 1.0 if rng.random() < expected_score(elo) else 0.0


def run(sprt: SPRT, elo: float, seed: int, max_pairs: int = 20000) -> tuple[str | None, int]:
    rng = random.Random(seed)
    for n in range(1, max_pairs + 1):
        sprt.add_pair(game(rng, elo), game(rng, elo))
        if n % 4:
            continue  # checking every few pairs keeps the test fast and decides the same way
        decision = sprt.decision()
        if decision:
            return decision, n
    return None, max_pairs


@pytest.mark.parametrize("mode", ["pentanomial", "trinomial"])
def test_accepts_h1_for_a_clearly_stronger_bot(mode: str) -> None:
    wins = sum(run(SPRT(0, 50, 0.05, 0.05, mode), 150.0, seed)[0] == "H1" for seed in range(20))
    assert wins >= 19


@pytest.mark.parametrize("mode", ["pentanomial", "trinomial"])
def test_accepts_h0_for_equal_bots(mode: str) -> None:
    results = [run(SPRT(0, 50, 0.05, 0.05, mode), 0.0, seed)[0] for seed in range(20)]
    assert results.count("H0") >= 18


def test_accepts_h0_for_a_weaker_bot_quickly() -> None:
    decision, n = run(SPRT(0, 50), -200.0, 3)
    assert decision == "H0" and n < 60


def test_llr_signs_and_bounds() -> None:
    s = SPRT(0, 50)
    assert s.llr == 0.0 and s.decision() is None
    assert s.upper == pytest.approx(2.944, abs=1e-3) and s.lower == pytest.approx(-2.944, abs=1e-3)
    # all pairs won 2-0: evidence for H1 grows with every pair
    values = []
    for _ in range(5):
        s.add_pair(1, 1)
        values.append(s.llr)
    assert values == sorted(values) and values[0] > 0
    # a perfectly balanced record favours H0 (score 0.5 = elo0)
    assert llr([0, 10, 20, 10, 0], 0, 50) < 0


def test_llr_matches_normal_approximation_for_large_samples() -> None:
    counts = [30, 200, 450, 250, 70]
    xs = [0, 0.25, 0.5, 0.75, 1]
    n = sum(counts)
    mean = sum(c * x for c, x in zip(counts, xs, strict=True)) / n
    var = sum(c * (x - mean) ** 2 for c, x in zip(counts, xs, strict=True)) / n
    s0, s1 = expected_score(0), expected_score(20)
    approx = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
    assert llr(counts, 0, 20) == pytest.approx(approx, rel=0.05)


def test_parse() -> None:
    s = parse_sprt("elo0=0,elo1=50,alpha=0.05,beta=0.1")
    assert (s.elo0, s.elo1, s.alpha, s.beta, s.mode) == (0, 50, 0.05, 0.1, "pentanomial")
    with pytest.raises(ValueError):
        parse_sprt("elo0=10,elo1=5")
    with pytest.raises(ValueError):
        parse_sprt("nonsense=1")
