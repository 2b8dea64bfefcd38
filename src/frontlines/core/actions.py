"""Typed descriptions of actions: what a move *is*, without reading its text.

An action's text (``R7@3``, ``claim:3``, ``GJ^4``) is the game's notation, for records and
people. Programs that need to know what a move does (bots spotting claims, user interfaces
drawing prose and click paths) ask the game for an :class:`ActionRecord` instead, through
``State.describe_action`` / ``View.describe_action``, and the view dictionary carries the
records' JSON form (docs/contracts.md). Nothing outside a game parses action text.

>>> record = ActionRecord(ActionKind.PLAY, "R7@3", card="R7", flag=3)
>>> record.to_dict()
{'text': 'R7@3', 'kind': 'play', 'card': 'R7', 'flag': 3}
>>> ActionRecord.from_dict(record.to_dict()) == record
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, NotRequired, TypedDict

#: The card code of a card the viewer cannot see (another player's Scout return, a burn).
HIDDEN = "?"


class ActionKind(StrEnum):
    """What an action does. One enum for every game; each game uses its own members."""

    # Battle Line family
    PLAY = "play"  # a troop or morale tactics card to a flag
    ENVIRONMENT = "environment"  # Fog or Mud beside a flag
    CLAIM = "claim"
    PASS = "pass"  # no card play (no troop can be played)
    DRAW = "draw"  # Battle Line: from a deck; War Machine: from a support pile
    END = "end"  # end the turn without drawing
    SCOUT = "scout"  # play Scout
    SCOUT_DRAW = "scout_draw"
    SCOUT_RETURN = "scout_return"
    REDEPLOY = "redeploy"
    DESERTER = "deserter"
    TRAITOR = "traitor"
    DISCARD = "discard"  # a card taken off a flag whose capacity Mud's removal lowered
    # War Machine
    DEPLOY = "deploy"
    BURN = "burn"
    SKIP = "skip"  # nothing can be deployed
    TAKE = "take"  # set-up: take one or two leftover cards


# The JSON form of an :class:`ActionRecord`: ``text`` and ``kind`` always, the other fields
# where they apply (absent otherwise). Spelt out as a call because ``from`` is a keyword.
ActionDict = TypedDict("ActionDict", {
    "text": str,
    "kind": str,  # an ActionKind value
    "card": NotRequired[str],
    "flag": NotRequired[int],
    "target": NotRequired[int | str],
    "deck": NotRequired[str],
    "from": NotRequired[int],
    "end": NotRequired[str],
    "colour": NotRequired[str],
    "position": NotRequired[int],
    "strength": NotRequired[int],
    "draws": NotRequired[int],
    "pile": NotRequired[int],
    "count": NotRequired[int],
    "cards": NotRequired[list[str]],
})


class LogEntryDict(ActionDict):
    """One entry of the view's ``log_records``: the public action and who made it."""

    seat: int


class Features(TypedDict):
    """The view's ``features``: the rules differences a user interface needs, so that it
    never infers them from the ruleset's name."""

    family: str  # "battleline", "schotten-totten" or "warmachine"
    claims: bool  # flags are claimed by proof
    tactics: bool  # the ruleset plays with tactics cards
    max_value: NotRequired[int]  # Battle Line family: troop values 1..max_value
    battlefields: NotRequired[bool]  # Medieval battlefield cards
    scout_to_bottom: NotRequired[bool]  # Scout's cards go back under the decks


# JSON key of each field whose Python name differs
_JSON_NAMES = {"from_flag": "from"}
_PY_NAMES = {v: k for k, v in _JSON_NAMES.items()}


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """One action, described: its ``kind``, its ``text`` (the notation) and the fields that
    apply to it. Cards are codes (``R7``, ``GJ``; :data:`HIDDEN` where the viewer cannot see
    the card), flags, targets and positions count from 1 as players do.

    Battle Line fields: ``card``; ``flag`` (plays, claims); ``target`` (Redeploy and
    Traitor: the flag the card goes to, or ``"x"`` when Redeploy discards it); ``deck``
    (``troop``/``tactics``); ``from_flag`` (JSON ``from``: the flag a card taken off the
    table lies at). War Machine fields: ``card``; ``end`` (``war_machine``/``infantry``, the
    end turned up), ``colour`` (the country it fights for), ``position``, ``strength``,
    ``draws`` (support cards the deployment earns); ``pile``; ``count`` and ``cards`` (set-up
    takes; ``cards`` is ``None`` when the action leaves the choice of cards open).
    """

    kind: ActionKind
    text: str
    card: str | None = None
    flag: int | None = None
    target: int | str | None = None
    deck: str | None = None
    from_flag: int | None = None
    end: str | None = None
    colour: str | None = None
    position: int | None = None
    strength: int | None = None
    draws: int | None = None
    pile: int | None = None
    count: int | None = None
    cards: tuple[str, ...] | None = None

    def to_dict(self) -> ActionDict:
        """The JSON form: ``text``, ``kind`` and every field that applies."""
        out: dict[str, Any] = {"text": self.text, "kind": self.kind.value}
        for name in _FIELDS:
            value = getattr(self, name)
            if value is not None:
                out[_JSON_NAMES.get(name, name)] = list(value) if isinstance(value, tuple) else value
        return out  # type: ignore[return-value]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ActionRecord:
        """Inverse of :meth:`to_dict` (a log entry's ``seat`` is ignored); ``ValueError``
        for an unknown kind or field."""
        raw = dict(data)
        raw.pop("seat", None)
        try:
            kind = ActionKind(raw.pop("kind"))
            text = str(raw.pop("text"))
        except KeyError as exc:
            raise ValueError(f"an action record needs {exc.args[0]!r}") from None
        values: dict[str, Any] = {}
        for key, value in raw.items():
            name = _PY_NAMES.get(key, key)
            if name not in _FIELDS:
                raise ValueError(f"unknown action record field {key!r}")
            values[name] = tuple(value) if isinstance(value, list) else value
        return cls(kind, text, **values)

    @property
    def placed(self) -> str | None:
        """The card this action puts on (or moves across) the table from a player's own
        reach, if any: ``R7@3`` and ``RE:R7>5`` and ``TR:B3>4`` give the card; a discard,
        Fog and Mud give ``None``."""
        if self.kind is ActionKind.PLAY or (
            self.kind in (ActionKind.REDEPLOY, ActionKind.TRAITOR) and self.target not in (None, "x")
        ):
            return self.card
        return None


_FIELDS = tuple(f.name for f in fields(ActionRecord) if f.name not in ("kind", "text"))


def log_entry(record: ActionRecord, seat: int) -> LogEntryDict:
    """The JSON form of a log entry: the record's fields and the ``seat`` that made it."""
    entry: dict[str, Any] = dict(record.to_dict())
    entry["seat"] = seat
    return entry  # type: ignore[return-value]


__all__ = ["HIDDEN", "ActionDict", "ActionKind", "ActionRecord", "Features", "LogEntryDict", "log_entry"]
