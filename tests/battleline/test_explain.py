"""Explanations and the move generator apply the same rules: ``explain.why_not`` names a
rule against an action exactly when the action is not among the legal ones."""

from __future__ import annotations

import random

import pytest

from frontlines.core.errors import NotationError
from frontlines.games import new_state
from frontlines.games.battleline.codes import NUM_ACTIONS, action_to_text
from frontlines.games.battleline.explain import explain_illegal, why_not
from frontlines.games.battleline.notation import build_state
from frontlines.games.battleline.state import BattleLineState


def _valid(a: int) -> bool:
    try:
        action_to_text(a)
    except NotationError:
        return False
    return True


ACTIONS = [a for a in range(NUM_ACTIONS) if _valid(a)]

CASES = [
    ("battleline", {}),
    ("battleline", {"guile_can_target_environment": "true", "mud_removed_excess": "owner_discards"}),
    ("battleline", {"claim_timing": "start_of_turn", "stall_rule": "draw_after_passes"}),
    ("battleline-basic", {}),
    ("schotten-totten", {}),
    ("schotten-totten-tactics", {"scout_short_deck": "return_drawn_minus_one"}),
    ("medieval", {"battlefields": "face_up", "battlefield_set": "house"}),
]


@pytest.mark.parametrize(("ruleset", "options"), CASES)
def test_why_not_agrees_with_the_generator_on_every_action(ruleset: str, options: dict[str, str]) -> None:
    rng = random.Random(ruleset + str(sorted(options.items())))
    checked = 0
    for seed in range(2):
        s = new_state(ruleset, seed=seed, options=options)
        assert isinstance(s, BattleLineState)
        step = 0
        while True:
            if step % 3 == 0 or s.is_terminal():
                legal = set(s.legal_actions())
                for a in ACTIONS:
                    reason = why_not(s, a)
                    assert (reason is None) == (a in legal), (s.to_notation(), action_to_text(a), reason)
                    if reason is not None:
                        assert explain_illegal(s, a) == f"{action_to_text(a)}: {reason}"
                checked += 1
            if s.is_terminal():
                break
            s.apply(rng.choice(s.legal_actions()))
            step += 1
    assert checked > 20


def test_why_not_agrees_through_a_scout_and_a_mud_excess() -> None:
    # the phases random play rarely reaches: Scout's draws and returns, discards owed when Mud goes
    lines = [
        ("ruleset=battleline h0=SC.R1.R2.R3.R4.R5.R6 h1=B1 td=G1.G2.G3 xd=AL.DA",
         ["SC", "scout:troop", "scout:tactics", "scout:troop", "return:R1", "return:AL"]),
        ("ruleset=battleline opts=guile_can_target_environment:true,mud_removed_excess:owner_discards n=10 tp=0.1 "
         "f1=-/R1.R2.R3.R4:4/B1.B2.B3.B4:5/M1 h0=DE.R9 h1=B9", ["DE:MU", "discard:R2", "discard:B3", "draw:troop"]),
    ]
    for fragment, moves in lines:
        s = build_state(fragment)
        for text in [*moves, None]:
            legal = set(s.legal_actions())
            for a in ACTIONS:
                assert (why_not(s, a) is None) == (a in legal), (s.to_notation(), action_to_text(a))
            if text is not None:
                s.apply(s.parse_action(text))
