"""Battle Line family actions as typed records (:class:`frontlines.core.actions.ActionRecord`).

Every action value has one fixed description (built once, at import); the four actions
that take a card off the table also say at which flag it lies, which depends on the
position, so :func:`describe` fills that in from the sides of the flags.

>>> from frontlines.games.battleline.notation import parse_action
>>> describe(parse_action("claim:3"), [()] * 18).to_dict()
{'text': 'claim:3', 'kind': 'claim', 'flag': 3}
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, cast

from frontlines.core.actions import HIDDEN, ActionDict, ActionKind, ActionRecord, Features, LogEntryDict
from frontlines.core.errors import NotationError
from frontlines.games.battleline.cards import NUM_CARDS, card_code
from frontlines.games.battleline.codes import (
    CLAIM_BASE,
    DESERTER_BASE,
    DRAW_TACTICS,
    DRAW_TROOP,
    END,
    EXCESS_BASE,
    NUM_ACTIONS,
    PASS,
    PLAY_BASE,
    REDEPLOY_BASE,
    RETURN_BASE,
    SCOUT_PLAY,
    SCOUT_TACTICS,
    SCOUT_TROOP,
    TRAITOR_BASE,
    action_to_text,
)
from frontlines.games.battleline.table import flag_holding

if TYPE_CHECKING:
    from frontlines.games.battleline.rules import Config

_ENVIRONMENT = ("FO", "MU")
_OFF_THE_TABLE = frozenset({ActionKind.REDEPLOY, ActionKind.DESERTER, ActionKind.TRAITOR, ActionKind.DISCARD})


def _record(a: int) -> ActionRecord | None:
    """The position-free description of action value ``a`` (``None``: no such action)."""
    try:
        text = action_to_text(a)
    except NotationError:
        return None
    kind = ActionKind
    if a < CLAIM_BASE:
        c, f = divmod(a - PLAY_BASE, 9)
        code = card_code(c)
        return ActionRecord(kind.ENVIRONMENT if code in _ENVIRONMENT else kind.PLAY, text, card=code, flag=f + 1)
    if a < PASS:
        return ActionRecord(kind.CLAIM, text, flag=a - CLAIM_BASE + 1)
    fixed = {
        PASS: ActionRecord(kind.PASS, text),
        DRAW_TROOP: ActionRecord(kind.DRAW, text, deck="troop"),
        DRAW_TACTICS: ActionRecord(kind.DRAW, text, deck="tactics"),
        END: ActionRecord(kind.END, text),
        SCOUT_PLAY: ActionRecord(kind.SCOUT, text, card="SC"),
        SCOUT_TROOP: ActionRecord(kind.SCOUT_DRAW, text, deck="troop"),
        SCOUT_TACTICS: ActionRecord(kind.SCOUT_DRAW, text, deck="tactics"),
    }
    if a in fixed:
        return fixed[a]
    if a < REDEPLOY_BASE:
        return ActionRecord(kind.SCOUT_RETURN, text, card=card_code(a - RETURN_BASE))
    if a < DESERTER_BASE:
        c, t = divmod(a - REDEPLOY_BASE, 10)
        return ActionRecord(kind.REDEPLOY, text, card=card_code(c), target="x" if t == 9 else t + 1)
    if a < TRAITOR_BASE:
        return ActionRecord(kind.DESERTER, text, card=card_code(a - DESERTER_BASE))
    if a < EXCESS_BASE:
        c, g = divmod(a - TRAITOR_BASE, 9)
        return ActionRecord(kind.TRAITOR, text, card=card_code(c), target=g + 1)
    return ActionRecord(kind.DISCARD, text, card=card_code(a - EXCESS_BASE))


_RECORDS: tuple[ActionRecord | None, ...] = tuple(_record(a) for a in range(NUM_ACTIONS))
# their JSON forms, built once too: views list dozens of entries each time they are drawn
_DICTS: tuple[ActionDict | None, ...] = tuple(r.to_dict() if r is not None else None for r in _RECORDS)
_HIDDEN_RETURN = ActionRecord(ActionKind.SCOUT_RETURN, "return:?", card=HIDDEN)
# the log holds the texts the viewer saw (one per action value, and the hidden return)
_BY_TEXT: dict[str, ActionDict] = {d["text"]: d for d in (*_DICTS, _HIDDEN_RETURN.to_dict()) if d is not None}
_CARD_INDEX = {card_code(c): c for c in range(NUM_CARDS)}


def describe(action: object, sides: Sequence[tuple[int, ...]]) -> ActionRecord:
    """``action`` described in a position whose flags hold ``sides`` (``flag * 2 + player``)."""
    record = _RECORDS[action] if type(action) is int and 0 <= action < NUM_ACTIONS else None
    if record is None:
        raise NotationError(f"not a Battle Line action: {action!r}")
    if record.kind in _OFF_THE_TABLE and record.card is not None:
        f = flag_holding(sides, _CARD_INDEX[record.card])
        if f >= 0:
            return replace(record, from_flag=f + 1)
    return record


def legal_entries(actions: Sequence[int], sides: Sequence[tuple[int, ...]]) -> list[ActionDict]:
    """The JSON form of ``describe`` for each of ``actions`` (the view's ``legal``)."""
    out: list[ActionDict] = []
    for a in actions:
        record, entry = _RECORDS[a], _DICTS[a]
        assert record is not None and entry is not None
        entry = entry.copy()
        if record.kind in _OFF_THE_TABLE and record.card is not None:
            f = flag_holding(sides, _CARD_INDEX[record.card])
            if f >= 0:
                entry["from"] = f + 1
        out.append(entry)
    return out


def log_records(log: Sequence[str], seats: Sequence[int]) -> list[LogEntryDict]:
    """The view's public log as records with their seats (a hidden Scout return stays hidden)."""
    return [cast(LogEntryDict, {**_BY_TEXT[text], "seat": seat}) for text, seat in zip(log, seats, strict=True)]


def features(cfg: Config) -> Features:
    """What a user interface needs to know of the ruleset's rules (never its name)."""
    variant = cfg.variant
    return {
        "family": "schotten-totten" if variant.schotten else "battleline",
        "claims": True,
        "tactics": variant.tactics,
        "max_value": variant.max_value,
        "battlefields": variant.battlefields,
        "scout_to_bottom": variant.scout_to_bottom,
    }
