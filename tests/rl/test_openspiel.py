"""OpenSpiel: every ruleset registered, OpenSpiel's own checks, the chance model, bad input,
OpenSpiel's search bots on our games and in our arena (skipped without open-spiel)."""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from frontlines.bots.registry import make_bot  # noqa: E402
from frontlines.games import all_rulesets, encoding, new_state  # noqa: E402
from frontlines.games.battleline.cards import parse_card  # noqa: E402
from frontlines.games.battleline.state import CLAIM_BASE, DRAW_TROOP, PASS  # noqa: E402
from frontlines.rl import openspiel as fo  # noqa: E402


def _past_setup(game: Any, seed: int = 0) -> Any:
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes = [o for o, _ in state.chance_outcomes()]
        state.apply_action(rng.choice(outcomes))
    return state


def _play_randomly(state: Any, rng: random.Random, until: Any) -> Any:
    """Random play (chance by its probabilities) until ``until(state)`` or the end."""
    while not state.is_terminal() and not until(state):
        if state.is_chance_node():
            state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_every_ruleset_is_registered_with_its_options_as_parameters() -> None:
    names = set(pyspiel.registered_names())
    for r in all_rulesets():
        name = fo.game_name(r.name)
        assert name in names
        game = pyspiel.load_game(name)
        assert set(game.get_parameters()) == {o.name for o in r.options}
        assert game.num_distinct_actions() == encoding(r.name).num_actions
    assert "frontlines_battleline_basic" in names and "frontlines_warmachine" in names


@pytest.mark.parametrize("ruleset", [r.name for r in all_rulesets()])
def test_random_sim_test_with_serialisation(ruleset: str) -> None:
    game = pyspiel.load_game(fo.game_name(ruleset))
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize(("name", "params"), [
    ("frontlines_medieval", {"battlefields": "mixed", "battlefield_set": "house"}),
    ("frontlines_warmachine", {"leftover_choice_blind": False, "shuffler": 1, "battle_timing": "after_each_draw"}),
    ("frontlines_battleline", {"first_player": 1, "claim_timing": "start_of_turn"}),
    ("frontlines_warmachine", {"match": "best_of_3"}),
])
def test_random_sim_test_with_options(name: str, params: dict[str, Any]) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(name, params), num_sims=2, serialize=True, verbose=False)


def test_parameters_in_a_game_string_reach_the_rules() -> None:
    game = pyspiel.load_game("frontlines_battleline_basic(first_player=1,claim_timing=after_play)")
    state = _past_setup(game)
    engine = state.engine.state
    assert engine.to_move == 1 and engine.cfg.get("claim_timing") == "after_play"
    with pytest.raises(pyspiel.SpielError, match="burn_anytime"):
        pyspiel.load_game("frontlines_warmachine", {"burn_anytime": "maybe"})


def test_the_deal_is_a_chance_node_per_card_and_who_starts_one_more() -> None:
    game = pyspiel.load_game("frontlines_battleline_basic")
    state = game.new_initial_state()
    assert state.is_chance_node() and [o for o, _ in state.chance_outcomes()] == [0, 1]
    state.apply_action(1)  # player 1 starts
    dealt = []
    for _ in range(14):
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 60 - len(dealt) and all(abs(p - 1 / len(outcomes)) < 1e-12 for _, p in outcomes)
        assert not {o for o, _ in outcomes} & set(dealt)
        dealt.append(outcomes[-1][0])
        state.apply_action(dealt[-1])
    assert not state.is_chance_node() and state.current_player() == 1
    engine = state.engine.state
    assert engine.hands[1] == sum(1 << c for c in dealt[0::2])  # the first player is dealt first
    assert engine.hands[0] == sum(1 << c for c in dealt[1::2])
    assert len(engine.tdeck) == 46


