"""Textual widgets of the table: flag columns, the hand, the side panels."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from frontlines.tui import warmachine as wm
from frontlines.tui.cards import join_codes, tracker_rows, unseen_tactics
from frontlines.tui.render import COLUMN_ROWS, Marks, column_hit, flag_column, hand_line
from frontlines.tui.words import plural


class Pane(Static):
    """A Static of fixed size that redraws only when its text really changes.

    Re-rendering is what dominates the cost of a move in Textual, so every panel of the
    table compares before it refreshes and never asks for a new layout.
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._shown: tuple[str, tuple[object, ...]] | None = None
        self.text = Text()
        # the ruleset's own words for Battle Line's (``words.own_words``): every text of the
        # table passes here, so no message can name a place as another game does
        self.words: Callable[[str], str] | None = None

    def show(self, text: Text) -> None:
        if self.words is not None:
            text = reworded(text, self.words)
        key = (text.plain, tuple((sp.start, sp.end, str(sp.style)) for sp in text.spans))
        if key != self._shown:
            self._shown = key
            self.text = text
            self.update(text, layout=False)


def reworded(text: Text, words: Callable[[str], str]) -> Text:
    """``text`` with ``words`` applied to each run of one style (a word changes length, so
    the styles are carried run by run rather than by their offsets)."""
    cuts = sorted({span.start for span in text.spans} | {span.end for span in text.spans})
    out = Text(style=text.style, end=text.end)
    for piece in text.divide(cuts):
        styled = Text(words(piece.plain))
        for span in piece.spans:
            styled.stylize(span.style, 0, len(styled.plain))
        out.append_text(styled)
    return out


