"""The Glicko-2 rating system, as Mark Glickman's "Example of the Glicko-2 system" (2022
edition, glicko.net) describes it, step by step (the steps are named as there).

A rating is three numbers: the rating itself (1500 to begin with), its deviation (how
unsure it is: 350 to begin with, lower is surer) and the volatility (how erratic the
player's results are: 0.06 to begin with). :func:`rate` takes a player's rating and the
results of one rating period against opponents (their ratings as they were at its start)
and answers the rating after it. The paper's own example is a test
(``tests/web/test_web_glicko2.py``): 1500/200/0.06 against 1400/30, 1550/100 and
1700/300, a win and two losses, gives 1464.06/151.52/0.05999.

How the server uses it (:mod:`frontlines.web.ratings`): each rated game is a rating period
of its own for each of its two players, rated against the other's rating before the game;
before that, a deviation grows with the time since the player's last rated game
(:func:`age`), one rating period (Step 6 without games) per :data:`PERIOD_DAYS` days.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-2's scale: a rating of r is (r - 1500) / SCALE
START_RATING, START_DEVIATION, START_VOLATILITY = 1500.0, 350.0, 0.06
TAU = 0.5  # the system constant: how fast volatility may change (the paper: 0.3 to 1.2)
EPSILON = 0.000001  # the convergence tolerance of Step 5
MAX_DEVIATION = START_DEVIATION  # a deviation never grows past a newcomer's
MIN_DEVIATION = 45.0  # nor shrinks below this: many quick games must not freeze a rating
PERIOD_DAYS = 7.0  # a week without rated games widens a deviation as one empty period does


@dataclass(frozen=True)
class Rating:
    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY


@dataclass(frozen=True)
class Result:
    """One game of the period: the opponent's rating and deviation (at the period's start)
    and the score, 1 a win, 0.5 a draw, 0 a loss."""

    opponent: float
    opponent_deviation: float
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The score ``player`` is expected to make against ``opponent`` (0 to 1)."""
    return _e((player.rating - START_RATING) / SCALE, (opponent.rating - START_RATING) / SCALE,
              opponent.deviation / SCALE)


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm on f(x) = 0."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    for _ in range(200):  # converges in a handful of steps; the bound only guards the loop
        if abs(big_b - big_a) <= EPSILON:
            break
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Rating, results: Sequence[Result], *, tau: float = TAU, bounds: bool = True) -> Rating:
    """``player``'s rating after a rating period with ``results`` (Steps 2 to 8). Without
    results only the deviation grows (Step 6). ``bounds`` keeps the deviation between
    :data:`MIN_DEVIATION` and :data:`MAX_DEVIATION` (off for the paper's example)."""
    mu = (player.rating - START_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not results:
        grown = math.sqrt(phi * phi + sigma * sigma) * SCALE
        return Rating(player.rating, min(grown, MAX_DEVIATION) if bounds else grown, sigma)
    games = [((r.opponent - START_RATING) / SCALE, r.opponent_deviation / SCALE, r.score) for r in results]
    # Step 3: the estimated variance of the rating from the games alone.
    v_inverse = 0.0
    for mu_j, phi_j, _ in games:
        e = _e(mu, mu_j, phi_j)
        v_inverse += _g(phi_j) ** 2 * e * (1.0 - e)
    v = 1.0 / v_inverse
    # Step 4: the estimated improvement.
    outcome = sum(_g(phi_j) * (s - _e(mu, mu_j, phi_j)) for mu_j, phi_j, s in games)
    delta = v * outcome
    # Steps 5 to 7.
    new_sigma = _volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * outcome
    # Step 8: back to the Glicko scale.
    deviation = new_phi * SCALE
    if bounds:
        deviation = min(max(deviation, MIN_DEVIATION), MAX_DEVIATION)
    return Rating(new_mu * SCALE + START_RATING, deviation, new_sigma)


def age(player: Rating, days: float) -> Rating:
    """``player``'s rating ``days`` after their last rated game: the deviation grows as in
    Step 6, by ``days / PERIOD_DAYS`` empty rating periods (fractions included)."""
    if days <= 0:
        return player
    phi = player.deviation / SCALE
    grown = math.sqrt(phi * phi + player.volatility ** 2 * days / PERIOD_DAYS) * SCALE
    return Rating(player.rating, min(grown, MAX_DEVIATION), player.volatility)


PROVISIONAL_DEVIATION = 110.0


def provisional(player: Rating) -> bool:
    """A rating is provisional while its deviation is over 110 (about the first five to ten
    games against established players, more against other newcomers): it is shown with a
    question mark and kept off the leaderboard's ranks."""
    return player.deviation > PROVISIONAL_DEVIATION


def game(first: Rating, second: Rating, score: float) -> tuple[Rating, Rating]:
    """Both players' ratings after one game between them (``score``: the first player's),
    each rated against the other's rating before it."""
    return (rate(first, [Result(second.rating, second.deviation, score)]),
            rate(second, [Result(first.rating, first.deviation, 1.0 - score)]))
