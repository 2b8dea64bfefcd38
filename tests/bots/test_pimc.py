"""The sampling search (bots/pimc.py): common deals, lines, budgets, reproducibility."""

from __future__ import annotations

import random
import sys
import types
from dataclasses import replace
from typing import Any

import pytest
from test_bots_games import RULESETS, WINNING_MOVE, _play, ended_by_the_rules

import frontlines.bots.pimc as pimc
from frontlines.bots import Clock, make_bot
from frontlines.bots.heuristic import policy_for
from frontlines.bots.pimc import PimcParams, judge
from frontlines.core.game import State, View
from frontlines.games import new_state
from frontlines.games.battleline.notation import build_state

SMALL = "pimc:deals=3,width=3,replies=2"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_pimc_finishes_a_game(ruleset: str) -> None:
    final = _play(ruleset, (SMALL, "random"), 3)
    assert ended_by_the_rules(final), final.outcome()


@pytest.mark.parametrize("spec", ["pimc:deals=6,width=4", "pimc:deals=6,width=4,replies=2,refine=3,refine_deals=8,refine_follow=2"])
def test_same_seed_same_move_and_info(spec: str) -> None:
    state = new_state("battleline", seed=5)
    view = state.view(state.current_player())
    bots = [make_bot(spec, seed=9) for _ in range(2)]
    assert bots[0].choose(view) == bots[1].choose(view)
    info = bots[0].info()
    assert info == bots[1].info() | {"seconds": info["seconds"]}
    assert info["deals"] == 6 and 0.0 <= info["win_probability"] <= 1.0 and len(info["top"]) == 4
    assert ("refined" in info) == ("refine=" in spec)  # the second stage ran where it is asked for


def test_plays_the_winning_move_then_claims() -> None:
    state = build_state(WINNING_MOVE)
    bot = make_bot("pimc:deals=4", seed=1)
    action = bot.choose(state.view(0))
    assert state.action_to_text(action) == "G10@3"
    state.apply(action)
    assert state.action_to_text(bot.choose(state.view(0))) == "claim:3"
    assert bot.info()["forced"] is True


def test_every_candidate_is_judged_on_the_same_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    state = new_state("battleline-basic", seed=4)
    view = state.view(state.current_player())
    policy = policy_for(view.ruleset)
    dealt: list[str] = []
    judged_on: dict[Any, list[str]] = {}
    real_determinise = policy.determinise
    real_expand = pimc.Line.expand

    def determinise(v: View, rng: random.Random) -> State:
        deal = real_determinise(v, rng)
        dealt.append(deal.to_notation())
        return deal

    def expand(self: pimc.Line, deal: State, action: Any, rng: random.Random) -> Any:
        judged_on.setdefault(action, []).append(deal.to_notation())
        return real_expand(self, deal, action, rng)

    monkeypatch.setattr(policy, "determinise", determinise)
    monkeypatch.setattr(pimc.Line, "expand", expand)
    actions = view.legal_actions()[:4]
    judged = judge(view, actions, PimcParams(deals=5), seed=3, policy=policy)
    assert len(dealt) == 5 and len(set(dealt)) == 5  # five deals, drawn once each
    assert all(on == dealt for on in judged_on.values()) and len(judged_on) == 4
    assert judged.deals == 5 and all(len(row) == 5 for row in judged.values)
    # the paired difference of a candidate with itself is exactly nothing
    assert judged.difference(0, 0) == (0.0, 0.0)


def test_positions_are_evaluated_together_a_batch_of_deals_at_a_time() -> None:
    state = new_state("battleline-basic", seed=4)
    view = state.view(state.current_player())
    calls: list[int] = []
    rng = random.Random(1)

    def evaluate(states: Any, player: int) -> list[float]:
        assert player == view.viewer and all(isinstance(s, State) and not s.is_terminal() for s in states)
        calls.append(len(states))
        return [rng.random() for _ in states]

    judged = judge(view, view.legal_actions()[:3], PimcParams(deals=pimc.BATCH_DEALS + 2, replies=2), seed=3, evaluate=evaluate)
    assert len(calls) == 2  # one call per batch of deals
    assert calls == [pimc.BATCH_DEALS * 3 * 2, 2 * 3 * 2]  # deals x candidates x replies
    assert judged.deals == pimc.BATCH_DEALS + 2


