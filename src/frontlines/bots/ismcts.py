"""Single-observer Information Set Monte Carlo Tree Search (Cowling, Powley & Whitehouse 2012).

Each iteration samples a full state consistent with the bot's view (a *determinisation*,
``View.sample``) and walks one shared tree whose nodes stand for information sets: a node
is reached by a sequence of actions from the root, the opponent's actions included. Because
an action may be legal in one determinisation and not in another, every child keeps an
*availability* count (how often it was legal when its parent was visited) and UCB uses it
in place of the parent's visit count (optionally with UCB's constant scaled by how far
apart the values seen so far are, ``ValueSpread``). Below the tree, a rollout plays the cheap game
heuristic with some randomness (epsilon-greedy) up to a fixed horizon (the searcher to
move again after ``horizon`` opponent turns), where the game policy's static evaluation
replaces the rest of the game. Provable claims are forced both in the tree and in
rollouts: taking one never hurts. The root considers the heuristic's best moves only,
each starting from the heuristic's estimate (virtual visits); inner nodes consider the
cheap policy's best ``width`` moves. ``value`` mixes the learned evaluation
(:mod:`frontlines.bots.learned`, Battle Line with numpy) into the cut-off. ``eval_samples`` and ``eval_scale`` tune the static
evaluation (``GamePolicy.with_evaluation``); with ``eval_hand`` it judges each sampled deal
with the opponent's hand as dealt there, so that the search's mean over deals weighs the
hands the opponent may hold, as its tree does for the opponent's replies. Late in the game (the policy's ``progress`` at
``late_from`` or more) ``late_horizon``, ``late_eval_samples`` and ``late_eval_scale``,
where set, replace ``horizon``, ``eval_samples`` and ``eval_scale``: there the evaluation is
sharper, a few turns decide the flags, and the search has iterations to spare (all off by
default; docs/experiments/battleline-search.md has the measurements).

Budgets: ``iterations`` (reproducible: same seed and view give the same move) and/or
``time`` seconds. ``workers > 1`` runs root-parallel searches in worker processes, each with
its own tree and seed, and adds their root statistics together.
"""

from __future__ import annotations

import hashlib
import math
import os
import pickle
import random
import time
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, NamedTuple

from frontlines.bots.base import Bot, Clock, decision_seconds
from frontlines.bots.heuristic import GamePolicy, outcome_value, policy_for
from frontlines.core.game import Action, State, View

# The knobs that take whole numbers: a bot spec's text values are read as int for these and
# as float for the others (``registry.search_params``). Named here because the compiled build
# keeps no annotation text to read them from (tests/bots/test_bots_registry.py checks them against it).
INTEGER_PARAMS = frozenset({
    "iterations", "workers", "scale_exploration", "rollout_depth", "horizon", "late_horizon", "eval_samples",
    "late_eval_samples", "eval_hand", "max_nodes", "root_width", "width", "prior_visits", "prior_samples", "prior_base",
})