def test_each_game_of_a_war_machine_match_is_dealt_by_chance_nodes() -> None:
    game = pyspiel.load_game("frontlines_warmachine", {"match": "best_of_3", "shuffler": 0})
    rng = random.Random(5)
    state = game.new_initial_state()
    setups = 0
    while not state.is_terminal():
        if state.is_chance_node() and state.dealing:
            if not state.setup:
                setups += 1
                shuffler = 0 if setups % 2 else 1  # the shuffler alternates
                assert state.engine is None or state.engine.state.board.shuffler == shuffler
            done = [*state.setup, rng.choice([o for o, _ in state.chance_outcomes()])]
            state.apply_action(done[-1])
            if not state.dealing:  # the deal is the chance outcomes', not the match seed's
                board = state.engine.state.board
                assert board.front_cards() == done[0:6:2] and board.leftover == done[6:]
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    board = state.engine.state.board
    assert setups == len(board.results) >= 2 and state.returns() in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])


def test_a_draw_is_a_chance_node_over_the_cards_that_could_come_next() -> None:
    game = pyspiel.load_game("frontlines_battleline")
    state = _play_randomly(_past_setup(game, 3), random.Random(3), lambda s: s.is_chance_node())
    engine = state.engine.state
    outcomes = [o for o, _ in state.chance_outcomes()]
    deck = engine.xdeck if state.pending in (641, 645) else engine.tdeck
    assert outcomes == sorted(deck)  # nothing is known about the deck yet: every card of it
    hand_before = engine.hands[engine.to_move]
    player = engine.to_move
    before = str(state)
    other_deck = engine.xdeck if deck is engine.tdeck else engine.tdeck
    for wrong in (other_deck[0], engine.hands[0].bit_length() - 1):
        with pytest.raises(pyspiel.SpielError, match="not a chance outcome"):
            state.apply_action(wrong)  # a card of the other deck, a card in a hand
    assert str(state) == before
    state.apply_action(outcomes[0])
    assert engine.hands[player] == hand_before | 1 << outcomes[0]


def test_a_card_a_scout_returned_is_drawn_with_certainty() -> None:
    game = pyspiel.load_game("frontlines_battleline")
    state = _past_setup(game)
    # the same position through the engine: a Scout returns R1 on top of the troop deck
    from frontlines.games.battleline.notation import build_state

    engine = build_state("h0=SC.R1.R2.R3.R4.R5.R6 h1=B1.B2 td=G1.G2.G3.G4.G5 xd=AL.DA rest=d1")
    for text in ("SC", "scout:troop", "scout:troop", "scout:troop", "return:R1", "return:R2"):
        engine.apply(engine.parse_action(text))
    state.engine = fo._Engine(engine)
    enc = game.rules.encoding
    state.apply_action(enc.action_id(engine.parse_action("B1@1")))
    state.apply_action(enc.action_id(engine.parse_action("draw:troop")))
    assert state.chance_outcomes() == [(parse_card("R2"), 1.0)]


def test_an_illegal_action_raises_naming_it_and_the_legal_ones_and_changes_nothing() -> None:
    game = pyspiel.load_game("frontlines_battleline_basic")
    state = _past_setup(game)
    before, history = str(state), state.history()
    legal = state.legal_actions()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in legal)
    with pytest.raises(pyspiel.SpielError) as err:
        state.apply_action(illegal)
    text = str(err.value)
    assert f"illegal action {illegal} (" in text and f"{legal[0]} (" in text and f"{legal[-1]} (" in text
    assert str(state) == before and state.history() == history
    with pytest.raises(pyspiel.SpielError, match="not an action id"):
        state.apply_action(game.num_distinct_actions() + 5)
    assert str(state) == before
    chance = game.new_initial_state()
    with pytest.raises(pyspiel.SpielError, match="not a chance outcome"):
        chance.apply_action(7)
    assert str(chance) == str(game.new_initial_state())


@pytest.mark.parametrize("ruleset", ["battleline", "warmachine"])
def test_an_illegal_draw_and_other_ids_raise(ruleset: str) -> None:
    """A draw (checked without being applied: a chance node would follow) and any other
    illegal id raise in both games, before and after moves, changing nothing."""
    game = pyspiel.load_game(fo.game_name(ruleset))
    state = _past_setup(game, seed=3)
    rng = random.Random(3)
    tried_draws = 0
    for _ in range(3):
        legal = set(state.legal_actions())
        enc = state.rules.encoding
        draws = [i for i in range(game.num_distinct_actions()) if state.rules.is_draw(enc.action(i)) and i not in legal]
        others = [i for i in range(game.num_distinct_actions()) if i not in legal and i not in draws]
        tried_draws += bool(draws)
        for illegal in (*draws[:1], others[0], others[-1]):
            before, history = str(state), state.history()
            with pytest.raises(pyspiel.SpielError, match=rf"illegal action {illegal} \(.*; legal: "):
                state.apply_action(illegal)
            assert str(state) == before and state.history() == history
        target = state.move_number() + 9
        _play_randomly(state, rng, lambda s, target=target: not s.is_chance_node() and s.move_number() > target)
        assert not state.is_terminal()
    assert tried_draws


