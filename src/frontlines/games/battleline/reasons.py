"""The English words of the Battle Line family's refusal reasons (``explain.why`` gives the
codes; the terminal shows these words, the web catalogs translate them as message ids).

Kept apart from ``explain`` so that the game module lists them without loading the rules.
"""

from __future__ import annotations

# The English words of every reason code (``{name}`` fields are the reason's parameters:
# ``card`` a card code, ``flag`` a flag number 1-9, ``battlefield``/``rule`` a Medieval
# battlefield's name and text, ``proof`` a claim proof's own reason).
REASON_WORDS: dict[str, str] = {
    "not_legal": "that move is not legal now",
    "game_over": "the game is over",
    "not_now": "not now: not at this step of the turn",
    "no_play_now": "no card may be played now",
    "draw_now": "no card may be played now: you have played this turn, now draw a card",
    "not_time_to_draw": "not now: it is not the time to draw",
    "scout_return_only": "not now: cards go back on a deck only in a Scout's return step",
    "claim_not_now": "claim timing: flags may be claimed any time before drawing, not now",
    "claim_after_play": "claim timing: flags may be claimed only after playing a card",
    "claim_before_play": "claim timing: flags may be claimed only before playing a card",
    "claim_unproven": "{proof}",
    "not_in_hand": "{card} is not in your hand",
    "tactics_limit": "tactics limit: tactics cards played, you {mine} and your opponent {theirs}; you may never lead by two",
    "leader_spent": "you have already played a leader this game (one per player)",
    "flag_claimed": "flag {flag} is already claimed",
    "battlefield_forbids": "the battlefield {battlefield} at flag {flag} refuses {card} ({rule})",
    "side_full": "your side of flag {flag} is full",
    "decks_empty": "both decks are empty",
    "pass_troop_playable": "you may pass only when no troop card can be played",
    "troop_deck_empty": "the troop deck is empty",
    "tactics_deck_empty": "the tactics deck is empty",
    "must_draw": "you must draw a card first",
    "no_draw": "there is nothing to draw: your hand is full or the decks are empty",
    "guile_environment": "Fog and Mud stay where they are under this game's rules",
    "guile_not_yours": "{card} is not one of your cards at an unclaimed flag",
    "guile_not_theirs": "{card} is not one of your opponent's cards at an unclaimed flag",
    "guile_source_claimed": "flag {flag} is claimed: its cards can no longer be moved",
    "redeploy_same_flag": "{card} moves a card to another flag",
    "no_target": "there is no card at an unclaimed flag that {card} could take",
    "no_flag": "no flag can take {card} now",
}
