"""Rules audit: adversarial golden tests of the Battle Line engine against docs/rules.md.

Every test builds a position, acts only through the public ``State`` API
(``legal_actions``, ``apply``, ``parse_action``, ``view``) and reads it only through its
public faces (the view dictionary and the notation, ``helpers.py``), then asserts what
``docs/rules.md`` says (section numbers in the comments).
"""

from __future__ import annotations

import itertools
import pickle
import random

import pytest

from frontlines.core.errors import IllegalAction, NotationError
from frontlines.core.game import View
from frontlines.games.battleline.cards import parse_card
from frontlines.games.battleline.notation import build_state
from frontlines.games.battleline.state import BattleLineState

from .helpers import act, claimed, claims, completed, deck, hand, hand_size, legal, position, side, table


def illegal(s: BattleLineState, text: str, fragment: str = "") -> None:
    before = s.to_notation()
    with pytest.raises(IllegalAction) as info:
        s.apply(s.parse_action(text))
    assert fragment.lower() in str(info.value).lower(), str(info.value)
    assert s.to_notation() == before


def c(code: str) -> int:
    return parse_card(code)


def phase(s: BattleLineState) -> str:
    return s.view(None).to_dict()["phase"]


def position_of_view(v: View) -> dict[str, str]:
    """The tokens of a view's notation (docs/notation.md, "View notation")."""
    return dict(t.split("=", 1) for t in v.to_notation().split()[1:])


# An unbeatable Wedge 8-9-10 at flag 1 for player 0 (the opponent has one card there).
WIN1 = "f1=-/R8.R9.R10:1/B1/"
# Player 0's sides at flags 2-9 all full (weak Hosts/Battalions), completed at n=2..9.
FULL_2_TO_9 = " ".join(
    f"f{i}=-/{col}1.{col}2.{col}4:{i}//" for i, col in zip(range(2, 8), "ROYGBP", strict=True)
) + " f8=-/R5.R6.R7:8// f9=-/O5.O6.O7:9//"


# --- §2.13 claim windows ---------------------------------------------------------------------------
def test_before_draw_claims_before_and_after_the_play_in_the_same_turn() -> None:
    s = build_state(f"{WIN1} f2=-/O8.O9/B2/ h0=O10.G1 h1=P1")
    assert claims(s) == {"claim:1"}
    act(s, "claim:1")
    assert s.current_player() == 0 and phase(s) == "play"  # the claim does not use up the turn
    act(s, "O10@2")
    assert claims(s) == {"claim:2"}  # completed this turn, claimable before the draw
    act(s, "claim:2", "draw:troop")
    assert claimed(s)[:2] == [0, 0] and s.current_player() == 1


def test_before_draw_no_claim_after_the_draw() -> None:
    s = build_state("f2=-/O8.O9/B2/ h0=O10.G1 h1=P1.P2")
    act(s, "O10@2", "draw:troop")
    assert s.current_player() == 1
    illegal(s, "claim:2")  # it is the opponent's turn now; player 1 has nothing complete
    act(s, "P1@5", "draw:troop")
    assert claims(s) == {"claim:2"}  # player 0's next turn


def test_before_draw_claim_while_only_end_remains() -> None:
    # a pass with a full hand: the draw step is "end", claims still allowed before it
    s = build_state(f"{FULL_2_TO_9} f1=-/R8.R9.R10:10/B3/ "
                    "h0=Y8.Y9.Y10.G8.G9.G10.B8 h1=P9 n=10")
    # claims first: the claim list must offer every provable flag; play is impossible
    assert "pass" in legal(s) and "claim:1" in legal(s)
    act(s, "pass")
    assert phase(s) == "draw"
    assert "end" in legal(s) and "claim:1" in legal(s)
    act(s, "claim:1", "end")
    assert claimed(s)[0] == 0 and s.current_player() == 1


def test_start_of_turn_claims_only_before_the_play() -> None:
    s = build_state(f"opts=claim_timing:start_of_turn {WIN1} f2=-/O8.O9/B2/ h0=O10.G1 h1=P1.P2 td=Y1.Y2.Y3")
    assert claims(s) == {"claim:1"}
    act(s, "O10@2")
    assert not claims(s)
    illegal(s, "claim:1", "claim timing")
    illegal(s, "claim:2", "claim timing")
    act(s, "draw:troop", "P1@5", "draw:troop")
    assert claims(s) == {"claim:1", "claim:2"}


def test_start_of_turn_no_claims_after_a_pass() -> None:
    s = build_state(f"opts=claim_timing:start_of_turn {FULL_2_TO_9} "
                    "f1=-/R8.R9.R10:10/B3/ h0=Y8 h1=P9 n=10")
    assert {"pass", "claim:1"} <= legal(s)
    act(s, "pass")
    assert "claim:1" not in legal(s)


def test_start_of_turn_no_claim_in_a_scout_turn_after_the_play() -> None:
    s = build_state(f"opts=claim_timing:start_of_turn {WIN1} h0=SC.G1 h1=P1")
    act(s, "SC")
    assert not claims(s)


def test_after_play_claims_only_after_the_play_and_after_a_pass() -> None:
    s = build_state(f"opts=claim_timing:after_play {WIN1} h0=G1 h1=P1")
    assert not claims(s)
    illegal(s, "claim:1", "claim timing")
    act(s, "G1@2")
    assert claims(s) == {"claim:1"}
    # a pass also opens the after-play window
    s = build_state(f"opts=claim_timing:after_play {FULL_2_TO_9} "
                    "f1=-/R8.R9.R10:10/B3/ h0=Y8 h1=P9 n=10")
    assert legal(s) == {"pass"}
    act(s, "pass")
    assert "claim:1" in legal(s)


def test_after_play_draw_ends_the_claim_window() -> None:
    s = build_state(f"opts=claim_timing:after_play {WIN1} h0=G1 h1=P1 td=Y1.Y2")
    act(s, "G1@2", "draw:troop")
    assert s.current_player() == 1 and not claims(s)
    illegal(s, "claim:1")


# --- §2.3 several claims, victory after each ------------------------------------------------------------
def test_victory_is_checked_after_each_claim_breakthrough() -> None:
    s = build_state("f1=0/R1.R2.R3:1// f2=-/O8.O9.O10:2/B1/ f3=-/Y8.Y9.Y10:3/B2/ "
                    "f6=-/G8.G9.G10:4/B3/ h0=P1 h1=P2")
    assert claims(s) == {"claim:2", "claim:3", "claim:6"}
    act(s, "claim:6")
    assert not s.is_terminal()
    act(s, "claim:2")
    assert not s.is_terminal()  # flags 1, 2 and 6: not three adjacent
    act(s, "claim:3")
    out = s.outcome()
    assert out is not None and out.winner == 0 and out.reason == "breakthrough"
    assert s.legal_actions() == [] and s.current_player() is None


