"""Perfect-information sampling with common random numbers: compare moves on the same deals.

One decision:

1. *Deals.* ``deals`` full states consistent with the bot's view (``View.sample``, through
   the game policy's ``determinise``), drawn once from a seed that depends on the view:
   every candidate move is judged on the same deals (common random numbers), so the
   difference between two moves is measured deal by deal and most of the luck of the
   deal cancels in it.
2. *Candidates.* The heuristic's best ``width`` moves (every legal move when there are at
   most ``all_below``).
3. *A line per deal and candidate.* My move, the rest of my turn (claims, the draw: the
   heuristic's choices, the draw itself as the deal has it), then the opponent's turn *in
   that deal*, where it knows its hand: its heuristic's best ``replies`` moves are tried
   and the one it would pick is kept (``reply=min``: the worst for me by my evaluation;
   ``reply=own``: the best for it by its own evaluation of its information), then my
   provable claims, then the evaluation of the position from my side (with ``follow``, the
   best of my heuristic's best answers first). The leaves of a batch of deals are
   evaluated in one call: the heuristic's evaluation, or the learned flag network with
   ``net=1``; with ``playout``, after a few more turns of both sides by their heuristics in
   the deal. Late in the game (``late_*``) the lines may go deeper; once the decks are
   nearly empty (``exact_deck``) each line is solved exactly in its deal.
4. *Choice.* The candidate with the best mean over the deals.
5. *Second stage* (``refine``). The best few candidates near the best are judged again on
   more deals (``refine_deals``, beginning with the screening's) and one ply deeper
   (``refine_follow``: my best answer in each deal), and that stage's best is played.

Once both decks are empty nothing is hidden and the exact endgame decides
(:mod:`frontlines.bots.endgame`).

Budgets are work units (deals and candidates), so a seed gives the same move whatever the
load; ``time`` is only a safety cap (the deals played by every candidate when it strikes
are the ones compared).
"""

from __future__ import annotations

import math
import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, cast

from frontlines.bots.base import Bot, Clock, decision_seconds
from frontlines.bots.heuristic import GamePolicy, outcome_value, policy_for
from frontlines.bots.ismcts import _stable_seed
from frontlines.core.game import Action, State, View
from frontlines.games.battleline.state import BattleLineState

INTEGER_PARAMS = frozenset({
    "deals", "width", "all_below", "replies", "follow", "eval_hand", "net", "endgame", "endgame_nodes", "late_follow",
    "late_replies", "late_deals", "exact_deck", "exact_nodes", "refine", "refine_deals", "refine_follow",
    "playout",
})
REPLY_RULES = ("min", "own")
RANKINGS = ("full", "cheap")


