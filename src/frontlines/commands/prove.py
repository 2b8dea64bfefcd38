"""``frontlines prove``: claim proofs as a JSON-lines filter (contract in docs/proofs.md).

Each input line is one JSON object describing a flag::

    {"rules": "battleline", "claimant": ["R8", "R9", "R10"], "opponent": ["B3"],
     "fog": false, "mud": false, "visible": ["G7", "SC"], "claimant_completed_first": true}

and gets exactly one output line, in order, flushed at once::

    {"claimable": true, "counterexample": null, "reason": "no unseen troop cards can beat your wedge (27)"}

A line that cannot be read gets ``{"error": "..."}`` and the filter goes on. Blank lines
are skipped. Every troop of the ruleset's deck on neither side and not in ``visible`` is
unseen (so the claimant's hand counts as unseen, as the rules require).
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from typing import Any, TextIO

from frontlines.games.battleline.cards import MORALE, NUM_CARDS, NUM_TROOPS, card_code, parse_card, value_of
from frontlines.games.battleline.formations import BATTLELINE_CARDS, SCHOTTEN_CARDS, CardRules
from frontlines.games.battleline.proof import prove

HELP = (
    "Claim proofs as a filter: one JSON object per line on stdin (rules, claimant, opponent, "
    "fog, mud, visible, claimant_completed_first), one JSON answer per line on stdout "
    '({"claimable", "counterexample", "reason"} or {"error"}). See docs/proofs.md.'
)

RULES: dict[str, CardRules] = {"battleline": BATTLELINE_CARDS, "schotten-totten": SCHOTTEN_CARDS}
_MORALE = frozenset(MORALE)
_BIT = tuple(1 << card for card in range(NUM_CARDS))


class BadInput(ValueError):
    """A request line that breaks the contract; reported as {"error": ...}."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    # The contract is stdin/stdout only; nothing to configure.
    del parser


def _flag(request: dict[str, Any], key: str, default: bool) -> bool:
    value = request.get(key, default)
    if not isinstance(value, bool):
        raise BadInput(f"{key!r} must be true or false, not {json.dumps(value)}")
    return value


def _cards(request: dict[str, Any], key: str, rules_name: str, required: bool) -> list[int]:
    if key not in request:
        if required:
            raise BadInput(f"missing {key!r} (a list of card codes)")
        return []
    codes = request[key]
    if not isinstance(codes, list):
        raise BadInput(f"{key!r} must be a list of card code strings, e.g. [\"R7\", \"AL\"]")
    schotten = rules_name == "schotten-totten"
    out = []
    for code in codes:  # a filter answers many lines a second: one pass, checks inline
        if not isinstance(code, str):
            raise BadInput(f"{key!r} must be a list of card code strings, e.g. [\"R7\", \"AL\"]")
        card = parse_card(code)  # NotationError (a ValueError) names the bad code
        if schotten and card < NUM_TROOPS and value_of(card) == 10:
            raise BadInput(f"{code!r}: Schotten Totten troops run from 1 to 9")
        out.append(card)
    return out


def answer(request_text: str) -> dict[str, Any]:
    """The answer object for one request line (errors included)."""
    try:
        try:
            request = json.loads(request_text)
        except json.JSONDecodeError as exc:
            raise BadInput(f"bad JSON: {exc}") from None
        if not isinstance(request, dict):
            raise BadInput("each line must be one JSON object")
        rules_name = request.get("rules", "battleline")
        if not isinstance(rules_name, str) or rules_name not in RULES:
            raise BadInput(f"unknown rules {json.dumps(rules_name)}; known: {', '.join(RULES)}")
        rules = RULES[rules_name]
        fog = _flag(request, "fog", False)
        mud = _flag(request, "mud", False)
        first = _flag(request, "claimant_completed_first", True)
        final = _flag(request, "opponent_final", False)
        claimant = _cards(request, "claimant", rules_name, True)
        opponent = _cards(request, "opponent", rules_name, True)
        visible = _cards(request, "visible", rules_name, False)
        capacity = 4 if mud else 3
        seen = 0
        for card in (*claimant, *opponent, *visible):
            bit = _BIT[card]
            if seen & bit:
                raise BadInput(f"card {card_code(card)} appears more than once")
            seen |= bit
        for key, side in (("claimant", claimant), ("opponent", opponent)):
            if len(side) > capacity:
                raise BadInput(f"{key!r} has {len(side)} cards; this flag holds {capacity}")
            for card in side:
                if card >= NUM_TROOPS and card not in _MORALE:
                    raise BadInput(f"{card_code(card)} cannot stand in a formation (only troops and AL DA CC SB)")
        result = prove(
            claimant, opponent, capacity=capacity, fog=fog, unseen_troops=rules.troop_mask & ~seen,
            claimant_completed_first=first, opponent_final=final, rules=rules,
        )
    except ValueError as exc:  # BadInput, NotationError, and any check inside prove
        return {"error": str(exc)}
    counter = None if result.counterexample is None else [card_code(c) for c in result.counterexample]
    return {"claimable": result.claimable, "counterexample": counter, "reason": result.reason}


def serve(stdin: TextIO, stdout: TextIO) -> None:
    """Answer every non-blank line of ``stdin`` on ``stdout``, one flushed line each."""
    while True:
        line = stdin.readline()
        if not line:
            return
        if not line.strip():
            continue
        try:
            reply = answer(line)
        except Exception as exc:  # never let one line stop the filter
            reply = {"error": f"internal error: {type(exc).__name__}: {exc}"}
        stdout.write(json.dumps(reply) + "\n")
        stdout.flush()


def run(args: argparse.Namespace) -> int:
    del args
    if isinstance(sys.stdin, io.TextIOWrapper):
        # undecodable bytes become U+FFFD, so such a line is answered as bad JSON or a bad code
        sys.stdin.reconfigure(encoding="utf-8", errors="replace")
    try:
        serve(sys.stdin, sys.stdout)
    except BrokenPipeError:  # the reader went away: nothing left to answer
        return 0
    except KeyboardInterrupt:
        return 130
    return 0