def test_victory_is_checked_after_each_claim_envelopment_stops_further_claims() -> None:
    s = build_state("f1=0/R1.R2.R3:1// f3=0/O1.O2.O3:2// f5=0/Y1.Y2.Y3:3// f7=0/G1.G2.G3:4// "
                    "f2=-/G8.G9.G10:5/B1/ f9=-/P8.P9.P10:6/B2/ h0=R4 h1=O4")
    assert claims(s) == {"claim:2", "claim:9"}
    act(s, "claim:9")
    out = s.outcome()
    assert out is not None and out.winner == 0 and out.reason == "envelopment"
    with pytest.raises(IllegalAction):
        s.apply(s.parse_action("claim:2"))
    assert claimed(s)[1] is None


def test_breakthrough_needs_exactly_adjacent_flags_not_wraparound() -> None:
    s = build_state("f1=0/R1.R2.R3:1// f8=0/O1.O2.O3:2// f9=-/Y8.Y9.Y10:3/B1/ h0=R4 h1=O4")
    act(s, "claim:9")
    assert not s.is_terminal()  # 8, 9, 1 is not a line of three


def test_opponent_flags_do_not_count_for_the_claimant() -> None:
    s = build_state("f1=1/R1.R2.R3:1// f2=1/O1.O2.O3:2// f3=-/Y8.Y9.Y10:3/B1/ h0=R4 h1=O4")
    act(s, "claim:3")
    assert not s.is_terminal() and claimed(s)[:3] == [1, 1, 0]


# --- §2.9 / §2.12 completion order ----------------------------------------------------------
def test_tie_complete_vs_complete_second_completer_cannot_claim_opponent_can_next_turn() -> None:
    # both Skirmish 4-5-6 sum 15; player 0 completes second this very turn
    s = build_state("n=3 f1=-/R4.O5/B4.Y5.G6:2/ h0=P6.G1 h1=P1.P2 td=Y1.Y2.Y3")
    act(s, "P6@1")
    assert "claim:1" not in legal(s)
    illegal(s, "claim:1", "completed second")
    act(s, "draw:troop")
    assert "claim:1" in legal(s)  # player 1 completed first
    act(s, "claim:1")
    assert claimed(s)[0] == 1


def test_mud_on_full_sides_resets_completion_order() -> None:
    # player 0 completed first (n=1 < 2); Mud makes both incomplete, then player 1 completes
    # the four-card side first and wins the tie
    s = build_state("n=2 f1=-/R4.R5.R6:1/B4.B5.B6:2/ h0=MU.G1.Y7 h1=P7.G2 tp=0.0 td=Y1.Y2.Y3.Y4")
    assert "claim:1" in legal(s)  # tie: player 0 completed first
    act(s, "MU@1")
    assert completed(s, 1, 0) is None and completed(s, 1, 1) is None
    assert "claim:1" not in legal(s)
    act(s, "draw:troop")
    # player 1: B4 B5 B6 + P7 = Skirmish 22; player 0 will add Y7: Skirmish 22
    act(s, "P7@1", "draw:troop")
    act(s, "Y7@1")
    assert not claims(s)  # tie and player 0 completed second
    act(s, "draw:troop")
    assert claims(s) == {"claim:1"}


def test_mud_on_a_complete_side_blocks_its_claim_until_the_fourth_card() -> None:
    s = build_state(f"{WIN1} h0=G1.R7 h1=MU.P1 to=1")
    act(s, "MU@1", "draw:troop")
    assert "claim:1" not in legal(s)
    act(s, "R7@1")
    # 7-8-9-10 red Wedge with Mud: unbeatable
    assert "claim:1" in legal(s)


def test_traitor_arrival_counts_as_placing_the_last_card() -> None:
    # player 1 completed first at flag 2 (Host P1 O2 P9); player 0 steals B3 from flag 1 into
    # flag 2, completing it now
    s = build_state("n=5 f1=-/R1/B3.O9/ f2=-/Y4.G5/P1.O2.P9:3/ h0=TR.R2 h1=G1 td=Y1.Y2")
    act(s, "TR:B3>2")
    assert completed(s, 2, 0) == 6 and completed(s, 1, 1) is None
    # player 0: Y4 G5 B3 = Skirmish 3-4-5 (12) beats the Host P1 O2 P9; claimable now
    assert "claim:2" in legal(s)


def test_traitor_completion_loses_a_tie() -> None:
    # player 1: Host P1 O2 P9 (12) complete at 3; player 0 has Y2.G1 at flag 2 and steals O9
    # into it: Host 2+1+9 = 12, a tie completed second
    s = build_state("n=5 f1=-/R1/B3.O9/ f2=-/Y2.G1/P1.O2.P9:3/ h0=TR.R2 h1=G2 td=Y1.Y3")
    act(s, "TR:O9>2")
    assert side(s, 2, 0) == ["Y2", "G1", "O9"]
    assert "claim:2" not in legal(s)
    act(s, "draw:troop")
    assert "claim:2" in legal(s)


def test_traitor_to_the_same_flag_and_only_into_a_free_own_slot() -> None:
    s = build_state("f1=-/R1.R2/B1.B2.B3:1/ f2=-/O1.O2.O3:2/Y9/ f3=0//G9/ h0=TR.P5 h1=P1 tp=0.1")
    opts = {t for t in legal(s) if t.startswith("TR:")}
    assert "TR:B1>1" in opts  # same flag
    assert "TR:Y9>1" in opts and "TR:Y9>4" in opts
    assert not any(t.endswith(">2") for t in opts)  # own side full
    assert not any(t.endswith(">3") for t in opts)  # claimed flag
    assert not any(t.startswith("TR:G9") for t in opts)  # from a claimed flag
    illegal(s, "TR:B1>2", "full")
    illegal(s, "TR:G9>1", "claimed")


def test_traitor_never_takes_morale_cards() -> None:
    s = build_state("f1=-/R1/CC.SB.AL:1/ h0=TR.P5 h1=P1 tp=0.3 lead=2")
    assert not any(t.startswith("TR:") for t in legal(s))
    with pytest.raises(NotationError):  # not even expressible
        s.parse_action("TR:CC>2")


def test_deserter_removal_clears_completion_and_later_refill_completes_again() -> None:
    s = build_state("n=4 f1=-/R4.R5.R6:1/B4.B5.B6:2/ h0=G1.G2 h1=DE.B7.P1 to=1 td=Y1.Y2.Y3")
    # player 1 removes R6: player 0's side is no longer complete
    act(s, "DE:R6")
    assert completed(s, 1, 0) is None and table(s)["discards"][0] == ["R6"]
    act(s, "draw:troop")
    # player 0 cannot claim (incomplete); refill with G2 -> Host 11 loses to Wedge
    assert "claim:1" not in legal(s)
    act(s, "G2@1")
    assert completed(s, 1, 0) == int(position(s)["n"])


