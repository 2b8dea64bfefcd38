"""frontlines.rl.gymnasium: registration, Gymnasium's check_env, the opponent, illegal actions."""

from __future__ import annotations

import warnings

import pytest

gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import frontlines.rl.gymnasium  # noqa: E402, F401  (registers the ids)
from frontlines.rl._common import IllegalActionId  # noqa: E402

IDS = ["frontlines/BattleLine-v0", "frontlines/WarMachine-v0"]


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("opponent", ["heuristic", "random"])
def test_check_env_with_the_default_settings(env_id: str, opponent: str) -> None:
    env = gymnasium.make(env_id, opponent=opponent)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # check_env reports most findings as warnings
        check_env(env.unwrapped)


@pytest.mark.parametrize("ruleset", ["battleline", "schotten-totten", "medieval"])
def test_other_rulesets_and_the_information_state(ruleset: str) -> None:
    env = gymnasium.make("frontlines/BattleLine-v0", ruleset=ruleset, observation="information_state")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)


@pytest.mark.parametrize("env_id", IDS)
def test_the_action_space_samples_legal_ids(env_id: str) -> None:
    """A random agent stepping ``action_space.sample()`` plays whole games legally, and the
    space's seed makes its choices reproducible."""

    def games(seed: int) -> list[int]:
        env = gymnasium.make(env_id, opponent="random")
        env.action_space.seed(seed)
        env.reset(seed=1)
        chosen = []
        for _ in range(3):
            while True:
                mask = env.unwrapped.action_masks()
                action = env.action_space.sample()
                assert mask[action] == 1
                chosen.append(int(action))
                _obs, _reward, terminated, truncated, _info = env.step(action)
                if terminated or truncated:
                    break
            env.reset()
        return chosen

    assert games(3) == games(3)
    assert games(3) != games(4)


def test_sampling_with_a_mask_is_discretes() -> None:
    env = gymnasium.make("frontlines/BattleLine-v0")
    env.reset(seed=2)
    space = env.action_space
    assert isinstance(space, gymnasium.spaces.Discrete) and space.contains(space.n - 1)  # the whole space
    mask = np.zeros(space.n, np.int8)
    mask[[5, 7]] = 1
    assert {int(space.sample(mask=mask)) for _ in range(40)} == {5, 7}
    with pytest.raises(AssertionError, match="dtype"):
        space.sample(mask=mask.astype(np.float32))


def test_a_vector_env_with_gymnasiums_defaults_and_masked_sampling() -> None:
    """``make_vec`` with the default next-step autoreset: masked sampling from every
    observation never meets an all-zero mask (the step after a game's end is an autoreset,
    whose action is ignored: the last observation's mask is all ones), and the games go on."""
    envs = gymnasium.make_vec("frontlines/BattleLine-v0", num_envs=3, opponent="random")
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    envs.single_action_space.seed(1)
    obs, _ = envs.reset(seed=1)
    ended = 0
    for _ in range(400):
        masks = obs["action_mask"]
        assert masks.any(axis=1).all()
        actions = np.array([envs.single_action_space.sample(mask=m) for m in masks])
        obs, _rewards, terminated, truncated, _info = envs.step(actions)
        ended += int((terminated | truncated).sum())
    assert ended >= 3
    envs.close()


def test_a_vector_env_steps_its_action_spaces_samples() -> None:
    """``action_space.sample()`` of a vector env (any ids: the batched space knows no game)
    never raises: an illegal id loses that game (-1), the default, and the run goes on."""
    for mode in ("sync", "async"):
        envs = gymnasium.make_vec("frontlines/WarMachine-v0", num_envs=2, vectorization_mode=mode)
        envs.action_space.seed(2)
        envs.reset(seed=2)
        lost = told = 0
        for _ in range(10):
            _obs, rewards, terminated, _truncated, info = envs.step(envs.action_space.sample())
            lost += int((terminated & (rewards == -1.0)).sum())
            told += "illegal" in info
        assert lost > 0 and told > 0
        envs.close()


def test_the_action_space_does_not_carry_the_game() -> None:
    """The space refers to its game weakly: a pickle is a plain Discrete of a few hundred
    bytes, which samples every id (it was the whole game, about 43 KB)."""
    import pickle

    env = gymnasium.make("frontlines/BattleLine-v0")
    env.reset(seed=1)
    data = pickle.dumps(env.action_space)
    assert len(data) < 2000
    space = pickle.loads(data)
    assert type(space) is gymnasium.spaces.Discrete and space.n == env.action_space.n


