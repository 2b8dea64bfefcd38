"""Tactics cards: every card and the edge cases of docs/rules.md §2.15–§2.25 and §4.2."""

from __future__ import annotations

import random

import pytest

from frontlines.core.errors import IllegalAction
from frontlines.games.battleline.cards import parse_card
from frontlines.games.battleline.notation import build_state
from frontlines.games.battleline.state import BattleLineState

from .helpers import act, legal


def assert_illegal(s: BattleLineState, text: str, fragment: str = "") -> None:
    before = s.to_notation()
    with pytest.raises(IllegalAction) as info:
        s.apply(s.parse_action(text))
    assert fragment in str(info.value), str(info.value)
    assert s.to_notation() == before


def bit(code: str) -> int:
    return 1 << parse_card(code)


# --- general ------------------------------------------------------------------------------
def test_tactics_limit() -> None:
    s = build_state("h0=R1.CC.SB h1=B1.FO tp=1.0")
    assert not any(t.startswith(("CC", "SB")) for t in legal(s))
    assert_illegal(s, "CC@1", "tactics limit")
    s = build_state("h0=R1.CC.SB h1=B1.FO tp=1.1")
    act(s, "CC@1", "draw:troop")
    assert s.tactics_played == [2, 1]
    act(s, "B1@2", "draw:troop")
    assert_illegal(s, "SB@2", "tactics limit")


def test_one_leader_per_player_per_game_even_after_it_is_deserted() -> None:
    s = build_state("h0=R1.AL.DA h1=B1.DE.P1")
    assert {"AL@1", "DA@1"} <= legal(s)
    act(s, "AL@1", "draw:troop", "DE:AL", "draw:troop")
    assert s.tactics_played == [1, 1] and s.discards[0] == (parse_card("AL"),)
    assert not any(t.startswith("DA@") for t in legal(s))
    assert_illegal(s, "DA@2", "already played a leader")


def test_no_tactic_at_a_claimed_flag() -> None:
    s = build_state("f1=1//R8.R9.R10:1/ f2=-/O1/B1/ h0=R1.CC.FO.MU h1=B2.RE.DE.TR")
    options = legal(s)
    assert not any(t.endswith("@1") for t in options)
    assert {"FO@2", "MU@2", "CC@2"} <= options


# --- morale ---------------------------------------------------------------------------------
def test_companion_cavalry_is_an_eight_and_spy_a_seven() -> None:
    # CC + R9 + R10: a red Wedge 8-9-10, unbeatable
    s = build_state("f1=-/CC.R9.R10:3/B1/ h0=G1 h1=P1 tp=1.0")
    assert "claim:1" in legal(s)
    # ST: Spy is 7 -> R8 R9 + Spy = colour run 7-8-9, the best possible
    s = build_state("ruleset=schotten-totten-tactics f1=-/CC.R8.R9:3/B1/ h0=G1 h1=P1 tp=1.0 opts=claim_timing:before_draw")
    assert "claim:1" in legal(s)


def test_shield_bearers_value_at_most_three() -> None:
    # SB R1 R2 -> Wedge 1-2-3 at best: beaten by B4.B5 + B6
    s = build_state("f1=-/SB.R1.R2:3/B4.B5/ h0=G1 h1=P1 tp=1.0")
    assert "claim:1" not in legal(s)


def test_morale_card_can_complete_a_formation_and_sets_completion_time() -> None:
    s = build_state("n=10 f1=-/R9.R10/B8.B9.B10:4/ h0=CC.G1 h1=P1")
    act(s, "CC@1")
    assert s.completed[0] == 11
    assert "claim:1" not in legal(s)  # Wedge 8-9-10 vs Wedge 8-9-10: player 1 completed first


# --- environment ----------------------------------------------------------------------------
def test_fog_compares_sums_only_and_may_go_on_complete_sides() -> None:
    s = build_state("f1=-/R1.R2.R3:1/B10.P10.G9:2/ h0=FO.G1 h1=P1")
    assert "claim:1" in legal(s)  # Wedge beats Host
    act(s, "FO@1")
    assert s.fog[0] == 0
    assert "claim:1" not in legal(s)  # sums 6 vs 29


def test_fog_counts_morale_cards_at_their_maximum() -> None:
    # Leader 10 + Cavalry 8 + Shield 3 = 21 against at most 1 + 1 + 10
    s = build_state("f1=-/AL.CC.SB:5/B1.P1/F1 h0=G1 h1=P2 tp=3.1 lead=1")
    assert "claim:1" in legal(s)
    s = build_state("f1=-/AL.CC.SB:5/B10.P1/F1 h0=G1 h1=P2 tp=3.1 lead=1")
    assert "claim:1" in legal(s)  # 10 + 1 + 10 = 21 at best: a tie, and they would complete last
    s = build_state("f1=-/AL.CC.SB:5/B10.P2/F1 h0=G1 h1=P3 tp=3.1 lead=1")
    assert "claim:1" not in legal(s)  # 10 + 2 + 10 = 22


