"""Random games under every option set, checking invariants, views, notation and records."""

from __future__ import annotations

import json
import random

import pytest

from frontlines.core.errors import IllegalAction, NotationError
from frontlines.core.record import GameRecord, dump_jsonl, load_jsonl
from frontlines.games import parse_state, parse_view
from frontlines.games.warmachine import MODULE, WarMachineState
from frontlines.games.warmachine.cards import ALL_CARDS, UNKNOWN, WM
from frontlines.games.warmachine.rules import DRAW, NOWIN, OPEN, OVER, PENDING, PLAY, WON0, WON1, Board

OPTION_SETS: list[dict[str, str]] = [
    {},
    {"shuffler": "1", "leftover_choice_blind": "false", "burn_anytime": "false", "burn_visibility": "face_up",
     "battle_timing": "after_each_draw", "tie_reference_p1": "neighbour", "pending_closed": "false",
     "hand_scoring": "per_card", "final_tiebreak": "p1_only"},
    {"tie_reference_p1": "none", "match": "best_of_3", "leftover_choice_blind": "false"},
    {"match": "best_of_3", "burn_visibility": "face_up"},
]


def located(b: Board) -> list[int]:
    out = [*b.hands[0], *b.hands[1], *b.burned_battle, *b.burned_by[0], *b.burned_by[1], *b.leftover,
           *b.front_cards()]
    for p in range(6):
        out.extend(b.piles[p])
        out.extend(x >> 1 for x in b.sides[p][0])
        out.extend(x >> 1 for x in b.sides[p][1])
    return out


def check_invariants(s: WarMachineState) -> None:
    b = s.board
    cards = located(b)
    assert sorted(cards) == sorted(ALL_CARDS), "all 30 cards, each once"
    assert b.support == sum(len(p) for p in b.piles)
    for p in range(6):
        st = b.status[p]
        assert b.strength[p] == [sum(2 if x & 1 == WM else 1 for x in b.sides[p][pl]) for pl in (0, 1)]
        if st in (WON0, WON1):
            assert b.sides[p] == [[], []]
        if st != OPEN:
            assert not b.piles[p], "a battle starts only when its pile is empty"
        elif b.phase == PLAY:
            assert b.piles[p], "an empty pile's battle has started by the next turn"
        if st == PENDING and b.opts.pending_closed:
            assert b.strength[p][0] == b.strength[p][1]
    if b.phase == PLAY:
        assert b.hands[b.to_move], "hands never run dry while support cards remain"
    if b.phase == DRAW:
        assert 1 <= b.draws_left <= min(2, b.support)
    if b.phase == OVER:
        assert OPEN not in b.status and PENDING not in b.status
        assert b.support == 0 or b.resigned is not None
        won = [sum(2 if b.front_type[p] == WM else 1 for p in range(6) if b.status[p] == WON0 + pl) for pl in (0, 1)]
        lost = sum(2 if b.front_type[p] == WM else 1 for p in range(6) if b.status[p] == NOWIN)
        assert won[0] + won[1] + lost == 9
        out = s.outcome()
        assert out is not None
        if not b.opts.best_of_3:
            assert out.scores == tuple(sum(b.score_detail(pl)) for pl in (0, 1))
            assert [b.score_detail(pl)[0] for pl in (0, 1)] == won


def strip_log(d: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in d.items() if k not in ("log", "log_seats", "log_records")}  # a parsed view has no history


def check_views(s: WarMachineState, rng: random.Random) -> None:
    b = s.board
    for viewer in (0, 1, None):
        v = s.view(viewer)
        text = v.to_notation()
        assert parse_view(text).to_notation() == text
        d = v.to_dict()
        json.dumps(d)
        assert d["game"] == "warmachine" and d["viewer"] == viewer
        if b.phase != OVER:
            for pl in (0, 1):
                assert (d["hands"][pl] is None) == (pl != viewer)
        if viewer == s.current_player():
            assert set(v.legal_actions()) == set(s.legal_actions())
            assert [e["text"] for e in d["legal"]] == [s.action_to_text(a) for a in v.legal_actions()]
        else:
            assert v.legal_actions() == [] and d["legal"] == []
        # A determinisation looks exactly like the view (that nothing in a view depends on
        # the hidden cards is tests/test_hidden_information.py's property).
        for _ in range(2):
            sample = v.sample(rng)
            check_invariants(sample)
            sv = sample.view(viewer)
            assert sv.to_notation() == text
            assert strip_log(sv.to_dict()) == strip_log(d)
            assert sample.current_player() == s.current_player()


def play_checked(options: dict[str, str], seed: int, every: int = 1) -> WarMachineState:
    rng = random.Random(seed)
    s = MODULE.new_game(seed=seed, options=options)
    initial = s.clone()
    steps = 0
    while not s.is_terminal():
        check_invariants(s)
        if steps % every == 0:
            check_views(s, rng)
            text = s.to_notation()
            assert parse_state(text).to_notation() == text
        legal = s.legal_actions()
        assert legal and len(set(legal)) == len(legal)
        for a in legal:
            t = s.action_to_text(a)
            assert s.parse_action(t) == a and not any(ch.isspace() for ch in t)
        s.apply(rng.choice(legal))
        steps += 1
        assert steps < 1000
    check_invariants(s)
    check_views(s, rng)
    record = GameRecord.from_state(initial, s, players=("random", "random"))
    assert GameRecord.parse(record.to_text()).replay(parse_state).to_notation() == s.to_notation()
    assert load_jsonl(dump_jsonl([record]))[0].replay(parse_state).to_notation() == s.to_notation()
    return s


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_random_games_keep_every_invariant(options: dict[str, str]) -> None:
    for seed in range(6):
        play_checked(options, seed, every=2)


