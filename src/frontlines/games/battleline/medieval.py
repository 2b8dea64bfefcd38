"""Battle Line: Medieval battlefield cards, loaded from data (schema in docs/battleline.md).

The face-up texts of the real cards are not public (docs/rules.md §5.2), so effects come from
JSON files in ``battlefields/``: ``plain.json`` (no effects, the default) and
``house.json`` (our own house set, never the publisher's text). A face-down battlefield
is always plain.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from frontlines.games.battleline.cards import (
    ALEXANDER,
    COMPANION_CAVALRY,
    DARIUS,
    FOG,
    MORALE,
    MUD,
    NUM_COLOURS,
    SHIELD_BEARERS,
)

CATEGORIES: dict[str, tuple[int, ...]] = {
    "morale": MORALE,
    "leaders": (ALEXANDER, DARIUS),
    "companion": (COMPANION_CAVALRY,),
    "shield": (SHIELD_BEARERS,),
    "fog": (FOG,),
    "mud": (MUD,),
    "troops": tuple(c * 10 + v for c in range(NUM_COLOURS) for v in range(10)),
}
_EFFECT_KEYS = {"capacity", "forbid", "troop_values", "sum_only", "tie_break", "claim"}


@dataclass(frozen=True, slots=True)
class Effects:
    """What a face-up battlefield changes at its flag."""

    capacity: int = 3  # cards per side before Mud (Mud adds one)
    forbid: int = 0  # bitmask of cards that may not be played or moved here
    sum_only: bool = False  # formations ignored, as under Fog
    tie_last: bool = False  # ties go to whoever completed last
    both_complete: bool = False  # no claims by proof: both sides must be complete


PLAIN = Effects()


@dataclass(frozen=True, slots=True)
class Battlefield:
    id: str
    name: str
    text: str
    effects: Effects


@dataclass(frozen=True, slots=True)
class BattlefieldSet:
    name: str
    label: str
    cards: tuple[Battlefield, ...]


def parse_effects(data: Any, where: str) -> Effects:
    """Validate one ``effects`` object; raises ``ValueError`` naming ``where``."""
    if not isinstance(data, dict):
        raise ValueError(f"{where}: effects must be an object")
    unknown = set(data) - _EFFECT_KEYS
    if unknown:
        raise ValueError(f"{where}: unknown effect keys {sorted(unknown)}")
    capacity = data.get("capacity", 3)
    if not isinstance(capacity, int) or isinstance(capacity, bool) or not 2 <= capacity <= 4:
        raise ValueError(f"{where}: capacity must be an integer 2-4")
    forbid = 0
    for name in data.get("forbid", []):
        if name not in CATEGORIES:
            raise ValueError(f"{where}: unknown category {name!r}; known: {', '.join(CATEGORIES)}")
        for card in CATEGORIES[name]:
            forbid |= 1 << card
    values = data.get("troop_values")
    if values is not None:
        if not (isinstance(values, list) and len(values) == 2 and all(isinstance(v, int) for v in values)):
            raise ValueError(f"{where}: troop_values must be [low, high]")
        low, high = values
        for colour in range(NUM_COLOURS):
            for value in range(1, 11):
                if not low <= value <= high:
                    forbid |= 1 << (colour * 10 + value - 1)
    tie = data.get("tie_break", "completed_first")
    if tie not in ("completed_first", "completed_last"):
        raise ValueError(f"{where}: tie_break must be completed_first or completed_last")
    claim = data.get("claim", "proof")
    if claim not in ("proof", "both_complete"):
        raise ValueError(f"{where}: claim must be proof or both_complete")
    sum_only = data.get("sum_only", False)
    if not isinstance(sum_only, bool):
        raise ValueError(f"{where}: sum_only must be true or false")
    return Effects(capacity, forbid, sum_only, tie == "completed_last", claim == "both_complete")


def parse_set(data: Any, source: str) -> BattlefieldSet:
    if not isinstance(data, dict) or data.get("schema") != 1:
        raise ValueError(f"{source}: not a schema-1 battlefield set")
    cards = data.get("battlefields")
    if not isinstance(cards, list) or len(cards) != 9:
        raise ValueError(f"{source}: needs exactly 9 battlefields")
    out = []
    for index, item in enumerate(cards):
        where = f"{source} battlefield {index + 1}"
        if not isinstance(item, dict) or not all(isinstance(item.get(k), str) for k in ("id", "name", "text")):
            raise ValueError(f"{where}: needs string id, name and text")
        out.append(Battlefield(item["id"], item["name"], item["text"], parse_effects(item.get("effects", {}), where)))
    if len({b.id for b in out}) != 9:
        raise ValueError(f"{source}: battlefield ids must be unique")
    return BattlefieldSet(str(data.get("set", source)), str(data.get("label", "")), tuple(out))


@cache
def load_set(name: str) -> BattlefieldSet:
    """The shipped set ``plain`` or ``house``."""
    if name not in ("plain", "house"):
        raise ValueError(f"unknown battlefield set {name!r}")
    text = resources.files("frontlines.games.battleline").joinpath("battlefields", f"{name}.json").read_text("utf-8")
    return parse_set(json.loads(text), f"{name}.json")
