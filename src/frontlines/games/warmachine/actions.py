"""War Machine actions as typed records (:class:`frontlines.core.actions.ActionRecord`).

>>> from frontlines.games.warmachine.notation import parse_action
>>> deploy = describe(parse_action("GJ^4"))
>>> deploy.kind, deploy.card, deploy.end, deploy.colour, deploy.position, deploy.strength, deploy.draws
(<ActionKind.DEPLOY: 'deploy'>, 'GJ', 'war_machine', 'GER', 4, 2, 1)
>>> describe_public(parse_action("burn:GJ"), face_up_burns=False).to_dict()
{'text': 'burn:?', 'kind': 'burn', 'card': '?'}
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import cast

from frontlines.core.actions import HIDDEN, ActionDict, ActionKind, ActionRecord, Features, LogEntryDict
from frontlines.core.errors import NotationError
from frontlines.games.warmachine.cards import COUNTRIES, STRENGTH, TYPE_NAMES, WM, card_code
from frontlines.games.warmachine.notation import action_text, public_action_text
from frontlines.games.warmachine.rules import (
    BURN,
    BURN_HIDDEN,
    DRAW_A,
    SKIP,
    TAKE1,
    TAKE1_CARD,
    TAKE1_HIDDEN,
    TAKE2,
    TAKE2_CARDS,
    TAKE2_HIDDEN,
)

_DEPLOYS = 432  # card * 12 + orient * 6 + position


def describe(action: object) -> ActionRecord:
    """``action`` as its player sees it (War Machine records do not depend on the position)."""
    if type(action) is not int:
        raise NotationError(f"not a War Machine action: {action!r}")
    a = action
    text = action_text(a)  # raises NotationError for a value that is no action
    if a < _DEPLOYS:
        c, orient, p = a // 12, (a // 6) & 1, a % 6
        colour = c // 6 if orient == WM else c % 6
        return ActionRecord(ActionKind.DEPLOY, text, card=card_code(c), end=TYPE_NAMES[orient],
                            colour=COUNTRIES[colour], position=p + 1, strength=STRENGTH[orient],
                            draws=2 if orient else 1)
    if a == BURN_HIDDEN:  # another player's masked actions (rules.public_action)
        return ActionRecord(ActionKind.BURN, text, card=HIDDEN)
    if a in (TAKE1_HIDDEN, TAKE2_HIDDEN):
        n = 1 if a == TAKE1_HIDDEN else 2
        return ActionRecord(ActionKind.TAKE, text, count=n, cards=(HIDDEN,) * n)
    if a < DRAW_A:
        return ActionRecord(ActionKind.BURN, text, card=card_code(a - BURN))
    if a < TAKE1:
        return ActionRecord(ActionKind.DRAW, text, pile=a - DRAW_A + 1)
    if a == SKIP:
        return ActionRecord(ActionKind.SKIP, text)
    if a in (TAKE1, TAKE2):
        return ActionRecord(ActionKind.TAKE, text, count=1 if a == TAKE1 else 2)
    if a < TAKE2_CARDS:
        return ActionRecord(ActionKind.TAKE, text, count=1, cards=(card_code(a - TAKE1_CARD),))
    x, y = divmod(a - TAKE2_CARDS, 36)
    return ActionRecord(ActionKind.TAKE, text, count=2, cards=(card_code(x), card_code(y)))


def describe_public(action: int, face_up_burns: bool) -> ActionRecord:
    """``action`` as the other player or a spectator sees it (hidden cards as ``?``)."""
    record = describe(action)
    text = public_action_text(action, face_up_burns)
    if text == record.text:
        return record
    if record.kind is ActionKind.BURN:
        return ActionRecord(ActionKind.BURN, text, card=HIDDEN)
    assert record.count is not None
    return ActionRecord(ActionKind.TAKE, text, count=record.count, cards=(HIDDEN,) * record.count)


@cache
def _entry(action: int, public: bool, face_up_burns: bool) -> ActionDict:
    """The JSON form of an action's record, built once (views list many each time they are drawn)."""
    return (describe_public(action, face_up_burns) if public else describe(action)).to_dict()


def legal_entries(actions: Iterable[int]) -> list[ActionDict]:
    """The view's ``legal``: each action's record as JSON."""
    return [_entry(a, False, False).copy() for a in actions]


def log_records(actions: Iterable[int], actors: Iterable[int], viewer: int | None,
                face_up_burns: bool) -> list[LogEntryDict]:
    """The view's ``log_records``: each action as ``viewer`` saw it, with the seat that made it."""
    return [
        cast(LogEntryDict, {**_entry(a, actor != viewer, face_up_burns), "seat": actor})
        for a, actor in zip(actions, actors, strict=True)
    ]


def features() -> Features:
    """What a user interface needs to know of the rules (never the ruleset's name)."""
    return {"family": "warmachine", "claims": False, "tactics": False}