@dataclass(frozen=True)
class PimcParams:
    """Knobs of one decision (work units; ``time`` is a safety cap in seconds, ``None``: none)."""

    deals: int = 32  # sampled deals, the same for every candidate
    width: int = 6  # candidate moves: the heuristic's best N (0: every legal move)
    all_below: int = 0  # every legal move is a candidate when there are at most this many
    replies: int = 4  # opponent moves tried in each deal: its heuristic's best N (0: every legal move)
    reply: str = "min"  # which of them it plays: min (worst for me by my evaluation) or own (its evaluation)
    follow: int = 0  # then my heuristic's best N answers in the deal, the best kept (0: evaluate there)
    rank: str = "full"  # how replies and answers are picked: the full heuristic's ranking, or cheap patterns
    late_from: float = 0.6  # share of the game played (the policy's ``progress``) from which the late settings hold
    late_follow: int = -1  # ``follow`` late in the game (-1: unchanged)
    late_replies: int = -1  # ``replies`` late in the game (-1: unchanged)
    late_deals: int = 0  # ``deals`` late in the game (0: unchanged)
    eval_hand: int = 1  # 1: my evaluation (the heuristic's or the network's) reads the opponent's hand of the deal
    net: int = 0  # 1: the learned flag network judges the leaves where it covers the ruleset (needs numpy)
    endgame: int = 1  # 1: solve exactly where nothing hidden is left (Battle Line family, both decks empty)
    endgame_nodes: int = 200_000  # node budget of the exact endgame search
    exact_deck: int = 0  # solve each deal exactly (perfect information) once its decks hold at most this many cards
    exact_nodes: int = 5_000  # node budget of one such solve (over it, the line is judged as usual)
    refine: int = 0  # second stage: the best candidates (at most N, within refine_margin of the best) judged again (0, 1: none)
    refine_deals: int = 64  # deals of the second stage (the first ``deals`` of them are the screening's)
    refine_follow: int = 3  # ``follow`` in the second stage: my best answer in each deal, one ply more
    refine_margin: float = 0.1  # how far under the best screening mean a candidate may be and still go on
    playout: int = 0  # then N more turns of both sides by the heuristic in the deal before the evaluation (0: none)
    time: float | None = None  # seconds: a safety cap, not a budget

    def __reduce__(self) -> tuple[type[PimcParams], tuple[Any, ...]]:
        return PimcParams, tuple(getattr(self, f.name) for f in fields(self))

    def late(self) -> bool:
        """Whether a late-game setting differs from the rest of the game."""
        return self.late_follow >= 0 or self.late_replies >= 0 or self.late_deals > 0

    def for_late_game(self) -> PimcParams:
        """These params with the late-game settings in force."""
        return replace(
            self,
            follow=self.follow if self.late_follow < 0 else self.late_follow,
            replies=self.replies if self.late_replies < 0 else self.late_replies,
            deals=self.late_deals or self.deals,
        )

    def check(self) -> None:
        if not 1 <= self.deals <= 100_000 or not 0 <= self.late_deals <= 100_000:
            raise ValueError(f"pimc deals must be 1-100000 and late_deals 0-100000, not {self.deals} and {self.late_deals}")
        if self.width < 0 or self.all_below < 0 or self.replies < 0 or self.follow < 0:
            raise ValueError("pimc width, all_below, replies and follow must be >= 0")
        if self.late_follow < -1 or self.late_replies < -1 or not self.late_from >= 0:
            raise ValueError("pimc late_follow and late_replies must be >= -1 (-1: unchanged), late_from >= 0")
        if self.rank not in RANKINGS:
            raise ValueError(f"pimc rank must be one of {', '.join(RANKINGS)}, not {self.rank!r}")
        if self.reply not in REPLY_RULES:
            raise ValueError(f"pimc reply must be one of {', '.join(REPLY_RULES)}, not {self.reply!r}")
        if self.eval_hand not in (0, 1) or self.endgame not in (0, 1) or self.net not in (0, 1):
            raise ValueError("pimc eval_hand, net and endgame must be 0 or 1")
        if self.refine < 0 or not 1 <= self.refine_deals <= 100_000 or self.refine_follow < 0 or not self.refine_margin >= 0:
            raise ValueError("pimc refine and refine_follow must be >= 0, refine_deals 1-100000, refine_margin >= 0")
        if self.playout < 0:
            raise ValueError(f"pimc playout must be >= 0, not {self.playout}")
        if self.endgame_nodes < 1 or self.exact_nodes < 1 or self.exact_deck < 0:
            raise ValueError("pimc endgame_nodes and exact_nodes must be >= 1, exact_deck >= 0")
        if self.time is not None and not self.time > 0:
            raise ValueError(f"pimc time must be positive, not {self.time}")


# A batch evaluation: each position's win chance for ``player`` (the searcher), in one call.
Evaluation = Callable[[Sequence[State], int], list[float]]
BATCH_DEALS = 8  # deals expanded before their positions are evaluated together


