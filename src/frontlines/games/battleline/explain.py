"""Why an action is illegal, in words for the user interfaces.

:func:`why_not` goes through the rules that may forbid an action, in the order a player
would ask them, and names the first that does; it returns ``None`` exactly when the action
is legal. Its checks are the rule checks of ``moves.py`` (the claim window, the tactics
limit, leaders, battlefield bans, full sides, where a guile card's target lies) and the
claim proofs of ``claims.py``, the same functions the move generator calls; a test holds
the two to the same answer for every action of many positions, so an explanation cannot
drift from the generator.
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
    TROOP_MASK,
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
    NUM_FLAGS,
    OVER,
    PASS,
    PHASE_NAMES,
    PLAY,
    REDEPLOY_BASE,
    RETURN_BASE,
    SCOUT_DRAW,
    SCOUT_PLAY,
    SCOUT_RETURN,
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
    reason = why_not(t, action)
    return f"{text}: {reason}" if reason is not None else f"{text} is legal now"


def why_not(t: Table, action: int) -> str | None:
    """The first rule that forbids ``action`` (a valid action code) to the player to move,
    in words; ``None`` when none does: then the action is legal."""
    phase = t.phase
    if phase is OVER:
        return "the game is over"
    p = t.to_move
    name = PHASE_NAMES[phase]
    if CLAIM_BASE <= action < PASS:
        if not claim_window(t):
            return f"claims are not allowed now (claim_timing={t.cfg.claim_timing}, phase {name})"
        result = claim_result(t, action - CLAIM_BASE, p, exact=True)
        return None if result.claimable else result.reason
    if (
        phase is not PLAY
        and (action < CLAIM_BASE or action in (PASS, SCOUT_PLAY) or action >= REDEPLOY_BASE)
        and (phase is not EXCESS or action < EXCESS_BASE)
    ):
        return f"no card may be played now (phase {name})"
    if action < CLAIM_BASE or action == SCOUT_PLAY or REDEPLOY_BASE <= action < EXCESS_BASE:
        return _card_play(t, action, p)
    if action == PASS:
        return None if not _troop_play_possible(t, p) else "you may pass only when no troop card can be played"
    if action in (DRAW_TROOP, DRAW_TACTICS, SCOUT_TROOP, SCOUT_TACTICS):
        deck = t.tdeck if action in (DRAW_TROOP, SCOUT_TROOP) else t.xdeck
        if deck and (phase is SCOUT_DRAW if action in (SCOUT_TROOP, SCOUT_TACTICS) else phase is DRAW and _may_draw(t, p)):
            return None
        return f"that deck is empty, or it is not the time to draw (phase {name})"
    if action == END:
        if phase is DRAW:
            return "you must draw (phase draw)" if _may_draw(t, p) else None
        return f"not now (phase {name})"
    if RETURN_BASE <= action < REDEPLOY_BASE:
        if phase is SCOUT_RETURN and t.hands[p] >> (action - RETURN_BASE) & 1:
            return None
        return f"only during a Scout's return step, with a card from your hand (phase {name})"
    # a discard owed after Mud left (EXCESS_BASE + card)
    if phase is EXCESS and action - EXCESS_BASE in t.sides[t.excess[0]]:
        return None
    return f"not legal now (phase {name})"


def _may_draw(t: Table, p: int) -> bool:
    """The draw phase asks for a card: the hand is short and a deck holds one."""
    return t.hands[p].bit_count() < t.cfg.variant.hand_size and bool(t.tdeck or t.xdeck)


def _troop_play_possible(t: Table, p: int) -> bool:
    """Some troop card of ``p``'s hand has a free slot at a flag that takes it."""
    troops = t.hands[p] & TROOP_MASK
    if not troops:
        return False
    for f in range(NUM_FLAGS):
        if t.claimed[f] < 0 and not side_full(t, f, p):
            c = troops
            while c:
                low = c & -c
                if not forbidden(t, f, low.bit_length() - 1):
                    return True
                c ^= low
    return False


def _card_play(t: Table, action: int, p: int) -> str | None:
    """Why a card from the hand (a play at a flag, Scout, Redeploy, Deserter, Traitor) may not be played."""
    card = _card_of(action)
    if not t.hands[p] >> card & 1:
        return f"{card_code(card)} is not in your hand"
    if card >= NUM_TROOPS:
        if not t.cfg.variant.tactics:
            return "this ruleset has no tactics cards"
        if not can_play_tactic(t, p):
            return (f"tactics limit — you have played {t.tactics_played[p]} tactics, "
                    f"your opponent {t.tactics_played[1 - p]}")
        if leader_spent(t, p, card):
            return "you have already played a leader this game"
    if action < CLAIM_BASE:
        f = action % 9
        if t.claimed[f] >= 0:
            return f"flag {f + 1} is claimed"
        if forbidden(t, f, card):
            return f"{card_code(card)} may not be played at flag {f + 1} (battlefield)"
        if card in (FOG, MUD):
            if (t.fog if card == FOG else t.mud)[f] >= 0:
                return f"flag {f + 1} already has {'Fog' if card == FOG else 'Mud'}"
        elif side_full(t, f, p):
            return f"your side of flag {f + 1} is full"
        return None
    if action == SCOUT_PLAY:
        return None if t.tdeck or t.xdeck else "both decks are empty"
    return _guile(t, action, p)


def _guile(t: Table, action: int, p: int) -> str | None:
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
    return None
