"""benchmarks/bound_battleline.py: its search is handed the true game, and only its search."""

from __future__ import annotations

import importlib.util
import inspect
import sys
from pathlib import Path
from random import Random
from types import ModuleType

import pytest

from frontlines.bots.heuristic import GamePolicy, policy_for
from frontlines.games import new_state

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "bound_battleline.py"


@pytest.fixture(scope="module")
def bound() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bound_battleline", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclass-free, but pickling by name wants it there
    spec.loader.exec_module(module)
    return module


def test_every_policy_method_is_the_wrapped_one(bound: ModuleType) -> None:
    # a GamePolicy method the wrapper forgot would silently be the generic default
    methods = {name for name, _ in inspect.getmembers(GamePolicy, inspect.isfunction) if not name.startswith("_")}
    assert methods <= set(vars(bound.TrueDealPolicy)), methods - set(vars(bound.TrueDealPolicy))


def test_every_sampled_deal_is_the_true_game(bound: ModuleType) -> None:
    state = new_state("battleline-basic", seed=7)
    mover = state.current_player()
    assert mover is not None
    bot = bound.TrueDealBot("ismcts:iterations=30", seed=3)
    bot.new_game(state.ruleset, mover, 7)
    bot.show(state)
    deals: list[str] = []
    policy = bot.policy
    real = policy.determinise

    def recorded(view: object, rng: Random) -> object:
        deal = real(view, rng)
        deals.append(deal.to_notation())
        return deal

    policy.determinise = recorded
    action = bot.choose(state.view(mover))
    assert action in state.legal_actions()
    assert bot.info()["iterations"] == 30
    assert len(deals) >= 30 and set(deals) == {state.to_notation()}
    # the shipped search, outside the wrapper, samples deals of its own again
    sample = policy_for(state.ruleset).determinise(state.view(mover), Random(1))
    assert sample.to_notation() != state.to_notation()


def test_a_tuned_evaluation_keeps_the_true_deal(bound: ModuleType) -> None:
    state = new_state("battleline-basic", seed=8)
    policy = bound.TrueDealPolicy(policy_for(state.ruleset))
    policy.truth = state
    tuned = policy.with_evaluation(4, 0.0)
    assert tuned.determinise(state.view(0), Random(1)).to_notation() == state.to_notation()
    assert policy.deals == 1


def test_shown_another_game_it_refuses(bound: ModuleType) -> None:
    bot = bound.TrueDealBot("ismcts:iterations=5", seed=1)
    state, other = new_state("battleline-basic", seed=1), new_state("battleline-basic", seed=2)
    mover = state.current_player()
    bot.new_game(state.ruleset, mover, 1)
    bot.show(other)
    with pytest.raises(RuntimeError, match="another game"):
        bot.choose(state.view(mover))
    with pytest.raises(ValueError, match="not an ismcts spec"):
        bound.TrueDealBot("heuristic")


def test_one_deal_from_both_seats(bound: ModuleType) -> None:
    rows = bound.play_deal(("battleline-basic", "ismcts:iterations=8", "heuristic", 101, 0))
    assert [row["seat"] for row in rows] == [0, 1]
    assert {row["deal"] for row in rows} == {1}
    assert all(row["score"] in (0.0, 0.5, 1.0) and row["actions"] > 0 for row in rows)
