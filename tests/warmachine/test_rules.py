"""Golden scenarios for the War Machine rules (docs/rules.md §6.2–§6.7 and §6.10)."""

from __future__ import annotations

import random

import pytest

from frontlines.core.errors import IllegalAction
from frontlines.games.warmachine import MODULE
from frontlines.games.warmachine.cards import INF, WM, card_code

from ._positions import play, position, texts

# The default test front: P1 GER wm, P2 ITA inf, P3 JPN wm, P4 GBR inf, P5 USA wm, P6 URS inf.
PILES1 = ("BU", "RB", "RIGB", "BR", "IR", "UJ")


def deploys_at(state: object, pos: int) -> set[str]:
    return {t for t in texts(state) if t[-1] == str(pos) and t[2] in "^v"}  # type: ignore[arg-type]


# --- set-up (§6.2) -------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(60))
def test_setup_invariants(seed: int) -> None:
    s = MODULE.new_game(seed=seed)
    b = s.board
    assert len(set(b.front_country)) == 6
    assert sorted(b.front_type) == [WM, WM, WM, INF, INF, INF]
    for k in range(3):  # each front card shows one war machine and one infantry
        assert {b.front_type[2 * k], b.front_type[2 * k + 1]} == {WM, INF}
    assert [len(p) for p in b.piles] == [4] * 6 and b.support == 24
    assert len(b.leftover) == 3 and b.hands == [[], []]
    every = [*b.front_cards(), *b.leftover, *(c for p in b.piles for c in p)]
    assert len(every) == len(set(every)) == 27 + 3
    chooser = 1 - b.shuffler
    assert s.current_player() == chooser
    assert texts(s) == {"take1", "take2"}
    assert s.to_notation() == MODULE.new_game(seed=seed).to_notation()


def test_setup_varies_and_the_seed_picks_the_shuffler() -> None:
    shufflers = {MODULE.new_game(seed=k).board.shuffler for k in range(40)}
    fronts = {tuple(MODULE.new_game(seed=k).board.front_country) for k in range(40)}
    assert shufflers == {0, 1}
    assert len(fronts) > 30
    for k in range(10):
        assert MODULE.new_game(seed=k, options={"shuffler": "1"}).board.shuffler == 1


@pytest.mark.parametrize("choice", ["take1", "take2"])
def test_starting_hands_and_first_player(choice: str) -> None:
    s = MODULE.new_game(seed=3, options={"shuffler": "0"})
    left = s.board.leftover[:]
    play(s, choice)
    b = s.board
    if choice == "take1":  # one card and move first
        assert (len(b.hands[1]), len(b.hands[0]), b.first) == (1, 2, 1)
    else:  # two cards and the shuffler moves first
        assert (len(b.hands[1]), len(b.hands[0]), b.first) == (2, 1, 0)
    assert s.current_player() == b.first
    assert sorted(b.hands[0] + b.hands[1]) == sorted(left)
    assert b.leftover == []


def test_a_blind_chooser_has_seen_no_leftover_card() -> None:
    s = MODULE.new_game(seed=4, options={"shuffler": "0"})
    play(s, "take2")
    assert [s.view(p).to_dict()["leftover_seen"] for p in (0, 1, None)] == [[], [], []]


def test_seen_choice_of_the_leftover_cards() -> None:
    s = MODULE.new_game(seed=4, options={"shuffler": "0", "leftover_choice_blind": "false"})
    left = sorted(card_code(c) for c in s.board.leftover)
    legal = texts(s)
    assert len(legal) == 6 and {f"take1:{c}" for c in left} <= legal
    assert s.view(1).to_dict()["leftover"] == left  # the chooser looks at them
    assert s.view(0).to_dict()["leftover"] == ["?", "?", "?"]
    play(s, f"take2:{left[2]}+{left[0]}")
    assert sorted(card_code(c) for c in s.board.hands[1]) == [left[0], left[2]]
    assert [card_code(c) for c in s.board.hands[0]] == [left[1]]
    assert s.view(1).to_dict()["log"] == [f"take2:{left[0]}+{left[2]}"]
    assert s.view(0).to_dict()["log"] == ["take2:?"]
    # the chooser still knows all three (its tracker counts them as seen); nobody else saw them
    assert s.view(1).to_dict()["leftover_seen"] == left
    assert s.view(0).to_dict()["leftover_seen"] == s.view(None).to_dict()["leftover_seen"] == []
    # the chooser knows the shuffler's hand, so every sample deals it the same card
    v = s.view(1)
    for k in range(5):
        assert v.sample(random.Random(k)).board.hands[0] == s.board.hands[0]


