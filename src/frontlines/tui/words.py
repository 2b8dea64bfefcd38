"""Plain-language text for actions, outcomes and claim proofs (no Textual)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from frontlines.core.actions import HIDDEN, ActionRecord
from frontlines.core.actions import ActionKind as K
from frontlines.tui.cards import TACTICS_NAMES


def _card(r: ActionRecord, hidden: str) -> str:
    """The record's card, or ``hidden`` words where the viewer cannot see it."""
    return hidden if r.card in (HIDDEN, None, "") else str(r.card)


def _redeploy(r: ActionRecord) -> str:
    return f"{TACTICS_NAMES['RE']} {r.card} out" if r.target == "x" else f"{TACTICS_NAMES['RE']} {r.card}>{r.target}"


_WORDS: dict[K, Callable[[ActionRecord], str]] = {
    K.PLAY: lambda r: f"{r.card} to {r.flag}",
    K.ENVIRONMENT: lambda r: f"{TACTICS_NAMES.get(r.card or '', r.card)} at {r.flag}",
    K.CLAIM: lambda r: f"claims flag {r.flag}",
    K.PASS: lambda r: "passes",
    K.DRAW: lambda r: f"draws pile {r.pile}" if r.pile is not None else f"draws {r.deck}",
    K.END: lambda r: "ends turn",
    K.SCOUT: lambda r: "plays Scout",
    K.SCOUT_DRAW: lambda r: f"scouts {r.deck}",
    K.SCOUT_RETURN: lambda r: "returns " + _card(r, "a card"),
    K.REDEPLOY: _redeploy,
    K.DESERTER: lambda r: f"{TACTICS_NAMES['DE']} {r.card}",
    K.TRAITOR: lambda r: f"{TACTICS_NAMES['TR']} {r.card}>{r.target}",
    K.DISCARD: lambda r: f"discards {r.card}",
    K.DEPLOY: lambda r: f"{r.card} {'WM' if r.end == 'war_machine' else 'inf'} to {r.position}",
    K.BURN: lambda r: "burns " + _card(r, "a card"),
    K.SKIP: lambda r: "skips",
    K.TAKE: lambda r: f"takes {r.count}" if r.cards is None else r.text,
}


def describe_action(entry: ActionRecord | Mapping[str, Any]) -> str:
    """An action record (or its JSON form from the view) in a few words: ``R7@3`` -> ``R7 to 3``,
    ``GJ^4`` -> ``GJ WM to 4``; a kind this terminal has no words for comes back as its text."""
    record = entry if isinstance(entry, ActionRecord) else ActionRecord.from_dict(entry)
    words = _WORDS.get(record.kind)
    return words(record) if words is not None else record.text


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
