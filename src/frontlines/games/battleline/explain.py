"""Why an action is illegal, in words for the user interfaces.

The reasons come from the rule checks of ``moves.py`` (the claim window, the tactics
limit, leaders, battlefield bans, full sides, where a guile card's target lies) and from
the claim proofs of ``claims.py``: the same functions the move generator calls, so a
reason cannot name a rule the generator does not apply.
"""

from __future__ import annotations

from frontlines.core.errors import NotationError
from frontlines.games.battleline.cards import (
    DESERTER,
    FOG,
    MUD,
    NUM_TROOPS,
    REDEPLOY,
    SCOUT,
    TRAITOR,
    card_code,
)
from frontlines.games.battleline.claims import claim_result
from frontlines.games.battleline.codes import (
    CLAIM_BASE,
    DESERTER_BASE,
    DRAW,
    DRAW_TACTICS,
    DRAW_TROOP,
    END,
    EXCESS,
    EXCESS_BASE,
    NUM_ACTIONS,
    OVER,
    PASS,
    PHASE_NAMES,
    PLAY,
    REDEPLOY_BASE,
    RETURN_BASE,
    SCOUT_PLAY,
    SCOUT_TACTICS,
    SCOUT_TROOP,
    TRAITOR_BASE,
    action_to_text,
)
from frontlines.games.battleline.moves import (
    can_play_tactic,
    claim_window,
    forbidden,
    guile_source,
    leader_spent,
    side_full,
)
from frontlines.games.battleline.table import Table


def _card_of(action: int) -> int:
    """The card a play, Scout, Redeploy, Deserter or Traitor action spends from the hand."""
    if action < CLAIM_BASE:
        return action // 9
    if action == SCOUT_PLAY:
        return SCOUT
    return REDEPLOY if action < DESERTER_BASE else DESERTER if action < TRAITOR_BASE else TRAITOR


def explain_illegal(t: Table, action: object) -> str:
    """A precise reason why ``action`` is not legal for the player to move."""
    if type(action) is not int or not 0 <= action < NUM_ACTIONS:
        return f"not a Battle Line action: {action!r}"
    try:
        text = action_to_text(action)
    except NotationError:
        return f"not a Battle Line action: {action!r}"
    if t.phase == OVER:
        return f"{text}: the game is over"
    p = t.to_move
    phase = PHASE_NAMES[t.phase]
    if CLAIM_BASE <= action < PASS:
        if not claim_window(t):
            return f"{text}: claims are not allowed now (claim_timing={t.cfg.claim_timing}, phase {phase})"
        return f"{text}: {claim_result(t, action - CLAIM_BASE, p, exact=True).reason}"
    if (
        t.phase != PLAY
        and (action < CLAIM_BASE or action in (PASS, SCOUT_PLAY) or action >= REDEPLOY_BASE)
        and (t.phase != EXCESS or action < EXCESS_BASE)
    ):
        return f"{text}: no card may be played now (phase {phase})"
    if action < CLAIM_BASE or action == SCOUT_PLAY or REDEPLOY_BASE <= action < EXCESS_BASE:
        card = _card_of(action)
        if not t.hands[p] >> card & 1:
            return f"{text}: {card_code(card)} is not in your hand"
        if card >= NUM_TROOPS:
            if not t.cfg.variant.tactics:
                return f"{text}: this ruleset has no tactics cards"
            if not can_play_tactic(t, p):
                return (f"{text}: tactics limit — you have played {t.tactics_played[p]} tactics, "
                        f"your opponent {t.tactics_played[1 - p]}")
            if leader_spent(t, p, card):
                return f"{text}: you have already played a leader this game"
        if action < CLAIM_BASE:
            f = action % 9
            if t.claimed[f] >= 0:
                return f"{text}: flag {f + 1} is claimed"
            if forbidden(t, f, card):
                return f"{text}: {card_code(card)} may not be played at flag {f + 1} (battlefield)"
            if card not in (FOG, MUD) and side_full(t, f, p):
                return f"{text}: your side of flag {f + 1} is full"
        if action == SCOUT_PLAY:
            return f"{text}: both decks are empty"
        return f"{text}: {_explain_guile(t, action, p)}"
    if action == PASS:
        return f"{text}: you may pass only when no troop card can be played"
    if action in (DRAW_TROOP, DRAW_TACTICS, SCOUT_TROOP, SCOUT_TACTICS):
        return f"{text}: that deck is empty, or it is not the time to draw (phase {phase})"
    if action == END:
        return f"{text}: you must draw (phase {phase})" if t.phase == DRAW else f"{text}: not now (phase {phase})"
    if RETURN_BASE <= action < REDEPLOY_BASE:
        return f"{text}: only during a Scout's return step, with a card from your hand (phase {phase})"
    return f"{text}: not legal now (phase {phase})"


def _explain_guile(t: Table, action: int, p: int) -> str:
    """Why a Redeploy, Deserter or Traitor target is wrong."""
    target: int | None
    if action < DESERTER_BASE:
        c, g = divmod(action - REDEPLOY_BASE, 10)
        owner, target = p, (None if g == 9 else g)
    elif action < TRAITOR_BASE:
        c, owner, target = action - DESERTER_BASE, 1 - p, None
    else:
        c, g = divmod(action - TRAITOR_BASE, 9)
        owner, target = 1 - p, g
    whose = "your" if owner == p else "your opponent's"
    if c in (FOG, MUD) and not t.cfg.guile_env:
        return "Fog and Mud stay where they are (guile_can_target_environment=false)"
    source = guile_source(t, c, owner)
    if source < 0:
        return f"{card_code(c)} is not one of {whose} cards at a flag"
    if t.claimed[source] >= 0:
        return f"flag {source + 1} is claimed: its cards can no longer be moved"
    if target is not None:
        if action < DESERTER_BASE and target == source:
            return "Redeploy moves a card to another flag"
        if t.claimed[target] >= 0:
            return f"flag {target + 1} is claimed"
        if forbidden(t, target, c):
            return f"{card_code(c)} may not go to flag {target + 1} (battlefield)"
        if c not in (FOG, MUD) and side_full(t, target, p):
            return f"your side of flag {target + 1} is full"
    return "not a legal target"
