"""Ratings from game results: a Bradley–Terry fit on the Elo scale, Wilson intervals.

Model: ``P(i beats j) = 1 / (1 + 10 ** ((r_j - r_i) / 400))``. A draw counts as half a
win for each side. The fit maximises the log-likelihood by Newton's method on the
natural-log scale; every pair that met also gets ``prior_draws`` virtual drawn games so
that a bot that won every game still has a finite rating (the same idea as BayesElo's
prior). Intervals come from the Fisher information (the negative Hessian) at the optimum:
with the mean anchored at 0 the covariance is the pseudo-inverse of that graph Laplacian;
with one bot anchored at 0 it is the inverse of the Laplacian without that bot's row.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

ELO = 400.0 / math.log(10.0)  # Elo points per natural-log unit of strength
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Rating:
    name: str
    rating: float  # Elo
    ci95: float  # half-width of the 95% interval, Elo; inf when not identifiable


@dataclass
class PairTally:
    """Results between ``a`` and ``b`` from ``a``'s side."""

    a: str
    b: str
    games: int = 0
    a_wins: int = 0
    b_wins: int = 0
    draws: int = 0
    errors: int = 0
    repairs: int = 0  # invalid classic plays repaired (games went on; not errors)

    @property
    def a_score(self) -> float:
        return (self.a_wins + 0.5 * self.draws) / self.games if self.games else 0.5


def expected_score(elo_diff: float) -> float:
    return 1.0 / (1.0 + math.pow(10.0, -elo_diff / 400.0))


def elo_of_score(score: float) -> float:
    score = min(max(score, 1e-9), 1 - 1e-9)
    return -400.0 * math.log10(1.0 / score - 1.0)


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (draws may make ``successes`` fractional)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


# Student's t at 97.5 % for 1-30 degrees of freedom (more: the normal's Z95)
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
         2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
         2.045, 2.042)


def mean_ci95(xs: Sequence[float], student: bool = False) -> tuple[float, float, float]:
    """(mean, low, high): the mean of ``xs`` with its 95 % interval from the sample's standard
    deviation; ``student`` takes Student's t for small samples (a few chunks) instead of the
    normal's quantile (hundreds of deals, where the two agree)."""
    n = len(xs)
    if n == 0:
        raise ValueError("mean_ci95 of no values")
    mean = sum(xs) / n
    if n < 2:
        return mean, -math.inf, math.inf
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1))
    q = _T975[n - 2] if student and n - 1 <= len(_T975) else Z95
    half = q * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def _solve(matrix: list[list[float]], rhs: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the systems are a handful of bots)."""
    n = len(rhs)
    a = [[*row, rhs[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-300:
            raise ZeroDivisionError("singular matrix")
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col and a[r][col] != 0.0:
                f = a[r][col] / a[col][col]
                for c in range(col, n + 1):
                    a[r][c] -= f * a[col][c]
    return [a[i][n] / a[i][i] for i in range(n)]


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    n = len(matrix)
    cols = [_solve(matrix, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [[cols[j][i] for j in range(n)] for i in range(n)]


def _components(n: int, games: list[list[float]]) -> list[int]:
    """Connected-component label of each player in the 'has played' graph."""
    label = [-1] * n
    for start in range(n):
        if label[start] >= 0:
            continue
        stack = [start]
        label[start] = start
        while stack:
            i = stack.pop()
            for j in range(n):
                if games[i][j] > 0 and label[j] < 0:
                    label[j] = start
                    stack.append(j)
    return label


def fit_bradley_terry(
    names: Sequence[str],
    pairs: Iterable[PairTally],
    *,
    anchor: str | None = None,
    prior_draws: float = 1.0,
    iterations: int = 100,
) -> list[Rating]:
    """Elo ratings with 95% intervals; ``anchor`` None = mean 0, else that bot is 0."""
    names = list(names)
    n = len(names)
    index = {name: i for i, name in enumerate(names)}
    wins = [[0.0] * n for _ in range(n)]  # wins[i][j]: i's score against j (draws as halves)
    games = [[0.0] * n for _ in range(n)]
    for p in pairs:
        if p.games <= 0 or p.a == p.b:
            continue
        i, j = index[p.a], index[p.b]
        wins[i][j] += p.a_wins + 0.5 * p.draws
        wins[j][i] += p.b_wins + 0.5 * p.draws
        # Games that ended with neither a win nor a draw counted (none today) still weigh in.
        played = p.a_wins + p.b_wins + p.draws
        games[i][j] += played
        games[j][i] += played
    for i in range(n):
        for j in range(n):
            if i != j and games[i][j] > 0 and prior_draws > 0:
                wins[i][j] += 0.5 * prior_draws
                games[i][j] += prior_draws
    if n == 0:
        return []
    theta = [0.0] * n
    free = [i for i in range(n) if names[i] != anchor] if anchor in index else list(range(n))
    for _ in range(iterations):
        grad = [0.0] * n
        info = [[0.0] * n for _ in range(n)]  # Fisher information = negative Hessian
        for i in range(n):
            for j in range(n):
                if i == j or games[i][j] == 0:
                    continue
                q = 1.0 / (1.0 + math.exp(theta[j] - theta[i]))
                grad[i] += wins[i][j] - games[i][j] * q
                w = games[i][j] * q * (1 - q)
                info[i][i] += w
                info[i][j] -= w
        if anchor in index:
            sub = [[info[i][j] for j in free] for i in free]
            # A tiny ridge keeps bots that never met the anchor's component solvable.
            for k in range(len(free)):
                sub[k][k] += 1e-9
            step_free = _solve(sub, [grad[i] for i in free]) if free else []
            step = [0.0] * n
            for k, i in enumerate(free):
                step[i] = step_free[k]
        else:
            # Mean-zero gauge: (L + J/n) is invertible for a connected graph and agrees with L on sum-zero vectors.
            reg = [[info[i][j] + 1.0 / n + (1e-9 if i == j else 0.0) for j in range(n)] for i in range(n)]
            step = _solve(reg, grad)
        theta = [t + s for t, s in zip(theta, step, strict=True)]
        if anchor not in index:
            mean = sum(theta) / n
            theta = [t - mean for t in theta]
        if max((abs(s) for s in step), default=0.0) < 1e-10:
            break
    # Covariance from the Fisher information at the optimum.
    info = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i != j and games[i][j] > 0:
                q = 1.0 / (1.0 + math.exp(theta[j] - theta[i]))
                w = games[i][j] * q * (1 - q)
                info[i][i] += w
                info[i][j] -= w
    var = [math.inf] * n
    comps = _components(n, games)
    connected = len(set(comps)) == 1
    if anchor in index:
        a = index[anchor]
        var[a] = 0.0
        reach = [k for k in free if comps[k] == comps[a]]
        if reach:
            cov = _inverse([[info[i][j] for j in reach] for i in reach])
            for k, i in enumerate(reach):
                var[i] = cov[k][k]
    elif connected and n > 1:
        m = [[info[i][j] + 1.0 / n for j in range(n)] for i in range(n)]
        cov = _inverse(m)
        var = [cov[i][i] - 1.0 / n for i in range(n)]
    elif n == 1:
        var = [0.0]
    return [
        Rating(names[i], theta[i] * ELO, Z95 * math.sqrt(max(var[i], 0.0)) * ELO if math.isfinite(var[i]) else math.inf)
        for i in range(n)
    ]


__all__ = ["ELO", "PairTally", "Rating", "elo_of_score", "expected_score", "fit_bradley_terry", "wilson"]
