"""Rules audit, Schotten Totten (docs/rules.md §4): values 1-9, Spy 7, Joker 1-9, 7-8-9 unbeatable,
claims after the play by default, hands of 6 (7 with tactics), Headhunter under the decks."""

from __future__ import annotations

import random

import pytest

from frontlines.core.errors import IllegalAction, NotationError
from frontlines.games import new_state
from frontlines.games.battleline.cards import parse_card
from frontlines.games.battleline.notation import build_state
from frontlines.games.battleline.state import BattleLineState

from .helpers import act, legal

ST = "ruleset=schotten-totten"
STT = "ruleset=schotten-totten-tactics"
NOW = "opts=claim_timing:before_draw"  # to ask about claims before a play


def c(code: str) -> int:
    return parse_card(code)


@pytest.mark.parametrize(("ruleset", "hand", "tactics"), [("schotten-totten", 6, 0),
                                                         ("schotten-totten-tactics", 7, 10)])
def test_deck_of_54_values_one_to_nine_and_hand_size(ruleset: str, hand: int, tactics: int) -> None:
    s = new_state(ruleset, seed=1)
    assert isinstance(s, BattleLineState)
    cards = s.tdeck + [x for p in (0, 1) for x in range(70) if s.hands[p] >> x & 1]
    troops = [x for x in cards if x < 60]
    assert len(troops) == 54 and all(x % 10 != 9 for x in troops)  # no value 10
    assert len(s.xdeck) == tactics
    assert s.hand_count(0) == s.hand_count(1) == hand
    act(s, s.action_to_text(next(a for a in s.legal_actions() if a < 540)))
    assert legal(s) == ({"draw:troop"} if not tactics else {"draw:troop", "draw:tactics"})
    act(s, "draw:troop")
    assert s.hand_count(1 - s.to_move) == hand


def test_a_ten_does_not_exist() -> None:
    with pytest.raises(NotationError):
        build_state(f"{ST} h0=R10")


def test_claims_after_the_play_by_default_in_both_rulesets() -> None:
    for ruleset in (ST, STT):
        s = build_state(f"{ruleset} f1=-/R7.R8.R9:1/B1/ h0=G1 h1=P1")
        assert "claim:1" not in legal(s)
        with pytest.raises(IllegalAction, match="claim timing"):
            act(s, "claim:1")
        act(s, "G1@2")
        assert "claim:1" in legal(s)


def test_seven_eight_nine_colour_run_is_unbeatable_but_six_seven_eight_is_not() -> None:
    s = build_state(f"{ST} {NOW} f1=-/R7.R8.R9:1/B8/ h0=G1 h1=P1")
    assert "claim:1" in legal(s)  # B7 B9 only ties (24), and the opponent would complete last
    s = build_state(f"{ST} {NOW} f1=-/R6.R7.R8:1/B8/ h0=G1 h1=P1")
    assert "claim:1" not in legal(s)  # B7 B9: colour run 24 > 21
    # the same position in Battle Line is not provable: B9 B10 make 27
    s = build_state(f"{NOW} f1=-/R7.R8.R9:1/B8/ h0=G1 h1=P1")
    assert "claim:1" not in legal(s)


def test_spy_is_a_seven() -> None:
    # Spy + R8 + R9 = colour run 7-8-9, unbeatable
    s = build_state(f"{STT} {NOW} f1=-/CC.R8.R9:1/B1/ h0=G1 h1=P1 tp=1.0")
    assert "claim:1" in legal(s)
    # Spy + R6 + R8: colour run 6-7-8 (21) in Schotten Totten; in Battle Line CC is 8 (a Battalion)
    s = build_state(f"{STT} f1=-/CC.R6.R8:1/B5.O6.Y7:2/ h0=G1 h1=P1 tp=1.0 {NOW}")
    assert "claim:1" in legal(s)  # colour run beats the run 5-6-7
    s = build_state(f"f1=-/CC.R6.R8:1/B5.O6.Y7:2/ h0=G1 h1=P1 tp=1.0 {NOW}")
    assert "claim:1" in legal(s)  # Battle Line: a Battalion also beats a Skirmish
    s = build_state(f"f1=-/CC.R6.R8:1/B5.B6.B7:2/ h0=G1 h1=P1 tp=1.0 {NOW}")
    assert "claim:1" not in legal(s)  # Battle Line: Battalion 22 loses to a Wedge
    s = build_state(f"{STT} f1=-/CC.R6.R8:1/B5.B6.B7:2/ h0=G1 h1=P1 tp=1.0 {NOW}")
    assert "claim:1" in legal(s)  # ST: colour run 21 beats colour run 18


