"""The one record behind a Battle Line state and its views (games/battleline/table.py)."""

from __future__ import annotations

import random

import pytest

from frontlines.games import new_state
from frontlines.games.battleline.state import BattleLineState
from frontlines.games.battleline.table import TABLE_FIELDS, Table, values

RULESETS = ["battleline", "battleline-basic", "schotten-totten", "schotten-totten-tactics", "medieval"]


def _positions(ruleset: str, games: int = 2) -> list[BattleLineState]:
    """Positions of random games, every 7th action, to the end."""
    out = []
    rng = random.Random(ruleset)
    for seed in range(games):
        s = new_state(ruleset, seed=seed)
        assert isinstance(s, BattleLineState)
        step = 0
        while not s.is_terminal():
            if step % 7 == 0:
                out.append(s.clone())
            s.apply(rng.choice(s.legal_actions()))
            step += 1
        out.append(s)
    return out


@pytest.mark.parametrize("ruleset", RULESETS)
def test_copies_and_undo_carry_every_field(ruleset: str) -> None:
    for s in _positions(ruleset, 1):
        legal = s.legal_actions()
        fields = values(s)
        assert values(s.clone()) == fields
        if legal:
            s.push(legal[-1])
            assert values(s) != fields
            s.pop()
            assert values(s) == fields


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_view_lists_the_movers_actions_from_its_own_record(ruleset: str) -> None:
    for s in _positions(ruleset):
        mover = s.current_player()
        if mover is None:
            assert s.view(0).legal_actions() == s.view(1).legal_actions() == []
            continue
        v = s.view(mover)
        assert v.legal_cache is None  # not the state's list carried over: the view's own answer
        assert v.legal_actions() == s.legal_actions()
        assert s.view(1 - mover).legal_actions() == s.view(None).legal_actions() == []


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_view_and_its_samples_agree_on_every_public_field(ruleset: str) -> None:
    hidden = {"hands", "hand_unknown", "tdeck", "xdeck", "known", "legal_cache", "masks", "memo"}
    rng = random.Random(1)
    for s in _positions(ruleset):
        for viewer in (0, 1, None):
            v = s.view(viewer)
            sample = v.sample(rng)
            for name in TABLE_FIELDS:
                if name not in hidden:
                    assert getattr(v, name) == getattr(s, name) == getattr(sample, name), name
            assert len(sample.tdeck) == len(s.tdeck) and len(sample.xdeck) == len(s.xdeck)
            assert [sample.hand_count(p) for p in (0, 1)] == [s.hand_count(p) for p in (0, 1)]


def test_the_record_is_a_plain_dataclass() -> None:
    # copies go through the constructor (no __new__ and slot filling): a new field needs
    # no copying code, and compiled classes accept it
    assert TABLE_FIELDS[0] == "cfg" and len(set(TABLE_FIELDS)) == len(TABLE_FIELDS)
    s = new_state("battleline", seed=3)
    assert isinstance(s, Table)
    assert Table(*values(s)).sides == s.sides
