"""Every ruleset of every game honours the one game interface.

These tests know nothing about any particular game: they drive random games through
``frontlines.games`` and check what bots, the arena and the user interfaces rely on.
"""

from __future__ import annotations

import json
import random

import pytest

from frontlines.bots.base import Bot
from frontlines.core.actions import ActionKind, ActionRecord
from frontlines.core.encoding import Encoding
from frontlines.core.errors import IllegalAction, NotationError
from frontlines.core.game import State, Termination, View
from frontlines.core.record import GameRecord, dump_jsonl, load_jsonl
from frontlines.games import all_rulesets, new_state, parse_state, parse_view

RULESETS = [r.name for r in all_rulesets()]
MAX_ACTIONS = 3000


def play_random(state: State, rng: random.Random, limit: int = MAX_ACTIONS) -> None:
    for _ in range(limit):
        if state.is_terminal():
            return
        state.apply(rng.choice(state.legal_actions()))
    raise AssertionError(f"game did not end within {limit} actions")


@pytest.mark.parametrize("interface", [State, View, Encoding, Bot])
def test_an_interface_left_unimplemented_cannot_be_made(interface: type) -> None:
    """As with ``abc.ABC`` (which the interfaces no longer are, see ``core.interface``), a
    class that leaves an abstract method unimplemented refuses to be made, naming it."""
    missing = type("Unfinished", (interface,), {})
    with pytest.raises(TypeError, match="abstract"):
        missing("battleline") if interface is Encoding else missing()


def test_registry_lists_the_required_rulesets() -> None:
    for name in ("battleline", "battleline-basic", "schotten-totten", "schotten-totten-tactics", "medieval", "warmachine"):
        assert name in RULESETS


def test_every_rules_option_says_itself_in_words() -> None:
    """The user interfaces show options in words, never identifiers (issue 30 item 25): each
    option has a label, words for every choice and an explanation for players, in the
    core, the one source the web app (through its catalogs) and the terminal both read."""
    from frontlines.core.game import OptionSpec

    for r in all_rulesets():
        for o in r.options:
            assert o.label and o.about and len(o.words) == len(o.choices) and all(o.words), (r.name, o.name)
            assert o.title() == o.label and o.choice_words(o.default) == o.words[o.choices.index(o.default)]
    bare = OptionSpec("x", "a", ("a", "b"), "the command line's help")
    assert (bare.title(), bare.choice_words("b"), bare.explanation()) == ("x", "b", "the command line's help")
    with pytest.raises(ValueError, match="1 words for 2 choices"):
        OptionSpec("x", "a", ("a", "b"), words=("A",))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_same_seed_same_deal(ruleset: str) -> None:
    assert new_state(ruleset, seed=7).to_notation() == new_state(ruleset, seed=7).to_notation()
    assert new_state(ruleset, seed=7).to_notation() != new_state(ruleset, seed=8).to_notation()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_random_games_respect_the_interface(ruleset: str) -> None:
    rng = random.Random(ruleset)
    for seed in range(3):
        state = new_state(ruleset, seed=seed)
        initial = state.clone()
        steps = 0
        while not state.is_terminal():
            player = state.current_player()
            assert player in (0, 1)
            legal = state.legal_actions()
            assert legal, "a live game always offers an action"
            assert len(set(legal)) == len(legal), "no duplicate actions"
            view = state.view(player)
            assert set(view.legal_actions()) == set(legal), "the mover's view lists exactly the legal actions"
            assert state.view(1 - player).legal_actions() == []
            for action in legal:
                text = state.action_to_text(action)
                assert not any(ch.isspace() for ch in text)
                assert state.parse_action(text) == action
                assert view.parse_action(text) == action
            if steps % 7 == 0:
                # push/pop is an exact undo; clone is independent.
                before = state.to_notation()
                twin = state.clone()
                state.push(legal[0])
                assert state.pop() == legal[0]
                assert state.to_notation() == before
                twin.apply(legal[-1])
                assert state.to_notation() == before
                assert parse_state(before).to_notation() == before
                for viewer in (0, 1, None):
                    v = state.view(viewer)
                    assert parse_view(v.to_notation()).to_notation() == v.to_notation()
                    json.dumps(v.to_dict())
            state.apply(rng.choice(legal))
            steps += 1
            assert steps < MAX_ACTIONS
        outcome = state.outcome()
        assert outcome is not None
        assert outcome.winner in (0, 1, None)
        assert state.current_player() is None
        assert state.legal_actions() == []
        record = GameRecord.from_state(initial, state, players=("a", "b"))
        again = GameRecord.parse(record.to_text())
        assert again.actions == record.actions
        assert again.replay(parse_state).to_notation() == state.to_notation()
        assert load_jsonl(dump_jsonl([record]))[0].replay(parse_state).to_notation() == state.to_notation()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_illegal_and_malformed_actions_change_nothing(ruleset: str) -> None:
    state = new_state(ruleset, seed=3)
    rng = random.Random(1)
    for _ in range(15):
        if state.is_terminal():
            break
        before = state.to_notation()
        for junk in ("", "zz", "R11@3", "claim:0", "@@", "draw:nowhere", "x" * 200):
            try:
                action = state.parse_action(junk)
            except NotationError:
                continue
            if action not in state.legal_actions():
                with pytest.raises(IllegalAction):
                    state.apply(action)
        with pytest.raises(IllegalAction):
            state.apply(("not", "an", "action"))
        assert state.to_notation() == before
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_views_hide_the_opponent_and_samples_agree(ruleset: str) -> None:
    rng = random.Random(5)
    state = new_state(ruleset, seed=11)
    for step in range(400):
        if state.is_terminal():
            break
        if step % 5 == 0:
            full = state.to_notation()
            for viewer in (0, 1):
                view = state.view(viewer)
                # Every determinisation looks the same from the viewer's seat.
                for k in range(3):
                    sample = view.sample(random.Random(k))
                    assert sample.view(viewer).to_notation() == view.to_notation()
                    assert sample.current_player() == state.current_player()
                    assert set(sample.legal_actions()) == set(state.legal_actions()) or viewer != state.current_player()
            assert state.to_notation() == full
            public = state.view(None)
            assert public.legal_actions() == []
            assert public.to_dict()["viewer"] is None
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_resignation_ends_the_game(ruleset: str) -> None:
    state = new_state(ruleset, seed=2)
    state.resign(1, "time", "flag fell")
    outcome = state.outcome()
    assert state.is_terminal() and outcome is not None
    assert outcome.winner == 0 and outcome.reason == "time"
    with pytest.raises(IllegalAction):
        state.apply(new_state(ruleset, seed=2).legal_actions()[0])
    assert type(outcome.reason) is Termination and outcome.reason.out_of_rules
    assert json.loads(json.dumps(outcome.to_dict()))["reason"] == "time"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_resigning_for_an_unknown_reason_is_refused_and_changes_nothing(ruleset: str) -> None:
    state = new_state(ruleset, seed=2)
    before = state.to_notation()
    with pytest.raises(ValueError, match="Termination"):
        state.resign(1, "bored")
    assert state.to_notation() == before and not state.is_terminal()
    state.resign(1, "forfeit", "crashed")
    text = state.to_notation()
    assert parse_state(text).outcome() == state.outcome()
    with pytest.raises(NotationError, match="unknown reason"):
        parse_state(text.replace("forfeit", "bored"))