def test_many_quick_games_end_with_outcomes() -> None:
    rng = random.Random(1)
    reasons: set[str] = set()
    for seed in range(300):
        s = MODULE.new_game(seed=seed)
        while not s.is_terminal():
            s.apply(rng.choice(s.legal_actions()))
        check_invariants(s)
        out = s.outcome()
        assert out is not None and out.scores is not None
        if out.reason == "score":  # otherwise equal totals: a tie-break or a draw
            assert out.winner == (0 if out.scores[0] > out.scores[1] else 1)
        else:
            assert out.scores[0] == out.scores[1] and (out.winner is None) == (out.reason == "draw")
        reasons.add(out.reason)
    assert {"score", "tie-break"} <= reasons


def test_push_pop_and_clone() -> None:
    rng = random.Random(3)
    s = MODULE.new_game(seed=3, options={"match": "best_of_3"})
    stack: list[str] = []
    while not s.is_terminal():
        stack.append(s.to_notation())
        s.push(rng.choice(s.legal_actions()))
    copy = s.clone()
    while stack:
        s.pop()
        assert s.to_notation() == stack.pop()
    assert len(s.history) == 0 and copy.is_terminal()
    with pytest.raises(IllegalAction):
        s.pop()


def test_resignation_and_its_notation() -> None:
    s = MODULE.new_game(seed=2)
    s.apply(s.legal_actions()[0])
    s.resign(0, "time", "flag fell: 0:00")
    out = s.outcome()
    assert out is not None and out.winner == 1 and out.reason == "time" and out.detail == "flag fell: 0:00"
    again = MODULE.parse_state(s.to_notation())
    assert again.outcome() == out and again.to_notation() == s.to_notation()
    with pytest.raises(IllegalAction):
        s.apply(0)


def test_resignation_in_a_match() -> None:
    rng = random.Random(4)
    for when in (0, 30, 70):
        s = MODULE.new_game(seed=4, options={"match": "best_of_3"})
        for _ in range(when):
            s.apply(rng.choice(s.legal_actions()))
        s.resign(1, "forfeit", "crashed")
        out = s.outcome()
        assert out is not None and out.winner == 0 and out.reason == "forfeit"
        assert MODULE.parse_state(s.to_notation()).to_notation() == s.to_notation()
        v = s.view(0)
        assert MODULE.parse_view(v.to_notation()).to_notation() == v.to_notation()


@pytest.mark.parametrize("bad", [
    "", "warmachine", "warmachine front=GIJBUR", "battleline x", "warmachine view=0",
    MODULE.new_game(seed=1).to_notation().replace("piles=", "piles=GI"),
    MODULE.new_game(seed=1).to_notation().replace("status=oooooo", "status=1ooooo"),
    MODULE.new_game(seed=1).to_notation() + " extra=1",
    MODULE.new_game(seed=1).to_notation().replace("phase=choose", "phase=draw:3"),
])
def test_bad_state_notation(bad: str) -> None:
    with pytest.raises(NotationError):
        MODULE.parse_state(bad)


def test_view_notation_hides_and_round_trips() -> None:
    s = MODULE.new_game(seed=8)
    rng = random.Random(8)
    for _ in range(9):
        s.apply(rng.choice(s.legal_actions()))
    for viewer in (0, 1, None):
        text = s.view(viewer).to_notation()
        assert text.startswith(f"warmachine view={'-' if viewer is None else viewer} ")
        with pytest.raises(NotationError):
            MODULE.parse_state(text)
        for pl in (0, 1):
            assert (s.view(viewer).to_dict()["hands"][pl] is None) == (pl != viewer)
    with pytest.raises(NotationError):
        MODULE.parse_view(s.to_notation())


@pytest.mark.parametrize("text", ["GI^3", "GIv6", "burn:UR", "draw:4", "take1", "take2", "take1:JB",
                                  "take2:GI+BU", "skip"])
def test_action_text_round_trips(text: str) -> None:
    s = MODULE.new_game(seed=0)
    assert s.action_to_text(s.parse_action(text)) == text


@pytest.mark.parametrize("text", ["GG^3", "GI^7", "GI^0", "GIx3", "burn:G", "draw:7", "take3", "take2:GI+GI",
                                  "gi^3", " ", "GI ^3", "burn:??"])
def test_bad_action_text(text: str) -> None:
    with pytest.raises(NotationError):
        MODULE.new_game(seed=0).parse_action(text)


def test_unknown_card_slots_are_exactly_the_hidden_cards() -> None:
    s = MODULE.new_game(seed=5)
    rng = random.Random(5)
    for _ in range(20):
        s.apply(rng.choice(s.legal_actions()))
    v = s.view(0).board
    hidden = sum(c == UNKNOWN for c in located(v))
    assert hidden == len(v.hands[1]) + v.support + len(v.burned_by[1])


@pytest.mark.slow
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_long_soak(options: dict[str, str]) -> None:
    for seed in range(100, 300):
        play_checked(options, seed, every=1)
