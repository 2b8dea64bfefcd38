"""Exact endgames of the Battle Line family: once both decks are empty nothing is hidden.

With no card left to draw, the cards a player has not seen are exactly the opponent's hand,
so every state consistent with a view is the same state, and the rest of the game is a
game of perfect information. :func:`solve` plays it out exactly: alpha-beta over win (1),
draw (0.5) and loss (0) with a transposition table, claims taken at once (a provable claim
never hurts), moves tried in the order of the cheap rollout policy. It is bounded by a node
budget (work, so the same position always gets the same answer) and a time cap (a safety
net); when either runs out it gives up and the caller searches as usual.

The rules let a game go round in a circle: in Schotten Totten (claims after the card play)
two players who can only pass, one of whom declines a claim each time, reset the stall
count forever; with tactics a player who keeps a playable tactics card in hand and passes
does the same. A line that comes back to a position already on it is such an endless game,
which the referee stops unfinished (a draw in the arena's count): it is valued 0.5, and the
positions whose value leaned on it are not kept in the table (their value depends on the
path that reached them).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any, cast

from frontlines.bots.heuristic import outcome_value
from frontlines.core.game import Action, View
from frontlines.games.battleline.codes import CLAIM_BASE, NUM_FLAGS, PLAY
from frontlines.games.battleline.moves import legal, play
from frontlines.games.battleline.state import BattleLineState, BattleLineView
from frontlines.games.battleline.table import values

TABLE_LIMIT = 400_000  # transposition entries kept (each some 200 bytes); emptied when full


@dataclass(frozen=True)
class Solved:
    """An exact answer: the value for the player to move (1 win, 0.5 draw, 0 loss) and a move reaching it."""

    value: float
    action: Action
    nodes: int


class _OutOfBudget(Exception):
    pass


def exact(view: View) -> bool:
    """Whether ``view`` hides nothing that matters: a Battle Line family view with both decks
    empty (the unseen cards are then the opponent's hand)."""
    return isinstance(view, BattleLineView) and not view.tdeck and not view.xdeck and view.viewer is not None


def _key(s: BattleLineState) -> tuple[Any, ...]:
    """What decides the rest of the game: the table, the hands, whose turn and phase, the
    stall counters, and per flag which side was completed first (not the clock itself)."""
    comp = s.completed
    first = 0
    for f in range(NUM_FLAGS):
        a, b = comp[2 * f], comp[2 * f + 1]
        if a >= 0 and b >= 0 and b < a:
            first |= 1 << f
    return (
        tuple(s.sides), s.hands[0], s.hands[1], tuple(s.claimed), s.to_move, s.phase, s.excess,
        s.passes, s.noops, s.turn_passed, s.turn_noop, s.turn_claims, s.idle, s.turn_claimed, first, s.scout_left, s.ret_left,
        tuple(s.fog), tuple(s.mud), tuple(s.discards), tuple(s.guile), tuple(s.tactics_played), s.leaders,
    )


class Solver:
    """One exact search; its table may be kept from move to move of a game (``table``)."""

    def __init__(self, root: int, nodes: int, deadline: float | None, table: dict[tuple[Any, ...], tuple[float, float]] | None = None) -> None:
        self.root = root
        self.limit = nodes
        self.deadline = deadline
        self.nodes = 0
        self.table: dict[tuple[Any, ...], tuple[float, float]] = {} if table is None else table
        self._rng = random.Random(0)
        self._path: set[tuple[Any, ...]] = set()  # the positions of the line being searched
        self._cycles = 0  # lines cut short so far because they came back to a position on them

    def _order(self, s: BattleLineState, moves: list[int]) -> list[int]:
        if s.phase is not PLAY or len(moves) <= 2:
            return moves
        from frontlines.bots.heuristic_battleline import POLICY

        scores = {a: score for score, a in POLICY.cheap_plays(s)}
        return sorted(moves, key=lambda a: -scores.get(a, -10.0))

    def value(self, s: BattleLineState, alpha: float, beta: float) -> float:
        """The root player's value of ``s``, exact if it lies strictly between the bounds."""
        if s.out is not None:
            return outcome_value(s.out, self.root)
        self.nodes += 1
        if self.nodes > self.limit or (self.deadline is not None and self.nodes % 512 == 0 and time.perf_counter() > self.deadline):
            raise _OutOfBudget
        key = _key(s)
        if key in self._path:
            self._cycles += 1
            return 0.5  # round in a circle: an endless game
        found = self.table.get(key)
        if found is not None:
            lo, hi = found
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
            alpha, beta = max(alpha, lo), min(beta, hi)
        moves = legal(s)
        if moves and CLAIM_BASE <= moves[0] < CLAIM_BASE + NUM_FLAGS and s.phase is PLAY:
            moves = moves[:1]  # a provable claim: take it
        cycles = self._cycles
        self._path.add(key)
        try:
            best = self._search(s, moves, alpha, beta)
        finally:
            self._path.discard(key)
        if self._cycles != cycles:
            return best  # leaned on a circle of this line: true of this path only
        lo, hi = found if found is not None else (0.0, 1.0)
        if best <= alpha:
            hi = min(hi, best)
        elif best >= beta:
            lo = max(lo, best)
        else:
            lo = hi = best
        if len(self.table) >= TABLE_LIMIT:
            self.table.clear()
        self.table[key] = (lo, hi)
        return best

    def _search(self, s: BattleLineState, moves: list[int], alpha: float, beta: float) -> float:
        maximise = s.current_player() == self.root
        best = -1.0 if maximise else 2.0
        for a in self._order(s, moves):
            child = BattleLineState(*values(s))
            play(child, a, moves)
            v = self.value(child, alpha, beta)
            if maximise:
                if v > best:
                    best = v
                    alpha = max(alpha, v)
            elif v < best:
                best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    def best_move(self, s: BattleLineState) -> Solved:
        """The root's value and a move that reaches it (the root player must be to move)."""
        moves = legal(s)
        if moves and CLAIM_BASE <= moves[0] < CLAIM_BASE + NUM_FLAGS and s.phase is PLAY:
            return Solved(self.value(s, -1.0, 2.0), moves[0], self.nodes)
        best_action: int = moves[0]
        best = -1.0
        self._path.add(_key(s))
        for a in self._order(s, moves):
            child = BattleLineState(*values(s))
            play(child, a, moves)
            # a null window just above the best so far: only a better move costs a full search
            v = self.value(child, best, 2.0) if best >= 0 else self.value(child, -1.0, 2.0)
            if v > best:
                best, best_action = v, a
            if best >= 1.0:
                break
        return Solved(best, best_action, self.nodes)


def solve(state: BattleLineState, nodes: int, deadline: float | None = None,
          table: dict[tuple[Any, ...], tuple[float, float]] | None = None) -> Solved | None:
    """The exact value and a best move for the player to move in ``state`` (a full state of
    the Battle Line family), or ``None`` when ``nodes`` or the ``deadline`` run out first."""
    player = state.current_player()
    if player is None:
        raise ValueError("the game is over")
    solver = Solver(player, nodes, deadline, table)
    try:
        return solver.best_move(state)
    except _OutOfBudget:
        return None


def exact_value(state: BattleLineState, player: int, nodes: int,
                table: dict[tuple[Any, ...], tuple[float, float]] | None = None) -> float | None:
    """``player``'s exact value of the full ``state`` (1, 0.5 or 0: every card's place known,
    the decks' order included), or ``None`` when it takes more than ``nodes`` nodes. A
    search that solves many positions of one deal shares their ``table``."""
    if state.out is not None:
        return outcome_value(state.out, player)
    try:
        return Solver(player, nodes, None, table).value(state, -1.0, 2.0)
    except _OutOfBudget:
        return None


def solve_view(view: View, nodes: int, seconds: float | None = None,
               table: dict[tuple[Any, ...], tuple[float, float]] | None = None) -> Solved | None:
    """:func:`solve` from a player's view where it hides nothing that matters (:func:`exact`), else ``None``."""
    if not exact(view):
        return None
    state = cast(BattleLineView, view).sample(random.Random(0))  # the only state the view allows
    deadline = None if seconds is None else time.perf_counter() + seconds
    return solve(state, nodes, deadline, table)
