"""frontlines.rl.pettingzoo: PettingZoo's own checks, illegal actions, rewards, rendering."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

from frontlines.games import all_rulesets  # noqa: E402
from frontlines.rl._common import IllegalActionId  # noqa: E402
from frontlines.rl.pettingzoo import env, raw_env  # noqa: E402

RULESETS = [r.name for r in all_rulesets()]
# api_test notes that observations are dictionaries (action masks), as for its own classic games
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably"),
]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_api_test(ruleset: str) -> None:
    api_test(env(ruleset=ruleset), num_cycles=400)


def test_api_test_with_information_states_and_options() -> None:
    api_test(env(ruleset="battleline", observation="information_state", claim_timing="after_play"), num_cycles=400)


@pytest.mark.parametrize("ruleset", ["battleline-basic", "battleline", "warmachine"])
def test_seed_and_render_tests(ruleset: str) -> None:
    seed_test(lambda **kw: env(ruleset=ruleset, **kw), num_cycles=300)
    render_test(lambda render_mode=None: env(ruleset=ruleset, render_mode=render_mode))


def test_ansi_shows_the_table() -> None:
    e = env(ruleset="battleline-basic", render_mode="ansi")
    e.reset(seed=3)
    text = e.render()
    assert isinstance(text, str)
    assert "battleline-basic" in text and "to move" in text and "troop deck 46" in text


@pytest.mark.parametrize("ruleset", ["battleline-basic", "warmachine"])
def test_rewards_at_the_end(ruleset: str) -> None:
    e = env(ruleset=ruleset)
    rng = random.Random(5)
    for seed in range(4):
        e.reset(seed=seed)
        rewards = dict.fromkeys(e.possible_agents, 0.0)
        for agent in e.agent_iter():
            obs, reward, termination, truncation, _info = e.last()
            rewards[agent] += reward
            if termination or truncation:
                e.step(None)
                continue
            e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        state = e.unwrapped.table.state
        outcome = state.outcome()
        assert outcome is not None
        if outcome.winner is None:
            assert rewards == {"player_0": 0.0, "player_1": 0.0}
        else:
            assert rewards[f"player_{outcome.winner}"] == 1.0
            assert rewards[f"player_{1 - outcome.winner}"] == -1.0


def test_the_agent_to_move_is_the_player_to_move() -> None:
    e = env(ruleset="battleline")
    e.reset(seed=11)
    rng = random.Random(1)
    for _ in range(60):
        obs, *_ = e.last()
        state = e.unwrapped.table.state
        assert e.agent_selection == f"player_{state.current_player()}"
        other = e.observe(f"player_{1 - state.current_player()}")
        assert not other["action_mask"].any()
        e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))


@pytest.mark.parametrize("ruleset", ["battleline-basic", "warmachine"])
def test_an_illegal_action_raises_and_changes_nothing_in_the_raw_env(ruleset: str) -> None:
    e = raw_env(ruleset=ruleset)
    e.reset(seed=2)
    obs, *_ = e.last()
    state = e.unwrapped.table.state
    before = state.to_notation()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    with pytest.raises(AssertionError) as info:
        e.step(illegal)
    assert isinstance(info.value, IllegalActionId)
    text = str(info.value)
    enc = e.unwrapped.table.encoding
    assert f"action id {illegal} ({state.action_to_text(enc.action(illegal))})" in text
    assert f"{legal} ({state.action_to_text(enc.action(legal))})" in text
    assert state.to_notation() == before
    with pytest.raises(AssertionError, match="not an action id"):  # outside the space
        e.step(enc.num_actions)
    assert state.to_notation() == before
    for junk in (float(legal) + 0.5, str(legal), None):  # ids are integers (Python or numpy)
        with pytest.raises(AssertionError, match="legal: "):
            e.step(junk)
    assert state.to_notation() == before
    e.step(np.int64(legal))  # the game goes on
    assert state.to_notation() != before


VARIANTS = [
    *[(name, {}) for name in RULESETS],
    ("medieval", {"battlefields": "face_up", "battlefield_set": "house"}),
    ("battleline", {"guile_can_target_environment": "true", "mud_removed_excess": "owner_discards"}),
    ("warmachine", {"match": "best_of_3"}),
]


@pytest.mark.parametrize("observation", ["observation", "information_state"])
@pytest.mark.parametrize(("ruleset", "options"), VARIANTS, ids=[f"{r}-{len(o)}" for r, o in VARIANTS])
def test_every_observation_and_mask_is_the_positions(ruleset: str, options: dict[str, str], observation: str) -> None:
    """Random play through the environment, whole games of every ruleset: at every
    decision the tensor (kept up to date move by move) is the one built afresh from the
    position, and the mask is the engine's legal actions; each step goes through the
    environment's own legality check, which applies a legal id without asking the engine
    again."""
    e = env(ruleset=ruleset, observation=observation, **options)
    table = e.unwrapped.table
    enc = table.encoding
    fresh = enc.observation_tensor_of if observation == "observation" else enc.information_state_tensor_of
    rng = random.Random(3)
    for seed in range(8):
        e.reset(seed=seed)
        while True:
            obs, _reward, termination, truncation, _info = e.last()
            if termination or truncation:
                break
            state = table.state
            seat = state.current_player()
            assert list(obs["action_mask"]) == enc.legal_mask(state)
            assert obs["observation"].tolist() == list(fresh(state, seat))
            e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        assert table.state.is_terminal() or table.truncated()


def test_a_changed_mask_lets_no_illegal_action_through() -> None:
    """The environment checks an id against the legal ids it keeps, not against the mask
    array it handed out, which the learner may change."""
    e = env(ruleset="battleline-basic")
    e.reset(seed=4)
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs["action_mask"][illegal] = 1
    e.step(illegal)  # the wrapped environment: the game ends, -1 for the offender
    assert e.terminations["player_0"] and sorted(e.rewards.values()) == [-1.0, 0.0]


def test_env_is_wrapped_as_the_classic_environments_are() -> None:
    """``env()``: an illegal id ends the game with -1 for its player (and 0 for the other),
    an id outside the space is refused by an assertion, and stepping before ``reset()``
    is refused; ``raw_env()`` is the same environment unwrapped."""
    from pettingzoo.utils import wrappers

    e = env(ruleset="battleline-basic")
    assert isinstance(e, wrappers.OrderEnforcingWrapper) and isinstance(e.unwrapped, raw_env)
    assert e.metadata["render_fps"] > 0 and raw_env().metadata["render_fps"] > 0
    with pytest.raises(Exception, match="reset"):
        e.step(0)
    e.reset(seed=2)
    with pytest.raises(AssertionError):
        e.step(e.unwrapped.table.encoding.num_actions)
    obs, *_ = e.last()
    offender = e.agent_selection
    before = e.unwrapped.table.state.to_notation()
    e.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))  # PettingZoo logs "Illegal move made"
    assert all(e.terminations.values())
    assert e.unwrapped.table.state.to_notation() == before
    rewards = {}
    for agent in e.agent_iter():
        _obs, reward, termination, truncation, _info = e.last()
        rewards[agent] = reward
        assert termination or truncation
        e.step(None)
    assert rewards[offender] == -1 and rewards[next(a for a in rewards if a != offender)] == 0


def test_truncation_at_the_game_length(monkeypatch: pytest.MonkeyPatch) -> None:
    e = raw_env(ruleset="battleline-basic")
    monkeypatch.setattr(e.table.encoding, "max_game_length", 5)
    e.reset(seed=1)
    rng = random.Random(2)
    for _ in range(5):
        e.step(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]).tolist()))
    assert all(e.truncations.values()) and not any(e.terminations.values())


def test_bad_construction() -> None:
    with pytest.raises(KeyError, match="known"):
        env(ruleset="chess")
    with pytest.raises(ValueError, match="claim_timing"):
        env(ruleset="battleline", claim_timing="never")
    with pytest.raises(ValueError, match="render_mode"):
        env(render_mode="rgb_array")
    with pytest.raises(ValueError, match="observation"):
        env(observation="pixels")


def test_each_agents_view_is_its_observation_as_the_apis_object() -> None:
    """view(agent): that player's view (legal actions as its mask, the other hand hidden),
    through the classic wrapping too; an unknown agent is refused."""
    e = env()
    e.reset(seed=3)
    codes = e.unwrapped.table.encoding.codes
    for seat, agent in enumerate(e.possible_agents):
        view = e.view(agent)
        mask = e.observe(agent)["action_mask"]
        assert view.viewer == seat
        assert sorted(codes[i] for i in np.flatnonzero(mask)) == sorted(view.legal_actions())
        assert view.hands[1 - seat] == 0 != e.unwrapped.table.state.hands[1 - seat]
    with pytest.raises(ValueError, match="no agent"):
        e.view("player_2")
