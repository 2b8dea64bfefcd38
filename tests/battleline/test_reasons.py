"""Every refusal reason of the Battle Line family, one position each: the engine names the
rule as a code with its parameters (``State.why_not``), the English words fill in, and the
view's ``refusals`` carry the same reasons for the player to move (docs/contracts.md)."""

from __future__ import annotations

from typing import Any

import pytest

from frontlines.core.reasons import Reason, english
from frontlines.games import game_module, new_state
from frontlines.games.battleline.notation import build_state
from frontlines.games.battleline.reasons import PROOF_WORDS, REASON_WORDS

HOUSE = "ruleset=medieval opts=battlefields:face_up,battlefield_set:house bf=123456789:511"
FULL_FLAGS = " ".join(f"f{f}=1/R{f}.O{f}.Y{f}:{2 * f - 1}/G{f}.B{f}.P{f}:{2 * f}/" for f in range(1, 10))

# (position fragment, moves made first, the refused action, code, parameters expected)
CASES: list[tuple[str, list[str], str, str, dict[str, Any]]] = [
    ("h0=R1.R2 h1=B1", ["R1@1"], "R2@2", "draw_now", {}),
    ("h0=SC.R1.R2 h1=B1", ["SC"], "R1@2", "no_play_now", {}),
    ("h0=R1 h1=B1", [], "draw:troop", "not_time_to_draw", {}),
    ("h0=R1 h1=B1", [], "return:R1", "scout_return_only", {}),
    ("h0=R1 h1=B1", [], "end", "not_now", {}),
    ("h0=SC.R1.R2 h1=B1 f1=-/R3.R4.R5:1//", ["SC", "scout:troop"], "claim:1", "claim_not_now", {}),
    ("ruleset=schotten-totten f1=-/R7.R8.R9:1/B1/ h0=G1 h1=P1", [], "claim:1", "claim_after_play", {}),
    ("ruleset=battleline opts=claim_timing:start_of_turn f1=-/R7.R8.R9:1/B1/ h0=G1.G2 h1=P1", ["G1@2"], "claim:1",
     "claim_before_play", {}),
    ("f1=-/R1.R2.R4:1/B1/ h0=G9 h1=P1", [], "claim:1", "claim_unproven", {"flag": 1}),
    ("h0=R1 h1=B1", [], "B1@2", "not_in_hand", {"card": "B1"}),
    ("tp=1.0 h0=AL.R1 h1=B1", [], "AL@1", "tactics_limit", {"mine": 1, "theirs": 0}),
    ("tp=1.1 lead=1 h0=DA.R1 h1=B1", [], "DA@1", "leader_spent", {}),
    ("f3=0/R1.R2.R3:1/B1.B2.B3:2/ h0=R5 h1=P1", [], "R5@3", "flag_claimed", {"flag": 3}),
    (f"{HOUSE} h0=AL.R1 h1=B1", [], "AL@9", "battlefield_forbids",
     {"card": "AL", "flag": 9, "battlefield": "Village", "rule": "House rule: no leaders may be played here."}),
    ("f1=-/R1.R2.R3:1// h0=R5 h1=P1", [], "R5@1", "side_full", {"flag": 1}),
    ("h0=SC.R1 h1=B1 td= xd= rest=d1", [], "SC", "decks_empty", {}),
    ("h0=R1 h1=B1", [], "pass", "pass_troop_playable", {}),
    ("h0=R1.R2 h1=B1 td= xd=AL rest=d1", ["R1@1"], "draw:troop", "troop_deck_empty", {}),
    ("h0=R1.R2 h1=B1 xd= rest=d1 td=G1", ["R1@1"], "draw:tactics", "tactics_deck_empty", {}),
    ("h0=R1.R2 h1=B1", ["R1@1"], "end", "must_draw", {}),
    ("h0=AL.DA.CC.SB.FO.MU.SC tp=1.0 h1=B1", ["pass"], "draw:troop", "no_draw", {}),
    ("f2=-///M1 tp=0.0 h0=DE.R1 h1=B1", [], "DE:MU", "guile_environment", {}),
    ("h0=RE.R1 h1=B1", [], "RE:R5>x", "guile_not_yours", {"card": "R5"}),
    ("h0=DE.R1 h1=B1", [], "DE:B5", "guile_not_theirs", {"card": "B5"}),
    ("f1=1/R1.R2.R3:1/B1.B2.B3:2/ h0=DE.R9 h1=P1", [], "DE:B1", "guile_source_claimed", {"flag": 1}),
    ("f1=-/R1// h0=RE.R9 h1=P1", [], "RE:R1>1", "redeploy_same_flag", {"card": "RE"}),
]