def test_redeploy_removal_clears_completion_and_arrival_completes() -> None:
    s = build_state("n=4 f1=-/R4.R5.R6:1/B4.B5.B6:2/ f2=-/O9.O10// h0=RE.G1 h1=P1")
    act(s, "RE:R6>2")
    assert completed(s, 1, 0) is None
    assert completed(s, 2, 0) == 5


def test_tie_at_best_in_a_proof_goes_to_the_claimant() -> None:
    # Fog: claimant sum 27 (R8 R9 R10); opponent B10 B7 can at best add P10 (the only 10 left
    # unseen): 27 = 27, a tie the opponent would complete last, so the claim holds
    s = build_state("f1=-/R8.R9.R10:1/B10.B7/F1 f2=-/O10.Y10.G10:2// h0=G1 h1=P1 rest=h1")
    assert "claim:1" in legal(s)  # P10 is the only 10 left: 27 = 27, opponent would place last
    s = build_state("f1=-/R8.R9.R10:1/B10.B8/F1 f2=-/O10.Y10.G10:2// h0=G1 h1=P1")
    assert "claim:1" not in legal(s)  # 10 + 8 + 10 = 28 > 27


# --- §2.12 proofs ------------------------------------------------------------------------------------------
def test_proof_claimants_own_hand_is_unseen_even_when_it_holds_every_threat() -> None:
    # claimant Skirmish 7-8-9 (24). opponent G5.G6: G4 or G7 (Wedge) beat it. G7 is on the
    # table (flag 3), G4 is in the claimant's hand: still not provable.
    s = build_state("f1=-/R7.O8.Y9:1/G5.G6/ f3=-/G7// h0=G4.B1 h1=P1")
    assert "claim:1" not in legal(s)
    illegal(s, "claim:1", "G4")
    # with G4 and G7 both on the table no Wedge is left, but a green Battalion still outranks
    s = build_state("f1=-/R7.O8.Y9:1/G5.G6/ f3=-/G7.G4// h0=B1 h1=P1")
    assert "claim:1" not in legal(s)  # Battalion G5 G6 + G10 beats a Skirmish


def test_proof_discards_are_visible() -> None:
    # claimant Battalion R2 R9 R10 (21); opponent G5 G6: G4 or G7 would make a Wedge, G10 only
    # a tying Battalion (ties at best go to the claimant)
    s = build_state("f1=-/R2.R9.R10:1/G5.G6/ d0=G4 d1=G7 h0=B1 h1=P1")
    assert "claim:1" in legal(s)
    s = build_state("f1=-/R2.R9.R10:1/G5.G6/ d1=G7 h0=B1 h1=P1")
    assert "claim:1" not in legal(s)
    illegal(s, "claim:1", "G4")


def test_proof_wedge_rank_beats_sum() -> None:
    # claimant Wedge R7 R8 R9 = 24; an opponent Wedge 4-5-6 is only 15: claimable
    s = build_state("f1=-/R7.R8.R9:1/G5.G6/ d1=G7 h0=B1 h1=P1 f3=-/G8.G9.G10:2//")
    assert "claim:1" in legal(s)


def test_proof_unplayed_tactics_in_either_hand_never_block() -> None:
    # the opponent's only way to beat Phalanx 5s would be a Leader; Leaders in hands are ignored
    s = build_state("f1=-/R5.O5.Y5:1/B1.G9/ h0=AL.R1 h1=DA.CC.SB")
    assert "claim:1" in legal(s)


def test_proof_opponents_played_leader_may_copy_a_card_seen_elsewhere() -> None:
    # R8 lies at flag 3; a wild may still take the identity of a card that exists elsewhere
    # (docs/rules.md §2.10)
    s = build_state("f1=-/Y7.Y8.Y9:1/AL.R10/ f3=-/R8// h0=B1 h1=P1 tp=0.1 lead=2")
    # AL as R8 (a copy of the seen R8) + R9 unseen -> Wedge 27 > 24
    assert "claim:1" not in legal(s)


def test_proof_opponents_played_shield_bearer_at_best_value() -> None:
    # opponent SB + B4: SB as B3 or B2..: with B5 unseen -> Wedge 3-4-5 (12) beats Host;
    # claimant Battalion R1 R3 R5 (9) loses to any Wedge
    s = build_state("f1=-/R1.R3.R5:1/SB.B4/ h0=G1 h1=P1 tp=0.1")
    assert "claim:1" not in legal(s)
    # claimant Phalanx 10s (30) beats every SB completion (SB <= 3: Wedge max 3+4+5 = 12)
    s = build_state("f1=-/R10.O10.Y10:1/SB.B4/ h0=G1 h1=P1 tp=0.1")
    assert "claim:1" not in legal(s)  # Wedge (any sum) beats Phalanx
    # claimant Wedge 4-5-6 (15) beats every SB completion (SB <= 3: Wedge at most 3+4+5 = 12)
    s = build_state("f1=-/R4.R5.R6:1/SB.B4/ h0=G1 h1=P1 tp=0.1")
    assert "claim:1" in legal(s)


def test_proof_too_few_unseen_troops_means_the_side_can_never_complete() -> None:
    # the opponent needs two cards, only one troop remains unseen (in the claimant's hand)
    s = build_state("f1=-/R1.O3.Y5:1/B10/ h0=G1 h1=AL rest=d0")
    assert "claim:1" in legal(s)


def test_proof_under_mud_needs_four_and_seven_to_ten_is_unbeatable() -> None:
    s = build_state("f1=-/R7.R8.R9.R10:1/B1.B2.B3/M1 h0=G1 h1=P1 tp=0.1")
    assert "claim:1" in legal(s)
    s = build_state("f1=-/R6.R7.R8.R9:1/B1.B2.B3/M1 h0=G1 h1=P1 tp=0.1")
    assert "claim:1" in legal(s)  # their best is Wedge 1-2-3-4 (10) < 30
    s = build_state("f1=-/R6.R7.R8.R9:1/B7.B8/M1 h0=G1 h1=P1 tp=0.1")
    assert "claim:1" not in legal(s)  # B9 + B10: Wedge 7-8-9-10 (34)
    illegal(s, "claim:1", "B9 B10")
    # four cards needed: a three-card Wedge 8-9-10 is not complete under Mud
    s = build_state("f1=-/R8.R9.R10/B7/M1 h0=G1 h1=P1 tp=0.1")
    illegal(s, "claim:1", "not complete")


