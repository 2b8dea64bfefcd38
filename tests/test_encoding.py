"""The learning-library interface of every game (frontlines.core.encoding): dense action
ids, masks, returns, game length and tensors built from views only."""

from __future__ import annotations

import random
from array import array

import pytest

from frontlines.core.encoding import layout_offsets, returns_of
from frontlines.core.game import Outcome, State
from frontlines.games import all_rulesets, encoding, new_state

RULESETS = [r.name for r in all_rulesets()]
# options that change what a view shows, or the battlefields the tensors describe
VARIANTS = [
    *[(name, {}) for name in RULESETS],
    ("medieval", {"battlefields": "face_up", "battlefield_set": "house"}),
    ("battleline", {"guile_can_target_environment": "true", "mud_removed_excess": "owner_discards"}),
    ("warmachine", {"leftover_choice_blind": "false", "burn_visibility": "face_up"}),
    ("warmachine", {"match": "best_of_3"}),
]
IDS = [f"{name}-{'-'.join(options.values()) or 'default'}" for name, options in VARIANTS]
# per game, the information-state blocks before the recall blocks (perfect recall)
RECALL_BEFORE = {"battleline": ("cards", "flags", "global", "known", "known_by_them"),
                 "warmachine": ("cards", "positions", "global", "dealt")}


def positions(ruleset: str, options: dict[str, str], games: int, seed: int = 0) -> list[State]:
    """Every position of ``games`` random games (the final ones included)."""
    rng = random.Random(seed)
    out: list[State] = []
    for g in range(games):
        state = new_state(ruleset, seed=seed * 1000 + g, options=options)
        out.append(state.clone())
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
            out.append(state.clone())
    return out


@pytest.mark.parametrize(("ruleset", "options"), VARIANTS, ids=IDS)
def test_every_legal_action_has_an_id_and_back(ruleset: str, options: dict[str, str]) -> None:
    enc = encoding(ruleset, options)
    assert list(enc.codes) == sorted(set(enc.codes))
    for state in positions(ruleset, options, 6):
        legal = state.legal_actions()
        ids = enc.legal_ids(state)
        assert [enc.action(i) for i in ids] == legal
        assert all(0 <= i < enc.num_actions for i in ids)
        mask = enc.legal_mask(state)
        assert len(mask) == enc.num_actions and sum(mask) == len(set(ids))
        assert all(mask[i] for i in ids)
        assert [enc.action_id(a) for a in legal] == ids


def test_action_space_sizes() -> None:
    sizes = {name: encoding(name).num_actions for name in RULESETS}
    assert sizes["battleline-basic"] == 60 * 9 + 9 + 3
    assert sizes["schotten-totten"] == 54 * 9 + 9 + 3
    assert sizes["warmachine"] == 360 + 30 + 6 + 2 + 30 + 435 + 1
    assert sizes["battleline"] == sizes["medieval"]
    assert max(sizes.values()) < 2100


@pytest.mark.parametrize("bad", [-1, 2100, 646, "R7@3", None, 1.0])
def test_unknown_actions_and_ids_raise(bad: object) -> None:
    enc = encoding("battleline-basic")
    with pytest.raises(ValueError, match="battleline-basic"):
        enc.action_id(bad)
    with pytest.raises(ValueError, match="outside"):
        enc.action(bad)  # type: ignore[arg-type]


def test_warmachine_ids_are_dense_and_keep_the_notation() -> None:
    enc = encoding("warmachine")
    state = new_state("warmachine", seed=3)
    for a in state.legal_actions():
        assert enc.action(enc.action_id(a)) == a
        assert state.action_to_text(enc.action(enc.action_id(a))) == state.action_to_text(a)
    assert max(enc.codes) == 4000 and enc.num_actions == 864


@pytest.mark.parametrize(("ruleset", "options"), VARIANTS, ids=IDS)
def test_tensors_come_from_the_view_only(ruleset: str, options: dict[str, str]) -> None:
    """Dealing the cards a player cannot see differently changes none of that player's
    tensors; it does change the other player's (so the comparison can fail)."""
    enc = encoding(ruleset, options)
    rng = random.Random(1)
    other_changed = 0
    for state in positions(ruleset, options, 3)[::3]:
        if state.is_terminal():
            continue
        for me in (0, 1):
            view = state.view(me)
            other = view.sample(rng)  # the same view, the hidden cards dealt afresh
            other.adopt_record(view)  # and the game as the player saw it (the information state's record)
            assert other.view(me) == view
            obs = enc.observation_tensor(view)
            assert enc.observation_tensor(other.view(me)) == obs
            assert enc.observation_tensor_of(other, me) == obs
            assert enc.observation_tensor_of(state, me) == obs
            assert enc.information_state_tensor(other.view(me)) == enc.information_state_tensor(view)
            if enc.observation_tensor_of(other, 1 - me) != enc.observation_tensor_of(state, 1 - me):
                other_changed += 1
    assert other_changed > 0


