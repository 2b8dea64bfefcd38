"""Why a War Machine action is refused (docs/rules.md §6.3): :func:`why` names the rule as a
:class:`~frontlines.core.reasons.Reason`; :data:`REASON_WORDS` gives each code its English
words (the terminal shows them, the web catalogs translate them).

Parameters: ``card`` a card code (``GI``), ``position`` 1-6, ``country`` a country's English
name, ``n`` a count.
"""

from __future__ import annotations

from typing import Any

from frontlines.core.reasons import Reason
from frontlines.games.warmachine.cards import COUNTRY_NAMES, INF, TYPE_NAMES, UNKNOWN, WM, card_code
from frontlines.games.warmachine.rules import BURN, DRAW, DRAW_A, OPEN, OVER, PENDING, PLAY, SKIP, Board

REASON_WORDS: dict[str, str] = {
    "not_legal": "that move is not legal now",
    "game_over": "the game is over",
    "not_now": "not now: not at this step of the turn",
    "draw_now": "take your support cards first ({n} to take)",
    "pile_empty": "the support pile of P{position} is empty",
    "not_in_hand": "{card} is not in your hand",
    "position_closed": "the battle at P{position} has started: no more forces go there",
    "own_country": "P{position} is {country} itself: no one attacks their own country",
    "opponent_country": "your opponent sends {country} to P{position}: send another country",
    "fixed_country": "your first card at P{position} fixed your country there: only {country}",
    "no_support": "no support cards are left, so nothing can be burned",
    "burn_only_forced": "under this game's rules you may burn only when no card can be deployed",
    "skip_not_allowed": "you can still deploy or burn a card",
    "no_place": "{card} cannot be sent anywhere now, nor burned: {burn}",
}


def why(b: Board, action: object) -> Reason | None:
    """The first rule that forbids ``action`` to the player to move; ``None`` when it is legal."""
    if b.is_legal(action):
        return None
    if b.phase == OVER:
        return Reason("game_over")
    if type(action) is not int:
        return Reason("not_legal")
    if b.phase == DRAW:
        if DRAW_A <= action < DRAW_A + 6:
            return Reason.of("pile_empty", position=action - DRAW_A + 1)
        return Reason.of("draw_now", n=b.draws_left)
    if b.phase != PLAY:
        return Reason("not_now")
    me = b.to_move
    if 0 <= action < 432:
        c, orient, p = action // 12, (action // 6) & 1, action % 6
        if c not in b.hands[me]:
            return Reason.of("not_in_hand", card=card_code(c))
        status = b.status[p]
        if status != OPEN and not (status == PENDING and not b.opts.pending_closed):
            return Reason.of("position_closed", position=p + 1)
        country = c // 6 if orient == WM else c % 6
        if country == b.front_country[p]:
            return Reason.of("own_country", position=p + 1, country=COUNTRY_NAMES[country])
        if country == b.colour[p][1 - me]:
            return Reason.of("opponent_country", position=p + 1, country=COUNTRY_NAMES[country])
        return Reason.of("fixed_country", position=p + 1, country=COUNTRY_NAMES[b.colour[p][me]])
    if BURN <= action < BURN + 36:
        c = action - BURN
        if c not in b.hands[me]:
            return Reason.of("not_in_hand", card=card_code(c))
        return Reason("no_support") if b.support <= 0 else Reason("burn_only_forced")
    if action == SKIP:
        return Reason("skip_not_allowed")
    return Reason("not_now")


def refusals(b: Board) -> dict[str, Any] | None:
    """For the player to move in the play step (``b`` may be their view): why each card of
    the hand that can be neither sent nor burned is refused (``cards``), and for each card, why each
    place that refuses it does (``deploy``, keyed ``war_machine:3`` / ``infantry:5`` as the
    deploy entries' end and position), as reason dicts with their English words."""
    if b.phase != PLAY:
        return None
    me = b.to_move
    cards: dict[str, Any] = {}
    deploy: dict[str, dict[str, Any]] = {}
    for c in sorted(set(b.hands[me])):
        if c == UNKNOWN:
            continue
        code = card_code(c)
        refused: dict[str, Any] = {}
        for orient in (WM, INF):
            for p in range(6):
                reason = why(b, c * 12 + orient * 6 + p)
                if reason is not None:
                    refused[f"{TYPE_NAMES[orient]}:{p + 1}"] = reason.to_dict(REASON_WORDS)
        if refused:
            deploy[code] = refused
        burn = why(b, BURN + c)
        if len(refused) == 12 and burn is not None:  # nothing at all to do with it
            cards[code] = Reason.of("no_place", card=code, burn=burn).to_dict(REASON_WORDS)
    return {"cards": cards, "deploy": deploy}


__all__ = ["REASON_WORDS", "refusals", "why"]