def test_fog_and_mud_four_card_sum_with_morale_at_maximum() -> None:
    # Fog + Mud: sums of four cards, Leader 10 CC 8 SB 3
    s = build_state("f1=-/AL.CC.SB.R10:1/B10.O10.Y10/F1M1 h0=G1 h1=P1 tp=3.2 lead=1")
    # claimant 31; opponent 30 + best unseen 10 = 40 > 31
    assert "claim:1" not in legal(s)
    s = build_state("f1=-/AL.CC.SB.R10:1/B10.O10.Y1/F1M1 f2=-/G10.P10// h0=G1 h1=P1 tp=3.2 lead=1")
    # opponent 21 + best unseen 9 = 30 < 31
    assert "claim:1" in legal(s)


# --- §2.15 tactics limit, §2.16 leaders -----------------------------------------------------------------
def test_tactics_limit_counts_guile_and_allows_one_ahead() -> None:
    s = build_state("h0=SC.RE.R1.R2.R3.R4.R5 h1=B1 td=Y1.Y2.Y3.Y4")
    assert "SC" in legal(s)
    act(s, "SC", "scout:troop", "scout:troop", "scout:troop", "return:Y3", "return:Y2")
    assert position(s)["tp"] == "1.0"
    act(s, "B1@1", "draw:troop")
    assert not any(t.startswith("RE:") for t in legal(s))
    illegal(s, "RE:R1>x", "tactics limit")
    assert "pass" not in legal(s)


def test_tactics_limit_equal_counts_allow_a_tactic() -> None:
    s = build_state("f1=-/R1// h0=RE.R2 h1=B1 tp=3.3")
    assert "RE:R1>x" in legal(s)
    s = build_state("f1=-/R1// h0=RE.R2 h1=B1 tp=4.3")
    assert "RE:R1>x" not in legal(s)


def test_one_leader_even_after_redeploying_it_away() -> None:
    s = build_state("f1=-/AL// h0=RE.DA.R2 h1=B1 tp=1.2 lead=1")
    assert not any(t.startswith("DA@") for t in legal(s))
    act(s, "RE:AL>x", "draw:troop")
    act(s, "B1@2", "draw:troop")
    assert not any(t.startswith("DA@") for t in legal(s))
    illegal(s, "DA@3", "leader")


def test_leaders_are_per_player() -> None:
    s = build_state("f1=-/AL// h0=R2 h1=DA.B1 tp=1.0 lead=1 to=1")
    assert "DA@1" in legal(s)


# --- §2.17–§2.18 environment ------------------------------------------------------------------------------
def test_fog_and_mud_on_unclaimed_flags_only_including_both_sides_complete() -> None:
    s = build_state("f1=-/R1.R2.R3:1/B4.B5.B6:2/ f2=0/O1.O2.O3:3// h0=FO.MU.G1 h1=P1")
    opts = legal(s)
    assert {"FO@1", "MU@1", "FO@3", "MU@9"} <= opts
    assert "FO@2" not in opts and "MU@2" not in opts
    illegal(s, "FO@2", "claimed")


def test_fog_on_complete_sides_flips_the_winner() -> None:
    # Wedge 1-2-3 beats Host 10+10+9 normally; under Fog, 6 < 29
    s = build_state("f1=-/R1.R2.R3:1/B10.O10.G9:2/ h0=G1 h1=FO.P1 to=1")
    act(s, "FO@1")
    assert "claim:1" in legal(s)  # before the draw
    act(s, "claim:1")
    assert claimed(s)[0] == 1


def test_fog_and_mud_on_the_same_flag_by_different_players() -> None:
    s = build_state("f1=-/R1/B1/M1 h0=FO.G1 h1=P1 tp=0.1")
    assert "FO@1" in legal(s)
    act(s, "FO@1")
    assert table(s)["flags"][0]["capacity"] == 4 and table(s)["flags"][0]["fog"]


def test_environment_cannot_be_redeployed_or_deserted_by_default() -> None:
    s = build_state("f1=-/R1/B1/F1 f2=-//P2/M1 h0=RE.DE.TR.G1 h1=P1 tp=0.2")
    assert not any(t.startswith(("RE:FO", "RE:MU", "DE:FO", "DE:MU", "TR:FO", "TR:MU")) for t in legal(s))


# --- §2.19 Scout --------------------------------------------------------------------------------------
def test_scout_draws_one_at_a_time_following_what_is_left() -> None:
    s = build_state("h0=SC.R1.R2.R3.R4.R5.R6 h1=B1 td=G1 xd=AL.DA rest=d1")
    act(s, "SC")
    assert legal(s) == {"scout:troop", "scout:tactics"}
    act(s, "scout:troop")  # troop deck now empty
    assert legal(s) == {"scout:tactics"}
    illegal(s, "scout:troop")
    act(s, "scout:tactics", "scout:tactics")
    assert hand_size(s, 0) == 9 and phase(s) == "return"
    # any two cards of the whole hand, not only the drawn ones
    assert legal(s) == {f"return:{x}" for x in ("R1", "R2", "R3", "R4", "R5", "R6", "G1", "AL", "DA")}
    act(s, "return:R6", "return:DA")
    assert deck(s, "td") == ["R6"] and deck(s, "xd") == ["DA"]
    assert s.current_player() == 1 and phase(s) == "play"  # no normal draw after Scout
    assert hand_size(s, 0) == 7


def test_scout_no_claims_and_no_plays_during_its_draws_and_returns() -> None:
    s = build_state(f"{WIN1} h0=SC.R1.R2.R3.R4.R5.R6 h1=B2 td=G1.G2.G3")
    act(s, "SC")
    assert "claim:1" in legal(s)  # before_draw: still before any draw
    act(s, "scout:troop")
    assert legal(s) <= {"scout:troop", "scout:tactics"}
    illegal(s, "R1@2")
    illegal(s, "claim:1")
    act(s, "scout:troop", "scout:troop")
    illegal(s, "claim:1")
    illegal(s, "draw:troop")
    act(s, "return:G1")
    assert s.current_player() == 0 and phase(s) == "return"
    illegal(s, "end")
    act(s, "return:G2")
    assert s.current_player() == 1


def test_scout_returns_to_the_top_in_order_last_returned_on_top() -> None:
    s = build_state("h0=SC.R1.R2.R3.R4.R5.R6 h1=B1 td=G1.G2.G3.G4")
    act(s, "SC", "scout:troop", "scout:troop", "scout:troop", "return:R1", "return:R2")
    # the next two troop draws are R2 then R1
    act(s, "B1@1", "draw:troop")
    assert "R2" in hand(s, 1)
    act(s, "R3@2", "draw:troop")
    assert "R1" in hand(s, 0)


def test_scout_with_one_card_left_draws_it_and_returns_nothing() -> None:
    s = build_state("h0=SC.R1.R2.R3.R4.R5.R6 h1=B1 xd=AL rest=d1")
    act(s, "SC", "scout:tactics")
    assert s.current_player() == 1 and hand_size(s, 0) == 7 and not deck(s, "xd") and not deck(s, "td")


