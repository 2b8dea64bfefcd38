"""Ratings math on synthetic results: BT recovers known strengths, intervals shrink with n."""

from __future__ import annotations

import math
import random

import pytest

from frontlines.arena.ratings import PairTally, elo_of_score, expected_score, fit_bradley_terry, mean_ci95, wilson


def simulate(true: dict[str, float], games_per_pair: int, rng: random.Random, draw_rate: float = 0.0) -> list[PairTally]:
    names = list(true)
    out = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            t = PairTally(a, b)
            p = expected_score(true[a] - true[b])
            for _ in range(games_per_pair):
                t.games += 1
                if rng.random() < draw_rate:
                    t.draws += 1
                elif rng.random() < p:
                    t.a_wins += 1
                else:
                    t.b_wins += 1
            out.append(t)
    return out


def test_two_players_closed_form() -> None:
    # a wins 75 of 100: the MLE difference is 400 log10(3); each side gets half with mean 0.
    t = PairTally("a", "b", games=100, a_wins=75, b_wins=25)
    r = {x.name: x for x in fit_bradley_terry(["a", "b"], [t], prior_draws=0.0)}
    diff = 400 * math.log10(3)
    assert r["a"].rating == pytest.approx(diff / 2, abs=1e-6)
    assert r["b"].rating == pytest.approx(-diff / 2, abs=1e-6)
    # Fisher information of the difference is n p (1 - p) in log units.
    sd_diff = math.sqrt(1 / (100 * 0.75 * 0.25)) * 400 / math.log(10)
    assert r["a"].ci95 == pytest.approx(1.959964 * sd_diff / 2, rel=1e-4)
    anchored = {x.name: x for x in fit_bradley_terry(["a", "b"], [t], prior_draws=0.0, anchor="a")}
    assert anchored["a"].rating == 0.0 and anchored["a"].ci95 == 0.0
    assert anchored["b"].rating == pytest.approx(-diff, abs=1e-6)
    assert anchored["b"].ci95 == pytest.approx(1.959964 * sd_diff, rel=1e-4)


def test_draws_count_half() -> None:
    # Draws independent of strength compress ratings; all draws means equal ratings.
    t = PairTally("a", "b", games=10, a_wins=0, b_wins=0, draws=10)
    r = fit_bradley_terry(["a", "b"], [t])
    assert all(abs(x.rating) < 1e-6 for x in r)


def test_recovers_known_strengths() -> None:
    true = {"w": 0.0, "x": 120.0, "y": 250.0, "z": -180.0}
    mean = sum(true.values()) / len(true)
    rng = random.Random(5)
    fitted = {r.name: r for r in fit_bradley_terry(list(true), simulate(true, 1500, rng))}
    for name, elo in true.items():
        r = fitted[name]
        assert abs(r.rating - (elo - mean)) < max(30.0, r.ci95), (name, r)
    assert sum(r.rating for r in fitted.values()) == pytest.approx(0.0, abs=1e-6)


def test_interval_shrinks_with_games() -> None:
    true = {"a": 0.0, "b": 100.0, "c": -50.0}
    small = fit_bradley_terry(list(true), simulate(true, 100, random.Random(1)))
    large = fit_bradley_terry(list(true), simulate(true, 1600, random.Random(1)))
    for s, big in zip(small, large, strict=True):
        # 16x the games: about a quarter of the width.
        assert 0.18 < big.ci95 / s.ci95 < 0.32


def test_intervals_cover_truth_most_of_the_time() -> None:
    true = {"a": 0.0, "b": 80.0}
    covered = 0
    for seed in range(60):
        r = {x.name: x for x in fit_bradley_terry(list(true), simulate(true, 200, random.Random(seed)), anchor="a", prior_draws=0.0)}
        covered += abs(r["b"].rating - 80.0) <= r["b"].ci95
    assert covered >= 50  # nominal 95%: 57 of 60


def test_perfect_record_stays_finite() -> None:
    t = PairTally("a", "b", games=20, a_wins=20)
    r = {x.name: x for x in fit_bradley_terry(["a", "b"], [t])}
    assert math.isfinite(r["a"].rating) and r["a"].rating > 200


def test_disconnected_bot_has_no_interval() -> None:
    t = PairTally("a", "b", games=10, a_wins=6, b_wins=4)
    r = {x.name: x for x in fit_bradley_terry(["a", "b", "c"], [t])}
    assert math.isinf(r["c"].ci95)


def test_wilson() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(10, 10)
    assert hi == pytest.approx(1.0) and 0.69 < lo < 0.73


def test_elo_score_roundtrip() -> None:
    for elo in (-300.0, -50.0, 0.0, 10.0, 400.0):
        assert elo_of_score(expected_score(elo)) == pytest.approx(elo)


def test_mean_ci95_by_hand() -> None:
    # 1, 2, 3: mean 2, sample sd 1; the half-width is q / sqrt(3)
    mean, low, high = mean_ci95([1.0, 2.0, 3.0])
    assert mean == 2.0
    assert high - mean == pytest.approx(1.959964 / math.sqrt(3), rel=1e-6)
    assert mean - low == pytest.approx(high - mean)
    # Student's t with 2 degrees of freedom is 4.303: far wider for three chunks
    _, _, high_t = mean_ci95([1.0, 2.0, 3.0], student=True)
    assert high_t - 2.0 == pytest.approx(4.303 / math.sqrt(3), rel=1e-4)
    # the table ends at 30 degrees of freedom; 40 values take the normal's quantile
    forty = [float(i % 2) for i in range(40)]
    assert mean_ci95(forty, student=True) == mean_ci95(forty)
    assert mean_ci95(forty[:31], student=True)[2] > mean_ci95(forty[:31])[2]


def test_mean_ci95_edges() -> None:
    with pytest.raises(ValueError):
        mean_ci95([])
    assert mean_ci95([0.25]) == (0.25, -math.inf, math.inf)
    assert mean_ci95([0.5, 0.5, 0.5]) == (0.5, 0.5, 0.5)
