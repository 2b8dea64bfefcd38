"""The English words of the Battle Line family's refusal reasons (``explain.why`` gives the
codes; the terminal shows these words, the web catalogs translate them as message ids).

Kept apart from ``explain`` so that the game module lists them without loading the rules.
"""

from __future__ import annotations

# The words of a claim's proof (``proof.ProofResult.why``, ``claims.claim_result``), the reason a
# claim is refused with (``claim_unproven``'s ``proof``) and the view's ``claim`` says. ``mine`` and
# ``theirs`` are formations: a nested ``formation``/``a_formation``/``formation_at`` reason (its
# ``formation`` is Battle Line's rank word, wedge .. host: interfaces name it as their ruleset
# does) or ``sum``; ``cards`` are card codes separated by spaces.
PROOF_WORDS: dict[str, str] = {
    "formation": "{formation} ({sum})",
    "a_formation": "a {formation} ({sum})",
    "formation_at": "{formation} {sum}",
    "sum": "sum {sum}",
    "side_incomplete": "your side is not complete ({n} of {capacity} cards)",
    "both_complete_only": "this battlefield is claimed only when both sides are complete",
    "beats": "both complete: your {mine} beats {theirs}",
    "beaten": "both complete: their {theirs} beats your {mine}",
    "tie_first": "tie at {what}: you completed first",
    "tie_second": "tie at {what}: you completed second",
    "never_completed": "their side can never be completed: your {mine} wins",
    "too_few_unseen": "only {left} unseen troop cards left and they need {need}: their side can never be completed",
    "one_unseen_left": "only {left} unseen troop card left and they need {need}: their side can never be completed",
    "unbeatable": "no unseen troop cards can beat your {mine}",
    "higher_sum": "{cards} would make a higher sum ({a} > {b})",
    "stronger": "{cards} would make a stronger {formation} ({a} > {b})",
    "beating": "{cards} would make {theirs}, beating your {mine}",
}

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
    **PROOF_WORDS,
}
