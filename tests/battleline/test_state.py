"""Battle Line family rules: deal, turn structure, claims and victory (docs/rules.md §2, §4)."""

from __future__ import annotations

import pytest

from frontlines.core.errors import IllegalAction
from frontlines.games import new_state
from frontlines.games.battleline.cards import TACTICS_MASK
from frontlines.games.battleline.notation import build_state, parse_state
from frontlines.games.battleline.state import BattleLineState

from .helpers import act, claims, legal


def assert_illegal(s: BattleLineState, text: str, fragment: str = "") -> None:
    before = s.to_notation()
    with pytest.raises(IllegalAction) as info:
        s.apply(s.parse_action(text))
    assert fragment in str(info.value)
    assert s.to_notation() == before


# --- the deal -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("ruleset", "hand", "troops", "tactics"),
    [
        ("battleline", 7, 60, 10),
        ("battleline-basic", 7, 60, 0),
        ("schotten-totten", 6, 54, 0),
        ("schotten-totten-tactics", 7, 54, 10),
        ("medieval", 7, 60, 10),
    ],
)
def test_deal(ruleset: str, hand: int, troops: int, tactics: int) -> None:
    s = new_state(ruleset, seed=4)
    assert isinstance(s, BattleLineState)
    for p in (0, 1):
        assert s.hand_count(p) == hand
        assert not s.hands[p] & TACTICS_MASK, "no tactics card in an opening hand"
    assert len(s.tdeck) == troops - 2 * hand
    assert len(s.xdeck) == tactics
    assert s.phase == 0 and s.current_player() in (0, 1)
    # every troop play is offered at each of the 9 flags, and nothing else
    assert len(s.legal_actions()) == hand * 9


def test_first_player_option_and_determinism() -> None:
    assert new_state("battleline", seed=1, options={"first_player": "1"}).current_player() == 1
    assert new_state("battleline", seed=1, options={"first_player": "0"}).current_player() == 0
    firsts = {new_state("battleline", seed=k).current_player() for k in range(20)}
    assert firsts == {0, 1}
    with pytest.raises(ValueError):
        new_state("battleline", seed=1, options={"first_player": "2"})
    with pytest.raises(ValueError):
        new_state("battleline-basic", seed=1, options={"scout_short_deck": "return_to_hand_size"})


# --- the turn -----------------------------------------------------------------------------
def test_play_then_draw_then_turn_passes() -> None:
    s = build_state("h0=R1.R2 h1=B1")
    act(s, "R1@1")
    assert legal(s) == {"draw:troop", "draw:tactics"}
    act(s, "draw:tactics")
    assert s.current_player() == 1
    assert s.hand_count(0) == 2 and s.hands[0] & TACTICS_MASK


def test_draw_from_the_other_deck_when_one_is_empty_and_end_when_both_are() -> None:
    s = build_state("h0=R1.R2 h1=B1 xd= rest=d0")
    act(s, "R1@1")
    assert legal(s) == {"end"}
    s = build_state("ruleset=battleline h0=R1 h1=B1 td=R2 rest=d1")
    act(s, "R1@1")
    assert legal(s) == {"draw:troop"}


def test_full_hand_after_a_pass_ends_without_drawing() -> None:
    # every flag is full on player 0's side: no troop can be played, so pass is offered
    flags = " ".join(f"f{i}=-/{c}1.{c}2.{c}3:{i}//" for i, c in zip(range(1, 7), "ROYGBP", strict=True))
    flags += " f7=-/R4.R5.R6:7// f8=-/O4.O5.O6:8// f9=-/Y4.Y5.Y6:9//"
    s = build_state(f"{flags} h0=G4.G5.G6.G7.G8.G9.G10 h1=B4 to=0")
    assert "pass" in legal(s) and not any("@" in t for t in legal(s))
    act(s, "pass")
    assert legal(s) >= {"end"}
    act(s, "end")
    assert s.current_player() == 1