@dataclass(frozen=True)
class SearchParams:
    """Knobs of one search. ``time``/``iterations`` ``None`` means no limit of that kind
    (at least one must be set)."""

    time: float | None = 1.0
    iterations: int | None = None
    workers: int = 1
    exploration: float = 0.4
    scale_exploration: int = 0  # 1: the UCB constant times the spread of the values seen (see ``ValueSpread``); 0: fixed
    epsilon: float = 0.1  # share of random moves in rollouts
    rollout_depth: int = 10  # at most this many actions played below the tree before the static evaluation
    horizon: int = 1  # evaluate when the searcher is to move after this many opponent turns (0: off)
    late_horizon: int | None = None  # the horizon once the game is ``late_from`` played (None: ``horizon`` throughout)
    late_from: float = 0.6  # share of the game played (the policy's ``progress``) from which the late settings hold
    eval_samples: int = 0  # sampled futures per cut-off evaluation (0: the game policy's own)
    eval_scale: float = 0.0  # the cut-off evaluation's confidence scale (0: the game policy's own)
    late_eval_samples: int = 0  # ``eval_samples`` once the game is ``late_from`` played (0: unchanged)
    late_eval_scale: float = 0.0  # ``eval_scale`` once the game is ``late_from`` played (0: unchanged)
    eval_hand: int = 0  # 1: the cut-off evaluation reads the opponent's hand of each sampled deal; 0: treats it as unseen
    max_nodes: int = 200_000
    eval_weight: float = 1.0  # 1: cut-off value is the static evaluation; 0: a coin toss
    root_width: int = 8  # root actions searched: the heuristic's best N (0: every legal action)
    width: int = 6  # actions searched at other nodes: the cheap policy's best N (0: all)
    prior_visits: int = 10  # virtual visits giving root moves the heuristic's estimate as a start
    prior_samples: int = 0  # sampled futures behind that estimate (0: the heuristic's default)
    prior_rate: float = 1 / 30  # the prior grows to this many virtual visits per iteration run, if that is more
    prior_base: int = 0  # deals whose mean evaluation is the level the prior's move scores add to (0: even, 0.5)
    value: float = 0.0  # share of the learned evaluation in the cut-off value (0: today's evaluation; needs numpy)

    def __reduce__(self) -> tuple[type[SearchParams], tuple[Any, ...]]:
        # pickled as its fields, rebuilt through __init__ (worker processes get params so):
        # compiled, a frozen dataclass refuses pickle's setting of one attribute at a time
        return SearchParams, tuple(getattr(self, f.name) for f in fields(self))

    def check(self) -> None:
        if self.time is None and self.iterations is None:
            raise ValueError("ismcts needs a time or an iterations budget")
        if self.time is not None and self.time <= 0:
            raise ValueError(f"ismcts time must be positive, not {self.time}")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError(f"ismcts iterations must be at least 1, not {self.iterations}")
        if not 1 <= self.workers <= 64:
            raise ValueError(f"ismcts workers must be 1-64, not {self.workers}")
        if not 0 <= self.prior_base <= 1000:
            raise ValueError(f"ismcts prior_base must be 0-1000, not {self.prior_base}")
        if self.prior_rate < 0:
            raise ValueError(f"ismcts prior_rate must be >= 0, not {self.prior_rate}")
        if self.scale_exploration not in (0, 1):
            raise ValueError(f"ismcts scale_exploration must be 0 or 1, not {self.scale_exploration}")
        if self.exploration < 0 or not 0 <= self.epsilon <= 1 or min(self.rollout_depth, self.horizon, self.late_horizon or 0) < 0 or self.max_nodes < 1:
            raise ValueError("ismcts: exploration >= 0, 0 <= epsilon <= 1, rollout_depth and horizons >= 0, max_nodes >= 1")
        if not self.late_from >= 0:
            raise ValueError(f"ismcts late_from must be >= 0, not {self.late_from}")
        if not 0 <= self.eval_samples <= 1000 or not 0 <= self.late_eval_samples <= 1000:
            raise ValueError("ismcts eval_samples and late_eval_samples must be 0-1000")
        if not 0 <= self.eval_scale <= 100 or not 0 <= self.late_eval_scale <= 100:
            raise ValueError("ismcts eval_scale and late_eval_scale must be 0-100")
        if self.eval_hand not in (0, 1):
            raise ValueError(f"ismcts eval_hand must be 0 or 1, not {self.eval_hand}")
        if not 0 <= self.value <= 1:
            raise ValueError(f"ismcts value must be 0-1, not {self.value}")

    def late(self) -> bool:
        """Whether any late-game setting differs from the rest of the game."""
        return self.late_horizon is not None or bool(self.late_eval_samples) or bool(self.late_eval_scale)

    def for_late_game(self) -> SearchParams:
        """These params with the late-game settings in force."""
        return replace(
            self,
            horizon=self.horizon if self.late_horizon is None else self.late_horizon,
            eval_samples=self.late_eval_samples or self.eval_samples,
            eval_scale=self.late_eval_scale or self.eval_scale,
        )


class Node:
    """One information set: ``player`` chose the action leading here."""

    __slots__ = ("avail", "children", "player", "reward", "visits")

    def __init__(self, player: int) -> None:
        self.player = player
        self.visits = 0
        self.avail = 0
        self.reward = 0.0  # summed from ``player``'s point of view
        self.children: dict[Action, Node] = {}


