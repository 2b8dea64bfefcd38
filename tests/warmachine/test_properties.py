"""Property tests: any option set, any seed, any random line of play keeps the invariants."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from frontlines.core.errors import NotationError
from frontlines.games.warmachine import MODULE, WarMachineView
from frontlines.games.warmachine.options import OPTIONS

from .test_soak import check_invariants, check_views

option_sets = st.fixed_dictionaries({o.name: st.sampled_from(o.choices) for o in OPTIONS})


@settings(max_examples=25, deadline=None)
@given(options=option_sets, seed=st.integers(0, 2**40), line=st.integers(0, 2**32))
def test_any_options_any_game(options: dict[str, str], seed: int, line: int) -> None:
    rng = random.Random(line)
    s = MODULE.new_game(seed=seed, options=options)
    steps = 0
    while not s.is_terminal():
        check_invariants(s)
        if steps % 9 == 0:
            check_views(s, rng)
            assert MODULE.parse_state(s.to_notation()).to_notation() == s.to_notation()
        before = s.to_notation()
        a = rng.choice(s.legal_actions())
        s.push(a)
        if steps % 5 == 0:  # undo and redo leave no trace
            assert s.pop() == a and s.to_notation() == before
            s.push(a)
        steps += 1
    check_invariants(s)
    check_views(s, rng)
    out = s.outcome()
    assert out is not None and out.winner in (0, 1, None)


def _positions() -> list[str]:
    out = []
    rng = random.Random(0)
    for seed, options in enumerate([{}, {"match": "best_of_3", "leftover_choice_blind": "false"}]):
        s = MODULE.new_game(seed=seed, options=options)
        while not s.is_terminal():
            out.append(s.to_notation())
            out.append(s.view(s.current_player()).to_notation())
            s.apply(rng.choice(s.legal_actions()))
        out.append(s.to_notation())
    return out


POSITIONS = _positions()


def test_a_view_whose_seen_start_cards_do_not_fit_the_hidden_ones_is_refused() -> None:
    """Found by the mangling test: the opponent's seen start cards (``dealt=``) not on the table
    are in its hand or face-down burns, so they cannot outnumber its hidden cards; such a view
    was accepted and its samples failed with a ValueError."""
    good = ("warmachine view=0 opts=leftover_choice_blind:false,match:best_of_3 front=R^IvGvB^U^Jv "
            "piles=4,4,4,4,4,4 hands=IU/???? sides=:/:/:/:/:/: status=oooooo burned=// leftover= "
            "dealt=IU/BJBR shuffler=1 first=0 to=0 phase=play match=?:2:15-0-0")
    MODULE.parse_view(good).sample(random.Random(1)).legal_actions()
    with pytest.raises(NotationError, match="hidden cards"):
        MODULE.parse_view(good.replace("dealt=IU/BJBR", "dealt=IU/BIBJBR"))


@settings(max_examples=600, deadline=None)
@given(index=st.integers(0, len(POSITIONS) - 1), cut=st.integers(0, 400), junk=st.text(alphabet="GIJBURv^?/:=,01239xop- ", max_size=4) | st.text(max_size=3))
def test_mangled_notation_is_rejected_cleanly(index: int, cut: int, junk: str) -> None:
    text = POSITIONS[index]
    cut %= len(text) + 1
    mangled = text[:cut] + junk + text[cut + len(junk) // 2 :]
    parse = MODULE.parse_view if " view=" in text else MODULE.parse_state
    try:
        again = parse(mangled)
    except NotationError:
        return
    assert parse(again.to_notation()).to_notation() == again.to_notation()
    # whatever is accepted is usable: actions, views, samples
    again.legal_actions()
    views = [again] if isinstance(again, WarMachineView) else [again.view(v) for v in (0, 1, None)]
    for v in views:
        v.to_dict()
        v.sample(random.Random(1)).legal_actions()