def test_the_opponent_picks_its_reply_by_the_rule() -> None:
    a, b, c = object(), object(), object()  # stand-ins for positions: only their ids are read
    mine = {id(a): 0.7, id(b): 0.4, id(c): 0.6}
    theirs = {id(a): 0.9, id(b): 0.1}
    replies = [pimc.Reply([a], a), pimc.Reply([b, c], b), pimc.Reply([0.2], 0.95)]  # type: ignore[list-item]
    # min: the reply worst for me, each reply worth my best answer (b: max(0.4, 0.6))
    assert pimc._reduce(replies, mine, theirs, "min") == 0.2
    # own: the reply the opponent rates best (the last: 0.95), whatever it leaves me
    assert pimc._reduce(replies, mine, theirs, "own") == 0.2
    assert pimc._reduce(replies[:2], mine, theirs, "own") == 0.7
    assert pimc._reduce(replies[:2], mine, theirs, "min") == 0.6
    assert pimc._reduce(0.25, mine, theirs, "min") == 0.25


def test_time_cap_stops_between_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    class Clock2:
        now = 0.0

        def perf_counter(self) -> float:
            self.now += 0.1
            return self.now

    monkeypatch.setattr(pimc, "time", Clock2())
    state = new_state("battleline-basic", seed=2)
    view = state.view(state.current_player())
    # the clock reads 0.1 at the start (deadline 0.35), then 0.2, 0.3, 0.4 after each batch of deals
    judged = judge(view, view.legal_actions()[:3], PimcParams(deals=50, time=0.25), seed=1)
    assert judged.deals == 3 * pimc.BATCH_DEALS and all(len(row) == judged.deals for row in judged.values)
    bot = make_bot("pimc:deals=50", seed=1)
    bot.choose(view, Clock(time_left=2.5))
    assert bot.info()["params"]["time"] == pytest.approx(0.9 * 2.5 / 25)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("pimc:deals=0", "deals"),
        ("pimc:reply=max", "reply"),
        ("pimc:bogus=1", "unknown pimc option 'bogus'"),
        ("pimc:deals=x", "must be int"),
        ("pimc:eval_hand=2", "eval_hand"),
        ("pimc:refine=-1", "refine"),
        ("pimc:refine_deals=0", "refine_deals"),
        ("pimc:refine_margin=-0.1", "refine_margin"),
        ("pimc:playout=-1", "playout"),
    ],
)
def test_bad_specs_say_what_is_wrong(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_bot(spec)


def test_net_judges_the_leaves_where_there_is_one(monkeypatch: pytest.MonkeyPatch) -> None:
    state = new_state("battleline-basic", seed=8)
    view = state.view(state.current_player())
    # no learned evaluation for the ruleset: the heuristic's, the same move as without net=1
    monkeypatch.setattr(pimc, "learned_evaluation", lambda ruleset, opponent_hand: None)
    plain, with_net = make_bot("pimc:deals=3", seed=2), make_bot("pimc:deals=3,net=1", seed=2)
    assert plain.choose(view) == with_net.choose(view) and with_net.info()["evaluation"] == "heuristic"
    monkeypatch.undo()
    # a learned one (here a stand-in module): it judges every leaf, in batches
    seen: list[int] = []
    hands: set[bool] = set()

    class Fake:
        def values(self, states: Any, player: int, opponent_hand: bool = False) -> list[float]:
            seen.append(len(states))
            hands.add(opponent_hand)
            return [0.5] * len(states)

        def batch_evaluation(self, opponent_hand: bool = False) -> Any:
            return lambda states, player: self.values(states, player, opponent_hand)

    module = types.ModuleType("frontlines.bots.net.value")
    module.evaluator = lambda ruleset: Fake() if ruleset == "battleline-basic" else None  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "frontlines.bots.net.value", module)
    bot = make_bot("pimc:deals=3,net=1", seed=2)
    bot.choose(view)
    assert bot.info()["evaluation"] == "net" and seen and sum(seen) >= 3
    assert all(mean == 0.5 for _, mean in bot.info()["top"])  # the stand-in's values, nothing else
    assert hands == {True}  # eval_hand=1 (the default): the network reads each deal's opponent hand
    hands.clear()
    make_bot("pimc:deals=3,net=1,eval_hand=0", seed=2).choose(view)
    assert hands == {False}
    # a ruleset the learned evaluation does not cover (here the stand-in's answer): the heuristic's
    other = new_state("medieval", seed=8)
    st_bot = make_bot("pimc:deals=2,net=1", seed=2)
    st_bot.choose(other.view(other.current_player()))
    assert st_bot.info()["evaluation"] == "heuristic"