def test_mud_needs_four_cards_and_uncompletes_full_sides() -> None:
    s = build_state("f1=-/R8.R9.R10:1/B1.B2.B3:2/ h0=MU.G1 h1=P1")
    act(s, "MU@1")
    assert s.capacity(0) == 4
    assert s.completed[0] == -1 and s.completed[1] == -1
    assert "claim:1" not in legal(s)
    act(s, "draw:troop", "P1@1", "draw:troop")
    assert s.completed[1] >= 0
    assert s.capacity(0) == 4


def test_mud_and_fog_together_compare_four_card_sums() -> None:
    s = build_state("f1=-/R1.R2.R3.R4:1/B10.B9.B8.B7:2/F1M0 h0=G1 h1=P1 tp=1.1")
    act(s, "G1@2", "draw:troop")
    assert "claim:1" in legal(s)  # player 1: 34 vs 10


def test_environment_is_not_a_guile_target_by_default() -> None:
    s = build_state("f1=-/R1/B1/F1M1 h0=RE.DE.G1 h1=P1 tp=0.2")
    options = legal(s)
    assert "DE:FO" not in options and "DE:MU" not in options
    assert not any(t.startswith(("RE:FO", "RE:MU")) for t in options)


# --- Scout ----------------------------------------------------------------------------------
def test_scout_draws_three_returns_two_and_skips_the_draw() -> None:
    s = build_state("h0=SC.R1.R2.R3.R4.R5.R6 h1=B1 td=G1.G2.G3 xd=AL.DA")
    act(s, "SC")
    assert legal(s) == {"scout:troop", "scout:tactics"}
    act(s, "scout:troop", "scout:tactics", "scout:troop")
    assert s.hand_count(0) == 9
    assert s.current_player() == 0
    assert legal(s) == {f"return:{c}" for c in ("R1", "R2", "R3", "R4", "R5", "R6", "G1", "G2", "AL")}
    act(s, "return:R1", "return:AL")
    assert s.current_player() == 1 and s.hand_count(0) == 7
    assert s.tdeck[-1] == parse_card("R1") and s.xdeck[-1] == parse_card("AL")
    # the Scout player knows where they are; the opponent only that they are there
    v0, v1 = s.view(0).to_notation(), s.view(1).to_notation()
    assert "td=#" in v0 and "0~0=R1" in v0 and "0~0=AL" in v0
    assert "0~0" in v1 and s.view(1).to_dict()["known"] == []  # where, not what
    # the opponent draws R1: player 0 now knows it is in player 1's hand
    act(s, "B1@2", "draw:troop")
    hidden = s.view(0).hidden[1]
    assert hidden is not None and hidden[3] == bit("R1")
    assert "R1" in s.view(0).to_dict()["known"][0]["card"]


def test_scout_with_short_decks_returns_to_hand_size() -> None:
    s = build_state("h0=SC.R1.R2.R3.R4.R5.R6 h1=B1 td=G1 xd= rest=d1")
    act(s, "SC", "scout:troop")
    assert s.hand_count(0) == 7
    assert s.phase == 0 and s.to_move == 1  # hand back at 7: nothing to return, turn over
    s = build_state("h0=SC.R1.R2.R3.R4.R5.R6 h1=B1 td=G1.G2 xd= rest=d1")
    act(s, "SC", "scout:troop", "scout:troop")
    assert legal(s) and all(t.startswith("return:") for t in legal(s))
    act(s, "return:G2")
    assert s.to_move == 1 and s.hand_count(0) == 7


def test_scout_short_deck_option_returns_drawn_minus_one() -> None:
    s = build_state("opts=scout_short_deck:return_drawn_minus_one h0=SC.R1.R2.R3.R4.R5.R6 h1=B1 td=G1.G2 rest=d1")
    act(s, "SC", "scout:troop", "scout:troop", "return:G1")
    assert s.to_move == 1 and s.hand_count(0) == 7
    s = build_state("opts=scout_short_deck:return_drawn_minus_one h0=SC.R1.R2 h1=B1 td=G1 rest=d1")
    act(s, "SC", "scout:troop")
    assert s.to_move == 1 and s.hand_count(0) == 3


def test_scout_needs_a_card_in_the_decks() -> None:
    s = build_state("h0=SC.R1 h1=B1 rest=d1")
    assert "SC" not in legal(s)
    assert_illegal(s, "SC", "decks are empty")


