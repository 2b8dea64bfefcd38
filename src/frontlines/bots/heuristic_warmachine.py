"""Heuristic play for War Machine.

Every country of the war front is one battle. The model gives each open battle a chance
that I win it: a logistic curve of the strength margin there, flatter while its support
pile still holds many cards (more time for the opponent to answer). The value of the
position, in points, is then

    sum over battles p of  P(p) * (front points of p + my hand halves of p's country)
                         - (1 - P(p)) * (front points of p + the opponent's expected halves)

so a country is worth more to me when my hand holds its colours (hand scoring), and a
card in hand is worth the chances of the countries it shows. Moves are scored by how they
change this value, with no copying of the board:

* deploy a card end-up at a battle: the margin grows by 2 (war machine) or 1 (infantry),
  the card leaves the hand, and one or two support cards come in (each worth about the
  average country chance twice, plus a little for flexibility);
* burn: the card leaves the hand, one card comes in (rarely right, but it sheds a dead
  card);
* draw from a pile: brings that battle nearer, or fights it now with the last card - good
  where I lead, bad where I trail ("piles near exhaustion").

The same arithmetic is cheap enough to be the ISMCTS rollout policy, and the value turned
into a win chance is the static evaluation at a rollout cut-off. The bot reads only its
view's board (hidden cards there are ``UNKNOWN``).
"""

from __future__ import annotations

import math
import random
from typing import cast

from frontlines.bots.heuristic import GamePolicy, outcome_value
from frontlines.core.errors import NotationError
from frontlines.core.game import Action, State, View
from frontlines.games.warmachine.cards import INF, STRENGTH, UNKNOWN, WM
from frontlines.games.warmachine.engine import WarMachineState, WarMachineView, sample_board
from frontlines.games.warmachine.rules import (
    BURN,
    CHOOSE,
    DRAW,
    DRAW_A,
    NOWIN,
    OPEN,
    PENDING,
    PLAY,
    TAKE2,
    TAKE2_CARDS,
    WON0,
    Board,
)

_SLOPE = 1.1  # logistic slope per point of strength margin when the pile is nearly empty
_DRAW_EXTRA = 0.35  # value of one more card in hand beyond its expected points (options)
_SCALE = 2.5  # points of value difference that make a 73 % (1/(1+e^-1)) favourite


def _chance(margin: int, left: int) -> float:
    """Chance to win a battle with strength ``margin`` and ``left`` support cards to go."""
    if left <= 0:
        return 1.0 if margin > 0 else 0.0 if margin < 0 else 0.5
    return 1.0 / (1.0 + math.exp(-_SLOPE * margin / math.sqrt(left)))


