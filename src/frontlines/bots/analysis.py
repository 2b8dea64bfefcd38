"""A review of a played game: per decision, the mover's win chance before and after its move.

Each decision where the mover had a choice (more than one legal action, no provable claim
to take) is judged from the mover's own view, as it was when the move was made: the
sampling search (:mod:`frontlines.bots.pimc`) judges the heuristic's best moves and the
move played on the same deals; *before* is the best of them (the chance with the move
the bot prefers), *after* the chance with the move played, and *loss* the difference.
Where nothing is hidden any more (the Battle Line family with both decks empty) the values
are exact (:mod:`frontlines.bots.endgame`): 1, 0.5 or 0.

The work per decision is the search's (deals times candidates); every decision's seed
comes from its view, so a review of the same record with the same parameters is the same.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, replace
from typing import Any, cast

from frontlines.bots.endgame import Solver, exact, solve_view
from frontlines.bots.heuristic import policy_for
from frontlines.bots.ismcts import _stable_seed
from frontlines.bots.pimc import PimcBot, PimcParams, judge

__all__ = ["BLUNDER", "MISTAKE", "REVIEW_PARAMS", "MoveReview", "PimcParams", "Summary", "review_decision", "review_record", "summarise"]
from frontlines.core.game import Action, State, View
from frontlines.core.record import GameRecord
from frontlines.games.battleline.state import BattleLineState

# A move that loses this much win chance is a mistake, this much a blunder (and the paired
# deals must show the loss beyond twice its standard error: the search's noise is no mistake).
MISTAKE = 0.07
BLUNDER = 0.15
# What a review spends per decision unless told otherwise: the candidates and deals of a
# quick search (a game of some 50 decisions reviews in seconds), judged by the learned flag
# network where it covers the ruleset (its win chances are the better calibrated), else by
# the heuristic's evaluation.
REVIEW_PARAMS = PimcParams(deals=24, width=6, net=1)


@dataclass(frozen=True)
class MoveReview:
    """One decision of a game, judged from the mover's view."""

    index: int  # the action's place in the record (0 = its first action)
    player: int  # the mover (seat)
    move: str  # the action played, as text
    best: str  # the action the search prefers
    before: float  # the mover's win chance with the preferred move
    after: float  # with the move played
    loss: float  # before - after, never below 0
    error: float  # standard error of the loss over the deals (0 when exact)
    exact: bool  # values from the exact endgame
    verdict: str  # "", "mistake" or "blunder"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _verdict(loss: float, error: float) -> str:
    if loss < MISTAKE or loss <= 2 * error:
        return ""
    return "blunder" if loss >= BLUNDER else "mistake"


def review_decision(view: View, played: Action, index: int, params: PimcParams = REVIEW_PARAMS, seed: int = 0) -> MoveReview:
    """The review of ``played`` in ``view`` (the mover's view; the mover must be to move)."""
    player = view.viewer
    assert player is not None
    text = view.action_to_text(played)
    if exact(view):
        solved = solve_view(view, params.endgame_nodes)
        if solved is not None:
            state = cast(BattleLineState, view.sample(random.Random(0)))  # the only state the view allows
            child = state.clone()
            child.apply(played)
            after = Solver(player, params.endgame_nodes, None).value(child, -1.0, 2.0) if played != solved.action else solved.value
            loss = max(0.0, solved.value - after)
            preferred = view.action_to_text(solved.action) if loss > 0 else text
            return MoveReview(index, player, text, preferred, solved.value, after, loss, 0.0, True, _verdict(loss, 0.0))
    policy = policy_for(view.ruleset)
    decision_seed = _stable_seed(seed, view.to_notation())
    actions = PimcBot(seed, params).candidates(view, policy, decision_seed)
    if played not in actions:
        actions.append(played)
    judged = judge(view, actions, params, decision_seed, policy)
    best = judged.best()
    mine = actions.index(played)
    loss, error = judged.difference(best, mine) if best != mine else (0.0, 0.0)
    before, after = judged.mean(best), judged.mean(mine)
    return MoveReview(
        index, player, text, view.action_to_text(actions[best]), before, after, max(0.0, loss), error, False,
        _verdict(loss, error),
    )


def decisions(record: GameRecord, parse_state: Callable[[str], State]) -> Iterator[tuple[int, View, Action]]:
    """(index, the mover's view, the action played) of every decision with a choice."""
    states = record.states(parse_state)
    for index, (state, text) in enumerate(zip(states, record.actions, strict=False)):
        player = state.current_player()
        if player is None:
            return
        view = state.view(player)
        legal = view.legal_actions()
        if len(legal) < 2 or policy_for(view.ruleset).forced(view, legal) is not None:
            continue
        yield index, view, view.parse_action(text)


def review_record(
    record: GameRecord,
    parse_state: Callable[[str], State],
    params: PimcParams = REVIEW_PARAMS,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> list[MoveReview]:
    """The review of every decision of ``record`` with a choice, in order (``progress(done, total)``
    after each). Actions are checked on the way: a record with an illegal action raises
    :class:`frontlines.core.errors.NotationError`."""
    params = replace(params, time=None)  # the same review whatever the load
    todo = list(decisions(record, parse_state))
    out: list[MoveReview] = []
    for done, (index, view, played) in enumerate(todo, 1):
        out.append(review_decision(view, played, index, params, seed))
        if progress is not None:
            progress(done, len(todo))
    return out


@dataclass(frozen=True)
class Summary:
    """Per seat: decisions judged, mean loss, mistakes and blunders."""

    decisions: tuple[int, int]
    mean_loss: tuple[float, float]
    mistakes: tuple[int, int]
    blunders: tuple[int, int]

    def to_dict(self) -> dict[str, Any]:
        return {k: list(v) for k, v in asdict(self).items()}


def summarise(reviews: list[MoveReview]) -> Summary:
    counts, losses, mistakes, blunders = [0, 0], [0.0, 0.0], [0, 0], [0, 0]
    for r in reviews:
        counts[r.player] += 1
        losses[r.player] += r.loss
        mistakes[r.player] += r.verdict == "mistake"
        blunders[r.player] += r.verdict == "blunder"
    mean = tuple(losses[p] / counts[p] if counts[p] else 0.0 for p in (0, 1))
    return Summary((counts[0], counts[1]), (mean[0], mean[1]), (mistakes[0], mistakes[1]), (blunders[0], blunders[1]))