def test_scout_with_two_cards_left_returns_one() -> None:
    s = build_state("h0=SC.R1.R2.R3.R4.R5.R6 h1=B1 td=G1 xd=AL rest=d1")
    act(s, "SC", "scout:troop", "scout:tactics")
    assert phase(s) == "return" and hand_size(s, 0) == 8
    act(s, "return:AL")
    assert s.current_player() == 1 and deck(s, "xd") == ["AL"] and hand_size(s, 0) == 7


def test_scout_not_playable_with_both_decks_empty_but_pass_when_no_troop() -> None:
    s = build_state("h0=SC h1=B1 rest=d1")
    assert legal(s) == {"pass"}


def test_schotten_totten_headhunter_returns_to_the_bottom() -> None:
    s = build_state("ruleset=schotten-totten-tactics h0=SC.R1.R2.R3.R4.R5.R6 h1=B1 td=G1.G2.G3.G4 xd=AL.DA")
    act(s, "SC", "scout:troop", "scout:troop", "scout:tactics", "return:R1", "return:AL")
    assert deck(s, "td")[-1] == "R1" and deck(s, "xd")[-1] == "AL"  # at the bottom
    assert deck(s, "td")[0] == "G3" and deck(s, "xd")[0] == "DA"
    assert s.current_player() == 1


# --- §2.6 pass, §2.7 draw, hand size --------------------------------------------------------------------
def test_pass_when_every_own_slot_is_full_and_tactics_remain_playable() -> None:
    full = " ".join(f"f{i}=-/{col}1.{col}2.{col}4:{i}//" for i, col in zip(range(1, 7), "ROYGBP", strict=True))
    s = build_state(f"{full} f7=-/R5.R6.R7:7// f8=-/O5.O6.O7:8// f9=-/Y5.Y6.Y7:9/B9/ h0=G8.FO.DE h1=P9 n=9")
    opts = legal(s)
    assert "pass" in opts and "FO@1" in opts and "DE:B9" in opts
    assert not any(t.startswith("G8@") for t in opts)


def test_no_pass_with_a_playable_troop_even_if_only_one_slot() -> None:
    full = " ".join(f"f{i}=-/{col}1.{col}2.{col}4:{i}//" for i, col in zip(range(1, 7), "ROYGBP", strict=True))
    s = build_state(f"{full} f7=-/R5.R6.R7:7// f8=-/O5.O6.O7:8// f9=-/Y5.Y6// h0=G8 h1=P9 n=9")
    assert legal(s) == {"G8@9"}


def test_only_pass_with_unplayable_tactics() -> None:
    s = build_state("f1=-/AL// h0=DA h1=B1 tp=1.0 lead=1")
    assert legal(s) == {"pass"}
    s = build_state("h0=FO.MU h1=B1 tp=1.0")
    assert legal(s) == {"pass"}


def test_draw_from_either_deck_then_the_other_then_end() -> None:
    s = build_state("h0=R1.R2 h1=B1 td=Y1 xd=AL rest=d1")
    act(s, "R1@1")
    assert legal(s) == {"draw:troop", "draw:tactics"}
    act(s, "draw:tactics")
    assert "AL" in hand(s, 0)
    s = build_state("h0=R1.R2 h1=B1 xd=AL rest=d1")
    act(s, "R1@1")
    assert legal(s) == {"draw:tactics"}
    illegal(s, "draw:troop")
    s = build_state("h0=R1.R2 h1=B1 rest=d1")
    act(s, "R1@1")
    assert legal(s) == {"end"}


def test_tactics_deck_may_be_chosen_even_when_no_tactic_is_playable() -> None:
    s = build_state("h0=R1.R2.R3.R4.R5.R6.R7 h1=B1 td=Y1 xd=AL tp=1.0")
    act(s, "R1@1")
    assert "draw:tactics" in legal(s)


@pytest.mark.parametrize(("ruleset", "size"), [("battleline", 7), ("battleline-basic", 7),
                                               ("schotten-totten", 6), ("schotten-totten-tactics", 7)])
def test_hand_size_is_refilled_and_never_exceeded(ruleset: str, size: int) -> None:
    from frontlines.games import new_state

    s = new_state(ruleset, seed=3)
    assert isinstance(s, BattleLineState)
    assert hand_size(s, 0) == hand_size(s, 1) == size
    assert table(s)["hand_tactics"] == [0, 0]  # no tactics in an opening hand
    rng = random.Random(5)
    for _ in range(120):
        if s.is_terminal():
            break
        p = s.current_player()
        assert p is not None
        if phase(s) == "play" and deck(s, "td"):
            assert hand_size(s, p) == size
        s.apply(rng.choice(s.legal_actions()))
        if phase(s) not in ("scout", "return"):
            assert hand_size(s, 0) <= size and hand_size(s, 1) <= size


# --- §2.14 stall rule (b) -----------------------------------------------------------------------------
def test_stall_rule_b_requires_empty_hand_and_both_decks_empty() -> None:
    # opponent hand empty but a deck still holds a card: not final, B3 threat blocks
    s = build_state("f1=-/R5.O5.Y5:1/B1.B2/ h0=G1 h1= td=B3 rest=d0")
    assert "claim:1" not in legal(s)
    s = build_state("f1=-/R5.O5.Y5:1/B1.B2/ h0=G1 h1=B3 rest=d0")
    assert "claim:1" not in legal(s)  # the opponent holds B3 in hand
    s = build_state("f1=-/R5.O5.Y5:1/B1.B2/ h0=G1 h1= rest=d0 f2=-//B3/")
    assert "claim:1" in legal(s)


# --- §2.8 formations through claims ------------------------------------------------------------------------
def test_formation_ranking_through_complete_claims() -> None:
    ladder = [
        "R4.R5.R6",   # Wedge 15
        "O2.Y2.G2",   # Phalanx 6
        "B1.B3.B9",   # Battalion 13
        "P7.R8.O9",   # Skirmish 24
        "Y10.G10.B8",  # Host 28
    ]
    for stronger, weaker in itertools.combinations(ladder, 2):
        s = build_state(f"f1=-/{stronger}:2/{weaker}:1/ h0=G1 h1=P1")  # stronger completed second
        assert "claim:1" in legal(s), (stronger, weaker)
        s = build_state(f"f1=-/{weaker}:1/{stronger}:2/ h0=G1 h1=P1")
        assert "claim:1" not in legal(s), (stronger, weaker)


def test_no_wraparound_run_and_sum_breaks_rank_ties() -> None:
    # 9-10-1 red is a Battalion (20), not a Wedge: loses to Wedge 1-2-3
    s = build_state("f1=-/R9.R10.R1:2/B1.B2.B3:1/ h0=G1 h1=P1")
    assert "claim:1" not in legal(s)
    # Skirmish 8-9-10 (27) beats Skirmish 7-8-9 (24) regardless of completion order
    s = build_state("f1=-/R8.O9.Y10:2/B7.G8.P9:1/ h0=G1 h1=P1")
    assert "claim:1" in legal(s)