def play_out(env: object, rng: np.random.Generator, obs: dict[str, np.ndarray]) -> tuple[float, bool, bool]:
    while True:
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0
        obs, reward, terminated, truncated, _info = env.step(int(rng.choice(legal)))  # type: ignore[attr-defined]
        if terminated or truncated:
            return float(reward), terminated, truncated


@pytest.mark.parametrize("seat", [0, 1])
def test_the_agent_plays_its_seat_and_the_bot_the_other(seat: int) -> None:
    env = gymnasium.make("frontlines/BattleLine-v0", opponent="heuristic", seat=seat)
    obs, info = env.reset(seed=4)
    assert info["seat"] == seat
    table = env.unwrapped.table
    assert table.state.current_player() == seat
    assert (env.unwrapped.action_masks() == obs["action_mask"]).all()
    reward, terminated, _ = play_out(env, np.random.default_rng(0), obs)
    outcome = table.state.outcome()
    assert terminated and outcome is not None
    assert reward == (0.0 if outcome.winner is None else 1.0 if outcome.winner == seat else -1.0)
    with pytest.raises(IllegalActionId, match="reset"):
        env.step(0)


def test_random_seats() -> None:
    env = gymnasium.make("frontlines/WarMachine-v0", seat=None)
    seats = {env.reset(seed=s)[1]["seat"] for s in range(12)}
    assert seats == {0, 1}


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    env = gymnasium.make("frontlines/BattleLine-v0", opponent="random", illegal="raise")
    obs, _ = env.reset(seed=9)
    state = env.unwrapped.table.state
    enc = env.unwrapped.table.encoding
    before = state.to_notation()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(AssertionError, match=r"action id \d+ \(.+\) is not legal now \(.+\); legal: \d+ \(") as info:
        env.step(illegal)
    assert state.action_to_text(enc.action(illegal)) in str(info.value)
    with pytest.raises(AssertionError, match="not an action id"):
        env.step(enc.num_actions + 3)
    assert state.to_notation() == before


def test_an_illegal_action_loses_the_game_by_default() -> None:
    env = gymnasium.make("frontlines/BattleLine-v0")
    obs, _ = env.reset(seed=9)
    before = env.unwrapped.table.state.to_notation()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert "not legal" in info["illegal"] and "legal: " in info["illegal"]
    assert env.unwrapped.action_masks().all() and obs["action_mask"].all()  # the game is over: any id
    assert env.unwrapped.table.state.to_notation() == before
    with pytest.raises(IllegalActionId, match="reset"):
        env.step(0)


def test_same_seed_same_game() -> None:
    def history(seed: int) -> list[object]:
        env = gymnasium.make("frontlines/BattleLine-v0", opponent="heuristic")
        obs, _ = env.reset(seed=seed)
        play_out(env, np.random.default_rng(1), obs)
        return list(env.unwrapped.table.state.history)

    assert history(7) == history(7)
    assert history(7) != history(8)


def test_bad_keywords() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        gymnasium.make("frontlines/BattleLine-v0", opponent="grandmaster")
    with pytest.raises(ValueError, match="seat"):
        gymnasium.make("frontlines/BattleLine-v0", seat=2)
    with pytest.raises(ValueError, match="illegal"):
        gymnasium.make("frontlines/BattleLine-v0", illegal="ignore")


@pytest.mark.parametrize("seat", [0, 1])
def test_the_agents_view_is_its_observation_as_the_apis_object(seat: int) -> None:
    """env.unwrapped.view(): the agent's view, whose legal actions are the mask's ids and
    which hides the opponent's hand (what examples/beat_heuristic.py reads)."""
    env = gymnasium.make("frontlines/BattleLine-v0", opponent="heuristic", seat=seat)
    obs, _info = env.reset(seed=9)
    rng = np.random.default_rng(1)
    codes = env.unwrapped.table.encoding.codes
    for _ in range(12):
        view = env.unwrapped.view()
        state = env.unwrapped.table.state
        assert view.viewer == seat
        assert sorted(codes[i] for i in np.flatnonzero(obs["action_mask"])) == sorted(view.legal_actions())
        assert view.hands[seat] == state.hands[seat]
        assert view.hands[1 - seat] == 0 != state.hands[1 - seat]  # hidden
        obs, _reward, terminated, truncated, _info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert not (terminated or truncated)
