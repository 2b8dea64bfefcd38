"""Search mechanics on a tiny hidden-information game (no dependency on the real games)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from searchclock import search_clock
from toygame import ToyState

from frontlines.bots.heuristic import GamePolicy
from frontlines.bots.ismcts import ISMCTSBot, SearchParams, ValueSpread, search
from frontlines.bots.random_bot import RandomBot


def _position(total: int, mine: list[int], theirs: list[int], deck: list[int]) -> ToyState:
    return ToyState((list(mine), list(theirs)), list(deck), total=total, to_move=0)


def test_ismcts_takes_the_immediate_win() -> None:
    state = _position(7, [1, 3, 2], [1, 2, 3], [1, 1, 2, 2, 3])
    bot = ISMCTSBot(seed=1, time=None, iterations=300)
    assert bot.choose(state.view(0)) == 3
    info = bot.info()
    assert info["iterations"] == 300 and info["win_probability"] > 0.9 and info["nodes"] > 1


def test_ismcts_avoids_handing_over_the_win() -> None:
    # Total 6, and every unseen card is a 2. Playing 2 leaves 8: the opponent's 2 wins.
    # Playing 1 leaves 7: they must play a 2 (9), and our 1 then makes 10.
    state = _position(6, [1, 2, 1], [2, 2, 2], [2, 2, 2])
    bot = ISMCTSBot(seed=3, time=None, iterations=2000)
    assert bot.choose(state.view(0)) == 1


def test_same_seed_same_move_and_statistics() -> None:
    state = ToyState.deal(11)
    a = ISMCTSBot(seed=5, time=None, iterations=400)
    b = ISMCTSBot(seed=5, time=None, iterations=400)
    assert a.choose(state.view(0)) == b.choose(state.view(0))
    assert a.info()["top"] == b.info()["top"]


def test_search_respects_max_nodes_and_time(monkeypatch: pytest.MonkeyPatch) -> None:
    state = ToyState.deal(4)
    result = search(state.view(0), SearchParams(time=None, iterations=500, max_nodes=20), random.Random(0), GamePolicy())
    assert result.nodes <= 20 and result.iterations == 500
    search_clock(monkeypatch, 0.001)  # a fake clock, 1 ms a reading: the search reads it once an iteration
    timed = search(state.view(0), SearchParams(time=0.05), random.Random(0), GamePolicy())
    assert abs(timed.iterations - 50) <= 1 and timed.seconds == pytest.approx(0.05, abs=0.002)


def test_prior_keeps_its_share_as_the_search_runs_longer() -> None:
    state = ToyState.deal(4)
    view = state.view(0)
    legal = view.legal_actions()
    prior = {a: 0.5 for a in legal}
    for iterations, rate, expected in ((300, 0.0, 10), (300, 0.1, 30), (50, 0.1, 10)):
        params = SearchParams(time=None, iterations=iterations, prior_visits=10, prior_rate=rate)
        with_prior = search(view, params, random.Random(0), GamePolicy(), prior=prior)
        without = search(view, params, random.Random(0), GamePolicy())
        # same seed, same samples: the extra visits are exactly the virtual ones
        virtual = sum(n for n, _ in with_prior.stats.values()) - sum(n for n, _ in without.stats.values())
        assert virtual == expected * len(legal), (iterations, rate)
    with pytest.raises(ValueError):
        ISMCTSBot(prior_rate=-1)


def test_value_spread_scales_exploration_by_how_far_apart_values_are() -> None:
    spread = ValueSpread()
    for _ in range(19):
        spread.add(0.5)
    assert spread.factor() == 1.0  # too few values to judge: the constant as given
    spread.add(0.5)
    assert spread.factor() == 0.0  # all alike: nothing to explore for
    close = ValueSpread()
    for i in range(100):
        close.add(0.48 if i % 2 else 0.52)
    assert abs(close.factor() - 0.04) < 1e-9  # twice the standard deviation, 0.02
    wide = ValueSpread()
    for i in range(100):
        wide.add(float(i % 2))
    assert wide.factor() == 1.0  # wins and losses: capped at the plain constant


def test_scaled_exploration_focuses_visits_when_values_bunch_together() -> None:
    state = ToyState.deal(0)  # three legal moves
    view = state.view(0)
    params = SearchParams(time=None, iterations=600, scale_exploration=1)
    scaled = search(view, params, random.Random(0), GamePolicy())
    fixed = search(view, replace(params, scale_exploration=0), random.Random(0), GamePolicy())
    # the generic policy's cut-off is 0.5 everywhere, so values bunch (the moves tie);
    # scaled, the search stops spreading its visits and one root move takes most of them
    top = max(n for n, _ in scaled.stats.values()) / sum(n for n, _ in scaled.stats.values())
    top_fixed = max(n for n, _ in fixed.stats.values()) / sum(n for n, _ in fixed.stats.values())
    assert top > top_fixed


def test_bad_params_rejected() -> None:
    with pytest.raises(ValueError):
        ISMCTSBot(time=None, iterations=None)
    with pytest.raises(ValueError):
        ISMCTSBot(workers=0)
    with pytest.raises(ValueError):
        ISMCTSBot(scale_exploration=2)
    with pytest.raises(ValueError):
        ISMCTSBot(late_horizon=-1)
    with pytest.raises(ValueError):
        ISMCTSBot(late_from=-0.5)
    for bad in ({"eval_samples": -1}, {"late_eval_samples": 5000}, {"eval_scale": -0.5}, {"late_eval_scale": 1000.0}):
        with pytest.raises(ValueError):
            ISMCTSBot(**bad)  # type: ignore[arg-type]


def test_random_bot_plays_toy_games() -> None:
    for seed in range(20):
        state = ToyState.deal(seed)
        bots = [RandomBot(seed), ISMCTSBot(seed=seed, time=None, iterations=30)]
        while not state.is_terminal():
            player = state.current_player()
            assert player is not None
            state.apply(bots[player].choose(state.view(player)))
