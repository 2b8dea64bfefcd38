"""Battle Line family actions as ``int`` codes, the phases of a turn, and action text.

Actions are plain ``int`` codes (the ``*_BASE`` constants below), chosen for speed of
random play; their text follows docs/contracts.md (``R7@3``, ``claim:3``, ``draw:troop``,
``pass``, ``end``, ``SC``, ``RE:R7>5``, ``DE:B3``, ``TR:B3>4`` …).

>>> action_to_text(PLAY_BASE + 6 * 9 + 2)
'R7@3'
>>> parse_action("claim:3") == CLAIM_BASE + 2
True
"""

from __future__ import annotations

from enum import IntEnum

from frontlines.core.errors import NotationError
from frontlines.games.battleline.cards import (
    ALEXANDER,
    DARIUS,
    DESERTER,
    NUM_CARDS,
    NUM_TROOPS,
    REDEPLOY,
    SCOUT,
    TRAITOR,
    card_code,
    parse_card,
)

# --- action codes ------------------------------------------------------------------------
PLAY_BASE = 0  # + card * 9 + flag: troop, morale, Fog or Mud to a flag (0..629)
CLAIM_BASE = 630  # + flag
PASS = 639
DRAW_TROOP = 640
DRAW_TACTICS = 641
END = 642
SCOUT_PLAY = 643
SCOUT_TROOP = 644
SCOUT_TACTICS = 645
RETURN_BASE = 650  # + card
REDEPLOY_BASE = 720  # + card * 10 + target (flag 0..8, 9 = discard)
DESERTER_BASE = 1420  # + card
TRAITOR_BASE = 1490  # + card * 9 + flag (card is a troop)
EXCESS_BASE = 2030  # + card: owner discards a card left over when Mud is removed
NUM_ACTIONS = 2100
TROOP_PLAYS = NUM_TROOPS * 9  # play codes below this are troop cards


# --- phases ------------------------------------------------------------------------------
class Phase(IntEnum):
    """Where a turn stands. An ``IntEnum``: its members compare and index as the plain
    ``int`` codes they were (0-5), at the same speed."""

    PLAY = 0  # play a card (or claim, or pass)
    DRAW = 1  # draw (or claim), then the turn ends
    SCOUT_DRAW = 2  # Scout: draw up to three cards
    SCOUT_RETURN = 3  # Scout: put cards back on the decks
    EXCESS = 4  # Mud removed: an owner discards a card of an over-full side
    OVER = 5


PLAY, DRAW, SCOUT_DRAW, SCOUT_RETURN, EXCESS, OVER = Phase
PHASE_NAMES = ("play", "draw", "scout", "return", "excess", "over")  # their words in notation

# --- the table ---------------------------------------------------------------------------
NUM_FLAGS = 9
NUM_SIDES = 2 * NUM_FLAGS  # side index = flag * 2 + player
ALL_FLAGS = (1 << NUM_FLAGS) - 1
LEADER_MASK = (1 << ALEXANDER) | (1 << DARIUS)
BIT = tuple(1 << c for c in range(NUM_CARDS))
FLAGS_OF: tuple[tuple[int, ...], ...] = tuple(tuple(f for f in range(NUM_FLAGS) if m >> f & 1) for m in range(512))
NOT_AT_A_FLAG = frozenset((SCOUT, REDEPLOY, DESERTER, TRAITOR))  # tactics never placed at a flag

_CODES = tuple(card_code(c) for c in range(NUM_CARDS))
_FIXED = {
    PASS: "pass", DRAW_TROOP: "draw:troop", DRAW_TACTICS: "draw:tactics", END: "end",
    SCOUT_PLAY: "SC", SCOUT_TROOP: "scout:troop", SCOUT_TACTICS: "scout:tactics",
}
_FIXED_BY_TEXT = {v.lower(): k for k, v in _FIXED.items()}


