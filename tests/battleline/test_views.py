"""Views: samples agree with the view, the UI dictionary follows
docs/contracts.md."""

from __future__ import annotations

import json
import pickle
import random

import pytest

from frontlines.games import new_state
from frontlines.games.battleline.notation import build_state
from frontlines.games.battleline.state import BattleLineState

RULESETS = ["battleline", "battleline-basic", "schotten-totten", "schotten-totten-tactics", "medieval"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_views_and_samples_agree(ruleset: str) -> None:
    # That no view depends on a hidden card is tests/test_hidden_information.py's property.
    rng = random.Random(ruleset)
    from_checked = 0
    for seed in range(3):
        s = new_state(ruleset, seed=seed)
        assert isinstance(s, BattleLineState)
        step = 0
        movers: list[int] = []  # who made each action so far
        while not s.is_terminal():
            if step % 4 == 0:
                for viewer in (0, 1, None):
                    v = s.view(viewer)
                    d = v.to_dict()
                    assert d["hand_sizes"] == [s.hand_count(0), s.hand_count(1)]
                    assert d["troop_deck"] == len(s.tdeck) and d["tactics_deck"] == len(s.xdeck)
                    assert d["has_tactics"] == (ruleset in ("battleline", "schotten-totten-tactics", "medieval"))
                    assert d["log_seats"] == movers and len(d["log"]) == len(movers)
                    sample = v.sample(random.Random(step))
                    assert sample.view(viewer).to_notation() == v.to_notation()
                    for p in (0, 1):
                        assert sample.hand_count(p) == s.hand_count(p)
                    if viewer is not None:
                        assert sample.hands[viewer] == s.hands[viewer]
                    if viewer == s.current_player():
                        assert set(v.legal_actions()) == set(s.legal_actions())
                        for entry in d["legal"]:
                            if entry["kind"] in ("redeploy", "deserter", "traitor", "discard"):
                                flag = d["flags"][entry["from"] - 1]
                                assert entry["card"] in flag["sides"][0] + flag["sides"][1], entry
                                from_checked += 1
            mover = s.current_player()
            assert mover is not None
            movers.append(mover)
            s.apply(rng.choice(s.legal_actions()))
            step += 1
    if ruleset in ("battleline", "schotten-totten-tactics", "medieval"):
        assert from_checked > 0  # the random games reached Redeploy, Deserter or Traitor


def test_scout_knowledge_in_views_and_samples() -> None:
    s = build_state("h0=SC.R1.R2.R3.R4.R5.R6 h1=B1 td=G1.G2.G3 xd=AL.DA")
    for t in ("SC", "scout:troop", "scout:troop", "scout:troop", "return:R1", "return:R2"):
        s.apply(s.parse_action(t))
    v0, v1, vs = s.view(0), s.view(1), s.view(None)
    assert v0.tmarks == ((0, 1, s.tdeck[-1]), (1, 1, s.tdeck[-2]))
    assert v1.tmarks == ((0, 1, -1), (1, 1, -1))
    assert vs.tmarks == v1.tmarks
    for k in range(5):
        sample = v0.sample(random.Random(k))
        assert sample.tdeck[-2:] == s.tdeck[-2:]
        sample1 = v1.sample(random.Random(k))
        assert sample1.view(1).to_notation() == v1.to_notation()
        assert sample1.known[0] == (1 << sample1.tdeck[-1]) | (1 << sample1.tdeck[-2])
    # the opponent draws R2 (now on top): player 0 knows it is in player 1's hand,
    # the spectator knows only that one card of that hand is known to player 0
    s.apply(s.parse_action("B1@1"))
    s.apply(s.parse_action("draw:troop"))
    assert s.view(None).hidden[1] == (s.hand_count(1), 0, 1, 0)  # unknown troops, tactics, known to p0
    h = s.view(0).hidden[1]
    assert h is not None and h[3] == 1 << s.parse_action("R2@1") // 9  # type: ignore[operator]
    sample = s.view(None).sample(random.Random(3))
    assert sample.view(None).to_notation() == s.view(None).to_notation()
    assert s.view(1).hand_marked == 1 << 1  # R2 is card 1
    assert "R2~0" in s.view(1).to_notation()
    assert s.view(1).log[-4:-2] == ["return:?", "return:?"]
    assert s.view(0).log[-4:-2] == ["return:R1", "return:R2"]


def test_view_dict_follows_the_contract() -> None:
    s = build_state(
        "f1=-/R8.R9.R10:1/B1.B2/ f2=-/O5.Y5.G5:2/B4.B5/ f3=1/P1.P2.P3:3/P4.P5.P6:4/ "
        "f4=-/R1/B9/F0M1 h0=R2.AL h1=G1 d1=Y1 g0=SC tp=2.1"
    )
    d = s.view(0).to_dict()
    json.dumps(d)
    for key in ("game", "ruleset", "viewer", "to_move", "phase", "outcome", "log", "legal", "flags", "hands",
                "hand_sizes", "hand_tactics", "troop_deck", "tactics_deck", "has_tactics", "discards", "guile", "tactics_played",
                "unseen", "log_seats", "log_records", "features"):
        assert key in d
    assert d["game"] == "battleline" and d["viewer"] == 0 and d["to_move"] == 0 and d["phase"] == "play"
    assert d["features"] == {"family": "battleline", "claims": True, "tactics": True, "max_value": 10,
                             "battlefields": False, "scout_to_bottom": False}
    f1, f2, f3, f4 = d["flags"][:4]
    for key in ("index", "claimed_by", "capacity", "fog", "mud", "environment", "battlefield", "sides",
                "formation", "completed_first", "claim"):
        assert key in f1
    assert f1["formation"][0] == {"name": "Wedge", "rank": 5, "sum": 27}
    assert f1["formation"][1] is None
    assert f1["claim"]["claimable"] is True
    assert f2["claim"]["claimable"] is False and f2["claim"]["counterexample"] in (["B3"], ["B6"])
    assert f2["claim"]["counterexample"][0] in f2["claim"]["reason"]
    assert f3["claimed_by"] == 1 and f3["completed_first"] == 0 and f3["claim"] is None
    assert f4["fog"] and f4["mud"] and f4["capacity"] == 4 and f4["environment"] == [["FO"], ["MU"]]
    assert d["hands"] == [["R2", "AL"], None]
    assert d["hand_sizes"] == [2, 1] and d["hand_tactics"] == [1, 0]
    assert d["discards"] == [[], ["Y1"]] and d["guile"] == [["SC"], []]
    assert "B3" in d["unseen"] and "R2" not in d["unseen"] and "Y1" not in d["unseen"]
    kinds = {e["kind"] for e in d["legal"]}
    assert kinds == {"claim", "play"}  # AL is blocked by the tactics limit (2 vs 1)
    entry = next(e for e in d["legal"] if e["text"] == "R2@5")
    assert entry == {"text": "R2@5", "kind": "play", "card": "R2", "flag": 5}
    assert s.view(1).to_dict()["legal"] == []
    assert s.view(None).to_dict()["hands"] == [None, None]


def test_legal_entry_kinds() -> None:
    s = build_state("f1=-/R1/B1/ h0=R2.FO.SC.RE.DE.TR h1=G1")
    kinds = {e["kind"] for e in s.view(0).to_dict()["legal"]}
    assert kinds == {"play", "environment", "scout", "redeploy", "deserter", "traitor"}
    re = next(e for e in s.view(0).to_dict()["legal"] if e["text"] == "RE:R1>x")
    assert re == {"text": "RE:R1>x", "kind": "redeploy", "card": "R1", "target": "x", "from": 1}
    legal = s.view(0).to_dict()["legal"]
    assert {"text": "DE:B1", "kind": "deserter", "card": "B1", "from": 1} in legal
    assert {"text": "TR:B1>3", "kind": "traitor", "card": "B1", "target": 3, "from": 1} in legal
    s.apply(s.parse_action("R2@2"))
    entries = s.view(0).to_dict()["legal"]
    assert {"text": "draw:troop", "kind": "draw", "deck": "troop"} in entries


def test_view_objects_hold_no_hidden_return() -> None:
    # Two games that differ only in which cards player 0 put back with Scout: player 1's
    # view (its log included, and every field of the object) must not tell them apart.
    views = []
    for returned in (("R1", "R2"), ("R3", "R4")):
        s = build_state("h0=SC.R1.R2.R3.R4.R5.R6 h1=B1 td=G1.G2.G3 xd=AL.DA")
        for t in ("SC", "scout:troop", "scout:troop", "scout:troop", *(f"return:{c}" for c in returned)):
            s.apply(s.parse_action(t))
        views.append(s.view(1))
    assert views[0].log[-2:] == ["return:?", "return:?"]
    assert views[0].to_dict() == views[1].to_dict()
    assert pickle.dumps(views[0]) == pickle.dumps(views[1])


@pytest.mark.parametrize("ruleset", RULESETS)
def test_pickled_states_and_views_keep_every_field(ruleset: str) -> None:
    """States and views pickle as their fields (``__reduce__``: a compiled class is made
    only through its __init__, docs/performance.md), history and undo stack included."""
    state, rng = new_state(ruleset, seed=6), random.Random(6)
    for _ in range(25):
        state.push(rng.choice(state.legal_actions()))
    view = state.view(state.current_player())
    view.sample(random.Random(1))  # fills its deal cache, which pickles too
    again = pickle.loads(pickle.dumps(view))
    assert again == view and again.log == view.log and again.deal_cache is not None
    assert again.sample(random.Random(2)) == view.sample(random.Random(2))
    copy = pickle.loads(pickle.dumps(state))
    assert type(copy) is BattleLineState and copy == state and copy.hist == state.hist and copy.actors == state.actors
    while state.hist:  # the undo stack came too (its setup objects as copies)
        assert copy.pop() == state.pop() and copy == state