@dataclass
class Judged:
    """The candidates of one decision and their values on each deal (from the mover's side)."""

    actions: list[Action]
    values: list[list[float]]  # values[i][k]: candidate i on deal k
    deals: int  # deals every candidate was judged on
    seconds: float
    evaluation: str = "heuristic"  # which evaluation judged the leaves: heuristic, net, or given (the caller's)

    def mean(self, i: int) -> float:
        row = self.values[i][: self.deals]
        return sum(row) / len(row) if row else 0.5

    def best(self) -> int:
        """The index of the best mean (ties: the earlier candidate, the heuristic's order)."""
        return self.ranking()[0]

    def ranking(self) -> list[int]:
        """The candidates' indices, best mean first (ties: the heuristic's order)."""
        means = [self.mean(i) for i in range(len(self.actions))]
        return sorted(range(len(means)), key=lambda i: (-means[i], i))

    def finalists(self, most: int, margin: float) -> list[int]:
        """The best candidate and the next ones, at most ``most`` in all, whose mean is
        within ``margin`` of the best's, best first."""
        order = self.ranking()
        top = self.mean(order[0])
        return [i for i in order[:most] if self.mean(i) >= top - margin]

    def difference(self, i: int, j: int) -> tuple[float, float]:
        """Candidate ``i`` less ``j``: the mean difference over the same deals and its standard error."""
        n = self.deals
        d = [a - b for a, b in zip(self.values[i][:n], self.values[j][:n], strict=True)]
        if n < 2:
            return (d[0] if d else 0.0), 0.0
        mean = sum(d) / n
        var = sum((x - mean) ** 2 for x in d) / (n - 1)
        return mean, math.sqrt(var / n)


def _apply_forced(state: State, player: int, policy: GamePolicy) -> None:
    """Take ``player``'s provable claims while it is to move and has one."""
    while not state.is_terminal() and state.current_player() == player:
        legal = state.legal_actions()
        forced = policy.forced(state, legal)
        if forced is None:
            return
        state.apply(forced)


def _finish_turn(state: State, player: int, policy: GamePolicy, rng: random.Random) -> None:
    """Play ``player``'s remaining decisions of its turn (claims, draws) by its heuristic."""
    while not state.is_terminal() and state.current_player() == player:
        legal = state.legal_actions()
        forced = policy.forced(state, legal)
        state.apply(forced if forced is not None else policy.choose_in_state(state, player, legal, rng))


# A leaf of a line: a position to evaluate from my side, or its value where the game is over.
Leaf = State | float


class Reply:
    """One opponent reply in one deal: my leaves after it (one, or one per answer of mine
    with ``follow``), and the position the opponent judges it by (``reply=own``)."""

    __slots__ = ("leaves", "theirs")

    def __init__(self, leaves: list[Leaf], theirs: Leaf) -> None:
        self.leaves = leaves
        self.theirs = theirs


