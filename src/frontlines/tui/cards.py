"""How cards and formations look in the terminal (pure Rich, no Textual).

Every troop card is shown by its code (``R7``, ``B10``): the colour letter is always in
the text, so the table reads the same on a monochrome terminal; colour is an extra.
Only ASCII glyphs are used in card faces so cell widths never depend on the terminal's
treatment of East Asian ambiguous-width characters.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rich.style import Style
from rich.text import Text

COLOUR_LETTERS = "ROYGBP"
COLOUR_NAMES = {"R": "red", "O": "orange", "Y": "yellow", "G": "green", "B": "blue", "P": "purple"}

# Foreground/background pairs chosen for contrast on both dark and light terminals.
_CARD_STYLES: dict[str, Style] = {
    "R": Style(color="bright_white", bgcolor="red3", bold=True),
    "O": Style(color="black", bgcolor="dark_orange", bold=True),
    "Y": Style(color="black", bgcolor="yellow", bold=True),
    "G": Style(color="bright_white", bgcolor="green4", bold=True),
    "B": Style(color="bright_white", bgcolor="blue3", bold=True),
    "P": Style(color="bright_white", bgcolor="purple4", bold=True),
}
_TACTICS_STYLE = Style(color="black", bgcolor="grey82", bold=True, italic=True)
_HIDDEN_STYLE = Style(color="grey50")

TACTICS_NAMES: dict[str, str] = {
    "AL": "Alexander",
    "DA": "Darius",
    "CC": "Companion Cavalry",
    "SB": "Shield Bearers",
    "FO": "Fog",
    "MU": "Mud",
    "SC": "Scout",
    "RE": "Redeploy",
    "DE": "Deserter",
    "TR": "Traitor",
}
TACTICS_HELP: dict[str, str] = {
    "AL": "Leader: any colour, any value",
    "DA": "Leader: any colour, any value",
    "CC": "any colour, value 8",
    "SB": "any colour, value 1, 2 or 3",
    "FO": "formations ignored at a flag: sums only",
    "MU": "a flag needs 4 cards a side",
    "SC": "draw 3, then put 2 back",
    "RE": "move or discard one of your cards",
    "DE": "discard one of the opponent's cards",
    "TR": "take an opponent troop to your side",
}
# Schotten Totten's tactics differ in values (docs/rules.md §4.2) and Headhunter returns under the decks.
_SCHOTTEN_HELP = {
    "AL": "Joker: any colour, any value 1-9",
    "DA": "Joker: any colour, any value 1-9",
    "CC": "any colour, value 7",
    "SC": "draw 3, then put 2 under their decks",
}


def tactics_help(code: str, family: str) -> str:
    """One line on what a tactics card does in a game ``family`` (the view's ``features``)."""
    if family == "schotten-totten" and code in _SCHOTTEN_HELP:
        return _SCHOTTEN_HELP[code]
    return TACTICS_HELP.get(code, "")


ALL_TACTICS = tuple(TACTICS_NAMES)
ALL_TACTICS_INDEX = {code: i for i, code in enumerate(ALL_TACTICS)}


def is_troop_code(code: str) -> bool:
    return len(code) >= 2 and code[0] in COLOUR_LETTERS and code[1:].isdigit()


def card_style(code: str) -> Style:
    if is_troop_code(code):
        return _CARD_STYLES[code[0]]
    if code in TACTICS_NAMES:
        return _TACTICS_STYLE
    return _HIDDEN_STYLE


def card_text(code: str, width: int = 3) -> Text:
    """The card face: its code, padded to ``width`` cells, in the card's colours."""
    return Text(code.center(width) if width else code, style=card_style(code))


def card_name(code: str, names: Sequence[str] | None = None) -> str:
    """``red 7 (R7)`` / ``Scout`` for prompts; ``names`` is the view's ``card_names``
    (the ruleset's own tactics names, e.g. Schotten Totten's), in tactics-code order."""
    if is_troop_code(code):
        return f"{COLOUR_NAMES[code[0]]} {code[1:]} ({code})"
    if names and code in ALL_TACTICS_INDEX and ALL_TACTICS_INDEX[code] < len(names):
        return str(names[ALL_TACTICS_INDEX[code]])
    return TACTICS_NAMES.get(code, code)


# Short forms of formation names so that a name and its sum fit a flag column of 8 cells.
_SHORT: dict[str, str] = {
    "wedge": "Wedge",
    "phalanx": "Phlnx",
    "battalion": "Battn",
    "battalion order": "Battn",
    "skirmish": "Skirm",
    "skirmish line": "Skirm",
    "host": "Host",
    "sum": "Sum",
    # Schotten Totten (the view's formation_names; help explains them)
    "run": "Run",
    "colour": "Colr",  # not "Col": Medieval's column is another formation
    "three of a kind": "3Kind",
    "colour run": "C.Run",
    # Medieval
    "rabble": "Rabbl",
    "column": "Colmn",
    "square": "Squar",
}


def formation_label(formation: Mapping[str, Any] | None, width: int) -> str:
    """``Wedge 24`` shortened to ``width`` cells; empty for an incomplete side."""
    if not formation:
        return ""
    name = str(formation.get("name", ""))
    total = formation.get("sum")
    suffix = f" {total}" if total is not None else ""
    full = f"{name.capitalize()}{suffix}"
    if len(full) <= width:
        return full
    short = _SHORT.get(name.lower(), name[:5].capitalize())
    room = max(1, width - len(suffix))
    return f"{short[:room]}{suffix}"[:width]


def formation_rows(formation: Mapping[str, Any] | None, width: int, *, two_rows: bool) -> tuple[str, str]:
    """The formation for a side's end of a flag column: ``("Wedge 24", "")`` on one row where
    it fits; else, where the row beside it is free (``two_rows``: the side holds fewer cards
    than the column has rows), the whole name on one row and the sum on the other
    (``("Colour", "15")`` in an 8-cell column, where one row would need ``Colr 15``); else the
    short form of :func:`formation_label`."""
    one = formation_label(formation, width)
    if not formation or not two_rows or formation.get("sum") is None:
        return one, ""
    name = str(formation.get("name", "")).capitalize()
    if len(f"{name} {formation['sum']}") <= width:
        return one, ""
    if len(name) > width:  # "Battalion order": its first word, else the short form
        first = name.split()[0]
        name = first if len(first) <= width else _SHORT.get(name.lower(), name[:5].capitalize())[:width]
    return name, f"{formation['sum']}"[:width]


def tracker_rows(unseen: Iterable[str]) -> list[Text]:
    """One row per colour listing the unseen troop values (``R 1 2 9 10``)."""
    by_colour: dict[str, list[int]] = {c: [] for c in COLOUR_LETTERS}
    for code in unseen:
        if is_troop_code(code):
            by_colour[code[0]].append(int(code[1:]))
    rows = []
    for letter in COLOUR_LETTERS:
        row = Text()
        # a full row (" R 1 2 ... 10", 23 cells) must fit the tracker beside an 80-column table
        row.append(f" {letter}", style=_CARD_STYLES[letter])
        values = sorted(by_colour[letter])
        row.append(" " + (" ".join(str(v) for v in values) if values else "-"))
        rows.append(row)
    return rows


def unseen_tactics(view: Mapping[str, Any]) -> list[str]:
    """Tactics cards not yet visible to the viewer (still in a deck or the other hand)."""
    seen: set[str] = set()
    for flag in view.get("flags") or []:
        for side in flag.get("sides") or []:
            seen.update(side)
        for env in flag.get("environment") or []:
            seen.update(env)
    for group in ("discards", "guile"):
        for cards in view.get(group) or []:
            seen.update(cards)
    hands = view.get("hands") or []
    for hand in hands:
        if hand:
            seen.update(hand)
    return [t for t in ALL_TACTICS if t not in seen]


def join_codes(codes: Sequence[str]) -> Text:
    out = Text()
    for i, code in enumerate(codes):
        if i:
            out.append(" ")
        out.append_text(card_text(code, 0))
    return out
