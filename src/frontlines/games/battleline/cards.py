"""Cards of the Battle Line family as small integers, and their text codes.

Encoding (shared by every ruleset so that card sets are plain ``int`` bitmasks):

* troop card = ``colour * 10 + (value - 1)`` for colour 0..5 (``R O Y G B P``) and
  value 1..10, i.e. 0..59. Schotten Totten uses values 1..9 only.
* tactics cards = 60..69 in the order of :data:`TACTICS_CODES`.

A set of cards is an ``int`` with bit ``card`` set (``1 << card``).
"""

from __future__ import annotations

from frontlines.core.errors import NotationError

COLOURS = "ROYGBP"
COLOUR_NAMES = ("red", "orange", "yellow", "green", "blue", "purple")
NUM_COLOURS = 6
MAX_VALUE = 10
NUM_TROOPS = NUM_COLOURS * MAX_VALUE  # 60

# Tactics cards. Schotten Totten's equivalents use the same codes (Joker = AL/DA,
# Spy = CC, Shield-Bearer = SB, Blind-Man's Bluff = FO, Mud Fight = MU, Headhunter = SC,
# Strategist = RE, Banshee = DE, Traitor = TR).
TACTICS_CODES = ("AL", "DA", "CC", "SB", "FO", "MU", "SC", "RE", "DE", "TR")
ALEXANDER, DARIUS, COMPANION_CAVALRY, SHIELD_BEARERS, FOG, MUD, SCOUT, REDEPLOY, DESERTER, TRAITOR = range(60, 70)
NUM_CARDS = 70

LEADERS = (ALEXANDER, DARIUS)
MORALE = (ALEXANDER, DARIUS, COMPANION_CAVALRY, SHIELD_BEARERS)
ENVIRONMENT = (FOG, MUD)
GUILE = (SCOUT, REDEPLOY, DESERTER, TRAITOR)

TROOP_MASK = (1 << NUM_TROOPS) - 1
TACTICS_MASK = ((1 << NUM_CARDS) - 1) ^ TROOP_MASK
MORALE_MASK = sum(1 << c for c in MORALE)

TACTICS_NAMES = {
    "battleline": (
        "Alexander", "Darius", "Companion Cavalry", "Shield Bearers", "Fog", "Mud",
        "Scout", "Redeploy", "Deserter", "Traitor",
    ),
    "schotten-totten": (
        "Joker", "Joker", "Spy", "Shield-Bearer", "Blind-Man's Bluff", "Mud Fight",
        "Headhunter", "Strategist", "Banshee", "Traitor",
    ),
}


def troop(colour: int, value: int) -> int:
    return colour * 10 + value - 1


def colour_of(card: int) -> int:
    return card // 10


def value_of(card: int) -> int:
    return card % 10 + 1


def is_troop(card: int) -> bool:
    return 0 <= card < NUM_TROOPS


def is_tactics(card: int) -> bool:
    return NUM_TROOPS <= card < NUM_CARDS


def card_code(card: int) -> str:
    """``R7``, ``B10``, ``AL`` …"""
    if 0 <= card < NUM_TROOPS:
        return f"{COLOURS[card // 10]}{card % 10 + 1}"
    if NUM_TROOPS <= card < NUM_CARDS:
        return TACTICS_CODES[card - NUM_TROOPS]
    raise ValueError(f"not a card: {card}")


_CODE_TO_CARD: dict[str, int] = {card_code(c): c for c in range(NUM_CARDS)}


def parse_card(code: str) -> int:
    """Inverse of :func:`card_code` (case-insensitive); raises :class:`NotationError`."""
    card = _CODE_TO_CARD.get(code)  # as card_code writes it: the common case, no copies made
    if card is None:
        card = _CODE_TO_CARD.get(code.strip().upper())
    if card is None:
        raise NotationError(f"not a card code: {code!r} (troops are a colour of {COLOURS} and 1-10, e.g. R7; tactics {' '.join(TACTICS_CODES)})")
    return card


def mask_of(cards: list[int] | tuple[int, ...]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[int]:
    """The cards in ``mask``, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