# --- action text ---------------------------------------------------------------------------
def action_to_text(action: object) -> str:
    if type(action) is not int or not 0 <= action < NUM_ACTIONS:
        raise NotationError(f"not a Battle Line action: {action!r}")
    a = action
    if a < CLAIM_BASE:
        c, f = divmod(a - PLAY_BASE, 9)
        if c in NOT_AT_A_FLAG:
            raise NotationError(f"not a Battle Line action: {a}")
        return f"{_CODES[c]}@{f + 1}"
    if a < PASS:
        return f"claim:{a - CLAIM_BASE + 1}"
    fixed = _FIXED.get(a)
    if fixed is not None:
        return fixed
    if RETURN_BASE <= a < RETURN_BASE + NUM_CARDS:
        return f"return:{_CODES[a - RETURN_BASE]}"
    if REDEPLOY_BASE <= a < DESERTER_BASE:
        c, t = divmod(a - REDEPLOY_BASE, 10)
        if c in NOT_AT_A_FLAG:
            raise NotationError(f"not a Battle Line action: {a}")
        return f"RE:{_CODES[c]}>{'x' if t == 9 else t + 1}"
    if DESERTER_BASE <= a < DESERTER_BASE + NUM_CARDS:
        c = a - DESERTER_BASE
        if c in NOT_AT_A_FLAG:
            raise NotationError(f"not a Battle Line action: {a}")
        return f"DE:{_CODES[c]}"
    if TRAITOR_BASE <= a < EXCESS_BASE:
        c, g = divmod(a - TRAITOR_BASE, 9)
        return f"TR:{_CODES[c]}>{g + 1}"
    if EXCESS_BASE <= a < EXCESS_BASE + NUM_CARDS:
        return f"discard:{_CODES[a - EXCESS_BASE]}"
    raise NotationError(f"not a Battle Line action: {a}")


def _flag(text: str, whole: str) -> int:
    if len(text) != 1 or not "1" <= text <= "9":
        raise NotationError(f"{whole!r}: flags are 1-9, not {text!r}")
    return int(text) - 1


def parse_action(text: str) -> int:
    """Inverse of :func:`action_to_text`; raises :class:`NotationError`."""
    if not isinstance(text, str):
        raise NotationError(f"action text must be a string, not {type(text).__name__}")
    t = text.strip()
    if not t or len(t) > 16:
        raise NotationError(f"not an action: {text[:40]!r}")
    fixed = _FIXED_BY_TEXT.get(t.lower())
    if fixed is not None:
        return fixed
    head, colon, rest = t.partition(":")
    head_l = head.lower()
    if colon:
        if head_l == "claim":
            return CLAIM_BASE + _flag(rest, t)
        if head_l == "return":
            return RETURN_BASE + parse_card(rest)
        if head_l == "discard":
            return EXCESS_BASE + parse_card(rest)
        if head_l in ("re", "tr"):
            card_text, gt, target = rest.partition(">")
            if not gt:
                raise NotationError(f"{t!r}: expected {head.upper()}:CARD>FLAG")
            c = parse_card(card_text)
            if head_l == "re":
                if c in NOT_AT_A_FLAG:
                    raise NotationError(f"{t!r}: Redeploy moves a card at a flag, not {card_code(c)}")
                return REDEPLOY_BASE + c * 10 + (9 if target.lower() == "x" else _flag(target, t))
            if c >= NUM_TROOPS:
                raise NotationError(f"{t!r}: Traitor takes troop cards only")
            return TRAITOR_BASE + c * 9 + _flag(target, t)
        if head_l == "de":
            c = parse_card(rest)
            if c in NOT_AT_A_FLAG:
                raise NotationError(f"{t!r}: Deserter removes a card at a flag, not {card_code(c)}")
            return DESERTER_BASE + c
        raise NotationError(f"not an action: {t!r}")
    card_text, at, flag = t.partition("@")
    if at:
        c = parse_card(card_text)
        if c in NOT_AT_A_FLAG:
            raise NotationError(f"{t!r}: {card_code(c)} is not played at a flag")
        return PLAY_BASE + c * 9 + _flag(flag, t)
    raise NotationError(f"not an action: {t!r} (e.g. R7@3, claim:3, draw:troop, pass, end, SC, RE:R7>5, DE:B3, TR:B3>4)")