@pytest.mark.parametrize("ruleset", ["battleline", "warmachine"])
def test_observations_come_from_the_view(ruleset: str) -> None:
    game = pyspiel.load_game(fo.game_name(ruleset))
    state = _play_randomly(_past_setup(game, 1), random.Random(1), lambda s: len(s.history()) > 40)
    enc = game.rules.encoding
    for player in (0, 1):
        view = state.view(player)
        assert state.observation_tensor(player) == pytest.approx(list(enc.observation_tensor(view)))
        assert state.information_state_tensor(player) == pytest.approx(list(enc.information_state_tensor(view)))
        assert state.observation_string(player) .startswith(view.to_notation())
        assert state.information_state_string(player).startswith(view.to_notation())
    assert state.observation_string(0) != state.observation_string(1)


@pytest.mark.parametrize("ruleset", ["battleline", "warmachine"])
def test_resample_from_infostate_keeps_what_the_player_knows(ruleset: str) -> None:
    game = pyspiel.load_game(fo.game_name(ruleset))
    rng = random.Random(2)
    state = _past_setup(game, 2)
    differs = False
    for _ in range(6):
        state = _play_randomly(state, rng, lambda s: not s.is_chance_node() and rng.random() < 0.1)
        if state.is_terminal():
            break
        player = state.current_player()
        sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
        sample = state.resample_from_infostate(player, sampler)
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.information_state_tensor(player).tolist() == state.information_state_tensor(player).tolist()
        assert sample.legal_actions() == state.legal_actions()
        differs |= str(sample) != str(state)
        state.apply_action(rng.choice(state.legal_actions()))
    assert differs  # the hidden cards were drawn again


def test_openspiel_ismcts_and_mcts_play_complete_games_on_it() -> None:
    game = pyspiel.load_game("frontlines_warmachine")
    rng = np_rng(1)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bots = [ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=rng),
            mcts.MCTSBot(game, 2.0, 8, evaluator, solve=False, random_state=rng)]
    state = game.new_initial_state()
    chance = random.Random(1)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(chance.choice([o for o, _ in state.chance_outcomes()]))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


def np_rng(seed: int) -> Any:
    import numpy as np

    return np.random.RandomState(seed)


@pytest.mark.parametrize(("ruleset", "spec", "other"), [
    ("warmachine", "openspiel:ismcts,simulations=10", "heuristic"),
    ("warmachine", "openspiel:mcts,simulations=10", "random"),
    ("battleline-basic", "openspiel:ismcts,simulations=3", "random"),
    ("battleline-basic", "openspiel:mcts,simulations=3", "heuristic"),
])
def test_openspiel_bots_play_our_bots(ruleset: str, spec: str, other: str) -> None:
    bots = [make_bot(spec, 1), make_bot(other, 2)]
    state = new_state(ruleset, seed=4)
    for seat, bot in enumerate(bots):
        bot.new_game(ruleset, seat, 4)
    while not state.is_terminal():
        player = state.current_player()
        assert player is not None
        state.apply(bots[player].choose(state.view(player)))  # apply raises on an illegal action
    assert bots[0].name == spec


def test_openspiel_bot_specs_are_checked() -> None:
    with pytest.raises(ValueError, match="unknown OpenSpiel algorithm 'cfr'"):
        make_bot("openspiel:cfr")
    with pytest.raises(ValueError, match="unknown openspiel:mcts option 'world_samples'"):
        make_bot("openspiel:mcts,world_samples=3")
    with pytest.raises(ValueError, match="must be a number"):
        make_bot("openspiel:ismcts,simulations=many")


def test_the_arena_imports_no_openspiel_unless_asked() -> None:
    code = ("import sys, frontlines.commands.arena, frontlines.arena.runner, frontlines.bots.registry as r; "
            "r.make_bot('heuristic'); assert 'pyspiel' not in sys.modules, 'pyspiel imported'")
    subprocess.run([sys.executable, "-c", code], check=True)