def test_claims_in_a_scout_turn_before_its_first_draw() -> None:
    s = build_state("opts=claim_timing:after_play f1=-/R8.R9.R10:1/B1/ h0=SC.G1 h1=P1")
    assert "claim:1" not in legal(s)
    act(s, "SC")
    assert "claim:1" in legal(s)
    act(s, "scout:troop")
    assert "claim:1" not in legal(s)


def test_headhunter_returns_cards_under_the_decks() -> None:
    s = build_state("ruleset=schotten-totten-tactics h0=SC.R1.R2.R3.R4.R5.R6 h1=B1 td=G1.G2.G3 xd=AL")
    act(s, "SC", "scout:troop", "scout:troop", "scout:troop", "return:R1", "return:R2")
    assert s.tdeck[:2] == [parse_card("R2"), parse_card("R1")]
    v = s.view(0).to_notation()
    size = len(s.tdeck)
    assert f"{size - 1}~0=R2" in v and f"{size - 2}~0=R1" in v


# --- Redeploy, Deserter, Traitor ---------------------------------------------------------------
def test_redeploy_moves_to_another_unclaimed_flag_or_discards() -> None:
    s = build_state("f1=-/R1.R2.R3:1// f2=-/O1.O2.O3:2// f3=0/Y1.Y2.Y3:3// h0=RE.G1 h1=P1")
    options = {t for t in legal(s) if t.startswith("RE:")}
    assert "RE:R1>x" in options and "RE:R1>4" in options
    assert "RE:R1>1" not in options  # not the same flag
    assert "RE:R1>2" not in options  # full side
    assert not any(t.startswith("RE:Y") for t in options)  # claimed flag
    assert not any(t.endswith(">3") for t in options)
    act(s, "RE:R1>4")
    assert s.sides[0] == (parse_card("R2"), parse_card("R3")) and s.completed[0] == -1
    assert s.sides[6] == (parse_card("R1"),)
    assert s.guile[0] == (parse_card("RE"),)


def test_redeploy_arrival_counts_as_completing() -> None:
    s = build_state("n=9 f1=-/R1// f2=-/O9.O10/B1.B2.B3:3/ h0=RE.G1 h1=P1")
    act(s, "RE:R1>2")
    assert s.completed[2] == 10


def test_deserter_discards_an_opponent_card() -> None:
    s = build_state("f1=-/R1/B1.B2.B3:2/ f2=1//P1.P2.P3:3/ h0=DE.G1 h1=CC")
    options = {t for t in legal(s) if t.startswith("DE:")}
    assert options == {"DE:B1", "DE:B2", "DE:B3"}
    act(s, "DE:B2")
    assert s.discards[1] == (parse_card("B2"),) and s.completed[1] == -1
    assert s.tactics_played == [1, 0]


def test_traitor_takes_troops_only_into_an_empty_own_slot_including_the_same_flag() -> None:
    s = build_state("f1=-/R1.R2/B1.B2.AL:2/ h0=TR.G1 h1=P1 tp=0.1 lead=2")
    options = {t for t in legal(s) if t.startswith("TR:")}
    assert "TR:B1>1" in options and "TR:B1>9" in options
    assert not any(t.startswith("TR:AL") for t in options)
    assert_illegal(s, "RE:R1>x", "not in your hand")
    act(s, "TR:B1>1")
    assert s.sides[0] == (parse_card("R1"), parse_card("R2"), parse_card("B1"))
    assert s.completed[0] >= 0 and s.completed[1] == -1


def test_traitor_needs_a_free_own_slot() -> None:
    flags = " ".join(f"f{i}=-/{c}1.{c}2.{c}3:{i}/{c}4/" for i, c in zip(range(1, 7), "ROYGBP", strict=True))
    flags += " f7=-/R5.R6.R7:7// f8=-/O5.O6.O7:8// f9=-/Y5.Y6.Y7:9//"
    s = build_state(f"{flags} h0=TR h1=P9")
    assert not any(t.startswith("TR:") for t in legal(s))
    assert "pass" in legal(s)


def test_removed_tactics_still_count() -> None:
    s = build_state("f1=-/CC// h0=G1 h1=DE.P1 tp=1.0 to=1")
    act(s, "DE:CC")
    assert s.tactics_played == [1, 1]


# --- environment as a guile target (option) -------------------------------------------------------
def test_option_lets_guile_move_and_remove_environment() -> None:
    s = build_state("opts=guile_can_target_environment:true f1=-/R1/B1/F0M1 h0=RE.DE.G1 h1=P1 tp=1.1")
    options = legal(s)
    assert "DE:MU" in options and "DE:FO" not in options
    assert "RE:FO>2" in options and "RE:FO>x" in options
    act(s, "RE:FO>2")
    assert s.fog[0] == -1 and s.fog[1] == 0