def test_pass_is_offered_only_when_no_troop_can_be_played() -> None:
    s = build_state("h0=R1.AL h1=B1")
    assert "pass" not in legal(s)
    assert_illegal(s, "pass", "only when no troop")
    s = build_state("h0=AL.SC h1=B1")
    assert legal(s) >= {"pass", "AL@1", "SC"}


def test_a_claimed_flag_takes_no_more_cards() -> None:
    s = build_state("f1=0/R8.R9.R10:1/B1.B2/ h0=G1 h1=P1")
    assert "G1@1" not in legal(s)
    assert_illegal(s, "G1@1", "claimed")


# --- claims -------------------------------------------------------------------------------
def test_claim_against_a_complete_side() -> None:
    s = build_state("f1=-/R8.R9.R10:1/B1.B2.B3:2/ h0=G1 h1=P1")
    assert claims(s) == {"claim:1"}
    act(s, "claim:1")
    assert s.claimed[0] == 0
    assert not claims(s)


def test_tie_goes_to_whoever_completed_first() -> None:
    # both Wedges 7-8-9: player 1 completed first, so player 0 cannot claim, player 1 can
    s = build_state("f1=-/R7.R8.R9:5/B7.B8.B9:3/ h0=G1 h1=P1 to=0")
    assert not claims(s)
    assert_illegal(s, "claim:1", "completed second")
    act(s, "G1@2", "draw:troop")
    assert claims(s) == {"claim:1"}


def test_claim_by_proof_against_an_incomplete_side() -> None:
    # 8-9-10 Wedge cannot be beaten
    s = build_state("f1=-/R8.R9.R10:1/B1.B2/ h0=G1 h1=P1")
    assert claims(s) == {"claim:1"}
    # a Phalanx of 5s can be beaten by B3 (Wedge 1-2-3): not provable
    s = build_state("f1=-/R5.O5.Y5:1/B1.B2/ h0=G1 h1=P1")
    assert not claims(s)
    assert_illegal(s, "claim:1", "B3")


def test_the_claimants_hand_counts_as_unseen() -> None:
    # only B3 completes a beating Wedge, and player 0 holds it: still not provable
    s = build_state("f1=-/R5.O5.Y5:1/B1.B2/ h0=B3 h1=P1 f2=-//G5.P5/")
    assert not claims(s)


def test_cards_on_the_table_and_discards_are_seen() -> None:
    # B3 is at another flag: a 1-2-x in blue can at best be a Battalion; a Phalanx of 5s
    # (with G5 and P5 also visible no opponent Phalanx of 5 exists) ... but a blue Battalion
    # beats nothing here; skirmish 1-2-3 loses to a phalanx
    s = build_state("f1=-/R5.O5.Y5:1/B1.B2/ f2=-//B3/ h0=G1 h1=P1")
    assert claims(s) == {"claim:1"}
    s = build_state("f1=-/R5.O5.Y5:1/B1.B2/ d1=B3 h0=G1 h1=P1")
    assert claims(s) == {"claim:1"}


def test_unplayed_tactics_never_block_a_proof() -> None:
    s = build_state("f1=-/R5.O5.Y5:1/B1.B2/ f2=-//B3/ h0=G1 h1=AL.DA")
    assert claims(s) == {"claim:1"}


def test_played_morale_cards_count_for_the_opponent() -> None:
    # their Leader + B10 could be a Wedge 8-9-10 with B9 or B8 unseen
    s = build_state("f1=-/R5.O5.Y5:1/AL.B10/ h0=G1 h1=P1 tp=0.1 lead=2")
    assert not claims(s)


def test_breakthrough_and_envelopment() -> None:
    s = build_state("f1=0/R1.R2.R3:1// f2=0/O1.O2.O3:2// f3=-/Y8.Y9.Y10:3/B1/ h0=G1 h1=P1")
    act(s, "claim:3")
    assert s.is_terminal()
    outcome = s.outcome()
    assert outcome is not None and outcome.winner == 0 and outcome.reason == "breakthrough"
    assert s.legal_actions() == []
    s = build_state(
        "f1=0/R1.R2.R3:1// f3=0/O1.O2.O3:2// f5=0/Y1.Y2.Y3:3// f7=0/G1.G2.G3:4// "
        "f9=-/Y8.Y9.Y10:5/B1/ h0=G4 h1=P1"
    )
    act(s, "claim:9")
    outcome = s.outcome()
    assert outcome is not None and outcome.winner == 0 and outcome.reason == "envelopment"