def test_wild_combinations() -> None:
    # Leader + CC + SB = Battalion 21: beats Skirmish 8-9-10 (27)
    s = build_state("f1=-/AL.CC.SB:2/R8.O9.Y10:1/ h0=G1 h1=P1 tp=3.3 lead=1")
    assert "claim:1" in legal(s)
    # ... and loses to Battalion 22 (B3 B9 B10)
    s = build_state("f1=-/AL.CC.SB:1/B3.B9.B10:2/ h0=G1 h1=P1 tp=3.3 lead=1")
    assert "claim:1" not in legal(s)
    # R8 + CC + Leader: Phalanx of 8s (24) beats Battalion
    s = build_state("f1=-/R8.CC.AL:2/B3.B9.B10:1/ h0=G1 h1=P1 tp=2.2 lead=1")
    assert "claim:1" in legal(s)


# --- hidden information ----------------------------------------------------------------------------------
def test_views_never_show_the_opponents_hand_or_scout_returns() -> None:
    # Two games that differ in player 0's hand and in the troop it put back with Scout:
    # player 1 and spectators must get the same view (every field) from both.
    games = []
    for last, returned in (("R6", "R1"), ("R7", "R3")):
        g = build_state(f"h0=SC.R1.R2.R3.R4.R5.{last} h1=B1.B2.B3.B4.B5.B6.B7 td=G1.G2.G3.G4 xd=AL.DA")
        act(g, "SC", "scout:troop", "scout:tactics", "scout:troop", f"return:{returned}", "return:AL")
        games.append(g)
    s = games[0]
    for viewer in (1, None):
        a, b = (g.view(viewer) for g in games)
        assert a.to_notation() == b.to_notation() and a.to_dict() == b.to_dict()
        assert pickle.dumps(a) == pickle.dumps(b)
        assert a.to_dict()["hands"][0] is None
        assert a.log[-2:] == ["return:?", "return:?"]
        # which decks got cards is public: the top of each is marked as known to player 0
        assert "td=#46,0~0 " in a.to_notation() and a.to_notation().endswith("xd=#9,0~0")
    v0 = s.view(0)
    assert v0.log[-2:] == ["return:R1", "return:AL"]
    assert "0~0=R1" in v0.to_notation() and "0~0=AL" in v0.to_notation()
    assert s.view(1).to_dict()["hands"][1] is not None


def test_samples_after_scout_are_consistent_with_every_view() -> None:
    s = build_state("h0=SC.R1.R2.R3.R4.R5.R6 h1=B1.B2.B3.B4.B5.B6.B7 td=G1.G2.G3.G4 xd=AL.DA")
    act(s, "SC", "scout:troop", "scout:troop", "scout:troop", "return:R1", "return:R2")
    for viewer in (0, 1, None):
        v = s.view(viewer)
        for k in range(20):
            sample = v.sample(random.Random(k))
            assert sample.view(viewer).to_notation() == v.to_notation()
            assert sorted(sample.legal_actions()) == sorted(s.legal_actions()) or viewer != s.current_player()
            if viewer == 0:
                assert deck(sample, "td")[:2] == ["R2", "R1"]
            if viewer == 1:
                assert hand(sample, 1) == hand(s, 1)
    # player 1 draws R2 (top): player 0 knows it; the view of player 1 marks it as known
    act(s, "B1@1", "draw:troop")
    v1 = s.view(1)
    own = position_of_view(v1)["h1"].split(".")
    assert [card for card in own if "~" in card] == ["R2~0"]  # player 0 knows where R2 is
    for k in range(10):
        sample = s.view(0).sample(random.Random(k))
        assert "R2" in hand(sample, 1)
        assert deck(sample, "td")[0] == "R1"


# --- an independent proof oracle (§2.8–§2.12) on random positions ---------------------------------------
_RANKS = ("wedge", "phalanx", "battalion", "skirmish", "host")


def _oracle_score(cards: list[tuple[int, int]], fog: bool) -> tuple[int, int]:
    """(rank 5..1, or 0 under Fog; sum) of concrete (colour, value) cards, no wilds."""
    total = sum(v for _, v in cards)
    if fog:
        return (0, total)
    values = sorted(v for _, v in cards)
    one_colour = len({col for col, _ in cards}) == 1
    run = all(b == a + 1 for a, b in itertools.pairwise(values))
    same = len(set(values)) == 1
    rank = 5 if one_colour and run else 4 if same else 3 if one_colour else 2 if run else 1
    return (rank, total)