def test_mud_removed_best_subset() -> None:
    s = build_state(
        "opts=guile_can_target_environment:true f1=-/R1.R2.R3.R9:1/B1.B2.B3.B4:2/M1 h0=DE.G1 h1=P1 tp=0.1"
    )
    act(s, "DE:MU")
    assert s.capacity(0) == 3
    # player 0's best three of R1 R2 R3 R9 is the Wedge 1-2-3; player 1's is Wedge 2-3-4
    assert s.side_cards(0, 1) == (parse_card("B2"), parse_card("B3"), parse_card("B4"))
    act(s, "draw:troop")
    assert "claim:1" in legal(s)  # player 1: Wedge 2-3-4 beats Wedge 1-2-3


def test_mud_removed_owner_discards() -> None:
    s = build_state(
        "opts=guile_can_target_environment:true,mud_removed_excess:owner_discards "
        "f1=-/R1.R2.R3.R9:1/B1.B2.B3.B4:2/M1 h0=DE.G1 h1=P1 tp=0.1"
    )
    act(s, "DE:MU")
    assert s.current_player() == 0
    assert legal(s) == {"discard:R1", "discard:R2", "discard:R3", "discard:R9"}
    act(s, "discard:R9")
    assert s.current_player() == 1
    assert legal(s) == {"discard:B1", "discard:B2", "discard:B3", "discard:B4"}
    view = s.view(1)
    assert {e["text"] for e in view.to_dict()["legal"]} == legal(s)
    act(s, "discard:B1")
    assert s.current_player() == 0 and legal(s) == {"draw:troop", "draw:tactics"}
    assert s.discards == [(parse_card("R9"),), (parse_card("MU"), parse_card("B1"))]


def test_mud_removed_sides_complete_again_mover_last() -> None:
    s = build_state(
        "opts=guile_can_target_environment:true n=5 f1=-/R1.R2.R3/B1.B2.B3/M1 h0=DE.G1 h1=P1 tp=0.1"
    )
    act(s, "DE:MU")
    assert 0 <= s.completed[1] < s.completed[0]


# --- random tactics play keeps the books straight ----------------------------------------------------
@pytest.mark.parametrize("ruleset", ["battleline", "schotten-totten-tactics"])
def test_random_tactics_games_keep_counts(ruleset: str) -> None:
    from frontlines.games import new_state

    for seed in range(6):
        s = new_state(ruleset, seed=seed, options={"guile_can_target_environment": "true"})
        assert isinstance(s, BattleLineState)
        rng = random.Random(seed)
        while not s.is_terminal():
            played = list(s.tactics_played)
            for p in (0, 1):
                assert s.tactics_played[p] <= s.tactics_played[1 - p] + 1
            s.apply(rng.choice(s.legal_actions()))
            assert sum(s.tactics_played) - sum(played) in (0, 1)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("RE:R1>1", "another flag"),
        ("RE:B1>4", "not one of your cards"),
        ("RE:Y1>4", "claimed"),
        ("RE:R1>2", "full"),
        ("DE:R1", "not one of your opponent's cards"),
        ("TR:B1>2", "full"),
        ("DE:FO", "stay where they are"),
    ],
)
def test_guile_errors_explain_themselves(text: str, fragment: str) -> None:
    s = build_state("f1=-/R1/B1/F1 f2=-/O1.O2.O3:1// f3=0/Y1.Y2.Y3:2// h0=RE.DE.TR.G1 h1=P1")
    assert_illegal(s, text, fragment)


def test_wild_values_are_chosen_afresh_after_redeploy() -> None:
    # the Leader completes a Wedge 8-9-10 at flag 1, then a Wedge 1-2-3 at flag 2
    s = build_state("f1=-/R9.R10.AL:1/B1/ f2=-/O1.O2/P1/ h0=RE.G1 h1=P2 tp=1.1 lead=1")
    d = s.view(0).to_dict()
    assert d["flags"][0]["formation"][0] == {"name": "Wedge", "rank": 5, "sum": 27}
    act(s, "RE:AL>2")
    d = s.view(0).to_dict()
    assert d["flags"][1]["formation"][0] == {"name": "Wedge", "rank": 5, "sum": 6}
    assert d["flags"][0]["formation"][0] is None and s.completed[0] == -1


def test_a_dead_second_leader_can_be_returned_with_scout() -> None:
    s = build_state("h0=DA.SC.R1.R2.R3.R4.R5 h1=P1 lead=1 tp=1.1 f1=-/AL// td=G1.G2.G3")
    assert not any(t.startswith("DA@") for t in legal(s))
    act(s, "SC", "scout:troop", "scout:troop", "scout:troop")
    assert "return:DA" in legal(s)
    act(s, "return:DA", "return:G1")
    assert s.xdeck[-1] == parse_card("DA")