# --- what OpenSpiel users expect (issue 27) --------------------------------------------------
@pytest.mark.parametrize(("ruleset", "params"), [("battleline", {}), ("battleline-basic", {}), ("warmachine", {}),
                                                  ("warmachine", {"match": "best_of_3"})])
def test_tensors_along_a_game_are_the_encodings_through_python_and_cpp(ruleset: str, params: dict[str, str]) -> None:
    """The tensors a Python caller gets (numpy, kept up to date along the game) equal the
    observer's that C++ callers get (the unbound pyspiel methods) and the encoding's from the
    view, for both players at every node, chance nodes and the set-up included (a match's
    later deals too); a clone's too."""
    game = pyspiel.load_game(fo.game_name(ruleset), params)
    enc = game.rules.encoding
    rng = random.Random(3)
    state = game.new_initial_state()
    clones = 0
    while not state.is_terminal():
        for p in (0, 1):
            obs, info = state.observation_tensor(p), state.information_state_tensor(p)
            assert obs.dtype == np.float32 and list(obs) == pyspiel.State.observation_tensor(state, p)
            assert list(info) == pyspiel.State.information_state_tensor(state, p)
            if state.dealing:
                assert not info.any()
            else:
                view = state.view(p)
                assert list(obs) == list(enc.observation_tensor(view))
                assert list(info) == list(enc.information_state_tensor(view))
        if rng.random() < 0.05:
            clone = state.clone()
            assert list(clone.information_state_tensor(0)) == list(state.information_state_tensor(0))
            clones += 1
        outcomes = [o for o, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(rng.choice(outcomes))
    assert clones
    with pytest.raises(pyspiel.SpielError, match="player 2"):
        state.observation_tensor(2)


def test_rewards_come_at_the_end() -> None:
    game = pyspiel.load_game("frontlines_battleline_basic")
    state = _past_setup(game)
    assert state.rewards() == [0.0, 0.0]
    state = _play_randomly(state, random.Random(1), lambda s: False)
    assert state.rewards() == state.returns() and sorted(state.returns()) == [-1.0, 1.0]


def _deal(game: Any, cards: list[int]) -> Any:
    """A battleline-basic state with player 0 first and ``cards`` dealt in that order."""
    state = game.new_initial_state()
    state.apply_action(0)  # player 0 moves first
    for c in cards:
        state.apply_action(c)
    return state


def test_the_information_state_remembers_the_order_of_the_players_own_cards() -> None:
    """Perfect recall: histories that differ only in the order in which player 0's cards
    came (dealt, or drawn) give player 0 different information-state strings, and player 1,
    who saw none of them, the same."""
    game = pyspiel.load_game("frontlines_battleline_basic")
    hand0, hand1 = list(range(0, 7)), list(range(20, 27))
    deal = [c for pair in zip(hand0, hand1, strict=True) for c in pair]
    swapped = [c for pair in zip([hand0[1], hand0[0], *hand0[2:]], hand1, strict=True) for c in pair]
    a, b = _deal(game, deal), _deal(game, swapped)
    assert a.view(0).to_notation() == b.view(0).to_notation()  # the same hand: the order differs
    assert a.information_state_string(0) != b.information_state_string(0)
    assert a.information_state_string(1) == b.information_state_string(1)
    # the tensor too: player 0's differs (through Python and through the C++ observer), player 1's not
    assert a.information_state_tensor(0).tolist() != b.information_state_tensor(0).tolist()
    assert pyspiel.State.information_state_tensor(a, 0) != pyspiel.State.information_state_tensor(b, 0)
    assert a.information_state_tensor(1).tolist() == b.information_state_tensor(1).tolist()
    assert a.observation_tensor(0).tolist() == b.observation_tensor(0).tolist()  # (the observation forgets)
    # player 0 draws R9 then (next turn) R10, or R10 then R9
    strings = []
    tensors = []
    for first, second in ((8, 9), (9, 8)):
        state = _deal(game, deal)
        for card in (first, None, second):
            mover = state.current_player()
            state.apply_action(state.legal_actions()[0])  # a card at a flag
            state.apply_action(encoding("battleline-basic").action_id(DRAW_TROOP))
            outcomes = [o for o, _ in state.chance_outcomes()]
            state.apply_action(card if card is not None else max(set(outcomes) - {8, 9}))
            assert mover == (0 if card is not None else 1)
        strings.append((state.information_state_string(0), state.information_state_string(1)))
        tensors.append((state.information_state_tensor(0).tolist(), state.information_state_tensor(1).tolist()))
        assert "draw:troop=R9" in strings[-1][0] and "R9" not in strings[-1][1].split("| log:")[1]
    assert strings[0][0] != strings[1][0] and strings[0][1] == strings[1][1]
    assert tensors[0][0] != tensors[1][0] and tensors[0][1] == tensors[1][1]


def _replay(game: Any, actions: list[int], rng: random.Random, record: Any) -> Any:
    """A state of ``game`` after ``actions`` (the full history, chance outcomes included),
    as far as they stay legal, then random play to the end; ``record(state)`` at each node."""
    state = game.new_initial_state()
    record(state)
    for a in actions:
        legal = [o for o, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        if a not in legal:
            break
        state.apply_action(a)
        record(state)
    while not state.is_terminal():
        legal = [o for o, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(rng.choice(legal))
        record(state)
    return state


def _own_draws(game: Any, actions: list[int], player: int) -> list[int]:
    """The indexes in ``actions`` of the chance outcomes that brought ``player`` a card."""
    state = game.new_initial_state()
    out = []
    for k, a in enumerate(actions):
        if state.is_chance_node():
            if state.dealing:  # a card of the deal, or another set-up event (nobody's: -1)
                receiver = game.rules.setup_receiver(state.setup, state._engine_or_none())
            else:  # a draw: the drawer is to move
                receiver = state.view(None).current_player()
            if receiver == player:
                out.append(k)
        state.apply_action(a)
    return out


@pytest.mark.parametrize(("ruleset", "params"), [*((r.name, {}) for r in all_rulesets()), ("warmachine", {"match": "best_of_3"})],
                         ids=[*(r.name for r in all_rulesets()), "warmachine-best_of_3"])
def test_the_information_state_tensor_is_perfect_recall(ruleset: str, params: dict[str, str]) -> None:
    """Perfect recall of the tensor: over random games that share deals and beginnings (games
    branching off one another, and replays of a game with two cards of one player's coming
    swapped: two dealt, or two drawn), two decision points where a player holds the same
    information-state tensor always have the same information-state string; and a swap
    changes the tensor of the player whose cards came in another order, wherever it changes
    that player's string."""
    game = pyspiel.load_game(fo.game_name(ruleset), params)
    rng = random.Random(27)
    seen: dict[tuple[int, bytes], str] = {}
    repeats = [0]

    def record(state: Any) -> None:
        if state.is_chance_node():
            return  # (at a chance node the string also names the pending draw: decisions only)
        for p in (0, 1):
            key = (p, state.information_state_tensor(p).tobytes())
            string = state.information_state_string(p)
            assert seen.setdefault(key, string) == string, (p, seen[key], string)
            repeats[0] += seen[key] is string
    swapped = 0
    for _ in range(3):
        base = _replay(game, [], rng, record)
        actions = base.history()
        # branches: the same game up to a random point, then other moves and draws
        for _ in range(3):
            _replay(game, actions[: rng.randrange(len(actions))], rng, record)
        # swaps: two cards of one player come in the other order, everything else alike
        for player in (0, 1):
            own = _own_draws(game, actions, player)
            if len(own) < 2:
                continue
            i, j = sorted(rng.sample(own, 2))
            other = actions[:]
            other[i], other[j] = other[j], other[i]
            # both games on alike after the second card, as long as the moves stay legal
            a, b = game.new_initial_state(), game.new_initial_state()
            for k, (x, y) in enumerate(zip(actions, other, strict=True)):
                legal = [o for o, _ in b.chance_outcomes()] if b.is_chance_node() else b.legal_actions()
                if y not in legal:
                    break
                a.apply_action(x)
                b.apply_action(y)
                if k < j or a.is_chance_node():
                    continue
                record(a)
                record(b)
                for p in (0, 1):
                    same_string = a.information_state_string(p) == b.information_state_string(p)
                    same_tensor = a.information_state_tensor(p).tolist() == b.information_state_tensor(p).tolist()
                    assert same_string == same_tensor, (p, k)
                    swapped += not same_string and p == player
    assert repeats[0] > 0 and len(seen) > 100
    assert swapped > 0


def test_the_information_state_tensor_remembers_the_order_of_claims() -> None:
    """Two claims made in the other order reach the same position: both players' strings
    and tensors tell the two histories apart (what only the claims' times say)."""
    game = pyspiel.load_game("frontlines_battleline_basic")
    rng = random.Random(5)
    enc = game.rules.encoding
    pairs = 0
    for g in range(40):
        state = _past_setup(game, g)
        while not state.is_terminal() and pairs <= g:
            if not state.is_chance_node():
                claims = [a for a in state.legal_actions() if CLAIM_BASE <= enc.action(a) < PASS]
                if len(claims) >= 2:
                    a, b = state.clone(), state.clone()
                    a.apply_action(claims[0])
                    b.apply_action(claims[1])
                    if not a.is_terminal() and not b.is_terminal():
                        a.apply_action(claims[1])
                        b.apply_action(claims[0])
                        assert a.view(0).to_notation() == b.view(0).to_notation()
                        for p in (0, 1):
                            assert a.information_state_string(p) != b.information_state_string(p)
                            assert a.information_state_tensor(p).tolist() != b.information_state_tensor(p).tolist()
                        pairs += 1
            outcomes = [o for o, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
            state.apply_action(rng.choice(outcomes))
    assert pairs >= 3


def test_a_public_observer_sees_what_everyone_sees() -> None:
    """OpenSpiel's public observation (private_info=NONE): the same in every position a
    spectator cannot tell apart, for both players; a player's own observation differs there."""
    from open_spiel.python.observation import make_observation

    for ruleset in ("battleline", "warmachine"):
        game = pyspiel.load_game(fo.game_name(ruleset))
        public = make_observation(game, pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE))
        private = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
        rng = random.Random(4)
        state = _play_randomly(_past_setup(game, 4), rng, lambda s: len(s.history()) > 50 and not s.is_chance_node())
        spectator = state.view(None)
        differs = 0
        for _ in range(4):
            other = fo.state_from_view(game, spectator, rng)
            for p in (0, 1):
                public.set_from(state, p)
                seen = public.tensor.copy()
                public.set_from(other, p)
                assert public.tensor.tolist() == seen.tolist()
                assert public.string_from(other, p) == public.string_from(state, p) == spectator.to_notation()
                private.set_from(state, p)
                seen = private.tensor.copy()
                private.set_from(other, p)
                differs += private.tensor.tolist() != seen.tolist()
        assert differs
    with pytest.raises(ValueError, match="supported observers"):
        make_observation(game, pyspiel.IIGObservationType(
            perfect_recall=True, public_info=True, private_info=pyspiel.PrivateInfoType.NONE))


def test_the_longest_history_is_reported() -> None:
    """``max_chance_nodes_in_history`` is the most chance nodes a game can have (OpenSpiel's
    default, ``max_game_length``, is 1,000 for the Battle Line family), so that
    ``max_history_length`` bounds real histories; random games reach the bound, never pass it."""
    expected = {"battleline-basic": 61, "battleline": 73, "schotten-totten": 55, "schotten-totten-tactics": 67,
                "medieval": 82, "warmachine": 34}
    rng = random.Random(6)
    for ruleset, bound in expected.items():
        game = pyspiel.load_game(fo.game_name(ruleset))
        assert game.max_chance_nodes_in_history() == bound
        assert game.max_history_length() == game.max_game_length() + bound
        for _ in range(5):
            state = _play_randomly(game.new_initial_state(), rng, lambda s: False)
            chance = sum(1 for step in state.full_history() if step.player == pyspiel.PlayerId.CHANCE)
            assert chance <= bound and len(state.history()) - chance <= game.max_game_length()
    assert pyspiel.load_game("frontlines_warmachine", {"match": "best_of_3"}).max_chance_nodes_in_history() == 100
    assert pyspiel.load_game("frontlines_medieval", {"battlefields": "mixed"}).max_chance_nodes_in_history() == 91
