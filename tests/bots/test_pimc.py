"""The sampling search (bots/pimc.py): common deals, lines, budgets, reproducibility."""

from __future__ import annotations

import random
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


def test_same_seed_same_move_and_info() -> None:
    state = new_state("battleline", seed=5)
    view = state.view(state.current_player())
    bots = [make_bot("pimc:deals=6,width=4", seed=9) for _ in range(2)]
    assert bots[0].choose(view) == bots[1].choose(view)
    info = bots[0].info()
    assert info == bots[1].info() | {"seconds": info["seconds"]}
    assert info["deals"] == 6 and 0.0 <= info["win_probability"] <= 1.0 and len(info["top"]) == 4


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
    judged_on: dict[int, list[str]] = {}
    real_determinise = policy.determinise
    real_value = pimc.Line.value

    def determinise(v: View, rng: random.Random) -> State:
        deal = real_determinise(v, rng)
        dealt.append(deal.to_notation())
        return deal

    def value(self: pimc.Line, deal: State, action: Any, rng: random.Random) -> float:
        judged_on.setdefault(action, []).append(deal.to_notation())
        return real_value(self, deal, action, rng)

    monkeypatch.setattr(policy, "determinise", determinise)
    monkeypatch.setattr(pimc.Line, "value", value)
    actions = view.legal_actions()[:4]
    judged = judge(view, actions, PimcParams(deals=5), seed=3, policy=policy)
    assert len(dealt) == 5 and len(set(dealt)) == 5  # five deals, drawn once each
    assert all(on == dealt for on in judged_on.values()) and len(judged_on) == 4
    assert judged.deals == 5 and all(len(row) == 5 for row in judged.values)
    # the paired difference of a candidate with itself is exactly nothing
    assert judged.difference(0, 0) == (0.0, 0.0)


@pytest.mark.parametrize("rule", ["min", "own"])
def test_the_opponent_reply_is_its_best_in_each_deal(monkeypatch: pytest.MonkeyPatch, rule: str) -> None:
    # each line tries the opponent's heuristic best ``replies`` moves; reply=min keeps the
    # one that leaves me the least, reply=own the one its own evaluation likes best
    state = new_state("battleline-basic", seed=6)
    view = state.view(state.current_player())
    lines: list[tuple[list[float], list[float], float]] = []
    real_settle, real_value, real_own = pimc.Line._settle, pimc.Line.value, policy_for(view.ruleset).evaluate

    def settle(self: pimc.Line, s: State) -> float:
        v = real_settle(self, s)
        lines[-1][0].append(v)
        return v

    def own(s: State, player: int) -> float:
        v = real_own(s, player)
        lines[-1][1].append(v)
        return v

    def value(self: pimc.Line, deal: State, action: Any, rng: random.Random) -> float:
        lines.append(([], [], 0.0))
        self.own = own
        v = real_value(self, deal, action, rng)
        lines[-1] = (*lines[-1][:2], v)
        return v

    monkeypatch.setattr(pimc.Line, "_settle", settle)
    monkeypatch.setattr(pimc.Line, "value", value)
    judge(view, view.legal_actions()[:2], PimcParams(deals=3, replies=3, reply=rule), seed=1)
    assert len(lines) == 6
    for mine, theirs, kept in lines:
        assert len(mine) == 3
        if rule == "min":
            assert kept == min(mine)
        else:
            assert len(theirs) == 3 and kept == mine[theirs.index(max(theirs))]


def test_time_cap_stops_between_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    class Clock2:
        now = 0.0

        def perf_counter(self) -> float:
            self.now += 0.1
            return self.now

    monkeypatch.setattr(pimc, "time", Clock2())
    state = new_state("battleline-basic", seed=2)
    view = state.view(state.current_player())
    # the clock reads 0.1 at the start (deadline 0.35), then 0.2, 0.3, 0.4 after each deal
    judged = judge(view, view.legal_actions()[:3], PimcParams(deals=50, time=0.25), seed=1)
    assert judged.deals == 3 and all(len(row) == 3 for row in judged.values)
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
    ],
)
def test_bad_specs_say_what_is_wrong(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_bot(spec)
