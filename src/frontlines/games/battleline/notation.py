"""Text forms of Battle Line family actions, positions and views (docs/notation.md).

Action text follows docs/contracts.md. Position notation is one line of ``key=value``
tokens after the game name; tokens at their default value are left out so that each
position has exactly one text. The text of a record is ``text.py``'s; here it becomes a
state or a view.
"""

from __future__ import annotations

import random
import re

from frontlines.core.errors import NotationError
from frontlines.games.battleline.cards import FOG, MUD, NUM_CARDS, NUM_TROOPS, card_code, parse_card
from frontlines.games.battleline.codes import action_to_text, parse_action
from frontlines.games.battleline.rules import GAME, RULESET_BY_NAME, make_config
from frontlines.games.battleline.state import BattleLineState, BattleLineView
from frontlines.games.battleline.table import values
from frontlines.games.battleline.text import (
    check_cards,
    parse_position,
    parse_view_table,
    state_to_text,
    table_mask,
    view_to_text,
)

__all__ = [
    "action_to_text", "build_state", "check_cards", "parse_action", "parse_state", "parse_view", "state_to_text",
    "table_mask", "view_to_text",
]

_CODES = tuple(card_code(c) for c in range(NUM_CARDS))


def parse_state(text: str) -> BattleLineState:
    """Inverse of :func:`state_to_text`; checks that every card is in exactly one place."""
    return BattleLineState.of_table(parse_position(text))


def parse_view(text: str) -> BattleLineView:
    """Inverse of :meth:`BattleLineView.to_notation`."""
    t, viewer = parse_view_table(text)
    v = BattleLineView(*values(t))
    v.viewer = viewer
    # a view must describe some real position: deal one and check its cards
    try:
        probe = v.sample(random.Random(0))
    except IndexError:
        raise NotationError("view notation: more hidden cards than the ruleset has left") from None
    check_cards(probe)
    if probe.view(viewer).to_notation() != v.to_notation():
        raise NotationError("view notation: inconsistent knowledge marks or counts")
    return v


def build_state(fragment: str) -> BattleLineState:
    """A position from a partial notation, for tests, puzzles and examples.

    ``fragment`` holds any tokens of the position notation, with or without the leading
    game name; missing ``ruleset``/``to``/``phase``/``n``/``h0``/``h1`` default to
    ``battleline``/0/``play``/0/empty. Every card not placed goes to the place named by
    the extra token ``rest=`` (``decks``, the default: troops to the troop deck and
    tactics to the tactics deck, below any deck cards given; or ``h0``, ``h1``, ``d0``,
    ``d1``).
    """
    tokens = fragment.split()
    if tokens and tokens[0] == GAME:
        tokens = tokens[1:]
    values: dict[str, str] = {}
    for token in tokens:
        key, eq, value = token.partition("=")
        if not eq:
            raise NotationError(f"expected key=value, got {token!r}")
        values[key] = value
    rest = values.pop("rest", "decks")
    if rest not in ("decks", "h0", "h1", "d0", "d1"):
        raise NotationError("rest= is decks, h0, h1, d0 or d1")
    for key, default in (("ruleset", "battleline"), ("to", "0"), ("phase", "play"), ("n", "0"), ("h0", ""),
                         ("h1", "")):
        values.setdefault(key, default)
    ruleset = values["ruleset"]
    variant = make_config(ruleset, None).variant if ruleset in RULESET_BY_NAME else None
    if variant is None:
        raise NotationError(f"unknown ruleset {ruleset!r}")
    if variant.battlefields:
        values.setdefault("bf", "123456789:0")
    values.setdefault("td", "")
    if variant.tactics:
        values.setdefault("xd", "")
    used = 0
    for key, value in values.items():
        if key in ("h0", "h1", "td", "xd", "d0", "d1", "g0", "g1") or re.fullmatch(r"f[1-9]", key):
            for code in re.findall(r"(?<![A-Za-z0-9])(?:[ROYGBP](?:10|[1-9])|AL|DA|CC|SB|FO|MU|SC|RE|DE|TR)(?![0-9])",
                                   value if key[0] != "f" else value.split("/", 1)[1] if "/" in value else value):
                used |= 1 << parse_card(code)
            if key[0] == "f":
                env = value.split("/")[-1] if value.count("/") == 3 else ""
                if "F" in env:
                    used |= 1 << FOG
                if "M" in env:
                    used |= 1 << MUD
    everything = variant.troop_mask | ((((1 << NUM_CARDS) - 1) ^ ((1 << NUM_TROOPS) - 1)) if variant.tactics else 0)
    left = [c for c in range(NUM_CARDS) if (everything & ~used) >> c & 1]
    if rest == "decks":
        troops = [_CODES[c] for c in left if c < NUM_TROOPS]
        tactics = [_CODES[c] for c in left if c >= NUM_TROOPS]
        values["td"] = ".".join(filter(None, [values["td"], *troops]))
        if variant.tactics:
            values["xd"] = ".".join(filter(None, [values["xd"], *tactics]))
    else:
        values[rest] = ".".join(filter(None, [values.get(rest, ""), *(_CODES[c] for c in left)]))
    return parse_state(" ".join([GAME, *(f"{k}={v}" for k, v in values.items())]))
