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
from frontlines.games.battleline.cards import NUM_CARDS, TACTICS_MASK, card_code, parse_card
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


def reference_legal(s: BattleLineState) -> set[str]:
    """The legal actions, written again straight from the rules as text (a slow oracle
    independent of the generator's codes and tables)."""
    if s.is_terminal():
        return set()
    out: set[str] = set()
    phase = ("play", "draw", "scout", "return", "excess")[s.phase]
    if phase == "excess":
        return {f"discard:{card_code(c)}" for c in s.sides[s.excess[0]]}
    p, q = s.to_move, 1 - s.to_move
    timing = s.cfg.get("claim_timing")
    window = (
        (phase == "play" and timing in ("before_draw", "start_of_turn"))
        or (phase == "draw" and timing in ("before_draw", "after_play"))
        or (phase == "scout" and timing in ("before_draw", "after_play") and s.scout_left == s.scout_n)
    )
    unclaimed = [f for f in range(9) if s.claimed[f] < 0]
    if window:
        for f in unclaimed:
            if len(s.sides[f * 2 + p]) >= s.capacity(f) and s.claim_result(f, p, exact=True).claimable:
                out.add(f"claim:{f + 1}")
    hand = [c for c in range(NUM_CARDS) if s.hands[p] >> c & 1]
    if phase == "play":
        free = [f for f in unclaimed if len(s.sides[f * 2 + p]) < s.capacity(f)]

        def allowed(c: int, f: int) -> bool:
            return not s.effects[f].forbid >> c & 1

        troop_plays = {f"{card_code(c)}@{f + 1}" for c in hand if c < 60 for f in free if allowed(c, f)}
        out |= troop_plays
        if not troop_plays:
            out.add("pass")
        if s.cfg.variant.tactics and s.tactics_played[p] <= s.tactics_played[q]:
            codes = {card_code(c) for c in hand}
            leader_ok = not s.leaders >> p & 1
            for code in ("AL", "DA", "CC", "SB"):
                if code in codes and (code in ("CC", "SB") or leader_ok):
                    out |= {f"{code}@{f + 1}" for f in free if allowed(parse_card(code), f)}
            for code, where in (("FO", s.fog), ("MU", s.mud)):
                if code in codes:
                    out |= {f"{code}@{f + 1}" for f in unclaimed if where[f] < 0 and allowed(parse_card(code), f)}
            if "SC" in codes and (s.tdeck or s.xdeck):
                out.add("SC")
            env = s.cfg.get("guile_can_target_environment") == "true"
            if "RE" in codes:
                for f in unclaimed:
                    for c in s.sides[f * 2 + p]:
                        out.add(f"RE:{card_code(c)}>x")
                        out |= {f"RE:{card_code(c)}>{g + 1}" for g in free if g != f and allowed(c, g)}
                    if env:
                        for code, where in (("FO", s.fog), ("MU", s.mud)):
                            if where[f] == p:
                                out.add(f"RE:{code}>x")
                                out |= {f"RE:{code}>{g + 1}" for g in unclaimed
                                        if g != f and allowed(parse_card(code), g)}
            if "DE" in codes:
                for f in unclaimed:
                    out |= {f"DE:{card_code(c)}" for c in s.sides[f * 2 + q]}
                    if env:
                        out |= {f"DE:{code}" for code, where in (("FO", s.fog), ("MU", s.mud)) if where[f] == q}
            if "TR" in codes:
                for f in unclaimed:
                    for c in s.sides[f * 2 + q]:
                        if c < 60:
                            out |= {f"TR:{card_code(c)}>{g + 1}" for g in free if allowed(c, g)}
    elif phase == "draw":
        if len(hand) < s.cfg.variant.hand_size and (s.tdeck or s.xdeck):
            out |= {"draw:troop"} if s.tdeck else set()
            out |= {"draw:tactics"} if s.xdeck else set()
        else:
            out.add("end")
    elif phase == "scout":
        out |= {"scout:troop"} if s.tdeck else set()
        out |= {"scout:tactics"} if s.xdeck else set()
    else:
        out |= {f"return:{card_code(c)}" for c in hand}
    return out


def soak(ruleset: str, options: dict[str, str], games: int, seed: int, max_missing: int = 1) -> None:
    rng = random.Random(seed)
    for g in range(games):
        s = new_state(ruleset, seed=seed * 1000 + g, options=options)
        assert isinstance(s, BattleLineState)
        steps = 0
        while not s.is_terminal():
            legal = cast(list[int], s.legal_actions())
            assert legal and len(set(legal)) == len(legal)
            if steps % 3 == 0:
                assert {s.action_to_text(a) for a in legal} == reference_legal(s)
            if steps % 7 == 0:
                for viewer in (0, 1, None):
                    view = s.view(viewer)
                    sample = view.sample(rng)
                    check_cards(sample)
                    assert sample.view(viewer).to_notation() == view.to_notation()
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
        check_outcome(s)


def check_outcome(s: BattleLineState) -> None:
    """The outcome agrees with the flags on the table (docs/rules.md §2.3, §2.14)."""
    out = s.outcome()
    assert out is not None
    held = [[f for f in range(9) if s.claimed[f] == p] for p in (0, 1)]
    if out.reason == "breakthrough":
        assert out.winner is not None and any(f + 1 in held[out.winner] and f + 2 in held[out.winner]
                                              for f in held[out.winner])
    elif out.reason == "envelopment":
        assert out.winner is not None and len(held[out.winner]) >= 5
    else:
        assert out.reason == "stall", out
        assert out.winner is None or len(held[out.winner]) > len(held[1 - out.winner])


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
