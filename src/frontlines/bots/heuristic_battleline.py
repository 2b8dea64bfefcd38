"""Heuristic play for the Battle Line family (every ruleset: tactics, Schotten Totten, Medieval).

The model, in three steps:

1. **Flag odds.** For each unclaimed flag, the chance that I win it. Both sides are
   completed as well as possible (``formations.best_completion``) from a sampled *future*:
   a random share of my hand plus a generous share of the troops I may still draw, and for
   the opponent a share of the troops they may hold plus a small share of the deck, both
   taken from the troops I have not seen. A few samples
   with common random numbers make the odds smooth and let candidate moves be compared
   fairly. Complete sides are exact; a side that cannot be completed loses.
2. **Game value.** With the flag odds as independent coin flips, the chance that my set of
   flags makes a breakthrough (three adjacent) or an envelopment (five) and the
   opponent's does not: an exact sum over the 512 ways of sharing nine flags. Its
   derivative per flag is that flag's *weight*: adjacency and flags already won are
   counted by it, so a flag next to two of mine (a breakthrough threat) weighs the most.
3. **Moves.** Each legal action changes one or two flags (a troop or morale card, Fog
   and Mud, Redeploy, Deserter, Traitor) and is scored by the weighted change in flag
   odds; spending a tactics card costs a little, so tactics are kept for real gains.
   Scout is played when no card play helps; Scout returns and the draw choice follow
   simple rules. Provable claims are always taken.

The search bots use a much cheaper rollout rule (:meth:`BattleLinePolicy.rollout_action`,
plain pattern matching on the cards at each flag) and, at a rollout cut-off,
:meth:`BattleLinePolicy.evaluate`, steps 1-2 with fewer samples.

Actions are the state's ``int`` codes (``games/battleline/state.py``). A view is turned
into a position by sampling a full state from it and reading only what its viewer may
know (the table, the viewer's hand, card counts); the sampled hidden cards are never read.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from itertools import compress
from operator import mul
from typing import cast

from frontlines.bots.heuristic import GamePolicy, outcome_value
from frontlines.core.game import Action, State, View
from frontlines.games.battleline.cards import (
    ALEXANDER,
    COMPANION_CAVALRY,
    DARIUS,
    FOG,
    MUD,
    NUM_TROOPS,
    SHIELD_BEARERS,
    TACTICS_MASK,
    TROOP_MASK,
)
from frontlines.games.battleline.formations import CardRules, beating_completion, evaluate
from frontlines.games.battleline.moves import IDLE_TURNS, stall_winner
from frontlines.games.battleline.state import (
    CLAIM_BASE,
    DESERTER_BASE,
    DRAW,
    DRAW_TACTICS,
    DRAW_TROOP,
    EXCESS_BASE,
    NUM_FLAGS,
    PASS,
    PLAY,
    REDEPLOY_BASE,
    RETURN_BASE,
    SCOUT_DRAW,
    SCOUT_PLAY,
    SCOUT_TACTICS,
    SCOUT_TROOP,
    TRAITOR_BASE,
    BattleLineState,
    BattleLineView,
    flag_holding,
)

_NO_SCORE = -1  # a side that cannot be completed
_HAND_SHARE = 0.6  # chance that a hand card is still free for a given flag
# Share of the troop deck that each side's sampled future draws from the unseen troops.
# Tuned by self-play (benchmarks/tune_battleline_heuristic.py, docs/experiments/battleline-heuristic.md): a
# generous share for me and a small one for the opponent win 57-58 % of games against equal
# shares of 0.3 in every ruleset. A side uses only its best few cards of a long future, so
# the large share stands for my choice among all the cards I will see, not for cards held.
_DRAW_SHARE = 0.8
_OPP_DRAW_SHARE = 0.25
# The search's cut-off evaluation wants a win probability, not a move ranking: the shares
# above make both players' empty flags look nearly won (their game values saturate near 1),
# which ranks moves well but leaves leaf values with no signal. Equal shares, and the logit
# of the value shrunk by the share of the table's slots filled, predicted the outcomes of
# heuristic self-play best (Brier score; benchmarks/calibrate_battleline_eval.py).
_EVAL_DRAW_SHARE = 0.4
_EVAL_OPP_DRAW_SHARE = 0.4
_EVAL_HAND_SHARE = 0.8
_EVAL_SCALE = 1.0
_TACTIC_COST = 0.012  # game-value cost of spending a tactics card (the opponent may answer with one)
_SCOUT_VALUE = 0.006  # value of Scout when no card play does better
_MORALE = (ALEXANDER, DARIUS, COMPANION_CAVALRY, SHIELD_BEARERS)
_NO_RNG = random.Random(0)  # stands in where a Position takes its futures from a seed


def _has_win(mask: int) -> bool:
    if mask.bit_count() >= 5:
        return True
    return bool(mask & (mask >> 1) & (mask >> 2))


# _OUTCOME[m]: my value when I hold the flags in bit mask m and the opponent the rest.
_OUTCOME: tuple[float, ...] = tuple(
    (0.5 if _has_win(511 ^ m) else 1.0) if _has_win(m) else (0.0 if _has_win(511 ^ m) else 0.5) for m in range(512)
)


# The masks that are not a loss, as (m, _OUTCOME[m]), without the last flag (m < 256) and with
# it (m - 256): the chance of winning sums only these.
_SCORING_WITHOUT_LAST: tuple[tuple[int, float], ...] = tuple((m, _OUTCOME[m]) for m in range(256) if _OUTCOME[m])
_SCORING_WITH_LAST: tuple[tuple[int, float], ...] = tuple((m - 256, _OUTCOME[m]) for m in range(256, 512) if _OUTCOME[m])


# _HAS_BIT[f][m]: whether flag f is in mask m (selectors for itertools.compress)
_HAS_BIT: tuple[tuple[bool, ...], ...] = tuple(tuple(bool(m >> f & 1) for m in range(512)) for f in range(NUM_FLAGS))


def game_value(p: Sequence[float], with_weights: bool = True) -> tuple[float, list[float]]:
    """(chance that I win the game, its derivative per flag) for independent flag odds ``p``.

    The chance is multilinear in each ``p[f]``, so the derivative is the difference between
    the chances with flag ``f`` won and lost.
    """
    if not with_weights:
        return win_chance(p), []
    probs = [1.0]
    for q in p:
        probs = [x * (1.0 - q) for x in probs] + [x * q for x in probs]
    contrib = list(map(mul, _OUTCOME, probs))
    total = sum(contrib)
    weights: list[float] = []
    if not with_weights:
        return total, weights
    for f, q in enumerate(p):
        if q <= 0.0 or q >= 1.0:
            weights.append(0.0)
            continue
        with_f = sum(compress(contrib, _HAS_BIT[f]))
        weights.append(with_f / q - (total - with_f) / (1.0 - q))
    return total, weights


def win_chance(p: Sequence[float]) -> float:
    """``game_value(p)``'s chance alone, to the last bit, at less cost (the search's cut-off
    evaluation computes one per leaf): the products of the last flag's odds are taken only
    for the masks that are not a loss, and the sum skips the losses' terms, which are 0.0
    and leave any running sum as it is. The other products and the order of the sum are
    those of ``game_value``."""
    probs = [1.0]
    for f in range(NUM_FLAGS - 1):
        q = p[f]
        probs = [x * (1.0 - q) for x in probs] + [x * q for x in probs]
    q = p[NUM_FLAGS - 1]
    lost = 1.0 - q
    contrib = [o * (probs[m] * lost) for m, o in _SCORING_WITHOUT_LAST]
    contrib += [o * (probs[m] * q) for m, o in _SCORING_WITH_LAST]
    return sum(contrib)


Future = tuple[list[int], list[bool]]  # indices into the unseen troops drawn, hand troops kept
_FUTURES: dict[tuple[int, int, int, int, int, float], list[Future]] = {}
# Futures are read again only within the decision that drew their seed (its deals share them),
# so a few hundred entries earn what thousands do: over 3 PIMC and 3 ISMCTS games of Battle Line
# against the heuristic, 93.7 / 93.5 / 93.1 % of lookups hit at 64 / 256 / 1,024 entries. An
# entry is some 3-5 KB (the futures' lists): 4,096 of them reached 15-20 MB, 256 hold about 1 MB.
_FUTURES_MAX = 256


def _draw_futures(rng: random.Random, samples: int, n: int, take: int, kept: int, share: float) -> list[Future]:
    """``samples`` futures: ``take`` of ``n`` unseen troops (as indices), and for each of
    ``kept`` hand troops whether it stays free (chance ``share``)."""
    indices = list(range(n))
    out: list[Future] = []
    for _ in range(samples):
        pick = rng.sample(indices, take)
        out.append((pick, [rng.random() < share for _ in range(kept)]))
    return out


def _cached_futures(seed: int, samples: int, n: int, take: int, kept: int, share: float) -> list[Future]:
    """``_draw_futures`` from ``random.Random(seed)``, remembered: the draws depend only on
    the seed and the counts, which repeat from leaf to leaf of one search."""
    key = (seed, samples, n, take, kept, share)
    found = _FUTURES.get(key)
    if found is None:
        if len(_FUTURES) >= _FUTURES_MAX:
            _FUTURES.clear()
        found = _FUTURES[key] = _draw_futures(random.Random(seed), samples, n, take, kept, share)
    return found


class _Completions:
    """Best completion scores already found for one set of card rules: per side (its
    cards, capacity and Fog, as one ``int``), pool -> score. In a search most leaves share
    the table and the sampled futures, so four to six in ten completions repeat. One
    lookup per side, then an ``int`` per pool: the side's futures are looked up ten at a
    time. Bounded in entries, and emptied when the card rules change."""

    def __init__(self) -> None:
        self.rules: CardRules | None = None
        self.sides: dict[int, dict[int, int]] = {}
        self.size = 0  # pools remembered, over every side

    def clear(self, rules: CardRules | None = None) -> None:
        self.sides.clear()
        self.size = 0
        self.rules = rules

    def of_side(self, rules: CardRules, side: int) -> dict[int, int]:
        """The scores known for ``side`` (an ``int`` of its cards, capacity and Fog), to add to."""
        if self.size >= _COMPLETIONS_MAX or self.rules is not rules:
            self.clear(rules)
        found = self.sides.get(side)
        if found is None:
            found = self.sides[side] = {}
        return found


_COMPLETIONS = _Completions()
_COMPLETIONS_MAX = 50_000


class Position:
    """What player ``me`` knows of a state, with sampled futures and cached side scores."""

    def __init__(
        self,
        state: BattleLineState,
        me: int,
        rng: random.Random,
        samples: int,
        shares: tuple[float, float, float] | None = None,
        seed: int | None = None,
        opponent_hand: bool = False,
    ) -> None:
        """``shares``: (my draw share, the opponent's draw share, hand share); the move
        ranking's by default. With ``seed`` the futures are those ``random.Random(seed)``
        would draw (``rng`` is not used), taken from a cache: the search's evaluation
        draws them afresh for every leaf otherwise. With ``opponent_hand`` the state is a
        sampled deal whose opponent hand counts as known: its troops are the opponent's
        (each kept with the hand share, as mine are) and both sides' draws come from the
        troop deck alone; otherwise that hand is unseen and both draw from every unseen
        troop."""
        self.state = state
        self.me = me
        self.opp = 1 - me
        self.rules = state.rules
        self.caps = [state.capacity(f) for f in range(NUM_FLAGS)]
        self.fogs = [state.is_fog(f) for f in range(NUM_FLAGS)]
        hand = state.hands[me]
        self.hand = hand
        draw_share, opp_share, hand_share = shares or (_DRAW_SHARE, _OPP_DRAW_SHARE, _HAND_SHARE)
        draws = int(draw_share * len(state.tdeck) + 0.5)
        opp_draws = int(opp_share * len(state.tdeck) + 0.5)
        hand_troops = [c for c in range(NUM_TROOPS) if hand >> c & 1]
        opp_troops = state.hands[self.opp] & TROOP_MASK
        if opponent_hand:
            pool = [c for c in state.tdeck if c < NUM_TROOPS]
            their_troops = [c for c in range(NUM_TROOPS) if opp_troops >> c & 1]
            take = min(len(pool), draws + opp_draws)
        else:
            unseen = state.unseen_troops() & ~hand
            pool = [c for c in range(NUM_TROOPS) if unseen >> c & 1]
            their_troops = []
            take = min(len(pool), draws + int(hand_share * opp_troops.bit_count() + 0.5) + opp_draws)
        kept = len(hand_troops) + len(their_troops)
        if seed is None:
            futures = _draw_futures(rng, samples, len(pool), take, kept, hand_share)
        else:
            futures = _cached_futures(seed, samples, len(pool), take, kept, hand_share)
        self.mine: list[int] = []
        self.theirs: list[int] = []
        split = len(hand_troops)
        for pick, coins in futures:
            m = 0
            for c, free in zip(hand_troops, coins[:split], strict=True):
                if free:
                    m |= 1 << c
            for i in pick[:draws]:
                m |= 1 << pool[i]
            o = 0
            for c, free in zip(their_troops, coins[split:], strict=True):
                if free:
                    o |= 1 << c
            for i in pick[draws:]:
                o |= 1 << pool[i]
            self.mine.append(m)
            self.theirs.append(o)
        self._scores: dict[int, list[int]] = {}  # side_scores by side and player
        self.base: list[float] = [self.flag_odds(f) for f in range(NUM_FLAGS)]

    def side_scores(self, who: int, cards: tuple[int, ...], cap: int, fog: bool) -> list[int]:
        """Per sample, the best score ``who`` can reach with ``cards`` on a side (-1: none)."""
        side = 0
        for c in cards:
            side |= 1 << c
        # the side as one int (its cards, capacity below 8, Fog), and here also whose it is
        shape = side << 4 | cap << 1 | fog
        key = shape << 1 | who
        found = self._scores.get(key)
        if found is not None:
            return found
        rules = self.rules
        if len(cards) >= cap:
            score = evaluate(cards[:cap], fog, rules)
            found = [score] * len(self.mine)
        else:
            found = []
            cache = _COMPLETIONS
            known = cache.of_side(rules, shape)
            for pool in self.mine if who == self.me else self.theirs:
                reached = known.get(pool)
                if reached is None:
                    best = beating_completion(side, cap, fog, pool, -1, rules)
                    reached = known[pool] = _NO_SCORE if best is None else best[0]
                    cache.size += 1
                found.append(reached)
        self._scores[key] = found
        return found

    def flag_odds(
        self,
        f: int,
        mine: tuple[int, ...] | None = None,
        theirs: tuple[int, ...] | None = None,
        cap: int | None = None,
        fog: bool | None = None,
    ) -> float:
        """My chance to win flag ``f`` (optionally with changed sides, capacity or Fog)."""
        state = self.state
        owner = state.claimed[f]
        if owner >= 0:
            return 1.0 if owner == self.me else 0.0
        changed = mine is not None or theirs is not None or cap is not None
        mine = state.sides[f * 2 + self.me] if mine is None else mine
        theirs = state.sides[f * 2 + self.opp] if theirs is None else theirs
        cap = self.caps[f] if cap is None else cap
        fog = self.fogs[f] if fog is None else fog
        # who wins a tie: whoever completed first; unknown while either side is open
        tie = 0.5
        if len(mine) >= cap and len(theirs) >= cap:
            if not changed:
                a, b = state.completed[f * 2 + self.me], state.completed[f * 2 + self.opp]
                tie = 1.0 if 0 <= a < b or b < 0 <= a else 0.0
            else:
                tie = 0.0  # I just placed the last card
        elif len(mine) >= cap:
            tie = 1.0  # they would place the last card
        elif len(theirs) >= cap:
            tie = 0.0
        ms = self.side_scores(self.me, mine, cap, fog)
        os_ = self.side_scores(self.opp, theirs, cap, fog)
        won = 0.0
        for m, o in zip(ms, os_, strict=True):
            if m > o:
                won += 1.0
            elif m == o:
                won += tie if m >= 0 else 0.5
        p = won / len(ms)
        return min(0.97, max(0.03, p))

    def value(self, with_weights: bool = True) -> tuple[float, list[float]]:
        return game_value(self.base, with_weights)


def eval_shares() -> tuple[float, float, float]:
    """The search cut-off's (my draw share, the opponent's draw share, hand share)."""
    return _EVAL_DRAW_SHARE, _EVAL_OPP_DRAW_SHARE, _EVAL_HAND_SHARE


def filled_share(state: BattleLineState) -> float:
    """The share of the table's card slots (every flag, both sides) that hold a card."""
    slots = 2 * sum(state.capacity(f) for f in range(NUM_FLAGS))
    return min(1.0, sum(len(side) for side in state.sides) / slots)


