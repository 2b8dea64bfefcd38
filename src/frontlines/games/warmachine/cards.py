"""Countries and the 30 double-ended cards of War Machine, as small integers.

A card is ``wm * 6 + inf``: the war-machine end shows country ``wm`` (strength 2), the
other end the infantry of country ``inf`` (strength 1), ``wm != inf`` (docs/rules.md §6.1 and §6.10, A1:
every ordered pair once). Its text code is the two country letters, war machine first:
``GI`` = war machine of Germany / infantry of Italy. ``UNKNOWN`` (-1) stands for a card a
viewer cannot see; its code is ``??``.

An *orientation* says which end is up: ``WM`` (0) or ``INF`` (1); the same two values
serve as the depicted type of a country on the war front.
"""

from __future__ import annotations

from frontlines.core.errors import NotationError

COUNTRIES = ("GER", "ITA", "JPN", "GBR", "USA", "URS")
COUNTRY_NAMES = ("Germany", "Italy", "Japan", "Britain", "USA", "USSR")
LETTERS = "GIJBUR"
NUM_COUNTRIES = 6
WM, INF = 0, 1
TYPE_NAMES = ("war_machine", "infantry")
TYPE_MARKS = "^v"  # ^ war-machine end up, v infantry end up
STRENGTH = (2, 1)
UNKNOWN = -1

ALL_CARDS: tuple[int, ...] = tuple(w * 6 + i for w in range(6) for i in range(6) if w != i)
NUM_CARDS = len(ALL_CARDS)  # 30
_CARD_SET = frozenset(ALL_CARDS)


def card(wm: int, inf: int) -> int:
    return wm * 6 + inf


def wm_of(c: int) -> int:
    return c // 6


def inf_of(c: int) -> int:
    return c % 6


def country_of(c: int, orient: int) -> int:
    """The country of the end that is up."""
    return c // 6 if orient == WM else c % 6


def is_card(c: object) -> bool:
    return isinstance(c, int) and c in _CARD_SET


def card_code(c: int) -> str:
    if c == UNKNOWN:
        return "??"
    return LETTERS[c // 6] + LETTERS[c % 6]


def country_index(letter: str) -> int:
    i = LETTERS.find(letter)
    if len(letter) != 1 or i < 0:
        raise NotationError(f"unknown country letter {letter!r}; use one of {LETTERS}")
    return i


def parse_card(code: str, allow_unknown: bool = False) -> int:
    if code == "??" and allow_unknown:
        return UNKNOWN
    if len(code) != 2:
        raise NotationError(f"a card code is two country letters (e.g. GI), not {code!r}")
    w, i = country_index(code[0]), country_index(code[1])
    if w == i:
        raise NotationError(f"no card shows {COUNTRIES[w]} at both ends ({code!r})")
    return card(w, i)


def cards_text(cards: list[int] | tuple[int, ...]) -> str:
    """Codes run together: ``GIJB``; unknown cards as ``??``."""
    return "".join(card_code(c) for c in cards)


def parse_cards(text: str, allow_unknown: bool = False) -> list[int]:
    if len(text) % 2:
        raise NotationError(f"card list {text!r} must be a run of two-letter codes")
    return [parse_card(text[k : k + 2], allow_unknown) for k in range(0, len(text), 2)]