class FlagColumn(Widget):
    """One flag with both sides; clicking a card or the flag posts :class:`FlagColumn.Clicked`."""

    DEFAULT_CSS = """
    FlagColumn { width: 1fr; height: 11; }
    """

    class Clicked(Message):
        def __init__(self, flag: int, what: str, seat: int, code: str | None) -> None:
            super().__init__()
            self.flag = flag
            self.what = what  # "card" or "flag"
            self.seat = seat
            self.code = code

    def __init__(self, index: int, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.index = index
        self.flag: Mapping[str, Any] = {"index": index, "sides": [[], []]}
        self.me = 0
        self.marks = Marks()
        self.names: Sequence[str] | None = None

    def show(self, flag: Mapping[str, Any], me: int, marks: Marks, names: Sequence[str] | None) -> None:
        old = self.render()
        self.flag, self.me, self.marks, self.names = flag, me, marks, names
        new = self.render()
        if old.plain != new.plain or old.spans != new.spans:
            self.refresh()

    def render(self) -> Text:
        width = max(3, self.size.width)
        # no separator between columns: keep a cell free beside the labels, except at the right edge
        rows = flag_column(self.flag, self.me, width, self.marks, self.names, gap=0 if self.index == 9 else 1)
        return Text("\n").join(rows[:COLUMN_ROWS])

    def on_click(self, event: events.Click) -> None:
        what, value, code = column_hit(self.flag, self.me, event.y)
        if what == "card":
            self.post_message(self.Clicked(self.index, "card", value, code))
        else:
            self.post_message(self.Clicked(self.index, "flag", -1, None))


class HandBar(Widget):
    """The viewer's hand on one line; clicking a card posts :class:`HandBar.Clicked`."""

    DEFAULT_CSS = """
    HandBar { height: 1; width: 1fr; }
    """

    class Clicked(Message):
        def __init__(self, position: int) -> None:
            super().__init__()
            self.position = position

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.hand: list[str] = []
        self.offered: set[str] = set()
        self.chosen: str | None = None
        self.cursor: int | None = None
        self.prefix = "Hand "
        self.face_of: Callable[[str], Text] | None = None
        self._spans: list[tuple[int, int]] = []

    def show(self, hand: Sequence[str], offered: set[str], chosen: str | None, cursor: int | None, prefix: str) -> None:
        key = (list(hand), sorted(offered), chosen, cursor, prefix)
        if key != (self.hand, sorted(self.offered), self.chosen, self.cursor, self.prefix):
            self.hand, self.offered, self.chosen, self.cursor, self.prefix = list(hand), offered, chosen, cursor, prefix
            self.refresh()

    def render(self) -> Text:
        if self.face_of is None:
            line, spans = hand_line(self.hand, self.offered, self.chosen, self.cursor)
        else:
            line, spans = hand_line(self.hand, self.offered, self.chosen, self.cursor, self.face_of)
        out = Text(self.prefix, style="bold")
        out.append_text(line)
        shift = len(self.prefix)
        self._spans = [(a + shift, b + shift) for a, b in spans]
        return out

    def on_click(self, event: events.Click) -> None:
        for position, (start, end) in enumerate(self._spans):
            if start <= event.x < end:
                self.post_message(self.Clicked(position))
                return


class BattleLineBoard(Vertical):
    """Opponent line, nine flag columns, the viewer's line and hand."""

    DEFAULT_CSS = """
    BattleLineBoard { height: auto; }
    BattleLineBoard #flags { height: 11; }
    BattleLineBoard .info { height: 1; }
    """

    def compose(self) -> ComposeResult:
        yield Pane(id="opp-info", classes="info")
        with Horizontal(id="flags"):
            for index in range(1, 10):
                yield FlagColumn(index, id=f"flag-{index}")
        yield Pane(id="my-info", classes="info")
        yield HandBar(id="hand")

    def show(self, view: Mapping[str, Any], me: int, marks: Marks, names: Sequence[str],
             hand_offered: set[str], hand_chosen: str | None, hand_cursor: int | None) -> None:
        them = 1 - me
        flags = view.get("flags") or []
        for flag in flags:
            self.query_one(f"#flag-{flag['index']}", FlagColumn).show(flag, me, marks, None)
        self.query_one("#opp-info", Pane).show(side_info(view, them, names[them], opponent=True))
        self.query_one("#my-info", Pane).show(side_info(view, me, names[me], opponent=False))
        hand, prefix = _hand_of(view, me)
        self.query_one("#hand", HandBar).show(hand, hand_offered, hand_chosen, hand_cursor, prefix)


def _hand_of(view: Mapping[str, Any], me: int) -> tuple[list[str], str]:
    """The viewer's hand and the label before it: hidden (a replay's public view) is not empty."""
    hands = view.get("hands") or [None, None]
    hand = hands[me] if me < len(hands) else None
    if hand is None:
        return [], "Hand (hidden) "
    return list(hand), "Hand " if hand else "Hand (empty) "


def side_info(view: Mapping[str, Any], seat: int, name: str, *, opponent: bool) -> Text:
    """``bot hard: hand 7 (5 troops, 1 tactic)  tactics played 1  guile SC  discards R7``."""
    sizes = view.get("hand_sizes") or [0, 0]
    tactics = view.get("hand_tactics") or [0, 0]
    played = view.get("tactics_played") or [0, 0]
    out = Text(f"{name}: ", style="bold")
    has_tactics = bool(view.get("has_tactics"))
    if opponent:
        size, tac = int(sizes[seat]), int(tactics[seat])
        split = f"({plural(size - tac, 'troop', 'troops')}, {plural(tac, 'tactic', 'tactics')}) "
        out.append(f"hand {size} {split}" if has_tactics else f"hand {size} ")
    else:
        # deck sizes first: they matter every turn and must survive a cut at 80 columns
        out.append(f"hand {int(sizes[seat])}  ")
        out.append(f"decks: troop {view.get('troop_deck', '?')} tactics {view.get('tactics_deck', '?')}  "
                   if has_tactics else f"troop deck {view.get('troop_deck', '?')}  ")
    if has_tactics:
        out.append(f"tactics played {played[seat]}")
    guile = (view.get("guile") or [[], []])[seat]
    if guile:
        out.append("  guile ")
        out.append_text(join_codes(guile))
    discards = (view.get("discards") or [[], []])[seat]
    if discards:
        out.append("  out ")
        out.append_text(join_codes(discards))
    return out


def tracker_text(view: Mapping[str, Any], width: int = 23, height: int = 8) -> Text:
    """The card tracker: unseen troops by colour and tactics not yet seen, in ``width`` x
    ``height`` cells (the tactics wrap; the heading gives way when the rows need its line)."""
    rows = tracker_rows(view.get("unseen") or [])
    if view.get("has_tactics"):
        tactics = unseen_tactics(view) or ["-"]
        line = Text("Tactics:", style="bold")
        for code in tactics:
            if cell_len(line.plain) + 1 + len(code) > width:
                rows.append(line)
                line = Text("        ")  # under the first code
            line.append(" " + code)
        rows.append(line)
    out = Text()
    if len(rows) < height:
        out.append("Unseen troops\n", style="bold underline")
    out.append_text(Text("\n").join(rows))
    return out


class PositionColumn(Widget):
    """One War Machine front position; a click posts :class:`FlagColumn.Clicked` (what="flag")."""

    DEFAULT_CSS = """
    PositionColumn { width: 1fr; height: 13; }
    """

    def __init__(self, index: int, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.index = index
        self.pos: Mapping[str, Any] = {"index": index}
        self.me = 0
        self.offered = False
        self.cursor = False
        self.names: Sequence[str] = ("P1", "P2")

    def show(self, pos: Mapping[str, Any], me: int, offered: bool, cursor: bool, names: Sequence[str]) -> None:
        if (pos, me, offered, cursor, list(names)) != (self.pos, self.me, self.offered, self.cursor, list(self.names)):
            self.pos, self.me, self.offered, self.cursor, self.names = pos, me, offered, cursor, names
            self.refresh()

    def render(self) -> Text:
        rows = wm.position_column(self.pos, self.me, max(4, self.size.width), self.offered, self.cursor, self.names)
        return Text("\n").join(rows)

    def on_click(self) -> None:
        self.post_message(FlagColumn.Clicked(self.index, "flag", -1, None))


class WarMachineBoard(Vertical):
    """Opponent line, the six front positions, the viewer's line and hand."""

    DEFAULT_CSS = """
    WarMachineBoard { height: auto; }
    WarMachineBoard #front { height: 13; }
    WarMachineBoard .info { height: 1; }
    """

    def compose(self) -> ComposeResult:
        yield Pane(id="opp-info", classes="info")
        with Horizontal(id="front"):
            for index in range(1, 7):
                yield PositionColumn(index, id=f"pos-{index}")
        yield Pane(id="my-info", classes="info")
        yield HandBar(id="hand")

    def show(self, view: Mapping[str, Any], me: int, marks: Marks, names: Sequence[str],
             hand_offered: set[str], hand_chosen: str | None, hand_cursor: int | None) -> None:
        # who won a position, in its narrow column: you / bot, or P1 / P2 at one keyboard
        short = ["you" if n == "You" else "bot" if n.startswith("bot ") else n.replace("Player ", "P")
                 for n in names]
        for pos in view.get("front") or []:
            index = int(pos["index"])
            self.query_one(f"#pos-{index}", PositionColumn).show(
                pos, me, index in marks.flags, index == marks.cursor_flag, short)
        self.query_one("#opp-info", Pane).show(wm.info_line(view, 1 - me, names))
        mine = wm.info_line(view, me, names)
        mine.append("   ")
        mine.append_text(wm.status_line(view))
        self.query_one("#my-info", Pane).show(mine)
        hand, prefix = _hand_of(view, me)
        bar = self.query_one("#hand", HandBar)
        bar.face_of = wm.hand_card
        bar.show(hand, hand_offered, hand_chosen, hand_cursor, prefix)