# --- deploying: colour rules b and c (§6.3) ------------------------------------------------


def test_colour_rule_b_own_country_and_opponent_colour() -> None:
    s = position(piles=PILES1, hands=("IBGUJG", "RG"), sides=(":IJ^", ":", ":", ":", ":", ":"))
    # at GER, where the opponent fights with ITA: not GER, not ITA
    assert deploys_at(s, 1) == {"IBv1", "GUv1", "JG^1"}
    with pytest.raises(IllegalAction):
        s.apply(s.parse_action("IB^1"))


def test_colour_rule_c_one_colour_per_front() -> None:
    s = position(piles=PILES1, hands=("JRRJIB", "RG"), sides=("JU^:IJ^", ":", ":", ":", ":", ":"))
    assert deploys_at(s, 1) == {"JR^1", "RJv1"}  # JPN only, either end
    play(s, "RJv1 draw:3 draw:3")
    assert deploys_at(s, 1) == set()  # the opponent: ITA fixed, RG shows neither ITA nor allowed
    b = s.board
    assert b.strength[0] == [3, 2] and b.colour[0] == [2, 1]


def test_draws_one_after_a_war_machine_two_after_infantry_any_piles() -> None:
    s = position(piles=PILES1, hands=("IBGUJG", "RG"), sides=(":IJ^", ":", ":", ":", ":", ":"))
    play(s, "JG^1")
    assert s.to_notation().endswith("phase=draw:1")
    assert texts(s) == {f"draw:{k}" for k in range(1, 7)}
    play(s, "draw:2")  # P2's pile empties: 0-0 tie, P1 still open, so pending
    assert s.board.status[1] == 1 and s.current_player() == 1
    s = position(piles=PILES1, hands=("IBGUJG", "RG"), sides=(":IJ^", ":", ":", ":", ":", ":"))
    play(s, "IBv1 draw:3")
    assert s.current_player() == 0 and s.board.draws_left == 1
    play(s, "draw:3")  # the same pile twice is allowed
    assert s.current_player() == 1 and len(s.board.hands[0]) == 4
    s = position(piles=PILES1, hands=("IBGUJG", "RG"), sides=(":IJ^", ":", ":", ":", ":", ":"))
    play(s, "IBv1 draw:3 draw:4")  # two different piles
    assert [len(p) for p in s.board.piles] == [1, 1, 1, 0, 1, 1]


def test_forced_burn() -> None:
    s = position(piles=("", "", "", "", "", "BRUB"), hands=("BJIJ", "RG"),
                 sides=(":", ":", ":", ":", ":", "GU^:IG^"), status="11111o")
    assert texts(s) == {"burn:BJ", "burn:IJ"}
    play(s, "burn:BJ draw:6")
    assert [card_code(c) for c in s.board.burned_by[0]] == ["BJ"]
    assert s.current_player() == 1


@pytest.mark.parametrize(("anytime", "expected"), [("true", {"GB^6", "burn:GB", "burn:BJ"}), ("false", {"GB^6"})])
def test_burn_as_a_free_alternative(anytime: str, expected: set[str]) -> None:
    s = position(piles=("", "", "", "", "", "BRUB"), hands=("GBBJ", "RG"),
                 sides=(":", ":", ":", ":", ":", "GU^:IG^"), status="11111o", opts=f"burn_anytime:{anytime}")
    assert texts(s) == expected