def test_unknown_ruleset_and_bad_notation() -> None:
    with pytest.raises(KeyError):
        new_state("chess")
    with pytest.raises(NotationError):
        parse_state("chess 1 2 3")
    with pytest.raises(NotationError):
        parse_state("")
    for name in ("battleline", "warmachine"):
        with pytest.raises(NotationError):
            parse_state(f"{name} garbage that is not a position")
        with pytest.raises(NotationError):
            parse_view(f"{name} garbage")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_actions_are_described_as_records(ruleset: str) -> None:
    """Each legal action has a typed record whose text is the notation; the view dictionary's
    ``legal`` entries and ``log_records`` are those records, and the log gives every entry a seat."""
    rng = random.Random(9)
    state = new_state(ruleset, seed=4)
    kinds: set[ActionKind] = set()
    while not state.is_terminal():
        player = state.current_player()
        assert player is not None
        view = state.view(player)
        legal = state.legal_actions()
        records = [state.describe_action(a) for a in legal]
        assert [r.text for r in records] == [state.action_to_text(a) for a in legal]
        assert [view.describe_action(a) for a in legal] == records
        data = view.to_dict()
        assert data["legal"] == [r.to_dict() for r in records]
        assert all(ActionRecord.from_dict(e) == r for e, r in zip(data["legal"], records, strict=True))
        assert data["features"]["family"] and isinstance(data["features"]["claims"], bool)
        kinds.update(r.kind for r in records)
        claims = {a for a, r in zip(legal, records, strict=True) if r.kind is ActionKind.CLAIM}
        assert not claims or data["features"]["claims"]
        state.apply(rng.choice(legal))
    assert ActionKind.CLAIM in kinds or not new_state(ruleset).view(0).to_dict()["features"]["claims"]
    for viewer in (0, 1, None):
        data = state.view(viewer).to_dict()
        entries = data["log_records"]
        assert [e["text"] for e in entries] == data["log"]
        assert [e["seat"] for e in entries] == data["log_seats"] == [int(s) for s in data["log_seats"]]
        assert all(ActionKind(e["kind"]) for e in entries)
        json.dumps(data)
    with pytest.raises(NotationError):
        state.describe_action(("not", "an", "action"))