class Line:
    """Expands lines from sampled deals for one mover (the heuristic's moves down the
    line), into leaves that :func:`judge` evaluates together."""

    def __init__(self, policy: GamePolicy, params: PimcParams, me: int) -> None:
        self.policy = policy
        self.params = params
        self.me = me
        # the transposition table of the deal being expanded, where it is solved exactly
        self.exact: dict[tuple[Any, ...], tuple[float, float]] | None = None

    def solve_exactly(self, deal: State) -> None:
        """Have the lines of ``deal`` solved exactly where its decks hold at most
        ``exact_deck`` cards (a Battle Line family deal: every card's place is known in it)."""
        self.exact = None
        if (self.params.exact_deck and isinstance(deal, BattleLineState)
                and len(deal.tdeck) + len(deal.xdeck) <= self.params.exact_deck):
            self.exact = {}

    def expand(self, deal: State, action: Action, rng: random.Random) -> Leaf | list[Reply]:
        """Playing ``action`` in ``deal`` (not changed): a leaf where the opponent has no
        reply to choose or the deal is solved exactly (``exact_deck``), else the opponent's
        replies."""
        me, policy = self.me, self.policy
        state = deal.clone()
        state.apply(action)
        if self.exact is not None:
            from frontlines.bots.endgame import exact_value

            solved = exact_value(cast(BattleLineState, state), me, self.params.exact_nodes, self.exact)
            if solved is not None:
                return solved
        _finish_turn(state, me, policy, rng)
        if state.is_terminal():
            return outcome_value(state.outcome(), me)
        opp = state.current_player()
        assert opp is not None
        _apply_forced(state, opp, policy)
        if state.is_terminal() or state.current_player() != opp:
            return self._settle(state, rng)[0]
        replies: list[Reply] = []
        for reply in self._best(state, opp, self.params.replies, rng):
            after = state.clone()
            after.apply(reply)
            _finish_turn(after, opp, policy, rng)
            theirs: Leaf = 0.5
            if self.params.reply == "own":  # the opponent judges its reply before my claims
                theirs = 1.0 - outcome_value(after.outcome(), me) if after.is_terminal() else after.clone()
            replies.append(Reply(self._settle(after, rng), theirs))
        return replies

    def _best(self, state: State, player: int, n: int, rng: random.Random) -> list[Action]:
        """``player``'s best ``n`` actions (0: all) by the heuristic from what it knows
        (``rank=full``), or by the rollout policy's cheap patterns (``rank=cheap``)."""
        legal = state.legal_actions()
        if self.params.rank == "cheap":
            return self.policy.candidates(state, legal, n, rng) if n else legal
        return self.policy.ranked_in_state(state, player, legal, rng, n)

    def _settle(self, state: State, rng: random.Random) -> list[Leaf]:
        """My leaves after the opponent's turn: my provable claims, then the position, or
        with ``follow`` the positions after each of my heuristic's best answers and my turn."""
        me, policy = self.me, self.policy
        _apply_forced(state, me, policy)
        if state.is_terminal():
            return [outcome_value(state.outcome(), me)]
        follow = self.params.follow
        if not follow or state.current_player() != me:
            return [self._play_on(state, rng)]
        leaves: list[Leaf] = []
        for answer in self._best(state, me, follow, rng):
            after = state.clone()
            after.apply(answer)
            _finish_turn(after, me, policy, rng)
            leaves.append(self._play_on(after, rng))
        return leaves

    def _play_on(self, state: State, rng: random.Random) -> Leaf:
        """``state`` after ``playout`` more turns of both sides by their heuristics in the
        deal (each from what it knows), or the game's value for me where it ends first."""
        turns = self.params.playout
        while turns > 0 and not state.is_terminal():
            player = state.current_player()
            assert player is not None
            _finish_turn(state, player, self.policy, rng)
            turns -= 1
        return outcome_value(state.outcome(), self.me) if state.is_terminal() else state


def _reduce(line: Leaf | list[Reply], mine: dict[int, float], theirs: dict[int, float], rule: str) -> float:
    """A line's value once its leaves are evaluated (``mine``/``theirs``: by ``id`` of the
    position): the best of my answers, and of the opponent's replies the one it picks."""
    if not isinstance(line, list):
        return line if isinstance(line, float) else mine[id(line)]
    chosen, best = 0.5, -1.0
    for reply in line:
        value = max(leaf if isinstance(leaf, float) else mine[id(leaf)] for leaf in reply.leaves)
        if rule == "min":
            score = 1.0 - value
        else:
            score = reply.theirs if isinstance(reply.theirs, float) else theirs[id(reply.theirs)]
        if score > best:
            chosen, best = value, score
    return chosen


def _positions(line: Leaf | list[Reply], rule: str) -> tuple[list[State], list[State]]:
    """The positions of a line to evaluate: mine, and the opponent's (``reply=own``)."""
    if not isinstance(line, list):
        return ([] if isinstance(line, float) else [line]), []
    mine = [leaf for reply in line for leaf in reply.leaves if not isinstance(leaf, float)]
    theirs = [r.theirs for r in line if not isinstance(r.theirs, float)] if rule == "own" else []
    return mine, theirs


