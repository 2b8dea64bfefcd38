"""The exact endgame of the Battle Line family: against plain minimax, and as the bots use it."""

from __future__ import annotations

import random
from typing import cast

import pytest

from frontlines.bots import make_bot
from frontlines.bots.endgame import Solver, exact, solve, solve_view
from frontlines.bots.heuristic import outcome_value, policy_for
from frontlines.games import new_state
from frontlines.games.battleline.state import BattleLineState


def _deck_empty(ruleset: str, seed: int, hand_cards: int = 7) -> BattleLineState | None:
    """A heuristic self-play game of ``ruleset`` at the first decision, once both decks are
    empty and the mover holds at most ``hand_cards`` cards, with a choice to make (or None)."""
    state = cast(BattleLineState, new_state(ruleset, seed=seed))
    policy = policy_for(ruleset)
    rng = random.Random(seed)
    while not state.is_terminal():
        player = state.current_player()
        assert player is not None
        view = state.view(player)
        legal = view.legal_actions()
        if exact(view) and len(legal) > 1 and policy.forced(view, legal) is None and state.hand_count(player) <= hand_cards:
            return state
        state.apply(policy.choose(view, rng))
    return None


def _minimax(state: BattleLineState, root: int) -> float:
    """The root player's value by plain minimax over every legal action, a provable claim
    taken at once (declining claims forever could pass forever)."""
    if state.is_terminal():
        return outcome_value(state.outcome(), root)
    values = []
    legal = state.legal_actions()
    claim = policy_for(state.ruleset).forced(state, legal)
    for action in [claim] if claim is not None else legal:
        child = state.clone()
        child.apply(action)
        values.append(_minimax(child, root))
    return max(values) if state.current_player() == root else min(values)


def test_solver_agrees_with_plain_minimax() -> None:
    checked = 0
    for seed in range(40):
        state = _deck_empty("battleline-basic", seed, hand_cards=5)
        if state is None:
            continue
        root = state.current_player()
        assert root is not None
        solved = solve(state.clone(), 1_000_000)
        assert solved is not None
        assert solved.value == _minimax(state.clone(), root)
        # the move it names reaches that value
        child = state.clone()
        child.apply(solved.action)
        assert _minimax(child, root) == solved.value
        checked += 1
        if checked == 4:
            return
    pytest.fail(f"only {checked} endgames found")


def test_views_with_cards_to_draw_are_not_exact() -> None:
    state = new_state("battleline-basic", seed=3)
    view = state.view(state.current_player())
    assert not exact(view)
    assert solve_view(view, 10_000) is None
    assert not exact(new_state("warmachine", seed=3).view(0))


def test_an_exhausted_budget_gives_no_answer() -> None:
    for seed in range(40):
        state = _deck_empty("battleline-basic", seed)
        if state is None:
            continue
        solved = solve(state.clone(), 1_000_000)
        if solved is not None and solved.nodes > 20:
            assert solve(state.clone(), 5) is None
            return
    pytest.fail("no endgame needing more than 20 nodes")


def _value_after(state: BattleLineState, action: int, root: int) -> float:
    child = state.clone()
    child.apply(action)
    return Solver(root, 1_000_000, None).value(child, -1.0, 2.0)


@pytest.mark.parametrize("seed", [72, 122, 176])
def test_the_sampling_search_plays_a_winning_move_once_the_decks_are_empty(seed: int) -> None:
    # heuristic self-play games whose first decision with both decks empty is a win for the
    # mover with some moves only, and the heuristic picks a losing one (3 such in 200 games)
    state = _deck_empty("battleline-basic", seed)
    assert state is not None
    root = state.current_player()
    assert root is not None
    outcomes = {a: _value_after(state, cast(int, a), root) for a in state.legal_actions()}
    assert max(outcomes.values()) == 1.0
    heuristic = make_bot("heuristic", seed=1)
    heuristic.new_game("battleline-basic", root, seed)
    assert outcomes[heuristic.choose(state.view(root))] < 1.0
    bot = make_bot("pimc:deals=2", seed=1)
    bot.new_game("battleline-basic", root, seed)
    assert outcomes[bot.choose(state.view(root))] == 1.0
    assert bot.info()["endgame"] is True and bot.info()["win_probability"] == 1.0
