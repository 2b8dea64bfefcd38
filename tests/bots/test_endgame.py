"""The exact endgame of the Battle Line family: against plain minimax, and as the bots use it."""

from __future__ import annotations

import random
from typing import cast

import pytest

from frontlines.bots import make_bot
from frontlines.bots.endgame import Solver, exact, solve, solve_view
from frontlines.bots.heuristic import outcome_value, policy_for
from frontlines.games import new_state, parse_state
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


# Schotten Totten (claims after the card play), both decks empty, from an arena game of
# pimc against the heuristic (2026-12-05) where the search crashed with a RecursionError:
# neither player can play a card any more, so both only pass, and player 0 may then claim
# flag 3 (a breakthrough). A line where player 0 declines that claim each time resets the
# stall count, and the two passes go round in a circle forever.
SCHOTTEN_STUCK = (
    "battleline ruleset=schotten-totten to=1 phase=draw n=148 st=0.0.1.1.0 f1=0/Y5.B5.P5:90/B4.R4.Y4:17/ "
    "f2=0/O6.Y6.G6:72/O5.O3.O9:57/ f3=-/P3.P1.P2:47/P7.P8.B9:103/ f4=1/G1.Y1/G4.G5.G3:61/ "
    "f5=0/O8.O4.O1:81/Y7.G8/ f6=1/R8.R3/G2.R2.O2:93/ f7=0/P4.P6.P9:100/R5.R6.R1:98/ "
    "f8=-/G7.O7.R7:77/B2.B3.Y2:107/ f9=1/B6.B8.Y8:105/R9.G9.Y9:21/ h0=Y3.B1 h1=B7 td="
)
# The position of that game where the search was asked to move (player 1, six cards each;
# the exact search runs out of its 200,000 nodes there and the sampling search decides).
SCHOTTEN_CRASH = (
    "battleline ruleset=schotten-totten to=1 phase=play n=87 f1=-/Y5.B5/B4.R4.Y4:17/ "
    "f2=0/O6.Y6.G6:72/O5.O3.O9:57/ f3=-/P3.P1.P2:47/P7.P8/ f4=1/G1.Y1/G4.G5.G3:61/ "
    "f5=0/O8.O4.O1:81/Y7.G8/ f6=-/R8.R3/G2/ f7=-/P4/R5.R6/ f8=-/G7.O7.R7:77/B2.B3/ "
    "f9=-/B6.B8/R9.G9.Y9:21/ h0=Y3.Y8.B1.P5.P6.P9 h1=R1.R2.O2.Y2.B7.B9 td="
)


def test_a_line_that_goes_round_in_a_circle_ends_the_search() -> None:
    state = cast(BattleLineState, parse_state(SCHOTTEN_STUCK))
    solved = solve(state.clone(), 100_000)
    assert solved is not None
    assert solved.value == 0.0 == _minimax(state.clone(), 1)  # player 0 claims flag 3 and wins
    assert Solver(0, 100_000, None).value(state.clone(), -1.0, 2.0) == 1.0


def test_the_sampling_search_moves_where_the_endgame_could_go_round_forever() -> None:
    state = cast(BattleLineState, parse_state(SCHOTTEN_CRASH))
    bot = make_bot("pimc", seed=0)
    bot.new_game("schotten-totten", 1, 0)
    assert bot.choose(state.view(1)) in state.legal_actions()  # (it raised RecursionError)