def test_skip_with_an_empty_hand_and_nothing_to_deploy() -> None:
    s = position(piles=("", "", "", "", "", "BR"), hands=("", "RG"), status="11111o")
    assert texts(s) == {"skip"}
    play(s, "skip")
    assert s.current_player() == 1 and s.board.support == 1


# --- battles and ties (§6.4–§6.5) ---------------------------------------------------------------


def test_battle_winner_burns_everything() -> None:
    s = position(piles=("BU", "RB", "RI", "BR", "IR", "UJ"), hands=("GB", "RG"),
                 sides=(":", ":", "GU^:RUv", ":", ":", ":"))
    play(s, "GB^3 draw:3")  # P3 JPN: 4 against 1
    b = s.board
    assert b.status[2] == 2 and b.sides[2] == [[], []]
    assert {card_code(c) for c in b.burned_battle} >= {"GU", "RU", "GB"}
    assert s.view(1).to_dict()["front"][2]["status"] == "won"
    assert s.view(1).to_dict()["front"][2]["winner"] == 0
    assert deploys_at(play(s, "RG^1 draw:2"), 3) == set()  # closed after its battle
    assert deploys_at(s, 4) == {"RI^4", "RIv4"}


@pytest.mark.parametrize("timing", ["after_draw_step", "after_each_draw"])
def test_two_piles_emptied_by_one_draw_step(timing: str) -> None:
    s = position(piles=("BU", "RB", "", "BR", "IR", "UJ"), hands=("IBGU", "RG"), status="oo1ooo",
                 opts=f"battle_timing:{timing}")
    play(s, "IBv1 draw:4")
    b = s.board
    # default: battles wait for the whole draw step; option: each draw starts its battle
    assert b.status[3] == (0 if timing == "after_draw_step" else 3)
    play(s, "draw:5")
    # nearest the box first: P4 ties and follows P3 (won by 1), then P5 follows P4
    assert b.status == [0, 0, 3, 3, 3, 0]
    assert s.current_player() == 1


def test_tie_chain_settles_around_the_box() -> None:
    s = position(piles=("", "", "BR", "", "", ""), hands=("GB", "RG"), status="ppoppp",
                 sides=(":", ":", "GU^:", ":", "GJ^:IJ^", ":"))
    play(s, "GB^3 draw:3")  # P3 won by 0 -> P4, P5, P6 -> P1 (P6 is its reference) -> P2
    b = s.board
    assert b.status == [2] * 6
    assert s.is_terminal()
    out = s.outcome()
    assert out is not None and out.winner == 0 and out.scores == (9 + 2, 0)  # BR in hand: both ends won


def test_pending_stays_until_its_reference_is_decided() -> None:
    s = position(piles=("BU", "RB", "RI", "BR", "IR", "UJ"), hands=("IBGU", "RGJR"),
                 sides=(":", ":", ":", "GJ^:IJ^", ":", ":"))
    play(s, "GU^5 draw:4")  # P4: 2-2 tie, P3 still open
    assert s.board.status == [0, 0, 0, 1, 0, 0]
    assert s.view(None).to_dict()["front"][3]["status"] == "pending"
    assert s.board.sides[3][0]  # cards stay while pending
    assert "JR^4" not in texts(s)  # pending is closed
    play(s, "RG^3 draw:3")  # P3 won by 1 (2-0), P4 follows
    assert s.board.status[2:4] == [3, 3] and s.board.sides[3] == [[], []]


@pytest.mark.parametrize(("ref", "expected"), [("farthest", 1), ("neighbour", 3), ("none", 4)])
def test_tie_next_to_the_box(ref: str, expected: int) -> None:
    s = position(piles=("BU", "", "RI", "BR", "IR", "UJ"), hands=("IBGU", "RG"), status="o1oooo",
                 opts=f"tie_reference_p1:{ref}")
    play(s, "IB^3 draw:1")
    # farthest: follows P6 (open, so pending); neighbour: P2 (won by 1); none: no winner
    assert s.board.status[0] == expected


