"""Battle Line: Medieval: battlefield data, set-ups and the house set's effects."""

from __future__ import annotations

import json

import pytest

from frontlines.games import new_state
from frontlines.games.battleline.medieval import load_set, parse_set
from frontlines.games.battleline.notation import build_state
from frontlines.games.battleline.state import BattleLineState

from .helpers import legal

HOUSE = "ruleset=medieval opts=battlefield_set:house bf=123456789:511"


def test_shipped_sets() -> None:
    plain = load_set("plain")
    assert len(plain.cards) == 9 and all(not b.text for b in plain.cards)
    house = load_set("house")
    assert "house set" in house.label and "not the publisher" in house.label
    assert len({b.id for b in house.cards}) == 9


@pytest.mark.parametrize(
    "effects",
    [{"capacity": 9}, {"capacity": 1}, {"capacity": True}, {"forbid": ["dragons"]}, {"tie_break": "coin"}, {"claim": "never"}, {"sum_only": "yes"},
     {"colour": "R"}, {"troop_values": [1]}],
)
def test_schema_errors(effects: dict[str, object]) -> None:
    data = json.loads(json.dumps({"schema": 1, "battlefields": [
        {"id": f"b{i}", "name": "x", "text": "", "effects": effects if i == 0 else {}} for i in range(9)]}))
    with pytest.raises(ValueError):
        parse_set(data, "test")


def test_set_ups() -> None:
    down = new_state("medieval", seed=2)
    assert isinstance(down, BattleLineState) and down.bf_up == 0
    up = new_state("medieval", seed=2, options={"battlefields": "face_up"})
    assert isinstance(up, BattleLineState) and up.bf_up == 511
    mixed = {new_state("medieval", seed=k, options={"battlefields": "mixed"}).bf_up for k in range(10)}  # type: ignore[attr-defined]
    assert len(mixed) > 1
    d = up.view(0).to_dict()
    assert all(f["battlefield"]["face_up"] for f in d["flags"])
    assert d["flags"][0]["battlefield"]["text"] == ""  # plain set: face-up text is empty
    house = new_state("medieval", seed=2, options={"battlefields": "face_up", "battlefield_set": "house"})
    d = house.view(None).to_dict()
    assert "not the publisher" in d["battlefield_set"]["label"]
    assert all(f["battlefield"]["text"].startswith("House rule") for f in d["flags"])


def test_plain_face_up_is_plain_battle_line() -> None:
    s = build_state("ruleset=medieval bf=123456789:511 h0=R1.AL h1=B1")
    assert len(s.legal_actions()) == 18  # R1 and AL at nine flags each


def test_names_are_medieval() -> None:
    s = build_state("ruleset=medieval f1=-/R8.R9.R10:1/B1/ h0=G1 h1=P1")
    d = s.view(0).to_dict()
    assert d["flags"][0]["formation"][0]["name"] == "Wedge"
    assert d["card_names"][0] == "King of England"
    s = build_state("ruleset=medieval f1=-/R8.O8.Y8:1/B1/ h0=G1 h1=P1")
    assert s.view(0).to_dict()["flags"][0]["formation"][0]["name"] == "Square"


def test_house_capacity() -> None:
    s = build_state(f"{HOUSE} f3=-/R1.R2:1// f4=-/O1.O2.O3// h0=G1 h1=P1")
    assert s.capacity(2) == 2 and s.capacity(3) == 4
    assert "G1@3" not in legal(s) and "G1@4" in legal(s)


def test_house_forbidden_cards() -> None:
    s = build_state(f"{HOUSE} h0=R9.R2.AL.CC.FO h1=P1")
    options = legal(s)
    assert "R9@6" not in options and "R2@6" in options  # marsh: troops 1-7 only
    assert "CC@5" not in options and "AL@5" not in options  # forest: no morale
    assert "AL@9" not in options and "CC@9" in options  # village: no leaders
    assert "FO@8" not in options and "FO@1" in options  # river: no Fog or Mud


def test_house_sum_only() -> None:
    s = build_state(f"{HOUSE} f2=-/R1.R2.R3:1/B10.P10.G9:2/ h0=G1 h1=P1")
    assert "claim:2" not in legal(s)  # Ford: 6 against 29


def test_house_both_complete_and_tie_last() -> None:
    s = build_state(f"{HOUSE} f7=-/R8.R9.R10:1/B1/ h0=G1 h1=P1")
    assert "claim:7" not in legal(s)  # Castle: no claims by proof
    s = build_state(f"{HOUSE} f7=-/R8.R9.R10:1/B1.B2.B4:2/ h0=G1 h1=P1")
    assert "claim:7" in legal(s)
    # Hill: ties go to whoever completed last
    s = build_state(f"{HOUSE} f1=-/R7.R8.R9:5/B7.B8.B9:3/ h0=G1 h1=P1")
    assert "claim:1" in legal(s)
    s = build_state(f"{HOUSE} f1=-/R8.R9.R10:1/B1/ h0=G1 h1=P1")
    assert "claim:1" not in legal(s)


def test_house_set_plays_out() -> None:
    import random

    for seed in range(3):
        s = new_state("medieval", seed=seed, options={"battlefields": "mixed", "battlefield_set": "house"})
        rng = random.Random(seed)
        while not s.is_terminal():
            s.apply(rng.choice(s.legal_actions()))


def test_face_down_battlefields_are_unknown_until_the_game_ends() -> None:
    """Face down, every battlefield card looks the same (docs/rules.md §5.2): no view names the
    one at a flag, for either seat or a watcher, while the game is on; once it is over each is
    turned over (name and text, its rule marked as never applied). Face-up cards are shown
    throughout."""
    import random

    state = new_state("medieval", seed=3, options={"battlefields": "mixed", "battlefield_set": "house"})
    assert isinstance(state, BattleLineState) and 0 < state.bf_up < 511
    up = {f for f in range(9) if state.bf_up >> f & 1}
    rng = random.Random(3)
    while True:
        for viewer in (0, 1, None):
            for f, flag in enumerate(state.view(viewer).to_dict()["flags"]):
                b = flag["battlefield"]
                if state.is_terminal():
                    assert b["name"] and b["id"] and b["text"].startswith("House rule")
                    assert b["face_up"] == (f in up) and b["turned_over"] == (f not in up)
                elif f in up:
                    assert b["face_up"] and b["name"] and b["text"] and not b["turned_over"]
                else:
                    assert b == {"id": None, "name": None, "face_up": False, "text": "", "turned_over": False}
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