class RootStats(NamedTuple):
    """One root action's statistics: its visits and its summed reward (for the searcher)."""

    visits: int
    reward: float

    @property
    def mean(self) -> float:
        return self.reward / self.visits if self.visits else 0.0


@dataclass
class SearchResult:
    """Root statistics of one or more merged searches, per root action."""

    stats: dict[Action, RootStats]
    iterations: int
    nodes: int
    seconds: float

    def merge(self, other: SearchResult) -> None:
        for action, theirs in other.stats.items():
            mine = self.stats.get(action, _NO_STATS)
            self.stats[action] = RootStats(mine.visits + theirs.visits, mine.reward + theirs.reward)
        self.iterations += other.iterations
        self.nodes += other.nodes
        self.seconds = max(self.seconds, other.seconds)

    def best(self, legal: list[Action]) -> tuple[Action, int, float]:
        """The most visited legal root action (ties: better mean, then the earlier legal action)."""
        best_action, best_key = legal[0], (-1, -1.0)
        for action in legal:
            found = self.stats.get(action, _NO_STATS)
            key = (found.visits, found.mean)
            if key > best_key:
                best_action, best_key = action, key
        return best_action, best_key[0], best_key[1]


_NO_STATS = RootStats(0, 0.0)


def _cutoff(state: State, policy: GamePolicy, params: SearchParams, viewer: int) -> float:
    """Player 0's value of a non-terminal ``state`` by the static evaluation.

    It is evaluated from the searching player's side (``viewer``): the evaluation then
    treats that player's real hand as known and the sampled opponent hand as unseen.
    """
    value = policy.evaluate(state, viewer)
    if viewer == 1:
        value = 1.0 - value
    return 0.5 + params.eval_weight * (value - 0.5)


def _rollout(
    state: State, policy: GamePolicy, params: SearchParams, rng: random.Random, viewer: int, switches: int, last: int
) -> float:
    """Play on from ``state`` (mutated) and return player 0's value.

    Stops at the horizon (the searching player to move after ``horizon`` opponent turns;
    ``switches`` counts the changes of player so far, ``last`` is who acted last) or after
    ``rollout_depth`` actions, whichever comes first, and evaluates.
    """
    depth = 0
    horizon = 2 * params.horizon
    while not state.is_terminal():
        player = state.current_player()
        if player != last:
            switches += 1
            last = player if player is not None else last
        if depth >= params.rollout_depth or (horizon and switches >= horizon and player == viewer):
            return _cutoff(state, policy, params, viewer)
        legal = state.legal_actions()
        forced = policy.forced(state, legal)
        if forced is not None:
            action = forced
        elif rng.random() < params.epsilon:
            action = rng.choice(legal)
        else:
            action = policy.rollout_action(state, legal, rng)
        state.apply(action)
        depth += 1
    return outcome_value(state.outcome(), 0)


class ValueSpread:
    """How far apart the values backed up by one search are, as a factor for the UCB constant.

    The factor is twice the standard deviation of the values so far, at most 1 (which a
    coin-flip spread of wins and losses reaches), and 1 until there are a few values. Early
    in a Battle Line game the calibrated cut-off puts every leaf near even chances (a spread
    of a few points); a fixed constant then outweighs every difference between moves and the
    search spreads its visits almost evenly. Scaled, the constant keeps the same proportion
    to the differences it has to tell apart.
    """

    __slots__ = ("count", "squares", "total")

    def __init__(self) -> None:
        self.count = 0
        self.total = 0.0
        self.squares = 0.0

    def add(self, value: float) -> None:
        self.count += 1
        self.total += value
        self.squares += value * value

    def factor(self) -> float:
        if self.count < 20:
            return 1.0
        mean = self.total / self.count
        variance = max(0.0, self.squares / self.count - mean * mean)
        return min(1.0, 2.0 * math.sqrt(variance))