@pytest.mark.parametrize(("ruleset", "options"), VARIANTS, ids=IDS)
def test_tensor_shapes_and_prefix(ruleset: str, options: dict[str, str]) -> None:
    enc = encoding(ruleset, options)
    assert enc.observation_layout == enc.information_state_layout[: len(enc.observation_layout)]
    for state in positions(ruleset, options, 2)[::5]:
        for me in (0, 1):
            obs = enc.observation_tensor_of(state, me)
            info = enc.information_state_tensor(state.view(me))
            assert len(obs) == enc.observation_size and len(info) == enc.information_state_size
            assert info[: len(obs)] == obs
            assert all(-1.0 <= x <= 1.0 for x in info)  # the bounds the rl spaces declare


@pytest.mark.parametrize(("ruleset", "options"), VARIANTS, ids=IDS)
def test_live_observations_equal_fresh_tensors(ruleset: str, options: dict[str, str]) -> None:
    """A live observation rewrites only what changed since its last update: along a game
    played in place, for the player to move only (several moves between its updates), then
    jumping across positions of other games, and from views, it equals the fresh tensor."""
    enc = encoding(ruleset, options)
    live = [enc.live_observation(0), enc.live_observation(1)]
    rng = random.Random(4)
    for g in range(3):
        state = new_state(ruleset, seed=40 + g, options=options)
        while True:
            me = state.current_player()
            for p in (0, 1) if me is None else (me,):
                assert live[p].update(state) == enc.observation_tensor_of(state, p)
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
    for state in positions(ruleset, options, 3, seed=5)[::-7]:
        for me in (0, 1):
            assert live[me].update(state) == enc.observation_tensor_of(state, me)
            assert live[me].update(state.view(me)) == enc.observation_tensor(state.view(me))
    with pytest.raises(ValueError, match="player 0 or 1"):
        enc.live_observation(2)


@pytest.mark.parametrize("information", [False, True], ids=["observation", "information_state"])
@pytest.mark.parametrize(("ruleset", "options"), VARIANTS, ids=IDS)
def test_advanced_live_tensors_equal_fresh_tensors(ruleset: str, options: dict[str, str], information: bool) -> None:
    """``advance``, which rewrites only what the moves since the last update change (what
    the environments call at every step), equals the fresh tensor along random games played
    in place: for the player to move only (one to several moves between its updates), and
    for both players after every move; each tensor's first update is a full one."""
    enc = encoding(ruleset, options)
    fresh = enc.information_state_tensor_of if information else enc.observation_tensor_of
    rng = random.Random(8)
    written: dict[str, bool] = {}  # recall blocks: whether some game wrote an entry there
    for g in range(12):
        every_move = g % 3 == 2
        make = enc.live_information_state if information else enc.live_observation
        live = [make(0), make(1)]
        state = new_state(ruleset, seed=80 + g, options=options)
        seen = [-1, -1]
        while True:
            me = state.current_player()
            for p in (0, 1) if me is None or every_move else (me,):
                moves = len(state.history)
                tensor = live[p].update(state) if seen[p] < 0 else live[p].advance(state, state.history[seen[p]:])
                seen[p] = moves
                assert tensor == fresh(state, p), (p, moves, state.history[-3:])
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        if information:  # the recall blocks (perfect recall) took part: each has written entries
            offsets = layout_offsets(enc.information_state_layout)
            recall = [b.name for b in enc.information_state_layout[len(RECALL_BEFORE[state.game]):]]
            final = fresh(state, 0)
            for name in recall:
                start, end = offsets[name]
                written[name] = written.get(name, False) or any(final[start:end])
    if information:
        if ruleset in ("battleline-basic", "schotten-totten"):
            written.pop("moved")  # what tactics cards do: none here
        assert all(written.values()), [name for name, w in written.items() if not w]


@pytest.mark.parametrize(("ruleset", "options"), VARIANTS, ids=IDS)
def test_live_information_states_equal_fresh_tensors(ruleset: str, options: dict[str, str]) -> None:
    """The same for the information state: along games played in place (every player at
    every position, as OpenSpiel's rl_environment asks), across games, and from views; and
    the information state of a full position is that of its view."""
    enc = encoding(ruleset, options)
    live = [enc.live_information_state(0), enc.live_information_state(1)]
    rng = random.Random(6)
    for g in range(3):
        state = new_state(ruleset, seed=60 + g, options=options)
        while True:
            for p in (0, 1):
                fresh = enc.information_state_tensor(state.view(p))
                assert enc.information_state_tensor_of(state, p) == fresh
                assert live[p].update(state) == fresh
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
    for state in positions(ruleset, options, 3, seed=7)[::-7]:
        for me in (0, 1):
            fresh = enc.information_state_tensor(state.view(me))
            assert live[me].update(state) == fresh
            assert live[me].update(state.view(me)) == fresh
    # a search's moves tried and taken back (push, pop): the record written is checked, not trusted
    state = new_state(ruleset, seed=61, options=options)
    while not state.is_terminal():
        for _ in range(2):
            state.push(rng.choice(state.legal_actions()))
            for p in (0, 1):
                assert live[p].update(state) == enc.information_state_tensor_of(state, p)
            state.pop()
        state.apply(rng.choice(state.legal_actions()))
        for p in (0, 1):
            assert live[p].update(state) == enc.information_state_tensor_of(state, p)
    with pytest.raises(ValueError, match="player 0 or 1"):
        enc.live_information_state(2)


