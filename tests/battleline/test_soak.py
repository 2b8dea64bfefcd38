"""Random-play soak over every ruleset and option, checking invariants after each action.

Short by default; ``FRONTLINES_SLOW=1`` runs the long version (``@pytest.mark.slow``).
"""

from __future__ import annotations

import itertools
import random
from typing import cast

import pytest

from frontlines.core.errors import IllegalAction
from frontlines.games import new_state
from frontlines.games.battleline.cards import NUM_CARDS, TACTICS_MASK
from frontlines.games.battleline.formations import evaluate
from frontlines.games.battleline.notation import check_cards, table_mask
from frontlines.games.battleline.rules import RULESETS
from frontlines.games.battleline.state import (
    CLAIM_BASE,
    NUM_ACTIONS,
    PASS,
    RETURN_BASE,
    SCOUT_DRAW,
    SCOUT_RETURN,
    BattleLineState,
)


def option_sets(ruleset: str) -> list[dict[str, str]]:
    """Every combination of the ruleset's options (first_player aside)."""
    spec = next(r for r in RULESETS if r.name == ruleset)
    names = [o for o in spec.options if o.name != "first_player"]
    combos = itertools.product(*(o.choices for o in names))
    return [dict(zip((o.name for o in names), combo, strict=True)) for combo in combos]


def check_invariants(s: BattleLineState) -> None:
    check_cards(s)  # every card in exactly one place
    assert s.public == table_mask(s)
    size = s.cfg.variant.hand_size
    for p in (0, 1):
        limit = size + 3 if s.phase in (SCOUT_DRAW, SCOUT_RETURN) and p == s.to_move else size
        assert s.hand_count(p) <= limit
        assert s.tactics_played[p] <= s.tactics_played[1 - p] + 1
        assert not s.known[p] & s.hands[p], "own hand is never 'known place' knowledge"
    for i, side in enumerate(s.sides):
        assert (len(side) >= s.capacity(i // 2)) == (s.completed[i] >= 0)
        assert len(side) <= s.capacity(i // 2) or s.cfg.guile_env
    if not s.cfg.variant.tactics:
        assert not (s.hands[0] | s.hands[1]) & TACTICS_MASK


def brute_force_claimable(s: BattleLineState, flag: int, player: int, max_missing: int) -> bool | None:
    """Independent check of a proof against an incomplete side by enumerating every
    completion from the unseen troops (``None`` when too many cards are missing)."""
    cap = s.capacity(flag)
    mine = s.side_cards(flag, player)
    theirs = s.sides[flag * 2 + 1 - player]
    need = cap - len(theirs)
    eff = s.effects[flag]
    if need <= 0 or need > max_missing or eff.both_complete or eff.tie_last:
        return None
    if s.cfg.stall_b and s.hands[1 - player] == 0 and not s.tdeck and not s.xdeck:
        return True
    fog = s.is_fog(flag)
    unseen = s.cfg.variant.troop_mask & ~s.public & ~s.effects[flag].forbid
    pool = [c for c in range(NUM_CARDS) if unseen >> c & 1]
    best = evaluate(mine, fog, s.rules)
    return all(evaluate(theirs + extra, fog, s.rules) <= best for extra in itertools.combinations(pool, need))


def soak(ruleset: str, options: dict[str, str], games: int, seed: int, max_missing: int = 1) -> None:
    rng = random.Random(seed)
    for g in range(games):
        s = new_state(ruleset, seed=seed * 1000 + g, options=options)
        assert isinstance(s, BattleLineState)
        steps = 0
        while not s.is_terminal():
            legal = cast(list[int], s.legal_actions())
            assert legal and len(set(legal)) == len(legal)
            if steps % 11 == 0:
                # exactness: nothing outside the list is accepted (sampled codes)
                for a in rng.sample(range(NUM_ACTIONS), 40):
                    if a not in legal:
                        before = s.to_notation()
                        with pytest.raises(IllegalAction):
                            s.apply(a)
                        assert s.to_notation() == before
                twin = s.clone()
                a = rng.choice(legal)
                s.push(a)
                assert s.pop() == a
                assert s.to_notation() == twin.to_notation()
            claims = [a for a in legal if CLAIM_BASE <= a < PASS]
            action = claims[0] if claims and rng.random() < 0.5 else rng.choice(legal)
            if CLAIM_BASE <= action < PASS:
                assert s.claim_result(action - CLAIM_BASE, s.to_move, exact=True).claimable
                assert brute_force_claimable(s, action - CLAIM_BASE, s.to_move, max_missing) in (True, None)
            if steps % 5 == 0 and s.claim_window():
                # flags not offered are really not claimable (complete sides only)
                for f in range(9):
                    if CLAIM_BASE + f not in legal and s.claimed[f] < 0 and s.completed[f * 2 + s.to_move] >= 0:
                        assert brute_force_claimable(s, f, s.to_move, max_missing) in (False, None)
            if RETURN_BASE <= action < RETURN_BASE + NUM_CARDS:
                assert s.phase == SCOUT_RETURN
            s.apply(action)
            check_invariants(s)
            steps += 1
            assert steps < 3000
        assert s.outcome() is not None


@pytest.mark.parametrize("ruleset", [r.name for r in RULESETS])
def test_soak_short(ruleset: str) -> None:
    sets = option_sets(ruleset)
    rng = random.Random(ruleset)
    for options in rng.sample(sets, min(3, len(sets))):
        soak(ruleset, options, games=2, seed=rng.randrange(10**6))


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", [r.name for r in RULESETS])
def test_soak_long(ruleset: str) -> None:
    sets = option_sets(ruleset)
    rng = random.Random(ruleset)
    for k, options in enumerate(rng.sample(sets, min(24, len(sets)))):
        soak(ruleset, options, games=20, seed=k, max_missing=2)