def policy_evaluation(policy: GamePolicy) -> Evaluation:
    """``policy.evaluate`` as an :data:`Evaluation` (one position after the other)."""
    return lambda states, player: [policy.evaluate(s, player) for s in states]


def learned_evaluation(ruleset: str, opponent_hand: bool = False) -> Evaluation | None:
    """The learned flag network's batch evaluation for ``ruleset`` (``bots.net.value``,
    numpy and weights needed), or ``None`` where there is none; with ``opponent_hand`` it
    reads each deal's opponent hand as known, as the heuristic's does with ``eval_hand``."""
    import importlib

    try:
        module: Any = importlib.import_module("frontlines.bots.net.value")
        found = module.evaluator(ruleset)
    except ImportError:
        return None
    if found is None:
        return None
    evaluate: Evaluation = found.batch_evaluation(opponent_hand)
    return evaluate


def evaluation_for(ruleset: str, params: PimcParams, policy: GamePolicy) -> tuple[Evaluation, str]:
    """My side's evaluation and its name: the learned network (``net``) with ``net=1`` where
    it covers ``ruleset``, else the heuristic's (``heuristic``); either reads the deal's
    opponent hand with ``eval_hand=1`` (a deal is a world where that hand is known: the
    deals differ by it)."""
    if params.net:
        learned = learned_evaluation(ruleset, bool(params.eval_hand))
        if learned is not None:
            return learned, "net"
    return policy_evaluation(policy.with_evaluation(0, 0.0, bool(params.eval_hand))), "heuristic"


def judge(
    view: View,
    actions: list[Action],
    params: PimcParams,
    seed: int,
    policy: GamePolicy | None = None,
    evaluate: Evaluation | None = None,
) -> Judged:
    """Every action of ``actions`` on the same ``params.deals`` deals sampled from ``view``.

    Deals are expanded a few at a time (``BATCH_DEALS``): their lines' positions are
    evaluated in one call of ``evaluate`` (my side; the heuristic's evaluation by default)
    and of the opponent's evaluation of what it knows (``reply=own``), which bounds the
    memory and lets the time cap strike between batches."""
    policy = policy or policy_for(view.ruleset)
    me = view.viewer
    if me is None:
        raise ValueError("pimc judges a player's view, not a spectator's")
    mine_eval, used = (evaluate, "given") if evaluate is not None else evaluation_for(view.ruleset, params, policy)
    their_eval = policy_evaluation(policy)
    line = Line(policy, params, me)
    values: list[list[float]] = [[] for _ in actions]
    started = time.perf_counter()
    deadline = None if params.time is None else started + params.time
    done = 0
    rule = params.reply
    while done < params.deals:
        lines: list[list[Leaf | list[Reply]]] = []
        for k in range(done, min(params.deals, done + BATCH_DEALS)):
            deal = policy.determinise(view, random.Random(_stable_seed(seed, "deal", k)))
            line.solve_exactly(deal)
            # the same generator for every candidate on this deal: the heuristic's choices
            # down the line, and their sampled futures, are alike
            lines.append([line.expand(deal, action, random.Random(_stable_seed(seed, "line", k))) for action in actions])
        mine: list[State] = []
        theirs: list[State] = []
        for row in lines:
            for expanded in row:
                m, t = _positions(expanded, rule)
                mine += m
                theirs += t
        mine_values = dict(zip(map(id, mine), mine_eval(mine, me), strict=True)) if mine else {}
        their_values = dict(zip(map(id, theirs), their_eval(theirs, 1 - me), strict=True)) if theirs else {}
        for row in lines:
            for i, expanded in enumerate(row):
                values[i].append(_reduce(expanded, mine_values, their_values, rule))
        done += len(lines)
        if deadline is not None and time.perf_counter() >= deadline:
            break
    return Judged(list(actions), values, done, time.perf_counter() - started, used)


