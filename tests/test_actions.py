"""Typed action records (frontlines.core.actions) and the games' describers."""

from __future__ import annotations

import doctest
import random

import pytest

import frontlines.core.actions
import frontlines.games.battleline.actions
import frontlines.games.warmachine.actions
from frontlines.core.actions import HIDDEN, ActionKind, ActionRecord, log_entry
from frontlines.games import new_state
from frontlines.games.battleline.notation import build_state


@pytest.mark.parametrize("module", [frontlines.core.actions, frontlines.games.battleline.actions,
                                    frontlines.games.warmachine.actions])
def test_doctests(module: object) -> None:
    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.attempted > 0 and result.failed == 0


def test_json_form_leaves_out_what_does_not_apply_and_round_trips() -> None:
    record = ActionRecord(ActionKind.REDEPLOY, "RE:R7>x", card="R7", target="x", from_flag=2)
    assert record.to_dict() == {"text": "RE:R7>x", "kind": "redeploy", "card": "R7", "target": "x", "from": 2}
    assert ActionRecord.from_dict(record.to_dict()) == record
    take = ActionRecord(ActionKind.TAKE, "take2:GJ+UB", count=2, cards=("GJ", "UB"))
    assert take.to_dict()["cards"] == ["GJ", "UB"] and ActionRecord.from_dict(take.to_dict()) == take
    entry = log_entry(record, 1)
    assert entry["seat"] == 1 and ActionRecord.from_dict(entry) == record
    with pytest.raises(ValueError, match="unknown action record field"):
        ActionRecord.from_dict({"text": "x", "kind": "play", "colour_of_sky": "blue"})
    with pytest.raises(ValueError):
        ActionRecord.from_dict({"text": "x", "kind": "fly"})
    with pytest.raises(ValueError, match="needs 'kind'"):
        ActionRecord.from_dict({"text": "x"})


def test_placed_card() -> None:
    s = build_state("f1=-/R1/B1/ h0=R2.FO.SC.RE.DE.TR h1=G1")
    placed = {s.action_to_text(a): s.describe_action(a).placed for a in s.legal_actions()}
    assert placed["R2@3"] == "R2" and placed["FO@3"] is None and placed["SC"] is None
    assert placed["RE:R1>4"] == "R1" and placed["RE:R1>x"] is None
    assert placed["TR:B1>3"] == "B1" and placed["DE:B1"] is None


def test_records_say_where_a_card_taken_off_the_table_lies() -> None:
    s = build_state("f1=-/R1/B1/ h0=R2.FO.SC.RE.DE.TR h1=G1")
    de = s.describe_action(s.parse_action("DE:B1"))
    assert de.kind is ActionKind.DESERTER and de.card == "B1" and de.from_flag == 1
    assert s.view(0).describe_action(s.parse_action("DE:B1")) == de


def test_hidden_cards_stay_hidden_in_log_records() -> None:
    s = build_state("h0=SC.R1.R2.R3.R4.R5.R6 h1=B1 td=G1.G2.G3 xd=AL.DA")
    for t in ("SC", "scout:troop", "scout:troop", "scout:troop", "return:R1", "return:R2"):
        s.apply(s.parse_action(t))
    theirs = s.view(1).to_dict()["log_records"]
    assert theirs[-1] == {"text": "return:?", "kind": "scout_return", "card": HIDDEN, "seat": 0}
    mine = s.view(0).to_dict()["log_records"]
    assert mine[-1] == {"text": "return:R2", "kind": "scout_return", "card": "R2", "seat": 0}
    assert mine[0] == {"text": "SC", "kind": "scout", "card": "SC", "seat": 0}


def test_war_machine_hidden_burns_and_takes() -> None:
    rng = random.Random(3)
    seen: set[str] = set()
    for seed in range(6):
        s = new_state("warmachine", seed=seed)
        while not s.is_terminal():
            s.apply(rng.choice(s.legal_actions()))
        for viewer in (0, 1):
            for entry in s.view(viewer).to_dict()["log_records"]:
                record = ActionRecord.from_dict(entry)
                if entry["seat"] != viewer and record.kind in (ActionKind.BURN, ActionKind.TAKE):
                    assert HIDDEN in (record.cards or (record.card,)) or "?" not in record.text
                    seen.add(record.text)
    assert "burn:?" in seen