def shrink(value: float, filled: float, scale: float) -> float:
    """``value`` with its logit multiplied by ``scale * filled``."""
    value = min(0.999, max(0.001, value))
    return 1.0 / (1.0 + math.exp(-scale * filled * math.log(value / (1.0 - value))))


def calibrated(value: float, state: BattleLineState, scale: float = _EVAL_SCALE) -> float:
    """``value`` with its logit shrunk by the share of table slots filled: early on, flag
    odds from sampled futures are far more confident than the outcomes bear out."""
    return shrink(value, filled_share(state), scale)


def _state_of(view: View, rng: random.Random) -> BattleLineState:
    return cast(BattleLineState, view.sample(rng))


def _remove(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    return tuple(c for c in cards if c != card)


class BattleLinePolicy(GamePolicy):
    game = "battleline"
    prior_scale = 1.0  # move scores are changes of the game value, a win probability

    samples = 10  # futures per decision of the heuristic bot
    eval_samples = 10  # futures per static evaluation in search
    eval_scale = _EVAL_SCALE  # the evaluation's confidence: its logit times this and the share of the table filled
    eval_hand = False  # whether the evaluation reads the opponent's hand of the sampled deal

    def __init__(self, eval_samples: int = 0, eval_scale: float = 0.0, eval_hand: bool = False) -> None:
        if eval_samples:
            self.eval_samples = eval_samples
        if eval_scale:
            self.eval_scale = eval_scale
        if eval_hand:
            self.eval_hand = True
        self._tuned: dict[tuple[int, float, bool], BattleLinePolicy] = {}

    def with_evaluation(self, samples: int, scale: float, hand: bool = False) -> GamePolicy:
        # With more futures the evaluation is less noisy and bears a sharper scale: late in
        # a game (40 % of the troop deck left or less) 20 futures and a scale of 1.5 predict
        # self-play outcomes best (benchmarks/calibrate_battleline_eval.py --late).
        samples, scale, hand = samples or self.eval_samples, scale or self.eval_scale, hand or self.eval_hand
        if (samples, scale, hand) == (self.eval_samples, self.eval_scale, self.eval_hand):
            return self
        found = self._tuned.get((samples, scale, hand))
        if found is None:
            found = self._tuned[samples, scale, hand] = BattleLinePolicy(samples, scale, hand)
        return found

    def forced(self, state: State | View, legal: list[Action]) -> Action | None:
        # hot path in search: a state lists its claims before any other action
        candidates = legal if isinstance(state, View) else legal[:1]
        for a in candidates:
            if CLAIM_BASE <= cast(int, a) < CLAIM_BASE + NUM_FLAGS:
                return a
        return None

    # --- the full heuristic -------------------------------------------------------------
    def choose(self, view: View, rng: random.Random, samples: int = 0) -> Action:
        return self.ranked(view, rng, samples)[0][1]

    def ranked(self, view: View, rng: random.Random, samples: int = 0) -> list[tuple[float, Action]]:
        legal = view.legal_actions()
        forced = self.forced(view, legal)
        if forced is not None or len(legal) == 1:
            return [(1.0, forced if forced is not None else legal[0])]
        viewer = view.viewer
        assert viewer is not None
        state = _state_of(view, rng)
        scored = self.score_actions(state, viewer, [cast(int, a) for a in legal], rng, samples)
        scored.sort(key=lambda sa: -sa[0])
        return [(s, a) for s, a in scored]

    def score_actions(
        self, state: BattleLineState, me: int, legal: list[int], rng: random.Random, samples: int = 0,
        seed: int | None = None,
    ) -> list[tuple[float, Action]]:
        """Each legal action with its score for ``me`` (higher is better). With ``seed`` the
        sampled futures are those of that seed, from a cache (``rng`` is not used): search
        scores many positions of one deal so, and they share their futures."""
        phase = state.phase
        if phase == DRAW:
            return [(self._draw_score(state, me, a), a) for a in legal]
        if phase == SCOUT_DRAW:
            want = SCOUT_TACTICS if not state.hands[me] & TACTICS_MASK else SCOUT_TROOP
            return [(1.0 if a == want else 0.0, a) for a in legal]
        pos = Position(state, me, rng, samples or self.samples, seed=seed)
        _, weights = pos.value()
        if phase != PLAY:  # Scout return or a Mud excess discard: give up the least useful card
            return [(-self._keep_value(pos, weights, a), a) for a in legal]
        out: list[tuple[float, Action]] = []
        best_play = -1.0
        scout: list[int] = []
        for a in legal:
            if a == SCOUT_PLAY:
                scout.append(a)
                continue
            s = self._play_score(pos, weights, a)
            best_play = max(best_play, s)
            out.append((s, a))
        for a in scout:
            out.append((_SCOUT_VALUE if best_play < _SCOUT_VALUE and (state.tdeck or state.xdeck) else -1.0, a))
        return out

    def _draw_score(self, state: BattleLineState, me: int, action: int) -> float:
        hand = state.hands[me]
        tactics_in_hand = (hand & TACTICS_MASK).bit_count()
        can_use = state.cfg.variant.tactics and state.tactics_played[me] <= state.tactics_played[1 - me] + 1
        want_tactics = tactics_in_hand == 0 and can_use and (hand & TROOP_MASK).bit_count() >= 4
        if action == DRAW_TACTICS:
            return 1.0 if want_tactics or not state.tdeck else 0.0
        if action == DRAW_TROOP:
            return 0.5
        return 0.0

    def _keep_value(self, pos: Position, weights: list[float], action: int) -> float:
        """How much the card named by a return/excess action is worth keeping."""
        card = (action - RETURN_BASE) if action < DESERTER_BASE else (action - EXCESS_BASE)
        state = pos.state
        if action >= EXCESS_BASE:
            f = flag_holding(state.sides, card, pos.me)
            if f < 0:
                return 0.0
            side = _remove(state.sides[f * 2 + pos.me], card)
            return -weights[f] * (pos.flag_odds(f, mine=side) - pos.base[f])
        if card >= NUM_TROOPS:
            if card in (ALEXANDER, DARIUS) and state.leaders >> pos.me & 1:
                return -1.0  # a second leader can never be played
            return 0.02 if card in _MORALE else 0.01
        best = 0.0
        for f in range(NUM_FLAGS):
            side = state.sides[f * 2 + pos.me]
            if state.claimed[f] < 0 and len(side) < pos.caps[f]:
                best = max(best, weights[f] * (pos.flag_odds(f, mine=(*side, card)) - pos.base[f]))
        return best

    def _play_score(self, pos: Position, weights: list[float], a: int) -> float:
        state = pos.state
        me, opp = pos.me, pos.opp
        base = pos.base
        if a < CLAIM_BASE:
            card, f = divmod(a, 9)
            if card < NUM_TROOPS or card in _MORALE:
                side = (*state.sides[f * 2 + me], card)
                gain = weights[f] * (pos.flag_odds(f, mine=side) - base[f])
                return gain - (_TACTIC_COST if card >= NUM_TROOPS else 0.0)
            if card == FOG:
                return weights[f] * (pos.flag_odds(f, fog=True) - base[f]) - _TACTIC_COST
            if card == MUD:
                return weights[f] * (pos.flag_odds(f, cap=pos.caps[f] + 1) - base[f]) - _TACTIC_COST
            return -1.0
        if a == PASS:
            if state.idle >= IDLE_TURNS - 1 and not state.turn_claimed:
                # this pass is the last idle turn the rules allow (docs/rules.md §2.14): the
                # game ends as a stall, won by the side with more flags
                winner = stall_winner(state)
                if winner is not None:
                    return 100.0 if winner == me else -100.0
            # The opponent passed last turn (no claim since): passing again could go on
            # until the stall, so any tactics play comes first.
            return -3.0 if state.passes else 0.0
        if REDEPLOY_BASE <= a < DESERTER_BASE:
            card, target = divmod(a - REDEPLOY_BASE, 10)
            f = flag_holding(state.sides, card, me)
            if f < 0:
                return -1.0
            gain = weights[f] * (pos.flag_odds(f, mine=_remove(state.sides[f * 2 + me], card)) - base[f])
            if target < NUM_FLAGS:
                side = (*state.sides[target * 2 + me], card)
                gain += weights[target] * (pos.flag_odds(target, mine=side) - base[target])
            return gain - _TACTIC_COST
        if DESERTER_BASE <= a < TRAITOR_BASE:
            card = a - DESERTER_BASE
            f = flag_holding(state.sides, card, opp)
            if f < 0:
                return -1.0
            return weights[f] * (pos.flag_odds(f, theirs=_remove(state.sides[f * 2 + opp], card)) - base[f]) - _TACTIC_COST
        if TRAITOR_BASE <= a < EXCESS_BASE:
            card, target = divmod(a - TRAITOR_BASE, 9)
            f = flag_holding(state.sides, card, opp)
            if f < 0:
                return -1.0
            theirs = _remove(state.sides[f * 2 + opp], card)
            mine = (*state.sides[target * 2 + me], card)
            if f == target:
                gain = weights[f] * (pos.flag_odds(f, mine=mine, theirs=theirs) - base[f])
            else:
                gain = weights[f] * (pos.flag_odds(f, theirs=theirs) - base[f])
                gain += weights[target] * (pos.flag_odds(target, mine=mine) - base[target])
            return gain - _TACTIC_COST
        return -1.0

    # --- search support -----------------------------------------------------------------
    def choose_in_state(self, state: State, player: int, legal: list[Action], rng: random.Random) -> Action:
        # the state itself, read as ``player`` knows it (Position reads only that player's
        # hand and the unseen troops): no view to build and sample
        scored = self.score_actions(cast(BattleLineState, state), player, [cast(int, a) for a in legal], rng,
                                    seed=rng.getrandbits(60))
        return max(scored, key=lambda sa: sa[0])[1]

    def ranked_in_state(self, state: State, player: int, legal: list[Action], rng: random.Random, n: int = 0) -> list[Action]:
        # futures from a seed the caller's generator gives: a search that scores the same
        # deal for each of its candidates hands the same generator, and the futures repeat
        scored = self.score_actions(cast(BattleLineState, state), player, [cast(int, a) for a in legal], rng,
                                    seed=rng.getrandbits(60))
        scored.sort(key=lambda sa: -sa[0])
        return [a for _, a in (scored[:n] if n else scored)]

    def cheap_plays(self, state: BattleLineState) -> list[tuple[float, int]]:
        """(score, action) of every troop play of the player to move, by the rollout policy's patterns, without noise."""
        return self._cheap_plays(state, _NO_RNG, 0.0)

    def _cheap_plays(self, s: BattleLineState, rng: random.Random, noise: float) -> list[tuple[float, int]]:
        """(cheap score, action) of every troop play of the player to move."""
        me = s.to_move
        troops = s.hands[me] & TROOP_MASK
        out: list[tuple[float, int]] = []
        if not troops:
            return out
        sides = s.sides
        rules = s.rules
        cards = [(c, c // 10, c % 10 + 1) for c in range(NUM_TROOPS) if troops >> c & 1]
        rand = rng.random
        for f in range(NUM_FLAGS):
            if s.claimed[f] >= 0:
                continue
            mine = sides[f * 2 + me]
            cap = s.capacity(f)
            n = len(mine)
            if n >= cap:
                continue
            theirs = sides[f * 2 + 1 - me]
            if n == 0:
                # open a flag with a high card, rather where the opponent has committed
                bonus = 0.3 * len(theirs) - 0.5
                for c, _colour, value in cards:
                    out.append((0.2 * value + bonus + rand() * noise, c * 9 + f))
                continue
            # the side's pattern, once per flag: one colour? one value? which values?
            colour0 = value0 = -1
            mixed_colour = mixed_value = False
            values = 0
            lo, hi = 99, 0
            for c in mine:
                if c >= NUM_TROOPS:
                    continue
                cc, cv = c // 10, c % 10 + 1
                if colour0 < 0:
                    colour0, value0 = cc, cv
                mixed_colour = mixed_colour or cc != colour0
                mixed_value = mixed_value or cv != value0
                values |= 1 << cv
                lo, hi = min(lo, cv), max(hi, cv)
            completes = n + 1 == cap and len(theirs) >= cap
            fog = s.is_fog(f) if completes else False
            for c, colour, value in cards:
                same_colour = not mixed_colour and (colour0 < 0 or colour == colour0)
                same_value = not mixed_value and (value0 < 0 or value == value0)
                span_ok = not values >> value & 1 and max(hi, value) - min(lo, value) < cap
                if same_colour and span_ok:
                    score = 6.0 + 0.1 * max(hi, value)
                elif same_value:
                    score = 5.0 + 0.1 * value
                elif same_colour:
                    score = 3.5 + 0.1 * value
                elif span_ok:
                    score = 2.5 + 0.1 * max(hi, value)
                else:
                    score = 0.05 * value - 1.0  # a host: only a place to dump a card
                if completes:
                    # against a complete side: only worth it when it wins (ties lose: we are last)
                    if evaluate((*mine, c), fog, rules) > evaluate(theirs[:cap], fog, rules):
                        score += 3.0
                    else:
                        score = 0.05 * value - 2.0
                out.append((score + rand() * noise, c * 9 + f))
        return out

    def candidates(self, state: State, legal: list[Action], width: int, rng: random.Random) -> list[Action]:
        s = cast(BattleLineState, state)
        if s.phase != PLAY or len(legal) <= width:
            return legal
        plays = self._cheap_plays(s, rng, 0.0)
        plays.sort(key=lambda sa: -sa[0])
        allowed = set(legal)
        out: list[Action] = [a for _, a in plays[:width] if a in allowed]
        if PASS in allowed:
            out.append(PASS)
        return out or legal

    def rollout_action(self, state: State, legal: list[Action], rng: random.Random) -> Action:
        forced = self.forced(state, legal)
        if forced is not None:
            return forced  # search checks first; this is for callers that play rollouts alone
        s = cast(BattleLineState, state)
        phase = s.phase
        if phase == DRAW:
            if DRAW_TROOP in legal and (DRAW_TACTICS not in legal or rng.random() < 0.8):
                return DRAW_TROOP
            return legal[0]
        if phase != PLAY:
            return legal[rng.randrange(len(legal))]
        plays = self._cheap_plays(s, rng, 0.5)
        if not plays:
            return legal[rng.randrange(len(legal))]
        choice = max(plays)[1]
        return choice if choice in legal else legal[rng.randrange(len(legal))]

    def progress(self, view: View) -> float:
        # the share of the troop deck drawn: the deal's troops (its troop mask) less both hands
        v = cast(BattleLineView, view)
        variant = v.cfg.variant
        dealt = variant.troop_mask.bit_count() - 2 * variant.hand_size
        return 1.0 - v.tsize / dealt if dealt > 0 else 0.0

    def evaluate(self, state: State, player: int) -> float:
        if state.is_terminal():
            return outcome_value(state.outcome(), player)
        s = cast(BattleLineState, state)
        # the futures are seeded by the game's length: leaves at one depth share them
        position = Position(s, player, _NO_RNG, self.eval_samples, eval_shares(), seed=len(s.hist), opponent_hand=self.eval_hand)
        value, _ = position.value(with_weights=False)
        return calibrated(value, s, self.eval_scale)


POLICY = BattleLinePolicy()
