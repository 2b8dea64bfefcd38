"""benchmarks/bound_battleline.py: its search is handed the true game, and only its search."""

from __future__ import annotations

import importlib.util
import inspect
import json
import sys
from pathlib import Path
from random import Random
from types import ModuleType
from typing import Any

import pytest

from frontlines.bots.heuristic import GamePolicy, policy_for
from frontlines.core import State
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


def choose_recording_deals(bound: ModuleType, spec: str, seed: int) -> tuple[State, Any, list[str]]:
    """A move of ``TrueDealBot(spec)`` shown the game of ``seed``, with every deal its search drew."""
    state = new_state("battleline-basic", seed=seed)
    mover = state.current_player()
    assert mover is not None
    bot = bound.TrueDealBot(spec, seed=3)
    bot.new_game(state.ruleset, mover, seed)
    bot.show(state)
    deals: list[str] = []
    real = bot.policy.determinise

    def recorded(view: object, rng: Random) -> object:
        deal = real(view, rng)
        deals.append(deal.to_notation())
        return deal

    bot.policy.determinise = recorded
    assert bot.choose(state.view(mover)) in state.legal_actions()
    return state, bot, deals


def test_every_sampled_deal_is_the_true_game(bound: ModuleType) -> None:
    state, bot, deals = choose_recording_deals(bound, "ismcts:iterations=30", 7)
    mover = state.current_player()
    assert mover is not None
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
    with pytest.raises(ValueError, match="neither an ismcts nor a pimc spec"):
        bound.TrueDealBot("heuristic")


def test_one_deal_from_both_seats(bound: ModuleType) -> None:
    rows = bound.play_deal(("battleline-basic", "ismcts:iterations=8", "heuristic", 101, 0))
    assert [row["seat"] for row in rows] == [0, 1]
    assert {row["deal"] for row in rows} == {1}
    assert all(row["score"] in (0.0, 0.5, 1.0) and row["actions"] > 0 for row in rows)


def test_pimc_judges_every_candidate_on_the_true_game(bound: ModuleType) -> None:
    state, bot, deals = choose_recording_deals(bound, "pimc:deals=3,refine=3,refine_deals=5,refine_margin=1", 9)
    info = bot.info()
    assert info["deals"] == 3 and info["refine_deals"] == 5
    assert len(deals) == 8 and set(deals) == {state.to_notation()}


def test_pooled_records_pair_deal_by_deal_with_the_arena(bound: ModuleType, tmp_path: Path) -> None:
    spec = "pimc:deals=4"
    rows = [  # deal 11: both games won; deal 12: one of two; deal 13: seat 1 only (dropped over deals)
        {"spec": spec, "seed": 11, "seat": 0, "score": 1.0}, {"spec": spec, "seed": 11, "seat": 1, "score": 1.0},
        {"spec": spec, "seed": 12, "seat": 0, "score": 0.0}, {"spec": spec, "seed": 12, "seat": 1, "score": 1.0},
        {"spec": spec, "seed": 13, "seat": 1, "score": 0.0},
    ]
    records = tmp_path / "b.jsonl"
    records.write_text("".join(json.dumps(row) + "\n" for row in rows))

    def game(seed: int, first: str, result: str) -> str:
        second = "hard" if first == "master" else "master"
        return json.dumps({"tags": {"Seed": str(seed), "Player0": first, "Player1": second, "Result": result}}) + "\n"

    # the ordinary master: deal 11 won once (seat 0), deal 12 lost twice
    arena = tmp_path / "c.jsonl"
    arena.write_text(game(11, "master", "1-0") + game(11, "hard", "1-0") + game(12, "master", "0-1") + game(12, "hard", "1-0"))
    report = bound.pooled_report([records], [arena], "master")
    first, second = report.splitlines()
    assert "3/5 = 60.0 %" in first and "over 2 deals 75.0 %" in first and "pentanomial [0, 0, 1, 0, 1]" in first
    # differences per deal: (2 - 1) / 2 and (1 - 0) / 2, both +0.5
    assert "over 2 deals with the other records ('master' in arena records): 25.0 % there; difference +50.0 points (+50.0..+50.0)" in second
    # against the bound's own records: the same games, no difference
    assert "difference +0.0 points (+0.0..+0.0)" in bound.pooled_report([records], [records], "master")
    with pytest.raises(SystemExit, match="0 deal"):
        bound.pooled_report([records], [arena], "nobody")
