"""Plain-language text for actions, outcomes and claim proofs (no Textual)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from frontlines.tui.cards import TACTICS_NAMES

_WM_DEPLOY = re.compile(r"^([A-Z]{2})([\^v])([1-6])$")


def describe_action(text: str) -> str:
    """``R7@3`` -> ``R7 to 3``, ``GJ^4`` -> ``GJ WM to 4``; unknown forms come back unchanged."""
    deploy = _WM_DEPLOY.match(text)
    if deploy:
        end = "WM" if deploy.group(2) == "^" else "inf"
        return f"{deploy.group(1)} {end} to {deploy.group(3)}"
    if text.startswith("burn:"):
        card = text[5:]
        return "burns a card" if card == "?" else f"burns {card}"
    if text.startswith("draw:") and text[5:].isdigit():
        return f"draws pile {text[5:]}"
    if text in ("take1", "take2"):
        return f"takes {text[-1]}"
    if text == "skip":
        return "skips"
    if text.startswith("claim:"):
        return f"claims flag {text[6:]}"
    if text.startswith("draw:"):
        return f"draws {text[5:]}"
    if text.startswith("scout:"):
        return f"scouts {text[6:]}"
    if text.startswith("return:"):
        card = text[7:]
        return "returns a card" if card in ("?", "") else f"returns {card}"
    if text == "SC":
        return "plays Scout"
    if text in ("pass", "end"):
        return {"pass": "passes", "end": "ends turn"}[text]
    head, _, rest = text.partition(":")
    if head in ("RE", "DE", "TR") and rest:
        card, _, target = rest.partition(">")
        name = TACTICS_NAMES[head]
        if head == "RE":
            return f"{name} {card} out" if target == "x" else f"{name} {card}>{target}"
        if head == "DE":
            return f"{name} {card}"
        return f"{name} {card}>{target}"
    card, at, flag = text.partition("@")
    if at:
        if card in ("FO", "MU"):
            return f"{TACTICS_NAMES[card]} at {flag}"
        return f"{card} to {flag}"
    return text


def format_cards(value: Any) -> str:
    """A counter-example as text: a list of codes, a dict of sides, or a string."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        return ", ".join(f"{k}: {format_cards(v)}" for k, v in value.items())
    if isinstance(value, Sequence):
        return " ".join(format_cards(v) for v in value)
    return str(value)


def outcome_text(outcome: Mapping[str, Any] | None, names: Sequence[str]) -> str:
    if not outcome:
        return ""
    winner = outcome.get("winner")
    reason = str(outcome.get("reason", ""))
    scores = outcome.get("scores")
    score = f" ({scores[0]}-{scores[1]})" if scores else ""
    if winner is None:
        return f"Draw: {reason}{score}"
    who = names[int(winner)]
    verb = "win" if who == "You" else "wins"
    detail = outcome.get("detail") or ""
    tail = f" - {detail}" if detail else ""
    return f"{who} {verb} by {reason}{score}{tail}"


def claim_explanation(flag: Mapping[str, Any]) -> str:
    """Why a flag can or cannot be claimed, from the view's ``claim`` entry."""
    index = flag.get("index")
    if flag.get("claimed_by") is not None:
        return f"Flag {index} is already claimed."
    claim = flag.get("claim")
    if not claim:
        return f"Flag {index}: your side is not complete, so there is nothing to claim yet."
    reason = str(claim.get("reason") or "")
    if claim.get("claimable"):
        return f"Flag {index} can be claimed: {reason}" if reason else f"Flag {index} can be claimed."
    counter = format_cards(claim.get("counterexample"))
    text = f"Flag {index} cannot be claimed yet"
    if reason:
        text += f": {reason}"
    if counter:
        text += f". Counter-example: {counter}"
    return text + "."


def placed_cards(text: str) -> str | None:
    """The card an action puts on (or moves across) the table, if any: ``R7@3`` -> ``R7``."""
    head, sep, rest = text.partition(":")
    if sep and head in ("RE", "TR"):
        card, _, target = rest.partition(">")
        return card if target and target != "x" else None
    card, at, _flag = text.partition("@")
    if at and card not in ("FO", "MU"):
        return card
    return None


def flag_details(flag: Mapping[str, Any], me: int, names: Sequence[str]) -> str:
    """Everything about one flag in a few words (the ``i`` key and flag clicks)."""
    index = flag.get("index")
    capacity = int(flag.get("capacity") or 3)
    parts = [f"Flag {index}"]
    marks = [w for w, on in (("Fog: sums only", flag.get("fog")), (f"Mud: {capacity} cards a side", flag.get("mud")))
             if on]
    if marks:
        parts.append(", ".join(marks))
    sides = flag.get("sides") or [[], []]
    formations = flag.get("formation") or [None, None]
    for seat in (me, 1 - me):
        cards = " ".join(sides[seat]) or "-"
        formation = formations[seat]
        if formation:
            state = f"{str(formation.get('name', '')).lower()} {formation.get('sum')}"
        else:
            state = f"{len(sides[seat])}/{capacity}"
        parts.append(f"{names[seat]}: {cards} ({state})")
    first = flag.get("completed_first")
    if first is not None:
        parts.append(f"{names[int(first)]} completed first")
    battlefield = flag.get("battlefield")
    if battlefield and battlefield.get("face_up"):
        parts.append(f"battlefield {battlefield.get('name', '')}: {battlefield.get('text', '')}")
    return "; ".join(parts) + "."
