"""Step-by-step move building from the view's structured ``legal`` entries (no Textual).

Each legal entry becomes a *path* of small choices, e.g. Traitor ``TR:B3>4`` is
``hand TR -> flag 6 (where B3 lies) -> card B3 -> flag 4``. The player walks the
path one choice at a time; at each step only the choices that still lead to a legal
action are offered, so the UI can never build an illegal move and every tactics card is
explained as a sequence of questions. Games without a dedicated mapping (and unknown
``kind`` values) fall back to one step: the action text itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

# Step kinds. ``hand``/``card`` values are card codes, ``flag`` values flag numbers as
# text (or ``x`` for "discard"), ``deck`` values deck names, ``button``/``action`` values
# action texts.
HAND, FLAG, CARD, CLAIM, DECK, BUTTON, ACTION = "hand", "flag", "card", "claim", "deck", "button", "action"
END = "end"  # War Machine: which end of the card is up (or burn it)

_GUILE_CODE = {"redeploy": "RE", "deserter": "DE", "traitor": "TR", "scout": "SC"}


@dataclass(frozen=True, slots=True)
class Token:
    """One choice on the way to an action."""

    kind: str
    value: str

    def __str__(self) -> str:
        return f"{self.kind}:{self.value}"


@dataclass(frozen=True, slots=True)
class Move:
    """A legal action with the path of choices that builds it."""

    text: str
    kind: str
    path: tuple[Token, ...]
    entry: Mapping[str, Any]


def card_locations(view: Mapping[str, Any]) -> dict[tuple[int, str], int]:
    """``(seat, card code) -> flag number`` for every card in a flag's slots."""
    where: dict[tuple[int, str], int] = {}
    for flag in view.get("flags") or []:
        for seat, side in enumerate(flag.get("sides") or []):
            for code in side:
                where[(seat, code)] = int(flag["index"])
    return where


def battleline_path(entry: Mapping[str, Any], view: Mapping[str, Any], where: Mapping[tuple[int, str], int]) -> tuple[Token, ...]:
    """The choices that build one Battle Line legal entry."""
    kind = str(entry.get("kind", ""))
    text = str(entry["text"])
    card = str(entry.get("card", ""))
    flag = entry.get("flag")
    target = entry.get("target")
    me = view.get("viewer")
    me = 0 if me is None else int(me)
    if kind in ("play", "environment") and flag is not None:
        return (Token(HAND, card), Token(FLAG, str(flag)))
    if kind == "scout":
        return (Token(HAND, card or "SC"),)
    if kind == "claim" and flag is not None:
        return (Token(CLAIM, str(flag)),)
    if kind in ("draw", "scout_draw"):
        return (Token(DECK, str(entry.get("deck", ""))),)
    if kind == "scout_return":
        return (Token(HAND, card),)
    if kind in ("pass", "end"):
        return (Token(BUTTON, kind),)
    if kind in ("redeploy", "deserter", "traitor"):
        owner = me if kind == "redeploy" else 1 - me
        source = where.get((owner, card))
        steps = [Token(HAND, _GUILE_CODE[kind])]
        if source is not None:
            steps.append(Token(FLAG, str(source)))
        steps.append(Token(CARD, card))
        if kind != "deserter" and target is not None:
            steps.append(Token(FLAG, str(target)))
        return tuple(steps)
    return (Token(ACTION, text),)


def warmachine_path(entry: Mapping[str, Any]) -> tuple[Token, ...]:
    """The choices that build one War Machine legal entry: card, end up, position (see tui/warmachine.py)."""
    kind = entry.get("kind")
    if kind == "deploy":
        return (Token(HAND, str(entry["card"])), Token(END, str(entry["end"])), Token(FLAG, str(entry["position"])))
    if kind == "burn":
        return (Token(HAND, str(entry["card"])), Token(END, "burn"))
    if kind == "draw":
        return (Token(FLAG, str(entry["pile"])),)
    if kind == "skip":
        return (Token(BUTTON, "skip"),)
    return (Token(ACTION, str(entry["text"])),)


def moves_with(view: Mapping[str, Any], path: Callable[[Mapping[str, Any]], tuple[Token, ...]]) -> list[Move]:
    """Every legal entry of the view with the path ``path`` gives it (the game's adapter
    chooses ``path``: :func:`battleline_path`, :func:`warmachine_path`, or one step)."""
    legal: Sequence[Mapping[str, Any]] = view.get("legal") or []
    return [Move(str(entry["text"]), str(entry.get("kind", "")), path(entry), entry) for entry in legal]


def one_step(entry: Mapping[str, Any]) -> tuple[Token, ...]:
    """The path of an entry a game has no steps for: its action, as one choice."""
    return (Token(ACTION, str(entry["text"])),)


class Picker:
    """The partly built move: the choices made so far and what may come next."""

    def __init__(self, moves: Sequence[Move]) -> None:
        self.moves = list(moves)
        self.prefix: list[Token] = []
        self._auto: list[bool] = []  # parallel to prefix: taken automatically?

    def reset(self, moves: Sequence[Move] | None = None) -> None:
        if moves is not None:
            self.moves = list(moves)
        self.prefix = []
        self._auto = []

    def candidates(self) -> list[Move]:
        n = len(self.prefix)
        return [m for m in self.moves if m.path[:n] == tuple(self.prefix)]

    def options(self) -> list[Token]:
        """Distinct next choices, in the order the engine listed its actions."""
        n = len(self.prefix)
        seen: dict[Token, None] = {}
        for move in self.candidates():
            if len(move.path) > n:
                seen.setdefault(move.path[n], None)
        return list(seen)

    def options_of(self, kind: str) -> list[Token]:
        return [t for t in self.options() if t.kind == kind]

    def choose(self, token: Token) -> Move | None:
        """Take one step; returns the finished move when the path is complete.

        Raises ``ValueError`` when ``token`` is not a valid next choice. Steps with a
        single possible card are taken automatically (nothing to decide).
        """
        if token not in self.options():
            raise ValueError(f"{token} is not a choice here")
        self.prefix.append(token)
        self._auto.append(False)
        while True:
            done = [m for m in self.candidates() if len(m.path) == len(self.prefix)]
            if done:
                return done[0]
            nxt = self.options()
            if len(nxt) == 1 and nxt[0].kind == CARD:
                self.prefix.append(nxt[0])
                self._auto.append(True)
                continue
            return None

    def back(self) -> bool:
        """Undo the last choice the player made (with the automatic steps after it)."""
        if not self.prefix:
            return False
        while self._auto and self._auto[-1]:
            self.prefix.pop()
            self._auto.pop()
        if self.prefix:
            self.prefix.pop()
            self._auto.pop()
        return True

    @property
    def started(self) -> bool:
        return bool(self.prefix)

    def head(self) -> Token | None:
        return self.prefix[0] if self.prefix else None
