"""Text rendering of the Battle Line table from ``View.to_dict()`` (Rich only, no Textual).

Kept apart from the widgets so tests can compare the table as plain text and so the
layout arithmetic (an 80-column terminal gives each flag 8 cells) lives in one place.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from frontlines.tui.cards import card_text, formation_rows

SLOT_ROWS = 4  # Mud makes a side four cards deep
COLUMN_ROWS = 1 + SLOT_ROWS + 1 + SLOT_ROWS + 1  # formation, cards, flag, cards, formation
FLAG_ROW = 1 + SLOT_ROWS

_MARK = Style(reverse=True, bold=True)
_DIM = Style(dim=True)
_WON = Style(color="black", bgcolor="green3", bold=True)
_LOST = Style(color="bright_white", bgcolor="red3", bold=True)


@dataclass
class Marks:
    """What the current step highlights on the table."""

    flags: set[int] = field(default_factory=set)  # flags offered as a choice now
    cards: set[tuple[int, str]] = field(default_factory=set)  # (seat, code) offered now
    chosen: set[tuple[int, str]] = field(default_factory=set)  # (seat, code) already picked
    claimable: set[int] = field(default_factory=set)  # flags the viewer can claim now
    cursor_flag: int | None = None
    cursor_card: tuple[int, str] | None = None
    recent: set[tuple[int, str]] = field(default_factory=set)  # (seat, code) the other side just placed


def seat_label(seat: int, me: int | None, names: Sequence[str] | None = None) -> str:
    if names is not None:
        return names[seat]
    if me is None:
        return f"P{seat + 1}"
    return "you" if seat == me else "opp"


def _fit(text: Text, width: int) -> Text:
    """Pad or cut ``text`` to exactly ``width`` cells, centred."""
    length = cell_len(text.plain)
    if length > width:
        text.truncate(width)
        return text
    left = (width - length) // 2
    out = Text(" " * left)
    out.append_text(text)
    out.append(" " * (width - length - left))
    return out


def _card_cell(code: str, seat: int, width: int, marks: Marks) -> Text:
    key = (seat, code)
    face = card_text(code, 3)
    if key in marks.chosen or key == marks.cursor_card:
        inner = Text("[")
        inner.append_text(face)
        inner.append("]")
        if key == marks.cursor_card:
            inner.stylize(Style(underline=True))
        return _fit(inner, width)
    if key in marks.cards:
        inner = Text(">")
        inner.append_text(face)
        inner.append("<")
        return _fit(inner, width)
    if key in marks.recent:
        # a trailing "+" says "just played" without relying on colour or underline
        inner = Text(" ")
        inner.append_text(face)
        inner.append("+", style=Style(bold=True))
        return _fit(inner, width)
    return _fit(face, width)


def flag_cell(flag: Mapping[str, Any], me: int, width: int, marks: Marks, names: Sequence[str] | None = None) -> Text:
    """The flag row: number, claim owner, Fog/Mud/battlefield marks, claimability."""
    index = int(flag["index"])
    label = str(index)
    if flag.get("fog"):
        label += "F"
    if flag.get("mud"):
        label += "M"
    battlefield = flag.get("battlefield")
    owner = flag.get("claimed_by")
    if battlefield and battlefield.get("face_up"):
        # the battlefield's name where it fits (its rule: the "i" key), else a "b"
        room = width - len(label) - (3 if index in marks.flags or index == marks.cursor_flag else 1) - 1
        room -= 0 if owner is None else 1 + len(seat_label(int(owner), me, names))
        name = str(battlefield.get("name") or "").removeprefix("Battlefield ")  # plain set: "IV"
        label += f" {name[:room]}" if room >= min(3, len(name)) and name else "b"
    style = Style(bold=True)
    if owner is not None:
        who = seat_label(int(owner), me, names)
        label = f"{label}:{who}"
        style = _WON if owner == me else _LOST
    elif index in marks.claimable:
        label += "*"
    if index in marks.flags or index == marks.cursor_flag:
        label = f">{label}<" if index != marks.cursor_flag else f"[{label}]"
        style = style + _MARK
    return _fit(Text(label[:width], style=style), width)


def flag_column(flag: Mapping[str, Any], me: int, width: int, marks: Marks,
                names: Sequence[str] | None = None, gap: int = 0) -> list[Text]:
    """The whole column of one flag, top (the opponent's far end) to bottom (``me``).
    ``gap`` cells of the width stay free beside the formation labels, so that the labels of
    neighbouring columns drawn without a separator never run into each other."""
    them = 1 - me
    sides = flag.get("sides") or [[], []]
    formations = flag.get("formation") or [None, None]
    room = max(3, width - gap)
    def label(text: str) -> Text:
        return Text(text.center(room).ljust(width), style=_DIM)

    # a name that does not fit beside its sum takes the free card row next to it (the name
    # outermost, the sum next to the cards), rather than a short form ("Colr 15")
    opp_cards, mine = list(sides[them]), list(sides[me])
    opp_name, opp_sum = formation_rows(formations[them], room, two_rows=len(opp_cards) < SLOT_ROWS)
    my_name, my_sum = formation_rows(formations[me], room, two_rows=len(mine) < SLOT_ROWS)
    rows: list[Text] = [label(opp_name)]
    for row in range(SLOT_ROWS):
        # the opponent's first card sits next to the flag, later ones further up
        depth = SLOT_ROWS - 1 - row
        rows.append(_card_cell(opp_cards[depth], them, width, marks) if depth < len(opp_cards)
                    else label(opp_sum) if row == 0 else Text(" " * width))
    rows.append(flag_cell(flag, me, width, marks, names))
    for depth in range(SLOT_ROWS):
        rows.append(_card_cell(mine[depth], me, width, marks) if depth < len(mine)
                    else label(my_sum) if depth == SLOT_ROWS - 1 else Text(" " * width))
    rows.append(label(my_name))
    return rows


def column_hit(flag: Mapping[str, Any], me: int, row: int) -> tuple[str, int, str | None]:
    """What a click at ``row`` of a flag column means: ``("card", seat, code)`` or ``("flag", index, None)``."""
    index = int(flag["index"])
    sides = flag.get("sides") or [[], []]
    if 1 <= row <= SLOT_ROWS:
        depth = SLOT_ROWS - row
        opp = list(sides[1 - me])
        if depth < len(opp):
            return ("card", 1 - me, opp[depth])
    if FLAG_ROW < row <= FLAG_ROW + SLOT_ROWS:
        depth = row - FLAG_ROW - 1
        mine = list(sides[me])
        if depth < len(mine):
            return ("card", me, mine[depth])
    return ("flag", index, None)


def _plain_face(code: str) -> Text:
    return card_text(code, 0)


def hand_line(hand: Sequence[str], offered: set[str], chosen: str | None, cursor: int | None,
              face_of: Callable[[str], Text] = _plain_face) -> tuple[Text, list[tuple[int, int]]]:
    """The hand as ``1 R7  2 B5 …`` and the cell span of each card (for mouse hits)."""
    out = Text()
    spans: list[tuple[int, int]] = []
    for i, code in enumerate(hand):
        if i:
            out.append(" ")
        start = cell_len(out.plain)
        number_style = Style(bold=True) if code in offered else _DIM
        out.append(f"{i + 1}", style=number_style)
        face = face_of(code)
        if code == chosen:
            out.append("[")
            out.append_text(face)
            out.append("]")
        elif code not in offered:
            out.append(":")
            face.stylize(_DIM)
            out.append_text(face)
        else:
            out.append(":")
            out.append_text(face)
        if cursor == i:
            out.stylize(Style(underline=True), start, len(out.plain))
        spans.append((start, cell_len(out.plain)))
    return out, spans


def plain_table(view: Mapping[str, Any], me: int, width: int = 8, names: Sequence[str] | None = None) -> str:
    """The nine flag columns side by side as plain text (used by tests and ``--dump``)."""
    columns = [flag_column(flag, me, width, Marks(), names) for flag in view.get("flags") or []]
    lines = []
    for row in range(COLUMN_ROWS):
        lines.append("|".join(col[row].plain for col in columns).rstrip())
    return "\n".join(lines)