def test_several_claims_in_one_turn() -> None:
    s = build_state("f1=-/R8.R9.R10:1/B1/ f4=-/O8.O9.O10:2// h0=G1 h1=P1")
    assert claims(s) == {"claim:1", "claim:4"}
    act(s, "claim:4", "claim:1")
    assert s.claimed[0] == 0 and s.claimed[3] == 0 and not s.is_terminal()


@pytest.mark.parametrize(
    ("timing", "before", "after"),
    [("before_draw", True, True), ("after_play", False, True), ("start_of_turn", True, False)],
)
def test_claim_timing(timing: str, before: bool, after: bool) -> None:
    s = build_state(f"opts=claim_timing:{timing} f1=-/R8.R9.R10:1/B1/ h0=G1 h1=P1")
    assert bool(claims(s)) == before
    act(s, "G1@2")
    assert bool(claims(s)) == after
    if not after:
        assert_illegal(s, "claim:1", "claim timing")


def test_schotten_totten_defaults_to_claims_after_the_play() -> None:
    s = build_state("ruleset=schotten-totten f1=-/R7.R8.R9:1/B1/ h0=G1 h1=P1")
    assert not claims(s)
    act(s, "G1@2")
    assert claims(s) == {"claim:1"}  # 7-8-9 colour run is unbeatable with values 1-9


def test_completing_second_in_the_same_turn_and_claiming_later() -> None:
    # player 0 completes a tie second: player 1 claims on its turn
    s = build_state("n=5 f1=-/R7.R8/B7.B8.B9:1/ h0=R9.G1 h1=P1.P2 td=Y1.Y2")
    act(s, "R9@1")
    assert not claims(s)
    act(s, "draw:troop")
    assert claims(s) == {"claim:1"}


# --- stall ----------------------------------------------------------------------------------
def test_stall_rule_b_makes_an_incomplete_side_that_cannot_grow_lose() -> None:
    # decks empty, player 1's hand empty; player 0 holds B3 which would beat its own Phalanx
    s = build_state("f1=-/R5.O5.Y5:1/B1.B2/ h0=B3 h1= rest=d0")
    assert claims(s) == {"claim:1"}
    s = build_state("opts=stall_rule:draw_after_passes f1=-/R5.O5.Y5:1/B1.B2/ h0=B3 h1= rest=d0")
    assert not claims(s)


def _stuck_fragment() -> str:
    """Player 0 is full everywhere with weak Hosts, player 1 has two strong cards at each
    flag and an empty hand, the decks are empty, and player 0 holds the cards that would
    complete player 1's sides (so its proofs fail while its hand counts as unseen)."""
    colours = "ROYGBP"
    tokens = []
    for i in range(9):
        if i < 6:
            mine = f"{colours[i]}1.{colours[(i + 1) % 6]}2.{colours[(i + 2) % 6]}4"
            theirs = f"{colours[i]}10.{colours[(i + 1) % 6]}9"
        else:
            j = i - 6
            mine = f"{colours[j]}3.{colours[j + 1]}5.{colours[j + 2]}7"
            theirs = f"{colours[j]}8.{colours[j + 3]}8"
        tokens.append(f"f{i + 1}=-/{mine}:{i + 1}/{theirs}/")
    return " ".join(tokens) + " n=20 h0=Y6.G6.B6.P6.R6.O6.R7 h1= rest=d0"


def test_stall_under_rule_a_is_a_draw_after_two_passes() -> None:
    s = build_state("opts=stall_rule:draw_after_passes " + _stuck_fragment())
    for _ in range(2):
        assert legal(s) == {"pass"}
        act(s, "pass", "end")
    outcome = s.outcome()
    assert outcome is not None and outcome.reason == "stall" and outcome.winner is None