def search(
    view: View,
    params: SearchParams,
    rng: random.Random,
    policy: GamePolicy | None = None,
    root_actions: list[Action] | None = None,
    prior: dict[Action, float] | None = None,
) -> SearchResult:
    """Run one ISMCTS from ``view`` (the viewer must be to move) within ``params``' budget.

    ``root_actions`` restricts the root to those actions (the heuristic's shortlist);
    ``prior`` gives root actions a first estimate of their value, worth
    ``params.prior_visits`` visits, so that with little evidence the search keeps the
    heuristic's preference and moves away from it only when the samples say so. The
    prior grows by ``params.prior_rate`` visits per iteration once that is more, so its
    weight does not fade with a longer budget (measured: the search alone judges worse
    than with the heuristic's estimate blended in).
    """
    policy = policy or policy_for(view.ruleset)
    if params.eval_samples or params.eval_scale or params.eval_hand:
        policy = policy.with_evaluation(params.eval_samples, params.eval_scale, bool(params.eval_hand))
    if params.value:
        from frontlines.bots.learned import learned_policy  # its numpy is optional: without it, today's evaluation

        policy = learned_policy(policy, view.ruleset, params.value)
    root_only = set(root_actions) if root_actions else None
    viewer = view.viewer if view.viewer is not None else 0
    width = params.width
    horizon = 2 * params.horizon
    root = Node(-1)
    nodes = 1
    virtual = 0  # virtual visits given to each prior action so far
    if prior and params.prior_visits and view.viewer is not None:
        virtual = params.prior_visits
        for action, mean in prior.items():
            child = root.children[action] = Node(view.viewer)
            child.visits = child.avail = params.prior_visits
            child.reward = mean * params.prior_visits
            nodes += 1
    rate = params.prior_rate if virtual else 0.0
    started = time.perf_counter()
    deadline = None if params.time is None else started + params.time
    limit = params.iterations
    iterations = 0
    log = math.log
    sqrt = math.sqrt
    c = params.exploration
    spread = ValueSpread() if params.scale_exploration else None
    while (limit is None or iterations < limit) and (deadline is None or time.perf_counter() < deadline):
        iterations += 1
        state = policy.determinise(view, rng)
        node = root
        path: list[Node] = []
        expanded = False
        switches, last = 0, viewer
        at_horizon = False
        while not state.is_terminal():
            mover = state.current_player()
            if mover != last and mover is not None:
                switches, last = switches + 1, mover
                if horizon and switches >= horizon and mover == viewer:
                    at_horizon = True  # the tree reached the horizon: evaluate here
                    break
            legal = state.legal_actions()
            forced = policy.forced(state, legal)
            if forced is not None:
                choices = [forced]
            elif node is root and root_only is not None:
                choices = [a for a in legal if a in root_only] or legal
            elif width and len(legal) > width:
                choices = policy.candidates(state, legal, width, rng)
            else:
                choices = legal
            player = state.current_player()
            assert player is not None
            children = node.children
            untried: list[Action] = []
            for action in choices:
                known = children.get(action)
                if known is None:
                    untried.append(action)
                else:
                    known.avail += 1
            if untried:
                if expanded or nodes >= params.max_nodes:
                    break  # leave the tree: the rollout takes over from here
                action = untried[rng.randrange(len(untried))]
                child = Node(player)
                child.avail = 1
                children[action] = child
                nodes += 1
                expanded = True
            else:
                if expanded:
                    break
                best_score = -1.0
                action = choices[0]
                for candidate in choices:
                    ch = children[candidate]
                    score = ch.reward / ch.visits + c * sqrt(log(ch.avail) / ch.visits) if ch.visits else 1e9
                    if score > best_score:
                        best_score, action = score, candidate
                child = children[action]
            state.apply(action)
            path.append(child)
            node = child
        if at_horizon:
            value = _cutoff(state, policy, params, viewer)
        else:
            value = _rollout(state, policy, params, rng, viewer, switches, last)
        if spread is not None:
            spread.add(value)
            c = params.exploration * spread.factor()
        for visited in path:
            visited.visits += 1
            visited.reward += value if visited.player == 0 else 1.0 - value
        if rate and rate * iterations >= virtual + 1 and prior:
            virtual += 1
            for action, mean in prior.items():
                child = root.children[action]
                child.visits += 1
                child.avail += 1
                child.reward += mean
    stats = {a: RootStats(ch.visits, ch.reward) for a, ch in root.children.items()}
    return SearchResult(stats, iterations, nodes, time.perf_counter() - started)