def test_the_late_settings_hold_from_late_from_on(monkeypatch: pytest.MonkeyPatch) -> None:
    used: list[PimcParams] = []
    real = pimc.judge

    def spy(view: View, actions: Any, params: PimcParams, *args: Any, **kwargs: Any) -> pimc.Judged:
        used.append(params)
        return real(view, actions, replace(params, deals=1), *args, **kwargs)

    monkeypatch.setattr(pimc, "judge", spy)
    state = new_state("battleline-basic", seed=3)
    policy = policy_for("battleline-basic")
    rng = random.Random(3)
    bot = make_bot("pimc:follow=0,late_follow=2,late_replies=0,late_deals=50,late_from=0.5", seed=1)
    progress = []
    while not state.is_terminal():
        player = state.current_player()
        assert player is not None
        view = state.view(player)
        legal = view.legal_actions()
        if player == 0 and len(legal) > 1 and policy.forced(view, legal) is None:
            used.clear()
            bot.choose(view)
            if used:
                progress.append((policy.progress(view), used[0]))
        state.apply(policy.choose(view, rng))
    assert any(p < 0.5 for p, _ in progress) and any(p >= 0.5 for p, _ in progress)
    for p, params in progress:
        late = p >= 0.5
        assert (params.follow, params.replies, params.deals) == ((2, 0, 50) if late else (0, 4, 32))


def test_finalists_are_the_best_few_near_the_best() -> None:
    judged = pimc.Judged(["a", "b", "c", "d"], [[0.5, 0.5], [0.6, 0.6], [0.58, 0.56], [0.3, 0.3]], 2, 0.0)  # type: ignore[list-item]
    assert judged.ranking() == [1, 2, 0, 3] and judged.best() == 1
    assert judged.finalists(3, 0.1) == [1, 2, 0]
    assert judged.finalists(2, 0.1) == [1, 2]
    assert judged.finalists(3, 0.05) == [1, 2]  # a (0.5) is 0.1 under b
    assert judged.finalists(3, 0.0) == [1]


def test_the_second_stage_judges_the_finalists_deeper_on_more_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[list[Any], PimcParams]] = []
    real = pimc.judge

    def spy(view: View, actions: Any, params: PimcParams, *args: Any, **kwargs: Any) -> pimc.Judged:
        calls.append((list(actions), params))
        judged = real(view, actions, params, *args, **kwargs)
        if len(calls) == 2:  # the second stage reverses the screening's order of its finalists
            judged.values = [[1.0 - v for v in row] for row in judged.values]
        return judged

    monkeypatch.setattr(pimc, "judge", spy)
    state = new_state("battleline-basic", seed=4)
    view = state.view(state.current_player())
    policy = policy_for(view.ruleset)
    real_determinise = policy.determinise
    dealt: list[str] = []

    def determinise(v: View, rng: random.Random) -> State:
        deal = real_determinise(v, rng)
        dealt.append(deal.to_notation())
        return deal

    monkeypatch.setattr(policy, "determinise", determinise)
    bot = make_bot("pimc:deals=4,width=4,replies=2,refine=2,refine_deals=6,refine_follow=2,refine_margin=1", seed=3)
    action = bot.choose(view)
    (screened, first), (finalists, second) = calls
    assert (first.deals, first.follow) == (4, 0) and len(screened) == 4
    assert (second.deals, second.follow, second.replies) == (6, 2, 2)
    info = bot.info()
    # the finalists are the screening's best two, and the second stage's best is played
    assert [view.action_to_text(a) for a in finalists] == [m for m, _ in info["top"][:2]]
    assert view.action_to_text(action) == info["move"] == info["refined"][0][0]
    assert info["refine_deals"] == 6 and len(info["refined"]) == 2
    # the second stage's deals begin with the screening's: deal k is the same deal in both
    assert dealt[4:8] == dealt[:4] and len(dealt) == 10 and len(set(dealt)) == 6
    # no second stage with one finalist, or with refine off
    calls.clear()
    make_bot("pimc:deals=4,width=4,replies=2,refine=1", seed=3).choose(view)
    assert len(calls) == 1
    calls.clear()
    make_bot("pimc:deals=4,width=4,replies=2", seed=3).choose(view)
    assert len(calls) == 1


