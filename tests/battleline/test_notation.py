"""Action text, position and view notation, and game records for the Battle Line family."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from frontlines.core.errors import NotationError
from frontlines.core.record import GameRecord, dump_jsonl, load_jsonl
from frontlines.games import new_state, parse_state, parse_view
from frontlines.games.battleline import MODULE
from frontlines.games.battleline.notation import action_to_text, build_state, parse_action
from frontlines.games.battleline.rules import RULESETS
from frontlines.games.battleline.state import NUM_ACTIONS

OPTION_SETS: list[tuple[str, dict[str, str]]] = [
    ("battleline", {}),
    ("battleline", {"claim_timing": "start_of_turn", "guile_can_target_environment": "true",
                    "mud_removed_excess": "owner_discards", "stall_rule": "draw_after_passes"}),
    ("battleline-basic", {"claim_timing": "after_play"}),
    ("schotten-totten", {}),
    ("schotten-totten-tactics", {"scout_short_deck": "return_drawn_minus_one"}),
    ("medieval", {"battlefields": "mixed", "battlefield_set": "house"}),
]


def test_every_action_code_round_trips() -> None:
    count = 0
    for a in range(NUM_ACTIONS):
        try:
            text = action_to_text(a)
        except NotationError:
            continue
        assert parse_action(text) == a
        assert parse_action(text.lower()) == a
        assert not any(ch.isspace() for ch in text)
        count += 1
    assert count > 1500


@pytest.mark.parametrize(
    ("text", "meaning"),
    [("R7@3", "play"), ("B10@9", "play"), ("AL@5", "play"), ("FO@2", "play"), ("claim:3", "claim"),
     ("pass", "pass"), ("draw:troop", "draw"), ("draw:tactics", "draw"), ("end", "end"), ("SC", "scout"),
     ("scout:troop", "scout"), ("return:R7", "return"), ("RE:R7>5", "redeploy"), ("RE:R7>x", "redeploy"),
     ("DE:B3", "deserter"), ("TR:B3>4", "traitor")],
)
def test_contract_action_texts(text: str, meaning: str) -> None:
    assert action_to_text(parse_action(text)) == text


@pytest.mark.parametrize(
    "junk",
    ["", " ", "R11@3", "R0@3", "R7@0", "R7@10", "claim:0", "claim:10", "claim:x", "SC@3", "RE@1", "TR:AL>3",
     "RE:SC>3", "DE:RE", "RE:R7", "RE:R7>0", "draw:nowhere", "scout:", "return:", "@@", "x" * 200, "Z5@1",
     "R7@3@4", "claim:1:2"],
)
def test_garbage_actions_raise_notation_errors(junk: str) -> None:
    with pytest.raises(NotationError):
        parse_action(junk)


@given(st.text(max_size=20))
@settings(max_examples=300, deadline=None)
def test_arbitrary_text_parses_or_raises_notation_error(text: str) -> None:
    try:
        a = parse_action(text)
    except NotationError:
        return
    assert parse_action(action_to_text(a)) == a


def test_non_actions_are_refused() -> None:
    for bad in (-1, NUM_ACTIONS, "R7@3", None, 3.0):
        with pytest.raises(NotationError):
            action_to_text(bad)


@pytest.mark.parametrize(("ruleset", "options"), OPTION_SETS)
def test_position_and_view_notation_round_trip_through_games(ruleset: str, options: dict[str, str]) -> None:
    rng = random.Random(ruleset + str(sorted(options.items())))
    for seed in range(2):
        s = new_state(ruleset, seed=seed, options=options)
        step = 0
        while True:
            if step % 3 == 0 or s.is_terminal():
                text = s.to_notation()
                assert text.startswith("battleline ruleset=")
                again = parse_state(text)
                assert again.to_notation() == text
                assert set(again.legal_actions()) == set(s.legal_actions())
                for viewer in (0, 1, None):
                    vt = s.view(viewer).to_notation()
                    assert parse_view(vt).to_notation() == vt
            if s.is_terminal():
                break
            s.apply(rng.choice(s.legal_actions()))
            step += 1


def test_defaults_are_left_out_and_options_kept() -> None:
    s = new_state("battleline", seed=1)
    assert "opts=" not in s.to_notation()
    s = new_state("battleline", seed=1, options={"claim_timing": "after_play"})
    assert "opts=claim_timing:after_play" in s.to_notation()
    assert parse_state(s.to_notation()).cfg is s.cfg  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "bad",
    [
        "battleline",
        "battlelin ruleset=battleline",
        "battleline ruleset=nope to=0 phase=play n=0 h0= h1= td= xd=",
        "battleline ruleset=battleline to=0 phase=play n=0 h0=R1 h1= td= xd=",  # cards missing
        "battleline ruleset=battleline to=2 phase=play n=0 h0= h1= td= xd=",
        "battleline ruleset=battleline to=0 phase=nap n=0 h0= h1= td= xd=",
        "battleline ruleset=battleline to=0 phase=play n=0 h0= h1= td= xd= zz=1",
        "battleline ruleset=battleline to=0 phase=play n=0 h0= h1= td= xd= f1=garbage",
        "battleline ruleset=battleline to=0 phase=play n=0 h0= h1= td= td=",
        "battleline ruleset=battleline to=0 phase=play n=x h0= h1= td= xd=",
    ],
)
def test_bad_positions_raise_notation_errors(bad: str) -> None:
    with pytest.raises(NotationError):
        MODULE.parse_state(bad)


def test_duplicate_cards_and_wrong_decks_are_refused() -> None:
    good = build_state("h0=R1 h1=B1").to_notation()
    with pytest.raises(NotationError):
        MODULE.parse_state(good.replace("h1=B1", "h1=R1"))
    with pytest.raises(NotationError):
        build_state("h0=R1 h1=B1 td=AL")
    with pytest.raises(NotationError):
        build_state("f1=-/R1.R2.R3// h0= h1=")  # complete side without a completion time


@pytest.mark.parametrize(
    "bad",
    [
        "battleline view=2 ruleset=battleline to=0 phase=play n=0 h0= h1= td=#0 xd=#0",
        "battleline view=0 ruleset=battleline to=0 phase=play n=0 h0=?1.0.0 h1= td=#0 xd=#0",
        "battleline view=0 ruleset=battleline to=0 phase=play n=0 h0= h1=R1 td=#0 xd=#0",
        "battleline view=0 ruleset=battleline to=0 phase=play n=0 h0= h1=?1.0.0 td=0 xd=#0",
        "battleline view=0 ruleset=battleline to=0 phase=play n=0 h0= h1=?1.0.0 td=#3,zz xd=#0",
    ],
)
def test_bad_views_raise_notation_errors(bad: str) -> None:
    with pytest.raises(NotationError):
        MODULE.parse_view(bad)


@pytest.mark.parametrize(("ruleset", "options"), OPTION_SETS)
def test_records_replay_exactly(ruleset: str, options: dict[str, str]) -> None:
    rng = random.Random(7)
    s = new_state(ruleset, seed=5, options=options)
    initial = s.clone()
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_actions()))
    record = GameRecord.from_state(initial, s, players=("random", "random"))
    assert record.tags["Setup"] == initial.to_notation()
    text = record.to_text()
    assert GameRecord.parse(text).replay(parse_state).to_notation() == s.to_notation()
    lines = dump_jsonl([record])
    json.loads(lines)
    assert load_jsonl(lines)[0].replay(parse_state).to_notation() == s.to_notation()


def test_record_of_a_resigned_game() -> None:
    s = new_state("battleline", seed=3)
    initial = s.clone()
    s.apply(s.legal_actions()[0])
    s.resign(0, "time", "flag fell")
    record = GameRecord.from_state(initial, s)
    again = GameRecord.parse(record.to_text()).replay(parse_state)
    outcome = again.outcome()
    assert outcome is not None and outcome.reason == "time" and outcome.winner == 1
    assert again.to_notation() == s.to_notation()


def test_every_ruleset_has_a_name_and_registry_dispatch() -> None:
    names = {r.name for r in RULESETS}
    assert names == {"battleline", "battleline-basic", "schotten-totten", "schotten-totten-tactics", "medieval"}
    s = new_state("medieval", seed=1)
    assert parse_state(s.to_notation()).ruleset == "medieval"
