"""The learned evaluation (frontlines.bots.learned): view-only features, the weights file's
checks, the fallback without numpy, the training pipeline and the search with it."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import cast

import pytest

from frontlines.bots import make_bot
from frontlines.bots.heuristic import HeuristicBot, policy_for
from frontlines.bots.heuristic_battleline import calibrated, game_value
from frontlines.bots.learned import (
    FEATURE_SIZE,
    LAYOUT_HASH,
    LearnedBattleLinePolicy,
    WeightsError,
    feature_list,
    learned_policy,
    shipped_model,
    todays_value,
)
from frontlines.games import new_state
from frontlines.games.battleline.state import BattleLineState

np = pytest.importorskip("numpy")

from frontlines.bots.learned import ValueModel  # noqa: E402
from frontlines.bots.training import Report, baseline, generate, train  # noqa: E402


def _midgame(ruleset: str, seed: int, moves: int = 30) -> BattleLineState:
    state = cast(BattleLineState, new_state(ruleset, seed=seed))
    bots = [HeuristicBot(seed=seed), HeuristicBot(seed=seed + 1)]
    for _ in range(moves):
        player = state.current_player()
        assert player is not None
        state.apply(bots[player].choose(state.view(player)))
    return state


@pytest.fixture(scope="module")
def small() -> tuple[ValueModel, Report]:
    data = generate(["battleline-basic"], 40, seed=3, keep=1.0, progress=False)
    return train(data, seed=3, hidden=(8,), epochs=8, decay=1e-3, progress=False, holdout=0.25)


@pytest.mark.parametrize("ruleset", ["battleline", "battleline-basic"])
def test_features_read_only_the_movers_view(ruleset: str) -> None:
    """Any deal consistent with the mover's view gives the same features: hidden cards are never read."""
    state = _midgame(ruleset, 11)
    player = state.current_player()
    assert player is not None
    features = feature_list(state, player)
    assert len(features) == FEATURE_SIZE
    rng = random.Random(5)
    for _ in range(4):
        other = cast(BattleLineState, state.view(player).sample(rng))
        assert other.hands[1 - player] != state.hands[1 - player] or other.tdeck != state.tdeck
        assert feature_list(other, player) == features
    # the other player's features differ: they see another hand
    assert feature_list(state, 1 - player) != features


def test_todays_value_matches_the_heuristics_evaluation() -> None:
    state = _midgame("battleline", 4)
    player = state.current_player()
    assert player is not None
    features = feature_list(state, player)
    value, _ = game_value(features[-12:-3], with_weights=False)  # the flag odds as independent coins
    assert todays_value(features) == pytest.approx(calibrated(value, state), abs=1e-6)
    # ... which is today's evaluation, but for which sampled futures stand behind the odds
    assert todays_value(features) == pytest.approx(policy_for("battleline").evaluate(state, player), abs=0.1)


def test_short_training_learns_something(small: tuple[ValueModel, Report]) -> None:
    """The --short pipeline's check: training loss falls, and held-out games are predicted
    better than by today's evaluation (where the network starts) and by a coin toss."""
    _, report = small
    history = report.history
    assert history[-1][0] < history[0][0]
    assert report.test_loss < report.baseline_loss < 0.6931
    assert report.test_brier < report.coin_brier


def test_weights_round_trip_and_refusals(small: tuple[ValueModel, Report], tmp_path: Path) -> None:
    model, _ = small
    path = tmp_path / "w.npz"
    model.save(path)
    again = ValueModel.load(path)
    x = np.asarray([feature_list(_midgame("battleline-basic", s), 0) for s in (1, 2)], dtype=np.float32)
    assert np.allclose(model.predict(x), again.predict(x))
    assert again.rulesets == {"battleline-basic"}
    # a file made for another feature layout or format version is refused, with the reason
    with np.load(path) as data:
        arrays = dict(data)
    for key, bad in (("layout", "0123456789abcdef"), ("version", 99)):
        header = {"version": 1, "layout": LAYOUT_HASH, "rulesets": ["battleline"], key: bad}
        arrays["header"] = np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)
        np.savez(tmp_path / "bad.npz", **arrays)
        with pytest.raises(WeightsError, match=r"layout|version"):
            ValueModel.load(tmp_path / "bad.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a file of weights")
    with pytest.raises(WeightsError, match="not a weights file"):
        ValueModel.load(tmp_path / "junk.npz")


def test_learned_policy_only_where_the_model_plays(small: tuple[ValueModel, Report]) -> None:
    model, _ = small
    base = policy_for("battleline-basic")
    learned = learned_policy(base, "battleline-basic", model=model)
    assert isinstance(learned, LearnedBattleLinePolicy)
    assert learned_policy(base, "schotten-totten", model=model) is base  # not trained there
    assert learned_policy(policy_for("warmachine"), "warmachine", model=model) is policy_for("warmachine")
    state = _midgame("battleline-basic", 8)
    player = state.current_player()
    assert player is not None
    value = learned.evaluate(state, player)
    assert 0.0 < value < 1.0
    # mix 0 is today's evaluation exactly
    assert learned_policy(base, "battleline-basic", 0.0, model=model).evaluate(state, player) == pytest.approx(
        todays_value(feature_list(state, player)), abs=1e-9
    )


def test_shipped_weights_cover_battleline_and_beat_a_coin_toss() -> None:
    """The packaged weights load (version and layout match the code) and predict games they
    were not trained on (another seed) better than a coin toss."""
    model = shipped_model()
    assert model is not None
    assert {"battleline", "battleline-basic"} <= model.rulesets
    data = generate(["battleline", "battleline-basic"], 6, seed=987, keep=1.0, progress=False)
    p = model.predict(data.x)
    brier = float(np.mean((p - data.y) ** 2))
    assert brier < float(np.mean((0.5 - data.y) ** 2))
    assert brier < float(np.mean((baseline(data.x) - data.y) ** 2)) + 0.02


def test_search_with_the_learned_value_is_reproducible() -> None:
    state = _midgame("battleline", 21, moves=20)
    player = state.current_player()
    assert player is not None
    view = state.view(player)
    moves = [make_bot("ismcts:iterations=60,value=1", seed=2).choose(view) for _ in range(2)]
    assert moves[0] == moves[1] and moves[0] in view.legal_actions()


def test_without_numpy_the_search_keeps_todays_evaluation() -> None:
    """With numpy missing, ``value=1`` falls back to the heuristic's evaluation: the same
    moves as ``value=0`` for the same seed (a fresh interpreter where numpy cannot load)."""
    code = textwrap.dedent(
        """
        import sys
        sys.modules["numpy"] = None  # what a missing numpy looks like to an import
        from frontlines.bots import make_bot
        from frontlines.bots.heuristic import HeuristicBot, policy_for
        from frontlines.bots.learned import available, learned_policy, numpy_available
        from frontlines.games import new_state
        assert not numpy_available() and not available("battleline")
        assert learned_policy(policy_for("battleline"), "battleline") is policy_for("battleline")
        state = new_state("battleline", seed=21)
        bots = [HeuristicBot(seed=1), HeuristicBot(seed=2)]
        for _ in range(20):
            p = state.current_player()
            state.apply(bots[p].choose(state.view(p)))
        view = state.view(state.current_player())
        a = make_bot("ismcts:iterations=40,value=1", seed=3).choose(view)
        b = make_bot("ismcts:iterations=40", seed=3).choose(view)
        assert a == b, (a, b)
        print("fallback ok")
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "fallback ok" in done.stdout