def _deck_of(size: int, seed: int) -> View | None:
    """A heuristic self-play game of battleline-basic at the first choice with ``size`` troops
    left to draw, as its mover sees it (None where the game ends before)."""
    state = new_state("battleline-basic", seed=seed)
    policy = policy_for("battleline-basic")
    rng = random.Random(seed)
    while not state.is_terminal():
        view = state.view(state.current_player())
        legal = view.legal_actions()
        if view.tsize == size and len(legal) > 1 and policy.forced(view, legal) is None:  # type: ignore[attr-defined]
            return view
        state.apply(policy.choose(view, rng))
    return None


def test_small_decks_are_solved_exactly_in_each_deal() -> None:
    from frontlines.bots.endgame import exact_value

    policy = policy_for("battleline-basic")
    for seed in range(40):
        view = _deck_of(1, seed)
        if view is None:
            continue
        me = view.viewer
        assert me is not None
        actions = view.legal_actions()[:6]
        params = PimcParams(deals=2, exact_deck=1, exact_nodes=1_000_000)
        judged = judge(view, actions, params, seed=5, policy=policy)
        if len({v for row in judged.values for v in row}) < 2:
            continue  # decided whatever is played: no test of anything
        for k in range(2):
            deal = policy.determinise(view, random.Random(pimc._stable_seed(5, "deal", k)))
            for i, action in enumerate(actions):
                child = deal.clone()
                child.apply(action)
                assert judged.values[i][k] == exact_value(child, me, 1_000_000)  # type: ignore[arg-type]
        # over the budget, lines are judged as usual: by the evaluation, not 0, 1/2 or 1
        rough = judge(view, actions, replace(params, exact_nodes=1), seed=5, policy=policy)
        assert any(v not in (0.0, 0.5, 1.0) for row in rough.values for v in row)
        return
    pytest.fail("no undecided position with one card to draw")


def test_playout_plays_more_turns_by_the_heuristic_before_the_evaluation() -> None:
    state = new_state("battleline-basic", seed=4)
    view = state.view(state.current_player())
    seen: list[int] = []

    def evaluate(states: Any, player: int) -> list[float]:
        seen.extend(len(s.history) for s in states)
        return [0.5 for _ in states]

    actions = view.legal_actions()[:2]
    judge(view, actions, PimcParams(deals=2, replies=1), seed=3, evaluate=evaluate)
    plain = list(seen)
    seen.clear()
    judge(view, actions, PimcParams(deals=2, replies=1, playout=2), seed=3, evaluate=evaluate)
    # two more turns (a card and a draw each, claims aside) in every line
    assert len(seen) == len(plain) and all(b >= a + 4 for a, b in zip(plain, seen, strict=True))
    seen.clear()
    # played to the end: every line is the game's own result, nothing is left to evaluate
    judged = judge(view, actions, PimcParams(deals=2, replies=1, playout=200), seed=3, evaluate=evaluate)
    assert seen == [] and all(v in (0.0, 0.5, 1.0) for row in judged.values for v in row)
