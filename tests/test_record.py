"""Game records replayed: every position of a record (the replay viewers' steps), a game that
ended outside the rules, and the three file forms a record is read from."""

from __future__ import annotations

import json
import random
import re

import pytest

from frontlines.core.errors import NotationError
from frontlines.core.game import State
from frontlines.core.record import GameRecord, dump_jsonl, load_records
from frontlines.games import new_state, parse_state


def played(ruleset: str, seed: int, moves: int, resign: int | None = None) -> tuple[State, State]:
    """(the start, the game after ``moves`` random actions, then resigned by ``resign``)."""
    start = new_state(ruleset, seed=seed)
    game = start.clone()
    rng = random.Random(seed)
    for _ in range(moves):
        game.apply(rng.choice(game.legal_actions()))
    if resign is not None:
        game.resign(resign)
    return start, game


@pytest.mark.parametrize("ruleset", ["battleline", "schotten-totten", "warmachine"])
def test_positions_are_the_start_then_each_action(ruleset: str) -> None:
    start, game = played(ruleset, 3, 12)
    record = GameRecord.from_state(start, game)
    positions = record.positions(parse_state)
    assert len(positions) == 13
    assert positions[0].to_notation() == start.to_notation()
    again = start.clone()
    for action, position in zip(game.history, positions[1:], strict=True):
        again.apply(action)
        assert position.to_notation() == again.to_notation()
    assert positions[-1] == record.replay(parse_state) == game
    assert len({id(p) for p in positions}) == 13  # independent copies, not one state seen 13 times


@pytest.mark.parametrize("ruleset", ["battleline", "warmachine"])
def test_a_resignation_ends_the_last_position_or_is_a_step_of_its_own(ruleset: str) -> None:
    start, game = played(ruleset, 5, 9, resign=1)
    record = GameRecord.from_state(start, game)
    assert record.tags["Termination"] == "resignation"
    positions = record.positions(parse_state)
    assert len(positions) == 10
    assert positions[-1] == game and positions[-1].is_terminal()
    assert not any(p.is_terminal() for p in positions[:-1])
    outcome = positions[-1].outcome()
    assert outcome is not None and outcome.winner == 0 and outcome.reason == "resignation"

    steps = record.positions(parse_state, ending_step=True)
    assert len(steps) == 11
    assert steps[-1] == game and not steps[-2].is_terminal()
    assert steps[-2].history == steps[-1].history  # the resignation is no action
    assert [p.to_notation() for p in steps[:-1]] == [p.to_notation() for p in record.states(parse_state)]


def test_a_game_over_by_the_rules_gets_no_ending_step() -> None:
    start = new_state("battleline-basic", seed=2)
    game = start.clone()
    rng = random.Random(2)
    while not game.is_terminal():
        game.apply(rng.choice(game.legal_actions()))
    record = GameRecord.from_state(start, game)
    assert len(record.positions(parse_state, ending_step=True)) == len(game.history) + 1


def test_records_are_read_as_text_json_or_json_lines() -> None:
    start, game = played("battleline", 1, 6, resign=0)
    record = GameRecord.from_state(start, game, players=("a", "b"))
    other = GameRecord.from_state(*played("warmachine", 1, 4))
    assert load_records(record.to_text()) == [record]
    assert load_records(json.dumps(record.to_json())) == [record]
    assert load_records(json.dumps(record.to_json(), indent=2)) == [record]  # as `frontlines record --to json` writes
    assert load_records(dump_jsonl([record, other])) == [record, other]
    for bad in ("", '{"tags": ', '[Game "battleline"]\n\nR1@1', '{"tags": {}, "actions": []}'):
        with pytest.raises(NotationError):  # no record, broken JSON, no Setup tag
            load_records(bad)


def _hidden_codes(state: State, seat: int) -> set[str]:
    """Cards ``seat`` cannot see: the other hand and both decks (from the full notation)."""
    fields = dict(f.split("=", 1) for f in state.to_notation().split() if "=" in f)
    hidden = {"h0": "h1", "h1": "h0"}[f"h{seat}"]
    return {code for key in (hidden, "td", "xd") for code in fields.get(key, "").split(".") if code}


@pytest.mark.parametrize("ruleset", ["battleline", "warmachine"])
def test_a_sealed_record_shows_no_hidden_card_and_opens_as_it_was(ruleset: str) -> None:
    """Issue 30 item 24: an unfinished game's record keeps the deal and the moves out of sight."""
    start, game = played(ruleset, 8, 10)
    record = GameRecord.from_state(start, game, players=("human", "easy"))
    sealed = record.sealed()
    text = sealed.to_text()
    assert "Setup" not in text and sealed.actions == [] and sealed.tags["Sealed"].startswith("1:")
    readable = re.sub(r'\[Sealed "[^"]*"\]', "", text)
    words = set(re.findall(r"[A-Za-z0-9]+", readable))
    if ruleset == "battleline":
        hidden = _hidden_codes(game, 0)
        assert len(hidden) > 40 and not hidden & words
    assert start.to_notation() not in text and not set(record.actions) & words
    for again in (GameRecord.parse(text), load_records(json.dumps(sealed.to_json()))[0]):
        assert again.tags == record.tags and again.actions == record.actions
        assert again.replay(parse_state) == game
    assert sealed.sealed() == sealed  # sealing twice changes nothing
    assert sealed.replay(parse_state) == game and sealed.opened() == record  # a sealed record in memory replays too
    damaged = text.replace(sealed.tags["Sealed"], sealed.tags["Sealed"][:40] + "Zm9v" + sealed.tags["Sealed"][44:])
    newer = text.replace('[Sealed "1:', '[Sealed "2:')
    for bad, why in ((damaged, "damaged"), (newer, "format '2'")):
        with pytest.raises(NotationError, match=why):
            GameRecord.parse(bad)
