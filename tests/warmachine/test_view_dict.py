"""The view dictionary's shape, which the terminal game and the web app draw from."""

from __future__ import annotations

import json
import random

from frontlines.games import module_for, new_state, ruleset
from frontlines.games.warmachine import MODULE

COMMON = {"game", "ruleset", "viewer", "to_move", "phase", "outcome", "log", "log_seats", "log_records", "legal", "features"}
EXTRA = {"front", "hands", "hand_sizes", "support", "draws_left", "burned", "burned_cards", "burned_by_me",
         "leftover", "leftover_seen", "shuffler", "chooser", "first", "options", "scores", "refusals"}
POSITION = {"index", "country", "letter", "name", "depicted", "value", "pile", "sides", "mine", "theirs",
            "strengths", "colours", "status", "winner", "tie_reference"}


def test_registry_serves_the_ruleset_with_every_option() -> None:
    r = ruleset("warmachine")
    assert r.game == "warmachine" and module_for("warmachine") is MODULE
    assert {o.name for o in r.options} == {
        "shuffler", "leftover_choice_blind", "burn_anytime", "burn_visibility", "battle_timing",
        "tie_reference_p1", "pending_closed", "hand_scoring", "final_tiebreak", "match"}
    s = new_state("warmachine", seed=1, options={"hand_scoring": "per_card"})
    assert s.game == "warmachine" and "opts=hand_scoring:per_card" in s.to_notation()


def test_dictionary_keys_and_values() -> None:
    s = MODULE.new_game(seed=12)
    rng = random.Random(2)
    seen_kinds: set[str] = set()
    while not s.is_terminal():
        me = s.current_player()
        assert me is not None
        d = s.view(me).to_dict()
        assert set(d) == COMMON | EXTRA
        assert len(d["front"]) == 6 and all(set(p) == POSITION for p in d["front"])
        assert [p["index"] for p in d["front"]] == [1, 2, 3, 4, 5, 6]
        assert sum(p["value"] for p in d["front"]) == 9
        assert d["support"] == sum(p["pile"] for p in d["front"])
        assert d["to_move"] == me and d["legal"]
        for entry in d["legal"]:
            seen_kinds.add(entry["kind"])
            assert s.parse_action(entry["text"]) in s.legal_actions()
            if entry["kind"] == "deploy":
                assert entry["text"] == f"{entry['card']}{'^' if entry['end'] == 'war_machine' else 'v'}{entry['position']}"
        other = s.view(1 - me).to_dict()
        assert other["legal"] == [] and other["hands"][me] is None and other["front"][0]["mine"] is not None
        s.apply(rng.choice(s.legal_actions()))
    assert {"take", "deploy", "draw"} <= seen_kinds
    d = s.view(None).to_dict()
    json.dumps(d)
    assert d["outcome"]["scores"] == [x["total"] for x in d["scores"]]
    assert d["hands"][0] is not None and d["hands"][1] is not None  # revealed for scoring
    assert len(d["log"]) == len(s.history) and all(isinstance(t, str) for t in d["log"])
    assert len(d["log_seats"]) == len(d["log"]) and set(d["log_seats"]) == {0, 1}
    assert d["front"][0]["mine"] is None  # spectators have no side