def test_pending_open_option_lets_a_force_break_the_tie() -> None:
    base = {"piles": ("BU", "", "RI", "BR", "IR", "UJ"), "hands": ("GR", "IB"), "status": "opoooo",
            "sides": (":", "JGv:RBv", ":", ":", ":", ":")}
    closed = position(**base)  # type: ignore[arg-type]
    assert "GR^2" not in texts(closed)
    s = position(**base, opts="pending_closed:false")  # type: ignore[arg-type]
    assert "GR^2" in texts(s)
    play(s, "GR^2 draw:1")  # 3 against 1 now, and P1's battle (0-0) follows P6, still open
    assert s.board.status[:2] == [1, 2]


def test_all_tie_cycle_has_no_winner() -> None:
    s = position(piles=("", "", "", "", "", "BR"), hands=("IB", "RG"), status="pppppo")
    play(s, "burn:IB draw:6")
    assert s.board.status == [4] * 6
    out = s.outcome()
    assert out is not None and out.winner is None and out.reason == "draw" and out.scores == (0, 0)
    assert s.view(0).to_dict()["front"][0]["status"] == "no_winner"


# --- end and scoring (§6.6–§6.7) -------------------------------------------------------------


def test_the_last_draw_is_lost_when_one_card_remains() -> None:
    s = position(piles=("", "", "", "", "", "BR"), hands=("GB", "RG"), status="11111o")
    play(s, "GBv6")
    assert s.board.draws_left == 1
    play(s, "draw:6")
    assert s.is_terminal() and s.current_player() is None and s.legal_actions() == []
    out = s.outcome()
    # P0: URS (infantry, 1) + BR in hand (URS end) = 2; P1: 2+1+2+1+2 = 8 + RG (GER end) = 9
    assert out is not None and out.scores == (2, 9) and out.winner == 1 and out.reason == "score"


@pytest.mark.parametrize(("scoring", "scores"), [("per_half", (9, 7)), ("per_card", (7, 6))])
def test_hand_scoring(scoring: str, scores: tuple[int, int]) -> None:
    s = position(hands=("IGBUJI", "RBUI"), status="000111", phase="over", opts=f"hand_scoring:{scoring}")
    out = s.outcome()
    assert out is not None and out.scores == scores and out.winner == 0 and out.reason == "score"
    d = s.view(1).to_dict()
    assert d["hands"][0] == ["BU", "IG", "JI"]  # hands are shown at the end
    assert [x["total"] for x in d["scores"]] == list(scores)
    assert d["scores"][0]["countries"] == 5 and d["scores"][1]["countries"] == 4


@pytest.mark.parametrize(("rule", "winner", "reason"), [("nearest_with_winner", 1, "tie-break"),
                                                        ("p1_only", None, "draw")])
def test_final_tie_break(rule: str, winner: int | None, reason: str) -> None:
    s = position(status="x1001x", phase="over", opts=f"final_tiebreak:{rule}")
    out = s.outcome()
    assert out is not None and out.scores == (3, 3) and out.winner == winner and out.reason == reason


def test_equal_scores_go_to_the_winner_nearest_the_box() -> None:
    # player 0: ITA 1 + JPN 2 + URS 1 = 4; player 1: GER 2 + GBR 1 + USA 2 = 5
    s = position(hands=("RI", "UG"), status="100110", phase="over")
    out = s.outcome()  # + RI (2) against + UG (2)
    assert out is not None and out.scores == (6, 7) and out.winner == 1 and out.reason == "score"
    s = position(hands=("RI", "BR"), status="100110", phase="over")
    out = s.outcome()  # + RI (2) against + BR (GBR end only, 1): equal, and player 1 won P1
    assert out is not None and out.scores == (6, 6) and out.winner == 1 and out.reason == "tie-break"


