"""Plain-language text for actions, outcomes and claim proofs (no Textual)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from frontlines.core.actions import HIDDEN, ActionRecord
from frontlines.core.actions import ActionKind as K
from frontlines.tui.cards import card_name


def _card(r: ActionRecord, hidden: str) -> str:
    """The record's card, or ``hidden`` words where the viewer cannot see it."""
    return hidden if r.card in (HIDDEN, None, "") else str(r.card)


def plural(n: int, one: str, many: str, *, number: bool = True) -> str:
    """``n`` with its noun in the right form: ``1 action``, ``3 actions`` (``number=False``:
    the form alone, for a verb that agrees: ``refuses`` / ``refuse``).

    The terminal speaks English only (docs/tui.md); every count it puts into words goes
    through here, never a glued ``action(s)``, so that other languages' plural rules have
    one place to come in."""
    form = one if n == 1 else many
    return f"{n} {form}" if number else form


_Words = Callable[[ActionRecord, Callable[[str], str]], str]  # (record, tactics code -> name)

_WORDS: dict[K, _Words] = {
    K.PLAY: lambda r, n: f"{r.card} to {r.flag}",
    K.ENVIRONMENT: lambda r, n: f"{n(r.card or '')} at {r.flag}",
    K.CLAIM: lambda r, n: f"claims flag {r.flag}",
    K.PASS: lambda r, n: "passes",
    K.DRAW: lambda r, n: f"draws pile {r.pile}" if r.pile is not None else f"draws {r.deck}",
    K.END: lambda r, n: "ends turn",
    K.SCOUT: lambda r, n: f"plays {n('SC')}",
    K.SCOUT_DRAW: lambda r, n: f"scouts {r.deck}",
    K.SCOUT_RETURN: lambda r, n: "returns " + _card(r, "a card"),
    K.REDEPLOY: lambda r, n: f"{n('RE')} {r.card} out" if r.target == "x" else f"{n('RE')} {r.card}>{r.target}",
    K.DESERTER: lambda r, n: f"{n('DE')} {r.card}",
    K.TRAITOR: lambda r, n: f"{n('TR')} {r.card}>{r.target}",
    K.DISCARD: lambda r, n: f"discards {r.card}",
    K.DEPLOY: lambda r, n: f"{r.card} {'WM' if r.end == 'war_machine' else 'inf'} to {r.position}",
    K.BURN: lambda r, n: "burns " + _card(r, "a card"),
    K.SKIP: lambda r, n: "skips",
    K.TAKE: lambda r, n: "takes " + plural(int(r.count or 0), "card", "cards") if r.cards is None else r.text,
}


# Battle Line's "flag" where a ruleset calls its places otherwise; not inside a file name
# ("flag-test.txt", "/flags/"), which is the player's word, not the game's
_FLAG_RE = re.compile(r"(?<![/\-])\b([Ff])lag(s?)\b(?![/\-]|\.\w)")


def in_place_words(text: str, place: str | None) -> str:
    """``text`` (the terminal's and the engine's English, which say "flag") with each flag
    called as the ruleset calls its places (``place``: the view's ``place_name``):
    "Stone 3 can be claimed" in Schotten Totten, whose places are boundary stones
    (docs/rules.md §4.1)."""
    if not place or place == "flag":
        return text
    return _FLAG_RE.sub(lambda m: (place.capitalize() if m.group(1) == "F" else place) + m.group(2), text)


# Battle Line's troop card, with what follows it: "troop card(s)", "troop deck", "troops", "troop"
_TROOP_RE = re.compile(r"\b([Tt])roop(s?)\b( cards?| decks?)?")


def in_clan_words(text: str) -> str:
    """``text`` with Battle Line's troop cards called as Schotten Totten calls them, clan
    cards (docs/rules.md §4.1): "clan deck", "2 clan cards", "Unseen clan cards"; a bare
    "troop" before a count ("decks: troop 30") is "clan"."""
    def clan(m: re.Match[str]) -> str:
        word = "Clan" if m.group(1) == "T" else "clan"
        if m.group(3):  # the noun is already there
            return word + m.group(3)
        if m.group(2):
            return word + " cards"
        return word if re.match(r" \d", m.string[m.end():]) else word + " card"
    return _TROOP_RE.sub(clan, text)


def own_words(view: Mapping[str, Any]) -> Callable[[str], str] | None:
    """What turns the terminal's Battle Line words into the words of ``view``'s ruleset, or
    ``None`` where they are its own: Schotten Totten (whose places are stones) also calls its
    troop cards clan cards."""
    place = view.get("place_name")
    if not place or place == "flag":
        return None
    if place == "stone":
        return lambda text: in_clan_words(in_place_words(text, "stone"))
    return lambda text: in_place_words(text, str(place))


def describe_action(entry: ActionRecord | Mapping[str, Any], card_names: Sequence[str] | None = None) -> str:
    """An action record (or its JSON form from the view) in a few words: ``R7@3`` -> ``R7 to 3``,
    ``GJ^4`` -> ``GJ WM to 4``; a kind this terminal has no words for comes back as its text.
    Tactics cards are named as the ruleset names them (the view's ``card_names``)."""
    record = entry if isinstance(entry, ActionRecord) else ActionRecord.from_dict(entry)
    words = _WORDS.get(record.kind)
    return words(record, lambda code: card_name(code, card_names)) if words is not None else record.text


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


# The formation words of the claim proofs (Battle Line's, by rank 1..5), longest first so
# that "skirmish line" is not read as "skirmish"
_PROOF_WORDS = ("host", "skirmish line", "skirmish", "battalion order", "battalion", "phalanx", "wedge")
_PROOF_RANK = {"host": 1, "skirmish line": 2, "skirmish": 2, "battalion order": 3, "battalion": 3, "phalanx": 4,
               "wedge": 5}
_PROOF_RE = re.compile(r"\b(" + "|".join(_PROOF_WORDS) + r")\b")


def in_ruleset_words(text: str, formation_names: Sequence[str] | None) -> str:
    """``text`` (a claim proof, which names formations as Battle Line does) with each
    formation called by the ruleset's own name (the view's ``formation_names``, Host ..
    Wedge): Schotten Totten's "colour run" for "wedge"."""
    if not formation_names or len(formation_names) < 5:
        return text
    return _PROOF_RE.sub(lambda m: str(formation_names[_PROOF_RANK[m.group(1)] - 1]).lower(), text)


def claim_explanation(flag: Mapping[str, Any], formation_names: Sequence[str] | None = None) -> str:
    """Why a flag can or cannot be claimed, from the view's ``claim`` entry (formations
    named as the ruleset names them: the view's ``formation_names``)."""
    index = flag.get("index")
    if flag.get("claimed_by") is not None:
        return f"Flag {index} is already claimed."
    claim = flag.get("claim")
    if not claim:
        return f"Flag {index}: your side is not complete, so there is nothing to claim yet."
    reason = in_ruleset_words(str(claim.get("reason") or ""), formation_names)
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
        parts.append(f"battlefield {battlefield.get('name', '')}: {str(battlefield.get('text', '')).rstrip('.')}")
    return "; ".join(parts) + "."  # one full stop, though a battlefield's text brings its own