def test_stall_rule_b_lets_the_stuck_side_lose() -> None:
    s = build_state(_stuck_fragment())
    # rule (b): player 1's incomplete sides can never grow, so player 0 claims them
    assert claims(s) == {f"claim:{i}" for i in range(1, 10)}
    act(s, "claim:1", "claim:2", "claim:3")
    outcome = s.outcome()
    assert outcome is not None and outcome.winner == 0 and outcome.reason == "breakthrough"


def test_a_game_that_cannot_progress_ends_as_a_stall_on_flags() -> None:
    # two cards a side everywhere, both hands and decks empty: nobody can ever act
    colours = "ROYGBP"
    sides = " ".join(
        f"f{i + 1}={'1' if i == 0 else '-'}/{colours[i % 6]}{1 + i // 6}.{colours[(i + 1) % 6]}{3 + i // 6}"
        f"/{colours[i % 6]}{6 + i // 6}.{colours[(i + 1) % 6]}{8 + i // 6}/"
        for i in range(9)
    )
    s = build_state(f"{sides} h0= h1= rest=d0")
    assert legal(s) == {"pass"}
    act(s, "pass", "end")
    assert legal(s) == {"pass"}
    act(s, "pass", "end")
    outcome = s.outcome()
    assert outcome is not None and outcome.reason == "stall" and outcome.winner == 1


def _two_a_side(first_claimed_by: str = "1") -> str:
    """Two troops a side at every flag (flag 1 claimed by ``first_claimed_by``), decks empty."""
    colours = "ROYGBP"
    return " ".join(
        f"f{i + 1}={first_claimed_by if i == 0 else '-'}/{colours[i % 6]}{1 + i // 6}.{colours[(i + 1) % 6]}{3 + i // 6}"
        f"/{colours[i % 6]}{6 + i // 6}.{colours[(i + 1) % 6]}{8 + i // 6}/"
        for i in range(9)
    )


def test_passing_by_choice_ends_as_a_stall_when_the_position_comes_round_a_third_time() -> None:
    # both hold only a playable tactics card, so each may pass (no troop to play) or play it:
    # passing for ever would be legal, so four turns in a row that only passed end the game
    s = build_state(f"{_two_a_side()} h0=FO h1=MU rest=d0")
    for turn in range(4):
        assert legal(s) >= {"pass", "FO@2"} if turn % 2 == 0 else legal(s) >= {"pass", "MU@2"}
        assert not s.is_terminal() and s.idle == turn
        act(s, "pass", "end")
    outcome = s.outcome()
    assert outcome is not None and outcome.reason == "stall" and outcome.winner == 1
    assert "the same position a third time" in outcome.detail and "flags 0-1" in outcome.detail


def test_a_card_or_a_claim_starts_the_count_of_idle_turns_again() -> None:
    s = build_state(f"{_two_a_side()} h0=FO h1=MU rest=d0")
    act(s, "pass", "end", "pass", "end", "pass", "end")
    assert s.idle == 3
    act(s, "MU@2", "end")  # a tactics card played: the position has moved on
    assert s.idle == 0
    act(s, "pass", "end", "pass", "end", "pass", "end")
    assert s.idle == 3 and not s.is_terminal()
    act(s, "pass", "end")
    assert s.is_terminal() and s.outcome() is not None


def test_a_declined_claim_does_not_stop_the_count_but_a_made_one_does() -> None:
    # player 0 could claim flag 1 every turn (its Phalanx of 10s beats the 5s that cannot grow
    # under rule b) and passes instead: declining changes nothing, so the turns are idle
    fragment = f"opts=claim_timing:after_play f1=-/G10.B10.P10:1/R5.O5/ {_two_a_side().split(' ', 1)[1]}"
    s = build_state(f"{fragment} h0=FO h1=MU rest=d0 n=3")
    act(s, "pass", "end")
    assert s.idle == 1 and s.passes == 0  # rule a's count stops at a possible claim; this one not
    act(s, "pass", "end", "pass")
    assert "claim:1" in legal(s)
    act(s, "claim:1", "end")
    assert s.idle == 0


