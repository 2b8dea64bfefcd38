"""War Machine's refusal reasons (docs/rules.md §6.3): ``why_not`` names a rule exactly when
an action is illegal, each code of ``REASON_WORDS`` turns up in play with its parameters
right, and the view's ``refusals`` carry the reasons for the player to move."""

from __future__ import annotations

import random

from frontlines.core.reasons import Reason, english
from frontlines.games.warmachine import MODULE
from frontlines.games.warmachine.cards import COUNTRY_NAMES, card_code
from frontlines.games.warmachine.engine import WarMachineState
from frontlines.games.warmachine.reasons import REASON_WORDS
from frontlines.games.warmachine.rules import BURN, DRAW_A, SKIP

# every action value the game knows, legal or not, in its phases
ACTIONS = [*range(432), *(BURN + c for c in range(36)), *(DRAW_A + p for p in range(6)), SKIP]


def _check(s: WarMachineState, seen: dict[str, Reason]) -> None:
    b = s.board
    legal = set(s.legal_actions())
    for a in ACTIONS:
        reason = s.why_not(a)
        assert (reason is None) == (a in legal), (s.to_notation(), a, reason)
        if reason is None:
            continue
        seen.setdefault(reason.code, reason)
        words = english(reason, REASON_WORDS)
        assert "{" not in words
        if reason.code in ("own_country", "opponent_country", "fixed_country"):
            c, orient, p = a // 12, (a // 6) & 1, a % 6
            assert reason.get("position") == p + 1
            up = COUNTRY_NAMES[c // 6 if orient == 0 else c % 6]
            if reason.code == "own_country":
                assert reason.get("country") == up == COUNTRY_NAMES[b.front_country[p]]
            elif reason.code == "opponent_country":
                assert reason.get("country") == up
            else:
                assert reason.get("country") == COUNTRY_NAMES[b.colour[p][b.to_move]] != up
        if reason.code == "not_in_hand":
            assert reason.get("card") == card_code(a // 12 if a < 432 else a - BURN)


def test_reasons_agree_with_the_rules_through_whole_games() -> None:
    seen: dict[str, Reason] = {}
    for seed, options in ((1, {}), (2, {"burn_anytime": "false"}), (3, {"pending_closed": "false"}), (4, {})):
        s = MODULE.new_game(seed=seed, options=options)
        rng = random.Random(seed)
        while not s.is_terminal():
            if s.board.phase in (1, 2):  # play and draw steps
                _check(s, seen)
            s.apply(rng.choice(s.legal_actions()))
        assert s.why_not(ACTIONS[0]) == Reason("game_over")
    expected = set(REASON_WORDS) - {"not_legal", "game_over", "not_now", "no_place", "no_support", "skip_not_allowed"}
    assert expected <= set(seen), expected - set(seen)


def test_burning_without_support_and_skipping_are_refused() -> None:
    s = MODULE.new_game(seed=5)
    while s.board.phase != 1:
        s.apply(s.legal_actions()[0])
    assert s.why_not(SKIP) == Reason("skip_not_allowed")
    card = s.board.hands[s.board.to_move][0]
    s.board.support = 0  # the last support card gone (a test-only edit of the board)
    assert s.why_not(BURN + card) == Reason("no_support")
    assert s.why_not("burn") == Reason("not_legal")


def test_the_view_lists_refused_places_for_the_player_to_move() -> None:
    s = MODULE.new_game(seed=3)
    while s.board.phase != 1:
        s.apply(s.legal_actions()[0])
    me = s.current_player()
    assert me is not None
    refusals = s.view(me).to_dict()["refusals"]
    assert refusals is not None and refusals["deploy"]
    for code, places in refusals["deploy"].items():
        for key, reason in places.items():
            end, position = key.split(":")
            text = f"{code}{'^' if end == 'war_machine' else 'v'}{position}"
            expected = s.why_not(s.parse_action(text))
            assert expected is not None and reason == expected.to_dict(REASON_WORDS)
    assert s.view(1 - me).to_dict()["refusals"] is None


def test_a_refused_card_has_no_legal_move_at_all() -> None:
    """A card the view calls refused can be neither sent nor burned (under burn_anytime=false
    some are); every other card of the hand has a legal move."""
    refused_seen = 0
    for seed, options in ((0, {"burn_anytime": "false"}), (1, {})):
        s = MODULE.new_game(seed=seed, options=options)
        rng = random.Random(seed)
        while not s.is_terminal():
            if s.board.phase == 1:
                me = s.current_player()
                assert me is not None
                d = s.view(me).to_dict()
                playable = {e["card"] for e in d["legal"] if "card" in e}
                refused = set(d["refusals"]["cards"])
                assert not refused & playable and refused | playable == set(d["hands"][me])
                refused_seen += len(refused)
                for reason in d["refusals"]["cards"].values():
                    assert reason["code"] == "no_place" and reason["params"]["burn"]["code"] in ("burn_only_forced", "no_support")
            s.apply(rng.choice(s.legal_actions()))
    assert refused_seen
