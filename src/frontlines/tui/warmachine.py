"""War Machine in the terminal: the table text and the words of the "end" step.

A War Machine card is two country letters, war machine first (``GJ`` = German war
machine, strength 2 / Japanese infantry, strength 1); the view dictionary is described
in ``docs/warmachine.md``. A deploy is built (in :func:`frontlines.tui.steps.warmachine_path`)
as *card -> which end is up -> front position*; burning is the third choice of the "end"
step; drawing picks a support pile.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from frontlines.tui.steps import END as END  # the step kind lives with the others; kept here for importers

END_KEYS = {"w": "war_machine", "i": "infantry", "b": "burn"}
END_WORDS = {"war_machine": "war machine up (strength 2, draw 1)", "infantry": "infantry up (strength 1, draw 2)",
             "burn": "burn it and draw 1"}

LETTERS = "GIJBUR"
COUNTRY = {"G": "GER", "I": "ITA", "J": "JPN", "B": "GBR", "U": "USA", "R": "URS"}
# The hand shows a card as two letters, the table a deployed end as three: the legend and
# the questions say both, in words
COUNTRY_NAMES = {"GER": "German", "ITA": "Italian", "JPN": "Japanese", "GBR": "British", "USA": "American",
                 "URS": "Soviet"}


def end_words(card: str, end: str) -> str:
    """One choice of the "end" step for ``card`` in words, short enough for the prompt at 80
    columns: ``German war machine, strength 2, draw 1``; ``burn it and draw 1``."""
    if end == "burn" or len(card) != 2:
        return END_WORDS.get(end, end)
    country = COUNTRY.get(card[0] if end == "war_machine" else card[1], "?")
    what = "war machine" if end == "war_machine" else "infantry"
    detail = END_WORDS[end].split("(", 1)[1].rstrip(")")
    return f"{COUNTRY_NAMES.get(country, country)} {what}, {detail}"


def legend(height: int = 7) -> Text:
    """What the letters of the hand mean: ``G GER German`` for each country (under a
    heading where ``height`` has room for it)."""
    out = Text("Countries\n", style="bold underline") if height > len(LETTERS) else Text()
    for i, letter in enumerate(LETTERS):
        country = COUNTRY[letter]
        out.append(f" {letter} ")
        out.append(country, style=country_style(country))
        out.append(f" {COUNTRY_NAMES[country]}" + ("\n" if i < len(LETTERS) - 1 else ""))
    return out


def score_lines(view: Mapping[str, Any], names: Sequence[str]) -> str:
    """The final score of each player, broken down: battles won and the hand's points (the
    hands themselves are shown beside each player's name)."""
    scores = view.get("scores")
    if not scores:
        return ""
    lines = []
    for seat, score in enumerate(scores):
        won = " ".join(score.get("won") or []) or "none"
        lines.append(f"{names[seat]}: {score.get('total')} = {score.get('countries')} for battles ({won})"
                     f" + {score.get('hand')} for the hand")
    return "\n".join(lines)
_STYLES = {
    "GER": Style(color="bright_white", bgcolor="grey30", bold=True),
    "ITA": Style(color="bright_white", bgcolor="green4", bold=True),
    "JPN": Style(color="bright_white", bgcolor="red3", bold=True),
    "GBR": Style(color="bright_white", bgcolor="blue3", bold=True),
    "USA": Style(color="black", bgcolor="yellow", bold=True),
    "URS": Style(color="bright_white", bgcolor="dark_red", bold=True),
}
ROWS = 13
CARD_ROWS = 4


def country_style(country: str) -> Style:
    return _STYLES.get(country, Style())


def hand_card(code: str) -> Text:
    """``GJ`` with each letter in its country's colours."""
    out = Text()
    for letter in code:
        out.append(letter, style=country_style(COUNTRY.get(letter, "")))
    return out


def _centre(text: Text, width: int) -> Text:
    length = cell_len(text.plain)
    if length >= width:
        text.truncate(width)
        return text
    left = (width - length) // 2
    out = Text(" " * left)
    out.append_text(text)
    out.append(" " * (width - length - left))
    return out


