"""Glicko-2 (frontlines.web.glicko2): the example in Glickman's paper, and properties any
rating system must have, over the whole range of ratings (hypothesis)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from frontlines.web import glicko2
from frontlines.web.glicko2 import Rating, Result, rate


# --- Glicko-2 --------------------------------------------------------------------------------
def test_the_papers_example() -> None:
    """Glickman, "Example of the Glicko-2 system": 1500/200/0.06 plays 1400/30 (wins),
    1550/100 and 1700/300 (loses): 1464.06, 151.52, 0.05999. The paper rounds its steps to
    four places; computed without rounding the rating is 1464.0507."""
    after = rate(Rating(1500, 200, 0.06), [Result(1400, 30, 1), Result(1550, 100, 0), Result(1700, 300, 0)],
                 bounds=False)
    assert after.rating == pytest.approx(1464.06, abs=0.015)
    assert after.deviation == pytest.approx(151.52, abs=0.005)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_no_games_only_widens_the_deviation() -> None:
    assert rate(Rating(1500, 200, 0.06), [], bounds=False) == Rating(
        1500, math.sqrt((200 / glicko2.SCALE) ** 2 + 0.06 ** 2) * glicko2.SCALE, 0.06)
    assert glicko2.age(Rating(1600, 60, 0.06), 0) == Rating(1600, 60, 0.06)
    assert glicko2.age(Rating(1600, 60, 0.06), 7).deviation == pytest.approx(rate(Rating(1600, 60, 0.06), []).deviation)
    assert 240 < glicko2.age(Rating(1600, 60, 0.06), 3650).deviation < 250  # ten years away
    assert glicko2.age(Rating(1600, 60, 0.06), 100_000).deviation == glicko2.MAX_DEVIATION


ratings = st.floats(min_value=100, max_value=3000)
deviations = st.floats(min_value=glicko2.MIN_DEVIATION, max_value=glicko2.MAX_DEVIATION)
volatilities = st.floats(min_value=0.03, max_value=0.12)
players = st.builds(Rating, ratings, deviations, volatilities)


@settings(max_examples=300, deadline=None)
@given(players, players)
def test_a_win_never_lowers_a_rating_and_a_loss_never_raises_it(me: Rating, them: Rating) -> None:
    won = rate(me, [Result(them.rating, them.deviation, 1.0)])
    lost = rate(me, [Result(them.rating, them.deviation, 0.0)])
    drawn = rate(me, [Result(them.rating, them.deviation, 0.5)])
    assert lost.rating <= drawn.rating <= won.rating
    assert won.rating >= me.rating >= lost.rating
    # A draw pulls a rating towards the opponent's.
    assert (drawn.rating - me.rating) * (them.rating - me.rating) >= -1e-9
    for after in (won, lost, drawn):
        assert all(math.isfinite(x) for x in (after.rating, after.deviation, after.volatility))
        # A game is information: the deviation ends below where the period alone took it
        # (Step 6: the old one widened by the new volatility).
        widened = math.hypot(me.deviation, after.volatility * glicko2.SCALE)
        assert glicko2.MIN_DEVIATION <= after.deviation <= max(widened, glicko2.MIN_DEVIATION) + 1e-6
        assert 0 < after.volatility < 1


@settings(max_examples=200, deadline=None)
@given(ratings, deviations, volatilities, st.sampled_from([0.0, 0.5, 1.0]))
def test_equal_players_win_and_lose_the_same(rating: float, deviation: float, volatility: float, score: float) -> None:
    one = Rating(rating, deviation, volatility)
    first, second = glicko2.game(one, one, score)
    assert first.rating - rating == pytest.approx(rating - second.rating, abs=1e-6)
    assert first.deviation == pytest.approx(second.deviation)


@settings(max_examples=200, deadline=None)
@given(players, ratings, ratings)
def test_beating_a_stronger_opponent_gains_more(me: Rating, a: float, b: float) -> None:
    weaker, stronger = sorted((a, b))
    assert rate(me, [Result(stronger, 80, 1.0)]).rating >= rate(me, [Result(weaker, 80, 1.0)]).rating - 1e-9


def test_a_newcomer_is_provisional_until_enough_games() -> None:
    me, rival = Rating(), Rating(1700, 60, 0.06)
    games = 0
    while glicko2.provisional(me):
        me = rate(me, [Result(rival.rating, rival.deviation, games % 2)])
        games += 1
    assert 4 <= games <= 12 and me.deviation <= glicko2.PROVISIONAL_DEVIATION