def test_joker_is_at_most_nine() -> None:
    # Joker + R8 + R9 = colour run 7-8-9 (24), never 8-9-10; B7 B8 B9 completed first wins the tie
    s = build_state(f"{STT} {NOW} f1=-/AL.R8.R9:2/B7.B8.B9:1/ h0=G1 h1=P1 tp=1.0 lead=1")
    assert "claim:1" not in legal(s)
    s = build_state(f"{STT} {NOW} f1=-/AL.R8.R9:1/B7.B8.B9:2/ h0=G1 h1=P1 tp=1.0 lead=1")
    assert "claim:1" in legal(s)


def test_one_joker_per_player() -> None:
    s = build_state(f"{STT} f1=-/AL// h0=DA.R1 h1=B1 tp=1.1 lead=1")
    assert not any(t.startswith("DA@") for t in legal(s))


def test_blind_mans_bluff_sums_with_elite_troops_at_maximum() -> None:
    # Joker 9 + Spy 7 + Shield 3 = 19 under Fog
    s = build_state(f"{STT} {NOW} f1=-/AL.CC.SB:1/B9.O1/F1 h0=G1 h1=P1 tp=4.3 lead=1")
    assert "claim:1" in legal(s)  # 9 + 1 + 9 = 19 at best: a tie the opponent would complete last
    s = build_state(f"{STT} {NOW} f1=-/AL.CC.SB:1/B9.O2/F1 h0=G1 h1=P1 tp=4.3 lead=1")
    assert "claim:1" not in legal(s)  # 9 + 2 + 9 = 20


def test_mud_fight_four_cards_and_six_to_nine_unbeatable() -> None:
    s = build_state(f"{STT} {NOW} f1=-/R6.R7.R8.R9:1/B1/M1 h0=G1 h1=P1 tp=0.1")
    assert "claim:1" in legal(s)
    s = build_state(f"{STT} {NOW} f1=-/R5.R6.R7.R8:1/B9/M1 h0=G1 h1=P1 tp=0.1")
    assert "claim:1" not in legal(s)  # B6 B7 B8 B9 is 30 > 26


def test_headhunter_bottom_returns_in_views_and_samples() -> None:
    s = build_state(f"{STT} h0=SC.R1.R2.R3.R4.R5.R6 h1=B1.B2.B3.B4.B5.B6.B7 td=G1.G2.G3.G4 xd=AL.DA")
    act(s, "SC", "scout:troop", "scout:troop", "scout:troop", "return:R1", "return:G2")
    assert s.tdeck[:2] == [c("G2"), c("R1")]  # under the deck, the last returned lowest
    n = len(s.tdeck)
    v0, v1 = s.view(0), s.view(1)
    assert v0.tmarks == ((n - 2, 1, c("R1")), (n - 1, 1, c("G2")))
    assert v1.tmarks == ((n - 2, 1, -1), (n - 1, 1, -1))
    for viewer, v in ((0, v0), (1, v1), (None, s.view(None))):
        for k in range(10):
            sample = v.sample(random.Random(k))
            assert sample.view(viewer).to_notation() == v.to_notation()
            if viewer == 0:
                assert sample.tdeck[:2] == [c("G2"), c("R1")]
    # the next troop draw is not a returned card
    act(s, "B1@1", "draw:troop")
    assert not s.hands[1] >> c("R1") & 1 and not s.hands[1] >> c("G2") & 1


def test_headhunter_short_deck_returns_to_hand_size() -> None:
    s = build_state(f"{STT} h0=SC.R1.R2.R3.R4.R5.R6 h1=B1 td=G1.G2 xd= rest=d1")
    act(s, "SC", "scout:troop", "scout:troop")
    assert {t for t in legal(s)} == {f"return:{x}" for x in ("R1", "R2", "R3", "R4", "R5", "R6", "G1", "G2")}
    act(s, "return:R6")
    assert s.to_move == 1 and s.hand_count(0) == 7 and s.tdeck == [c("R6")]