class PimcBot(Bot):
    """Perfect-information sampling with common random numbers (module text)."""

    name = "pimc"

    def __init__(self, seed: int | None = None, params: PimcParams | None = None, **options: Any) -> None:
        self.params = replace(params or PimcParams(), **options)
        self.params.check()
        self._seed = seed if seed is not None else int.from_bytes(os.urandom(8), "big")
        self._game_seed: object = ""
        self._last: dict[str, Any] = {}

    def new_game(self, ruleset: str, seat: int, seed: int | None = None) -> None:
        self._game_seed = f"{seed}:{seat}"

    def candidates(self, view: View, policy: GamePolicy, seed: int) -> list[Action]:
        legal = view.legal_actions()
        params = self.params
        if not params.width or len(legal) <= max(params.all_below, params.width):
            ranked = policy.ranked(view, random.Random(seed), 0)
            order = [a for _, a in ranked]
            return order + [a for a in legal if a not in set(order)]
        return [a for _, a in policy.ranked(view, random.Random(seed), 0)[: params.width]]

    def choose(self, view: View, clock: Clock | None = None) -> Action:
        legal = view.legal_actions()
        if not legal:
            raise ValueError("pimc asked to move with no legal action")
        policy = policy_for(view.ruleset)
        forced = policy.forced(view, legal)
        if forced is not None or len(legal) == 1:
            action = forced if forced is not None else legal[0]
            self._last = {"forced": True, "move": view.action_to_text(action)}
            return action
        seed = _stable_seed(self._seed, self._game_seed, view.to_notation())
        params = replace(self.params, time=decision_seconds(self.params.time, clock))
        if params.late() and policy.progress(view) >= params.late_from:
            params = params.for_late_game()
        if params.endgame:
            from frontlines.bots.endgame import solve_view

            solved = solve_view(view, params.endgame_nodes, params.time)
            if solved is not None:
                self._last = {
                    "endgame": True,
                    "win_probability": solved.value,
                    "nodes": solved.nodes,
                    "move": view.action_to_text(solved.action),
                }
                return solved.action
        actions = self.candidates(view, policy, seed)
        judged = judge(view, actions, params, seed, policy)
        order = judged.ranking()
        best = order[0]
        action = judged.actions[best]
        refined = self._refine(view, judged, params, seed, policy)
        ranked = [] if refined is None else refined.ranking()
        if refined is not None:
            action = refined.actions[ranked[0]]
        self._last = {
            "deals": judged.deals,
            "evaluation": judged.evaluation,
            "seconds": round(judged.seconds, 3),
            "win_probability": round(judged.mean(best), 4),
            "move": view.action_to_text(action),
            "top": [(view.action_to_text(actions[i]), round(judged.mean(i), 4)) for i in order[:5]],
            "params": asdict(params),
        }
        if refined is not None:
            self._last.update(
                move=view.action_to_text(action),
                win_probability=round(refined.mean(ranked[0]), 4),
                seconds=round(judged.seconds + refined.seconds, 3),
                refined=[(view.action_to_text(refined.actions[i]), round(refined.mean(i), 4)) for i in ranked],
                refine_deals=refined.deals,
            )
        return action

    def _refine(self, view: View, judged: Judged, params: PimcParams, seed: int, policy: GamePolicy) -> Judged | None:
        """The second stage: the screening's finalists judged again on ``refine_deals`` deals
        (the screening's first, then more: the same for each finalist) with ``refine_follow``
        (my best answer in the deal after the opponent's reply), or ``None`` where there is
        no second stage (``refine`` under 2, one finalist, or the time cap struck already)."""
        if params.refine < 2:
            return None
        finalists = judged.finalists(params.refine, params.refine_margin)
        left = None if params.time is None else params.time - judged.seconds
        if len(finalists) < 2 or (left is not None and left <= 0):
            return None
        deeper = replace(params, deals=params.refine_deals, follow=params.refine_follow, time=left)
        return judge(view, [judged.actions[i] for i in finalists], deeper, seed, policy)

    def info(self) -> dict[str, Any]:
        return dict(self._last)
