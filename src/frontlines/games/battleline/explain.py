"""Why an action is illegal: a reason code for the user interfaces, and its English words.

:func:`why` goes through the rules that may forbid an action, in the order a player would
ask them, and names the first that does as a :class:`~frontlines.core.reasons.Reason`; it
returns ``None`` exactly when the action is legal. :data:`REASON_WORDS` gives each code its
English words (the terminal shows them; the web catalogs translate them), and
:func:`why_not` is the reason in those words. Its checks are the rule checks of ``moves.py`` (the claim window, the tactics
limit, leaders, battlefield bans, full sides, where a guile card's target lies) and the
claim proofs of ``claims.py``, the same functions the move generator calls; a test holds
the two to the same answer for every action of many positions, so an explanation cannot
drift from the generator.
"""

from __future__ import annotations

from typing import Any

from frontlines.core.errors import NotationError
from frontlines.core.reasons import Reason, english
from frontlines.games.battleline.cards import (
    DESERTER,
    FOG,
    MUD,
    NUM_CARDS,
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
    PLAY,
    PLAY_BASE,
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
from frontlines.games.battleline.medieval import load_set
from frontlines.games.battleline.moves import (
    can_play_tactic,
    claim_window,
    forbidden,
    guile_source,
    leader_spent,
    side_full,
)
from frontlines.games.battleline.reasons import REASON_WORDS
from frontlines.games.battleline.table import Table


def _card_of(action: int) -> int:
    """The card a play, Scout, Redeploy, Deserter or Traitor action spends from the hand."""
    if action < CLAIM_BASE:
        return action // 9
    if action == SCOUT_PLAY:
        return SCOUT
    return REDEPLOY if action < DESERTER_BASE else DESERTER if action < TRAITOR_BASE else TRAITOR


_CLAIM_TIMING = {"after_play": "claim_after_play", "start_of_turn": "claim_before_play"}


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
    """:func:`why` in English words; ``None`` when the action is legal."""
    reason = why(t, action)
    return None if reason is None else english(reason, REASON_WORDS)


def why(t: Table, action: int) -> Reason | None:
    """The first rule that forbids ``action`` (a valid action code) to the player to move;
    ``None`` when none does: then the action is legal."""
    phase = t.phase
    if phase is OVER:
        return Reason("game_over")
    p = t.to_move
    if CLAIM_BASE <= action < PASS:
        if not claim_window(t):
            return Reason(_CLAIM_TIMING.get(t.cfg.claim_timing, "claim_not_now"))
        result = claim_result(t, action - CLAIM_BASE, p, exact=True)
        return None if result.claimable else Reason.of("claim_unproven", flag=action - CLAIM_BASE + 1, proof=result.why)
    if (
        phase is not PLAY
        and (action < CLAIM_BASE or action in (PASS, SCOUT_PLAY) or action >= REDEPLOY_BASE)
        and (phase is not EXCESS or action < EXCESS_BASE)
    ):
        return Reason("draw_now") if phase is DRAW and _may_draw(t, p) else Reason("no_play_now")
    if action < CLAIM_BASE or action == SCOUT_PLAY or REDEPLOY_BASE <= action < EXCESS_BASE:
        return _card_play(t, action, p)
    if action == PASS:
        return None if not _troop_play_possible(t, p) else Reason("pass_troop_playable")
    if action in (DRAW_TROOP, DRAW_TACTICS, SCOUT_TROOP, SCOUT_TACTICS):
        troop = action in (DRAW_TROOP, SCOUT_TROOP)
        deck = t.tdeck if troop else t.xdeck
        scouting = action in (SCOUT_TROOP, SCOUT_TACTICS)
        if phase is not (SCOUT_DRAW if scouting else DRAW):
            return Reason("not_time_to_draw")
        if not deck:
            return Reason("troop_deck_empty" if troop else "tactics_deck_empty")
        return None if scouting or _may_draw(t, p) else Reason("no_draw")
    if action == END:
        if phase is DRAW:
            return Reason("must_draw") if _may_draw(t, p) else None
        return Reason("not_now")
    if RETURN_BASE <= action < REDEPLOY_BASE:
        if phase is not SCOUT_RETURN:
            return Reason("scout_return_only")
        card = action - RETURN_BASE
        return None if t.hands[p] >> card & 1 else Reason.of("not_in_hand", card=card_code(card))
    # a discard owed after Mud left (EXCESS_BASE + card)
    if phase is EXCESS and action - EXCESS_BASE in t.sides[t.excess[0]]:
        return None
    return Reason("not_now")


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


def _battlefield(t: Table, flag: int, card: int) -> Reason:
    """The face-up battlefield at ``flag`` refuses ``card``: which one and its rule."""
    field = load_set(t.cfg.get("battlefield_set", "plain")).cards[t.bf_ids[flag]]
    return Reason.of("battlefield_forbids", card=card_code(card), flag=flag + 1, battlefield=field.name, rule=field.text)


def _card_play(t: Table, action: int, p: int) -> Reason | None:
    """Why a card from the hand (a play at a flag, Scout, Redeploy, Deserter, Traitor) may not be played."""
    card = _card_of(action)
    if not t.hands[p] >> card & 1:
        return Reason.of("not_in_hand", card=card_code(card))
    if card >= NUM_TROOPS:
        if not can_play_tactic(t, p):
            return Reason.of("tactics_limit", mine=t.tactics_played[p], theirs=t.tactics_played[1 - p])
        if leader_spent(t, p, card):
            return Reason("leader_spent")
    if action < CLAIM_BASE:
        return _placement(t, action % 9, card, p)
    if action == SCOUT_PLAY:
        return None if t.tdeck or t.xdeck else Reason("decks_empty")
    return _guile(t, action, p)


def _guile(t: Table, action: int, p: int) -> Reason | None:
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
    if c in (FOG, MUD) and not t.cfg.guile_env:
        return Reason("guile_environment")
    source = guile_source(t, c, owner)
    if source < 0:
        return Reason.of("guile_not_yours" if owner == p else "guile_not_theirs", card=card_code(c))
    if t.claimed[source] >= 0:
        return Reason.of("guile_source_claimed", flag=source + 1)
    if target is None:
        return None
    if action < DESERTER_BASE and target == source:
        return Reason.of("redeploy_same_flag", card=card_code(REDEPLOY))
    return _placement(t, target, c, p)


def _placement(t: Table, f: int, card: int, p: int) -> Reason | None:
    """Why ``card`` may not go to ``p``'s side of flag ``f`` (played, redeployed or taken
    over there), or None."""
    if t.claimed[f] >= 0:
        return Reason.of("flag_claimed", flag=f + 1)
    if forbidden(t, f, card):
        return _battlefield(t, f, card)
    # (one Fog and one Mud: neither can meet its like at a flag; they take no slot)
    if card not in (FOG, MUD) and side_full(t, f, p):
        return Reason.of("side_full", flag=f + 1)
    return None


# Reasons that refuse a card whatever its target (checked before any flag or target).
_CARD_LEVEL = frozenset({"not_in_hand", "tactics_limit", "leader_spent", "decks_empty"})
# One action of each guile card, to ask the card-level rules with.
_GUILE_PROBE = {REDEPLOY: REDEPLOY_BASE + 9, DESERTER: DESERTER_BASE, TRAITOR: TRAITOR_BASE}


def refusals(t: Table, legal: list[int]) -> dict[str, Any] | None:
    """For the player to move in the play step (``t`` may be that player's view): why each
    card of the hand that cannot be played is refused (``cards``), and for each card that can,
    why each flag that refuses it does (``flags``), as reason dicts with their English
    words; ``None`` at any other step."""
    if t.phase is not PLAY:
        return None
    p = t.to_move
    allowed = set(legal)
    cards: dict[str, Any] = {}
    flags: dict[str, dict[str, Any]] = {}
    hand = t.hands[p]
    for c in range(NUM_CARDS):
        if not hand >> c & 1:
            continue
        code = card_code(c)
        if c == SCOUT:
            if SCOUT_PLAY not in allowed:
                cards[code] = _dict(why(t, SCOUT_PLAY))
            continue
        if c in _GUILE_PROBE:
            first, last = _GUILE_RANGE[c]
            if not any(first <= a < last for a in allowed):
                reason = why(t, _GUILE_PROBE[c])
                if reason is None or reason.code not in _CARD_LEVEL:
                    reason = Reason.of("no_target", card=code)
                cards[code] = _dict(reason)
            continue
        refused = {}
        for f in range(NUM_FLAGS):
            action = PLAY_BASE + c * 9 + f
            if action not in allowed:
                refused[str(f + 1)] = why(t, action)
        if len(refused) == NUM_FLAGS:
            found = {r for r in refused.values() if r is not None}
            only = next(iter(found)) if len(found) == 1 else None
            cards[code] = _dict(only if only is not None and only.code in _CARD_LEVEL else Reason.of("no_flag", card=code))
        if refused and (len(refused) < NUM_FLAGS or (code in cards and cards[code]["code"] == "no_flag")):
            flags[code] = {f: _dict(r) for f, r in refused.items() if r is not None}
    return {"cards": cards, "flags": flags}


_GUILE_RANGE = {REDEPLOY: (REDEPLOY_BASE, DESERTER_BASE), DESERTER: (DESERTER_BASE, TRAITOR_BASE),
                TRAITOR: (TRAITOR_BASE, EXCESS_BASE)}


def _dict(reason: Reason | None) -> dict[str, Any]:
    return (reason or Reason("not_legal")).to_dict(REASON_WORDS)
