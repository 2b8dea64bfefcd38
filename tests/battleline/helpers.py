"""Small helpers the Battle Line test files share: play action text, list legal text."""

from __future__ import annotations

from typing import Any

from frontlines.core.game import State
from frontlines.games.battleline.state import BattleLineState


def act(s: BattleLineState, *texts: str) -> None:
    for t in texts:
        s.apply(s.parse_action(t))


def legal(s: BattleLineState) -> set[str]:
    return {s.action_to_text(a) for a in s.legal_actions()}


def claims(s: BattleLineState) -> set[str]:
    return {t for t in legal(s) if t.startswith("claim:")}


# Readers of a position through its public faces only: the spectator's view dictionary
# (docs/contracts.md) and the full-state notation (docs/notation.md). Tests that read these
# keep working whatever the state's fields are called.


def position(s: State) -> dict[str, str]:
    """The ``key=value`` tokens of the position's notation."""
    return dict(t.split("=", 1) for t in s.to_notation().split()[1:])


def table(s: State) -> dict[str, Any]:
    return s.view(None).to_dict()


def claimed(s: State) -> list[int | None]:
    """Who holds each flag, 1 to 9 (None: nobody yet)."""
    return [f["claimed_by"] for f in table(s)["flags"]]


def side(s: State, flag: int, player: int) -> list[str]:
    """The cards on ``player``'s side of ``flag`` (1-9), in the order played."""
    cards: list[str] = table(s)["flags"][flag - 1]["sides"][player]
    return cards


def completed(s: State, flag: int, player: int) -> int | None:
    """The move counter when ``player``'s side of ``flag`` (1-9) became complete, or None."""
    sides = position(s).get(f"f{flag}", "-///").split("/")
    at = sides[1 + player].partition(":")[2]
    return int(at) if at else None


def deck(s: State, name: str) -> list[str]:
    """The troop (``td``) or tactics (``xd``) deck, top card first."""
    text = position(s).get(name, "")
    return [card.split("~")[0] for card in text.split(".")] if text else []


def hand(s: State, player: int) -> list[str]:
    cards: list[str] = s.view(player).to_dict()["hands"][player]
    return cards


def hand_size(s: State, player: int) -> int:
    size: int = table(s)["hand_sizes"][player]
    return size