class _Model:
    """Per-battle chances and point values for player ``me`` on a (possibly masked) board."""

    def __init__(self, b: Board, me: int) -> None:
        self.b = b
        self.me = me
        opp = 1 - me
        self.pos_of = [0] * 6  # country -> position
        for p in range(6):
            self.pos_of[b.front_country[p]] = p
        self.chance = [0.5] * 6
        for p in range(6):
            self.chance[p] = self.battle_chance(p, 0)
        hand = b.hands[me]
        self.halves = [0] * 6  # my hand's halves per position
        for c in hand:
            if c != UNKNOWN:
                self.halves[self.pos_of[c // 6]] += 1
                self.halves[self.pos_of[c % 6]] += 1
        opp_cards = len(b.hands[opp])
        self.opp_halves = opp_cards * 2 / 6  # expected halves per country in the opponent's hand
        self.points = [2 if b.front_type[p] == WM else 1 for p in range(6)]

    def battle_chance(self, p: int, extra: int, left: int | None = None) -> float:
        b = self.b
        st = b.status[p]
        if st == WON0 + self.me:
            return 1.0
        if st == WON0 + 1 - self.me:
            return 0.0
        if st == NOWIN:
            return 0.5
        if st == PENDING:
            r = b.ref(p)
            return self.chance[r] if r >= 0 and r != p else 0.5
        s = b.strength[p]
        margin = s[self.me] - s[1 - self.me] + extra
        return _chance(margin, len(b.piles[p]) if left is None else left)

    def term(self, p: int, chance: float, halves: int | None = None) -> float:
        h = self.halves[p] if halves is None else halves
        pts = self.points[p]
        return chance * (pts + h) - (1.0 - chance) * (pts + self.opp_halves)

    def value(self) -> float:
        return sum(self.term(p, self.chance[p]) for p in range(6)) + _DRAW_EXTRA * len(self.b.hands[self.me])

    def card_value(self, c: int) -> float:
        """What a card in my hand adds: the chances of the two countries it shows."""
        return self.chance[self.pos_of[c // 6]] + self.chance[self.pos_of[c % 6]]

    def draw_value(self) -> float:
        return 2.0 * sum(self.chance) / 6.0 + _DRAW_EXTRA

    def score(self, a: int) -> float:
        """Change of value an action brings (0 for an action with no modelled effect)."""
        b = self.b
        if a < 432:
            c, orient, p = a // 12, (a // 6) & 1, a % 6
            gain = -self.card_value(c)
            halves = self.halves[p] - (c // 6 == b.front_country[p]) - (c % 6 == b.front_country[p])
            after = self.battle_chance(p, STRENGTH[orient])
            gain += self.term(p, after, halves) - self.term(p, self.chance[p], halves)
            draws = min(2 if orient == INF else 1, b.support)
            return gain + draws * self.draw_value()
        if BURN <= a < DRAW_A:
            return self.draw_value() - self.card_value(a - BURN) - 0.3
        if DRAW_A <= a < DRAW_A + 6:
            p = a - DRAW_A
            left = len(b.piles[p]) - 1
            if left == 0 and b.status[p] == OPEN:
                s = b.strength[p]
                margin = s[self.me] - s[1 - self.me]
                if margin == 0:
                    r = b.ref(p)
                    after = self.chance[r] if r >= 0 else 0.5
                else:
                    after = 1.0 if margin > 0 else 0.0
            else:
                after = self.battle_chance(p, 0, left)
            return self.term(p, after) - self.term(p, self.chance[p])
        return 0.0


def _board(view_or_state: View | State) -> Board:
    if isinstance(view_or_state, WarMachineView | WarMachineState):
        return view_or_state.board
    raise TypeError(f"not a War Machine view or state: {type(view_or_state).__name__}")


class WarMachinePolicy(GamePolicy):
    game = "warmachine"
    prior_scale = 1.0 / (4 * _SCALE)  # slope of the evaluation's logistic at even chances

    def forced(self, state: State | View, legal: list[Action]) -> Action | None:
        return None  # War Machine has no claims

    def determinise(self, view: View, rng: random.Random) -> State:
        try:
            return view.sample(rng)
        except NotationError:
            # Work-around: the game's sampler does not count the cards burned by decided
            # battles as seen. Hand them to it as known leftover cards, then take them back.
            b = _board(view).copy()
            keep = len(b.leftover)
            b.leftover = b.leftover + b.burned_battle
            full = sample_board(b, view.viewer, rng)
            full.leftover = full.leftover[:keep]
            return WarMachineState(full, view.ruleset)

    def _choose_start(self, legal: list[int]) -> int:
        # two cards and moving second beat one card and moving first: cards are points and forces
        for want in (TAKE2,):
            if want in legal:
                return want
        seen2 = [a for a in legal if a >= TAKE2_CARDS]
        if seen2:
            return seen2[0]
        return legal[0]

    def ranked(self, view: View, rng: random.Random, samples: int = 0) -> list[tuple[float, Action]]:
        legal = [cast(int, a) for a in view.legal_actions()]
        b = _board(view)
        me = view.viewer
        assert me is not None
        if b.phase == CHOOSE:
            pick = self._choose_start(legal)
            return [(1.0 if a == pick else 0.0, a) for a in sorted(legal, key=lambda a: a != pick)]
        model = _Model(b, me)
        scored: list[tuple[float, Action]] = [(model.score(a) + rng.random() * 1e-6, a) for a in legal]
        scored.sort(key=lambda sa: -sa[0])
        return scored

    def choose(self, view: View, rng: random.Random, samples: int = 0) -> Action:
        return self.ranked(view, rng)[0][1]  # exact model: nothing to sample

    def candidates(self, state: State, legal: list[Action], width: int, rng: random.Random) -> list[Action]:
        b = _board(state)
        if b.phase != PLAY or len(legal) <= width:
            return legal
        model = _Model(b, b.to_move)
        ranked = sorted(legal, key=lambda a: -model.score(cast(int, a)))
        return ranked[:width]

    def rollout_action(self, state: State, legal: list[Action], rng: random.Random) -> Action:
        b = _board(state)
        if b.phase == CHOOSE:
            return self._choose_start([cast(int, a) for a in legal])
        if b.phase not in (PLAY, DRAW):
            return legal[rng.randrange(len(legal))]
        model = _Model(b, b.to_move)
        best, choice = -1e9, legal[0]
        for a in legal:
            s = model.score(cast(int, a)) + rng.random() * 0.2
            if s > best:
                best, choice = s, a
        return choice

    def evaluate(self, state: State, player: int) -> float:
        if state.is_terminal():
            return outcome_value(state.outcome(), player)
        b = _board(state)
        if b.phase == CHOOSE:
            return 0.5
        value = _Model(b, player).value() - _Model(b, 1 - player).value()
        return 1.0 / (1.0 + math.exp(-value / (2 * _SCALE)))


POLICY = WarMachinePolicy()

__all__ = ["POLICY", "WarMachinePolicy"]