def deployed_label(card: Mapping[str, Any], width: int) -> Text:
    """A deployed force in words: its country and the end that is up, ``GER machine``
    (a war machine, strength 2) or ``GER infantry`` (strength 1); ``GER WM`` / ``GER inf``
    where the column is narrower than that."""
    war_machine = card.get("up") == "war_machine"
    country = str(card.get("country", "?"))
    words = "machine" if war_machine else "infantry"
    if len(country) + 1 + len(words) > width:
        words = "WM" if war_machine else "inf"
    return Text(f"{country} {words}", style=country_style(country))


def _side_rows(cards: Sequence[Mapping[str, Any]], width: int, top: bool) -> list[Text]:
    shown = list(cards)[-CARD_ROWS:]
    extra = len(cards) - len(shown)
    rows = [_centre(deployed_label(c, width), width) for c in shown]
    if extra:
        rows[0 if top else -1] = _centre(Text(f"+{extra} more"), width)
    blank = [Text(" " * width) for _ in range(CARD_ROWS - len(rows))]
    return [*blank, *reversed(rows)] if top else [*rows, *blank]


def position_column(pos: Mapping[str, Any], me: int, width: int, offered: bool, cursor: bool,
                    names: Sequence[str]) -> list[Text]:
    """One front position: the opponent's forces, the country, the viewer's forces."""
    them = 1 - me
    sides = pos.get("sides") or [[], []]
    strengths = pos.get("strengths") or [0, 0]
    colours = pos.get("colours") or [None, None]
    rows: list[Text] = []
    rows.append(_centre(Text(f"{colours[them] or '-'} {strengths[them]}", style="dim"), width))
    rows += _side_rows(sides[them], width, top=True)
    country = str(pos.get("country", "?"))
    head = Text(f"{pos.get('index')} ")
    head.append(country, style=country_style(country))
    if offered or cursor:
        head = Text("[" if cursor else ">") + head + Text("]" if cursor else "<")
        head.stylize("reverse")
    rows.append(_centre(head, width))
    # what winning the battle scores (the country card's end: war machine 2, infantry 1) and
    # the support cards left on its pile
    points = 2 if pos.get("depicted") == "war_machine" else 1
    pile = pos.get("pile", 0)
    worth = f"{points}pt, pile {pile}"
    rows.append(_centre(Text(worth if len(worth) <= width else f"{points}pt p{pile}"), width))
    status = str(pos.get("status", ""))
    winner = pos.get("winner")
    if winner is not None:
        label = f"won: {names[int(winner)]}"
        style = "black on green3" if winner == me else "bright_white on red3"
    elif status in ("open", ""):
        label, style = "open", "dim"
    else:
        ref = pos.get("tie_reference")
        label, style = (f"tie->{ref}" if ref else status), "yellow"
    rows.append(_centre(Text(label[:width], style=style), width))
    rows += _side_rows(sides[me], width, top=False)
    rows.append(_centre(Text(f"{colours[me] or '-'} {strengths[me]}", style="dim"), width))
    return rows


def info_line(view: Mapping[str, Any], seat: int, names: Sequence[str]) -> Text:
    sizes = view.get("hand_sizes") or [0, 0]
    out = Text(f"{names[seat]}: ", style="bold")
    out.append(f"hand {sizes[seat]}")
    hands = view.get("hands") or [None, None]
    if view.get("scores") and hands[seat]:  # the game is over: the hands are shown
        out.append(" ")
        out.append_text(Text(" ").join(hand_card(code) for code in hands[seat]))
    if seat == view.get("first"):
        out.append("  (moved first)")
    return out


def status_line(view: Mapping[str, Any]) -> Text:
    out = Text(f"support left {view.get('support', '?')}  burned {view.get('burned', 0)}")
    if view.get("draws_left"):
        out.append(f"  draws left {view['draws_left']}", style="bold")
    scores = view.get("scores")
    if scores:
        out.append("  score " + " - ".join(str(s.get("total")) for s in scores), style="bold")
    return out


def table_text(view: Mapping[str, Any], me: int, width: int) -> Text:
    """The front as plain rows (used by tests and the replay of War Machine)."""
    col = max(8, min(13, (width - 5) // 6))
    cols = [position_column(p, me, col, False, False, ["P1", "P2"]) for p in view.get("front") or []]
    lines = [Text("|").join(c[r] for c in cols) for r in range(ROWS)] if cols else []
    return Text("\n").join(lines)