@pytest.mark.parametrize(("fragment", "moves", "text", "code", "params"), CASES, ids=[c[3] for c in CASES])
def test_each_refusal_names_its_rule(fragment: str, moves: list[str], text: str, code: str, params: dict[str, Any]) -> None:
    s = build_state(fragment)
    for move in moves:
        s.apply(s.parse_action(move))
    action = s.parse_action(text)
    assert action not in s.legal_actions()
    reason = s.why_not(action)
    assert reason is not None and reason.code == code, reason
    assert {k: reason.get(k) for k in params} == params
    words = english(reason, REASON_WORDS)
    assert "{" not in words and words == s.explain_illegal(action).split(": ", 1)[1]  # type: ignore[attr-defined]


def test_every_code_has_a_case_and_words() -> None:
    # (the proof codes, PROOF_WORDS, are test_proof.py's: every proof names one)
    assert {c[3] for c in CASES} | {"not_legal", "game_over", "no_target", "no_flag"} == set(REASON_WORDS) - set(PROOF_WORDS)
    assert game_module("battleline").reason_words is REASON_WORDS


def test_the_game_over_and_garbage_reasons() -> None:
    s = new_state("battleline", seed=1)
    assert s.why_not("R1@1") == Reason("not_legal")
    first = s.legal_actions()[0]
    assert s.why_not(first) is None
    s.resign(0)
    assert s.why_not(first) == Reason("game_over")


def test_the_view_lists_refused_cards_and_flags_for_the_player_to_move() -> None:
    s = build_state(f"tp=1.0 {FULL_FLAGS.replace('f9=1/', 'f9=-/')} h0=AL.RE.R10 h1=P10")
    d = s.view(0).to_dict()
    refusals = d["refusals"]
    assert refusals["cards"]["AL"]["code"] == "tactics_limit"
    assert refusals["cards"]["AL"]["words"] == REASON_WORDS["tactics_limit"]
    assert refusals["cards"]["R10"]["code"] == "no_flag"  # every flag claimed or full
    assert refusals["flags"]["R10"]["1"] == {"code": "flag_claimed", "params": {"flag": 1}, "words": REASON_WORDS["flag_claimed"]}
    assert refusals["flags"]["R10"]["9"]["code"] == "side_full"
    # the opponent's view says nothing of player 0's cards; nor does a view off the play step
    assert s.view(1).to_dict()["refusals"] is None and s.view(None).to_dict()["refusals"] is None
    s2 = build_state("h0=RE.R9 h1=P1")
    assert s2.view(0).to_dict()["refusals"] == {
        "cards": {"RE": {"code": "no_target", "params": {"card": "RE"}, "words": REASON_WORDS["no_target"]}}, "flags": {}}


@pytest.mark.parametrize("ruleset", ["battleline", "medieval"])
def test_the_views_refusals_agree_with_the_legal_moves(ruleset: str) -> None:
    """Through random games: a refused card has no legal move, every other card has one, and
    a flag listed as refusing a card is exactly one it cannot be played to."""
    import random

    options = {"battlefields": "face_up", "battlefield_set": "house"} if ruleset == "medieval" else {}
    s = new_state(ruleset, seed=4, options=options)
    rng = random.Random(4)
    checked = 0
    while not s.is_terminal():
        p = s.current_player()
        assert p is not None
        d = s.view(p).to_dict()
        if d["refusals"] is not None:
            starts = {e["card"] for e in d["legal"] if e["kind"] in ("play", "environment", "scout")}
            starts |= {{"redeploy": "RE", "deserter": "DE", "traitor": "TR"}[e["kind"]] for e in d["legal"]
                       if e["kind"] in ("redeploy", "deserter", "traitor")}
            refused = set(d["refusals"]["cards"])
            assert not refused & starts and refused | starts == set(d["hands"][p])
            plays = {(e["card"], e["flag"]) for e in d["legal"] if e["kind"] in ("play", "environment")}
            for card, flags in d["refusals"]["flags"].items():
                assert all((card, int(f)) not in plays for f in flags)
                assert len(flags) + sum(1 for c, _ in plays if c == card) == 9
            checked += 1
        s.apply(rng.choice(s.legal_actions()))
    assert checked > 20