def _oracle_best(codes: list[str], fog: bool, schotten: bool = False) -> tuple[int, int]:
    """Best score of a side of card codes, wilds tried at every colour and value."""
    top = 9 if schotten else 10
    options: list[list[tuple[int, int]]] = []
    for code in codes:
        if code in ("AL", "DA"):
            options.append([(col, v) for col in range(6) for v in range(1, top + 1)])
        elif code == "CC":
            options.append([(col, 7 if schotten else 8) for col in range(6)])
        elif code == "SB":
            options.append([(col, v) for col in range(6) for v in (1, 2, 3)])
        else:
            card = c(code)
            options.append([(card // 10, card % 10 + 1)])
    return max(_oracle_score(list(combo), fog) for combo in itertools.product(*options))


def _code(card: int) -> str:
    return "ROYGBP"[card // 10] + str(card % 10 + 1)


@pytest.mark.parametrize("ruleset", ["battleline", "schotten-totten-tactics"])
@pytest.mark.parametrize("seed", range(6))
def test_claims_agree_with_a_brute_force_proof_oracle(seed: int, ruleset: str) -> None:
    rng = random.Random(seed)
    schotten = ruleset != "battleline"
    all_troops = [x for x in range(60) if not (schotten and x % 10 == 9)]
    checked = 0
    while checked < 40:
        mud = rng.random() < 0.25
        fog = rng.random() < 0.3
        cap = 4 if mud else 3
        troops = all_troops[:]
        rng.shuffle(troops)
        mine = [_code(x) for x in troops[:cap]]
        if rng.random() < 0.3:
            mine[rng.randrange(cap)] = rng.choice(["CC", "SB", "AL"])
        n_theirs = rng.randrange(1, cap + 1)
        mine_first = rng.random() < 0.5
        theirs = [_code(x) for x in troops[cap:cap + n_theirs]]
        if rng.random() < 0.2:
            theirs[0] = rng.choice(["CC", "SB"]) if "CC" not in mine and "SB" not in mine else "DA"
        # many troops visible elsewhere keep the unseen pool small (a fast oracle)
        k = cap - n_theirs
        n_seen = rng.randrange(25, 46) if k >= 2 else rng.randrange(0, 46)
        t_mine, t_theirs = (":1", ":2") if mine_first else (":3", ":2")
        t_theirs = t_theirs if k == 0 else ""
        seen = [_code(x) for x in troops[cap + n_theirs:cap + n_theirs + n_seen]]
        pool = troops[cap + n_theirs + n_seen:]
        hand0 = [_code(x) for x in pool[:rng.randrange(0, min(4, len(pool)) + 1)]]
        half = len(seen) // 2
        env = ("F1" if fog else "") + ("M1" if mud else "")
        tactics = sum(x in ("CC", "SB", "AL", "DA") for x in mine + theirs) + fog + mud
        frag = (f"ruleset={ruleset} opts=claim_timing:before_draw f1=-/{'.'.join(mine)}{t_mine}/{'.'.join(theirs)}{t_theirs}/{env} d0={'.'.join(seen[:half])} "
                f"d1={'.'.join(seen[half:])} h0={'.'.join(hand0)} h1= tp={tactics}.{tactics} "
                f"lead={(1 if 'AL' in mine else 0) | (2 if 'DA' in theirs else 0)}")
        s = build_state(frag)
        if not deck(s, "td"):
            continue
        visible = {x for x in mine + theirs + seen}
        unseen = [_code(x) for x in all_troops if _code(x) not in visible]
        best_mine = _oracle_best(mine, fog, schotten)
        expected = True
        if k == 0:
            best_theirs = _oracle_best(theirs, fog, schotten)
            expected = best_mine > best_theirs or (best_mine == best_theirs and mine_first)
        for extra in itertools.combinations(unseen, k) if k else ():
            if _oracle_best(theirs + list(extra), fog, schotten) > best_mine:
                expected = False
                break
        assert ("claim:1" in legal(s)) == expected, frag
        checked += 1


# --- more guile, environment and timing edge cases --------------------------------------------------------
def test_redeploy_into_the_fourth_slot_under_mud_completes_and_loses_a_tie() -> None:
    # flag 2 has Mud; player 1 completed a Host B1 O2 Y3 G9 (15) first
    base = "n=5 f1=-/R3.R5// f2=-/R2.O4.Y6/B1.O2.Y3.G9:4/M1 h0=RE.G1 h1=P1.P2 tp=0.1 td=Y1.Y2.Y7"
    s = build_state(base.replace("O4.Y6", "O3.Y4"))
    act(s, "RE:R5>2")  # R2 O3 Y4 R5: Skirmish 2-5 (14) beats the Host
    assert completed(s, 2, 0) == 6 and table(s)["flags"][1]["capacity"] == 4
    assert "claim:2" in legal(s)
    s = build_state(base)
    act(s, "RE:R3>2")  # R2 O4 Y6 R3: Host 15, a tie, and the Redeploy arrived last
    assert completed(s, 2, 0) == 6
    assert "claim:2" not in legal(s)
    act(s, "draw:troop")
    assert "claim:2" in legal(s)  # player 1 completed first


def test_redeploy_and_deserter_take_morale_cards_but_never_from_claimed_flags() -> None:
    s = build_state("f1=-/CC.R1/SB/ f2=0/AL.R2.R3:1/DA/ h0=RE.G1 h1=P1 tp=2.2 lead=3")
    opts = legal(s)
    assert "RE:CC>3" in opts and "RE:CC>x" in opts and "RE:R1>x" in opts
    assert not any(t.startswith(("RE:AL", "RE:R2", "RE:R3")) for t in opts)
    assert not any(t.endswith(">2") for t in opts)
    s = build_state("f1=-/CC.R1/SB/ f2=0/AL.R2.R3:1/DA/ h0=DE.G1 h1=P1 tp=2.2 lead=3")
    opts = {t for t in legal(s) if t.startswith("DE:")}
    assert opts == {"DE:SB"}  # DA sits at the claimed flag 2


def test_guile_without_a_target_is_not_playable() -> None:
    s = build_state("f2=0/R2.R3.R4:1/B1/ h0=RE.DE.G1 h1=P1")
    assert not any(t.startswith(("RE:", "DE:")) for t in legal(s))
    assert legal(s) == {f"G1@{f}" for f in (1, 3, 4, 5, 6, 7, 8, 9)}


def test_deserter_then_claim_by_proof_in_the_same_turn() -> None:
    # player 1's B9 B10 threaten a Wedge 8-9-10 (27); player 0 deserts B10, now a public discard
    s = build_state("f1=-/R7.R8.R9:1/B9.B10/ h0=DE.G1 h1=P1 tp=0.0")
    assert "claim:1" not in legal(s)
    act(s, "DE:B10")
    assert table(s)["discards"][1] == ["B10"]
    # B9 + two unseen cards make at best a blue Wedge 7-8-9 (24): a tie, won by the claimant
    assert "claim:1" in legal(s)


def test_fog_on_an_incomplete_flag_changes_the_proof() -> None:
    # Wedge 5-6-7 (18) against G1 G9: the best completion is a Battalion (G10: 20), a lower rank
    s = build_state("f1=-/R5.R6.R7:1/G1.G9/ h0=G2 h1=FO.P1")
    assert "claim:1" in legal(s)
    # after Fog only sums count: G1 + G9 + any 10 = 20 > 18
    s = build_state("f1=-/R5.R6.R7:1/G1.G9/ h0=G2 h1=FO.P1 to=1")
    act(s, "FO@1", "draw:troop")
    assert table(s)["flags"][0]["fog"] and "claim:1" not in legal(s)
    illegal(s, "claim:1", "sum")


@pytest.mark.parametrize("timing", ["before_draw", "after_play", "start_of_turn"])
def test_tie_completed_second_opponent_claims_in_its_own_window(timing: str) -> None:
    s = build_state(f"opts=claim_timing:{timing} n=3 f1=-/R4.O5/B4.Y5.G6:2/ h0=P6.G1 h1=P1.P2 td=Y1.Y2.Y3")
    act(s, "P6@1")
    assert "claim:1" not in legal(s)
    act(s, "draw:troop")
    if timing == "after_play":
        assert "claim:1" not in legal(s)
        act(s, "P1@2")
    assert "claim:1" in legal(s)
    act(s, "claim:1")
    assert claimed(s)[0] == 1


def test_breakthrough_and_envelopment_at_once_is_a_win() -> None:
    s = build_state("f1=0/R1.R2.R3:1// f2=0/O1.O2.O3:2// f5=0/Y1.Y2.Y3:3// f7=0/G1.G2.G3:4// "
                    "f3=-/Y8.Y9.Y10:5/B1/ h0=R4 h1=O4")
    act(s, "claim:3")
    out = s.outcome()
    assert out is not None and out.winner == 0 and out.reason in ("breakthrough", "envelopment")


def test_scout_turn_claim_before_its_first_draw_can_win() -> None:
    s = build_state("f1=0/R1.R2.R3:1// f2=0/O1.O2.O3:2// f3=-/Y8.Y9.Y10:3/B1/ h0=SC.R4 h1=O4")
    act(s, "SC")
    assert "claim:3" in legal(s)
    act(s, "claim:3")
    out = s.outcome()
    assert out is not None and out.winner == 0 and s.legal_actions() == []


def test_claims_with_an_empty_hand_and_empty_decks() -> None:
    s = build_state(f"{WIN1} h0= h1=P1 rest=d1")
    assert legal(s) == {"claim:1", "pass"}
    act(s, "pass")
    assert legal(s) == {"claim:1", "end"}


def test_scout_returned_card_known_to_the_claimant_still_counts_as_unseen() -> None:
    # player 0 puts B3 back on the troop deck: it is not on the table, so it still blocks
    s = build_state("f1=-/R5.O5.Y5:1/B1.B2/ h0=SC.B3.G1.G2.G3.G4.G6 h1=P1 td=P2.P3.P4")
    act(s, "SC", "scout:troop", "scout:troop", "scout:troop", "return:B3", "return:P2")
    act(s, "P1@9", "draw:troop")  # player 1 draws P2 (top)
    assert "claim:1" not in legal(s)


def test_views_after_an_opponent_scout_show_only_deck_marks() -> None:
    s = build_state("h0=R1.R2.R3.R4.R5.R6.R7 h1=SC.B1.B2.B3.B4.B5.B6 to=1 td=G1.G2.G3.G4 xd=AL.DA")
    act(s, "SC", "scout:troop", "scout:tactics", "scout:troop", "return:B6", "return:G2")
    v0 = s.view(0)
    text = v0.to_notation()
    tokens = dict(t.split("=", 1) for t in text.split()[1:])
    assert tokens["td"].startswith(f"#{len(deck(s, 'td'))},0~1,1~1")
    assert "=" not in tokens["td"] and tokens["xd"] == f"#{len(deck(s, 'xd'))}"
    assert tokens["h1"].startswith("?") and "B" not in tokens["h1"]
    d = v0.to_dict()
    assert d["hands"][1] is None and d["hand_sizes"][1] == 7 and d["hand_tactics"][1] == 1
    assert d["known"] == []
    # samples give player 1 some hand, and keep the two returned cards at the top for player 1
    for k in range(10):
        sample = v0.sample(random.Random(k))
        assert sample.view(0).to_notation() == text
        top = position(sample)["td"].split(".")
        assert all(card.endswith("~1") for card in top[:2]) and "~" not in ".".join(top[2:])
        assert hand(sample, 0) == hand(s, 0)
    v1 = s.view(1).to_notation()
    assert "0~1=G2" in v1 and "1~1=B6" in v1


def test_pass_with_a_short_hand_still_draws() -> None:
    # hand of one unplayable tactic (tactics limit), decks not empty: pass, then draw as usual
    s = build_state("h0=FO h1=B1 tp=1.0 td=Y1.Y2")
    assert legal(s) == {"pass"}
    act(s, "pass")
    assert legal(s) == {"draw:troop", "draw:tactics"}
    illegal(s, "end", "must draw")


def test_undo_and_clones_never_reuse_a_stale_proof() -> None:
    # B3 in player 0's hand blocks the proof; once played it is public and the claim holds
    s = build_state("f1=-/R5.O5.Y5:1/B1.B2/ h0=B3.G1 h1=P1 td=Y1.Y2")
    assert "claim:1" not in legal(s)
    clone = s.clone()
    s.push(s.parse_action("B3@2"))
    assert "claim:1" in legal(s)
    s.pop()
    assert "claim:1" not in legal(s)  # B3 is back in hand: unseen again
    assert "claim:1" not in legal(clone)
    act(clone, "B3@3")
    assert "claim:1" in legal(clone) and "claim:1" not in legal(s)


@pytest.mark.parametrize("mask", ["0", "511"])
def test_medieval_with_plain_battlefields_plays_exactly_like_battle_line(mask: str) -> None:
    # docs/rules.md §5: same rules as Battle Line; the plain side has no effect
    from frontlines.games import new_state
    from frontlines.games.battleline.notation import parse_state

    for seed in range(3):
        s = new_state("battleline", seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            text = s.to_notation().replace("ruleset=battleline", f"ruleset=medieval bf=123456789:{mask}", 1)
            m = parse_state(text)
            assert isinstance(m, BattleLineState)
            assert sorted(m.legal_actions()) == sorted(s.legal_actions())
            s.apply(rng.choice(s.legal_actions()))


def test_scout_returns_onto_an_empty_deck_views_and_samples() -> None:
    s = build_state("h0=SC.R1.R2.R3.R4.R5.R6 h1=B1.B2.B3.B4.B5.B6.B7 xd=AL.DA.CC rest=d1")
    act(s, "SC", "scout:tactics", "scout:tactics", "scout:tactics", "return:R1", "return:R2")
    assert deck(s, "td") == ["R2", "R1"] and deck(s, "xd") == []
    assert hand_size(s, 0) == 7
    v1 = s.view(1)
    assert v1.to_notation().split("td=")[1].split()[0] == "#2,0~0,1~0"
    for viewer in (0, 1, None):
        v = s.view(viewer)
        for k in range(5):
            sample = v.sample(random.Random(k))
            assert sample.view(viewer).to_notation() == v.to_notation()
            if viewer == 0:
                assert deck(sample, "td") == deck(s, "td")
            elif viewer == 1:  # any two of player 0's hidden troops may have gone back
                assert set(deck(sample, "td")) <= {f"R{v}" for v in range(1, 7)}
    # player 1 must draw the troop deck (the tactics deck is empty)
    act(s, "B1@1")
    assert legal(s) == {"draw:troop"}
    act(s, "draw:troop")
    assert position_of_view(s.view(0))["h1"] == "?6.0.0.R2"  # player 0 knows R2 is there


def test_mud_slots_for_redeploy_and_traitor() -> None:
    # flag 2 under Mud: player 0 has 3 cards there (a free fourth slot); flag 3 is full (3/3)
    s = build_state("n=5 f1=-/R1/B9/ f2=-/O1.O2.O3/P5/M1 f3=-/Y1.Y2.Y3:2// h0=RE.TR.G1 h1=P1 tp=2.2")
    opts = legal(s)
    assert "RE:R1>2" in opts and "RE:R1>3" not in opts
    assert "TR:B9>2" in opts and "TR:B9>3" not in opts and "TR:P5>2" in opts
    illegal(s, "RE:R1>3", "full")
    act(s, "TR:P5>2")
    assert side(s, 2, 0) == ["O1", "O2", "O3", "P5"] and completed(s, 2, 0) == 6