def test_the_idle_count_survives_the_notation() -> None:
    s = build_state(f"{_two_a_side()} h0=FO h1=MU rest=d0")
    act(s, "pass", "end", "pass", "end", "pass")
    text = s.to_notation()
    assert "st=" in text
    again = parse_state(text)
    assert again.idle == 2 and again.to_notation() == text
    act(again, "end")
    assert again.is_terminal() is False and again.idle == 3
    # a text of five stall numbers (written before the idle count existed) still reads
    old = text.replace(f"st={text.split('st=')[1].split()[0]}", "st=2.0.1.0.0")
    assert parse_state(old).idle == 0


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("B1@2", "not in your hand"),
        ("draw:troop", "not the time to draw"),
        ("end", "not now"),
        ("return:R1", "Scout"),
        ("claim:2", "not complete"),
        ("claim:3", "already claimed"),
        ("R1@3", "claimed"),
        ("DE:B1", "not in your hand"),
        ("scout:troop", "not the time to draw"),
        ("pass", "only when no troop"),
    ],
)
def test_illegal_actions_explain_themselves(text: str, fragment: str) -> None:
    s = build_state("f1=-/R8.R9.R10:1/B1.B2/ f3=1//O1.O2.O3:2/ h0=R1.R2 h1=P1")
    assert_illegal(s, text, fragment)


def test_draw_phase_errors() -> None:
    s = build_state("h0=R1.R2 h1=B1")
    act(s, "R1@1")
    assert_illegal(s, "R2@2", "no card may be played now")
    assert_illegal(s, "end", "you must draw")
    with pytest.raises(IllegalAction, match="not a Battle Line action"):
        s.apply(("R2", 3))
    with pytest.raises(IllegalAction, match="not a Battle Line action"):
        s.apply(True)


def test_resign_and_time() -> None:
    s = new_state("battleline", seed=1)
    s.resign(0)
    outcome = s.outcome()
    assert outcome is not None and outcome.winner == 1 and outcome.reason == "resignation"
    assert s.current_player() is None and s.legal_actions() == []
    assert "result=1:resignation" in s.to_notation()
    with pytest.raises(IllegalAction):
        s.resign(1)


def test_a_turn_with_a_claim_is_not_a_stuck_turn() -> None:
    # after_play: player 0 can only pass, then claims in the draw step; that is progress
    colours = "ROYGBP"
    sides = " ".join(
        f"f{i + 1}=-/{colours[i % 6]}{1 + i // 6}.{colours[(i + 1) % 6]}{3 + i // 6}"
        f"/{colours[i % 6]}{6 + i // 6}.{colours[(i + 1) % 6]}{8 + i // 6}/"
        for i in range(1, 9)
    )
    s = build_state(f"opts=claim_timing:after_play f1=-/G10.B10.P10:1/R5.O5/ {sides} h0= h1= rest=d0 n=3")
    assert legal(s) == {"pass"}
    act(s, "pass")
    assert legal(s) == {"claim:1", "end"}
    act(s, "claim:1", "end")
    assert s.noops == 0
    act(s, "pass", "end")
    assert s.noops == 1 and not s.is_terminal()
    act(s, "pass", "end")
    assert s.is_terminal()
    outcome = s.outcome()
    assert outcome is not None and outcome.winner == 0 and outcome.reason == "stall"


def test_stuck_result_draw_option_ends_a_stuck_game_drawn() -> None:
    colours = "ROYGBP"
    sides = " ".join(
        f"f{i + 1}=-/{colours[i % 6]}{1 + i // 6}.{colours[(i + 1) % 6]}{3 + i // 6}"
        f"/{colours[i % 6]}{6 + i // 6}.{colours[(i + 1) % 6]}{8 + i // 6}/"
        for i in range(1, 9)
    )
    s = build_state(f"opts=claim_timing:after_play,stuck_result:draw f1=-/G10.B10.P10:1/R5.O5/ {sides} h0= h1= rest=d0 n=3")
    act(s, "pass", "claim:1", "end", "pass", "end", "pass", "end")
    outcome = s.outcome()
    assert outcome is not None and outcome.winner is None and outcome.reason == "stall"
    assert "flags 1-0" in outcome.detail