@pytest.mark.parametrize(("ruleset", "options"), VARIANTS, ids=IDS)
def test_private_entries_are_all_that_a_spectator_cannot_see(ruleset: str, options: dict[str, str]) -> None:
    """With the private entries zeroed, a player's observation is the same in every
    position a spectator cannot tell apart (samples of the spectator's view); the private
    entries do differ between such positions (so the comparison can fail)."""
    enc = encoding(ruleset, options)
    private = enc.private_entries(options)
    rng = random.Random(8)
    differ = 0
    for state in positions(ruleset, options, 3, seed=9)[::4]:
        spectator = state.view(None)
        for me in (0, 1):
            public = enc.observation_tensor_of(state, me)
            for entries in private:
                public[entries] = array("f", bytes(4 * len(public[entries])))
            for _ in range(3):
                other = spectator.sample(rng)
                seen = enc.observation_tensor_of(other, me)
                differ += seen != enc.observation_tensor_of(state, me)
                for entries in private:
                    seen[entries] = array("f", bytes(4 * len(seen[entries])))
                assert seen == public
    assert differ > 0


def test_spectator_views_have_no_tensor() -> None:
    state = new_state("battleline", seed=1)
    with pytest.raises(ValueError, match="spectator"):
        encoding("battleline").observation_tensor(state.view(None))


def test_battleline_card_places_are_relative_to_the_viewer() -> None:
    state = new_state("battleline-basic", seed=5, options={"first_player": "0"})
    enc = encoding("battleline-basic")
    cards = layout_offsets(enc.observation_layout)["cards"][0]
    play = next(a for a in state.legal_actions() if state.action_to_text(a).endswith("@3"))
    card = play // 9  # the engine's code: card * 9 + flag
    assert enc.observation_tensor(state.view(0))[cards + card * 21 + 0] == 1.0  # my hand
    state.apply(play)
    mine = enc.observation_tensor(state.view(0))
    theirs = enc.observation_tensor(state.view(1))
    assert mine[cards + card * 21 + 0] == 0.0
    assert mine[cards + card * 21 + 1 + 2] == 1.0  # my side of flag 3
    assert theirs[cards + card * 21 + 10 + 2] == 1.0  # their side of flag 3


def test_returns() -> None:
    assert returns_of(None) == (0.0, 0.0)
    assert returns_of(Outcome(0, "breakthrough")) == (1.0, -1.0)
    assert returns_of(Outcome(1, "score", (3, 5))) == (-1.0, 1.0)
    assert returns_of(Outcome(None, "stall")) == (0.0, 0.0)
    for ruleset in ("battleline-basic", "warmachine"):
        state = positions(ruleset, {}, 1, seed=4)[-1]
        outcome = state.outcome()
        assert outcome is not None
        ret = encoding(ruleset).returns(state)
        assert sum(ret) == 0.0
        if outcome.winner is not None:
            assert ret[outcome.winner] == 1.0


@pytest.mark.parametrize(("options", "bound"), [({}, 49), ({"match": "best_of_3"}, 147)])
def test_warmachine_length_is_proven(options: dict[str, str], bound: int) -> None:
    enc = encoding("warmachine", options)
    assert enc.length_proven and enc.max_game_length == bound
    lengths = [len(s.history) for s in positions("warmachine", options, 60) if s.is_terminal()]
    assert max(lengths) <= bound
    # the proof says every turn deploys or burns and then draws (24 support cards): random
    # games come close to the bound of one game
    assert max(lengths) >= bound // 3 * 2 - 10 if options else max(lengths) >= bound - 6


def test_battleline_length_is_enforced() -> None:
    enc = encoding("battleline")
    assert not enc.length_proven and enc.max_game_length == 1000
    state = new_state("battleline", seed=2)
    assert not enc.truncated(state)
    last = positions("battleline", {}, 1)[-1]
    assert last.is_terminal() and not enc.truncated(last)


def test_options_are_checked() -> None:
    with pytest.raises(ValueError):
        encoding("battleline", {"nonsense": "1"})
    with pytest.raises(ValueError):
        encoding("warmachine", {"match": "best_of_5"})