def _position_value(view: View, policy: GamePolicy, deals: int, rng: random.Random) -> float:
    """The viewer's mean evaluation over ``deals`` determinisations (0.5 for none).

    Root moves start at this level plus the heuristic's estimate of each move's gain: the
    leaves the search then averages in are on the same scale, so the prior does not drag
    every move toward even chances when the game is already leaning one way.
    """
    if deals <= 0 or view.viewer is None:
        return 0.5
    total = 0.0
    for _ in range(deals):
        total += policy.evaluate(policy.determinise(view, rng), view.viewer)
    return total / deals


def _stable_seed(*parts: object) -> int:
    """A seed from text, the same in every process (``hash`` of a str is salted per process)."""
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _worker_search(
    payload: bytes, params: SearchParams, seed: int, root_actions: list[Action] | None, prior: dict[Action, float] | None
) -> SearchResult:
    view = pickle.loads(payload)
    return search(view, params, random.Random(seed), root_actions=root_actions, prior=prior)


class ISMCTSBot(Bot):
    """Information Set MCTS over the bot's own view."""

    name = "ismcts"

    def __init__(self, seed: int | None = None, params: SearchParams | None = None, **options: Any) -> None:
        self.params = replace(params or SearchParams(), **options)
        self.params.check()
        self._seed = seed if seed is not None else int.from_bytes(os.urandom(8), "big")
        self._game_seed: object = ""
        self._pool: ProcessPoolExecutor | None = None
        self._last: dict[str, Any] = {}

    def new_game(self, ruleset: str, seat: int, seed: int | None = None) -> None:
        self._game_seed = f"{seed}:{seat}"

    def _budget(self, clock: Clock | None) -> SearchParams:
        return replace(self.params, time=decision_seconds(self.params.time, clock))

    def choose(self, view: View, clock: Clock | None = None) -> Action:
        legal = view.legal_actions()
        if not legal:
            raise ValueError("ismcts asked to move with no legal action")
        policy = policy_for(view.ruleset)
        forced = policy.forced(view, legal)
        if forced is not None or len(legal) == 1:
            action = forced if forced is not None else legal[0]
            self._last = {"iterations": 0, "nodes": 0, "forced": True, "move": view.action_to_text(action)}
            return action
        params = self._budget(clock)
        if params.late() and policy.progress(view) >= params.late_from:
            params = params.for_late_game()
        seed = _stable_seed(self._seed, self._game_seed, view.to_notation())
        root_actions: list[Action] | None = None
        prior: dict[Action, float] | None = None
        if (params.root_width and len(legal) > params.root_width) or (params.prior_visits and policy.prior_scale):
            shortlist = policy.ranked(view, random.Random(seed), params.prior_samples)
            if params.root_width:
                shortlist = shortlist[: params.root_width]
            root_actions = [a for _, a in shortlist]
            if params.prior_visits and policy.prior_scale:
                base = _position_value(view, policy, params.prior_base, random.Random(seed + 1))
                prior = {a: min(0.95, max(0.05, base + policy.prior_scale * score)) for score, a in shortlist}
        futures: list[Future[SearchResult]] = []
        if params.workers > 1:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(max_workers=params.workers - 1)
            payload = pickle.dumps(view)
            futures = [self._pool.submit(_worker_search, payload, params, seed + i, root_actions, prior) for i in range(1, params.workers)]
        result = search(view, params, random.Random(seed), policy, root_actions, prior)
        for future in futures:
            result.merge(future.result())
        action, visits, mean = result.best(legal)
        ranked = sorted(result.stats.items(), key=lambda kv: -kv[1].visits)[:5]
        self._last = {
            "iterations": result.iterations,
            "nodes": result.nodes,
            "seconds": round(result.seconds, 3),
            "win_probability": round(mean, 4),
            "visits": visits,
            "move": view.action_to_text(action),
            "top": [(view.action_to_text(a), s.visits, round(s.mean, 3) if s.visits else None) for a, s in ranked],
            "params": asdict(params),
        }
        return action

    def info(self) -> dict[str, Any]:
        return dict(self._last)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