def test_the_worked_example_of_the_rules() -> None:
    """docs/rules.md §6.9, with player A = 0 and player B = 1."""
    front = "GvU^I^JvRvB^"  # P1 GER inf, P2 USA wm, P3 ITA wm, P4 JPN inf, P5 URS inf, P6 GBR wm
    s = position(front=front, piles=("GJ", "BUJR", "GRBJIU", "UR", "RI", "JB"), hands=("JIRG", "RUUI"))
    play(s, "JI^1 draw:2")  # JPN war machine against Germany: strength 2, one draw
    d = s.view(1).to_dict()
    at_p1 = {e["colour"] for e in d["legal"] if e["kind"] == "deploy" and e["position"] == 1}
    assert at_p1 and not at_p1 & {"JPN", "GER"}  # B may not use JPN or GER there
    play(s, "RUv1 draw:3 draw:3")  # USA infantry: strength 1, two draws
    play(s, "RG^3 draw:1")  # P1's pile runs out at 2 against 1
    assert s.board.status[0] == 2  # A wins outright
    # The example's tie (2 against 2 when the pile runs out), here with B's war machine at P1.
    s = position(front=front, piles=("GJ", "BUJR", "GRBJIU", "UR", "RI", "JB"), hands=("JIRG", "UJUI"))
    play(s, "JI^1 draw:2 UJ^1 draw:3 RG^3 draw:1")
    assert s.board.status[0] == 1  # 2-2: follows P6 (GBR), still open, so pending
    play(s, "UI^6 draw:6")  # B wins GBR, and GER with it
    assert s.board.status[0] == s.board.status[5] == 3
    end = position(front=front, hands=("", "GBIU"), status="1000x1", phase="over")
    out = end.outcome()  # B: GER inf 1 + GBR wm 2 + GB in hand (both ends) 2 + IU 0 = 5
    assert out is not None and out.scores == (5, 5) and out.winner == 1 and out.reason == "tie-break"
    assert end.view(None).to_dict()["scores"][1] == {"countries": 3, "hand": 2, "total": 5, "won": ["GBR", "GER"]}


# --- match ---------------------------------------------------------------------------------


def test_best_of_three_match() -> None:
    rng = random.Random(9)
    for seed in range(6):
        s = MODULE.new_game(seed=seed, options={"match": "best_of_3"})
        shufflers = [s.board.shuffler]
        games = 1
        while not s.is_terminal():
            s.apply(rng.choice(s.legal_actions()))
            if s.board.game_no != games:
                games = s.board.game_no
                shufflers.append(s.board.shuffler)
                assert s.board.phase == 0 and s.board.support == 24  # the next game is dealt
                assert MODULE.parse_state(s.to_notation()).to_notation() == s.to_notation()
        b = s.board
        assert 2 <= len(b.results) <= 3
        assert all(shufflers[k + 1] == 1 - shufflers[k] for k in range(len(shufflers) - 1))
        out = s.outcome()
        assert out is not None and out.reason == "match" and out.scores == b.match_wins()
        assert out.winner == (0 if out.scores[0] > out.scores[1] else 1 if out.scores[1] > out.scores[0] else None)
        assert s.view(0).to_dict()["match"]["wins"] == list(out.scores)


def test_pickled_states_views_and_boards_keep_every_field() -> None:
    """Pickling carries a board field by field (``rules.BOARD_FIELDS``: a compiled Board
    is made only through its __init__), states with their history and undo stack."""
    import pickle

    from frontlines.games.warmachine.rules import BOARD_FIELDS, Board

    assert set(Board.__slots__) == {"opts", *BOARD_FIELDS}
    state, rng = MODULE.new_state("warmachine", seed=4), random.Random(4)
    for _ in range(12):
        state.push(rng.choice(state.legal_actions()))
    copy = pickle.loads(pickle.dumps(state))
    assert copy == state and copy.history == state.history
    for name in Board.__slots__:
        assert getattr(copy.board, name) == getattr(state.board, name)
    assert copy.pop() == state.pop() and copy == state
    for viewer in (0, 1, None):
        view = state.view(viewer)
        again = pickle.loads(pickle.dumps(view))
        assert again == view and again.to_dict() == view.to_dict()
