"""The examples in docs/warmachine.md are real: they parse and come from the stated play."""

from __future__ import annotations

import random
import re
from pathlib import Path

from frontlines.games.warmachine import MODULE

DOC = Path(__file__).resolve().parents[2] / "docs" / "warmachine.md"


def test_doc_notation_examples_are_current() -> None:
    text = DOC.read_text(encoding="utf-8")
    lines = re.findall(r"^warmachine .*$", text, flags=re.M)
    states = [ln for ln in lines if " view=" not in ln]
    views = [ln for ln in lines if " view=" in ln]
    assert len(states) == 2 and len(views) == 1
    for line in states:
        assert MODULE.parse_state(line).to_notation() == line
    for line in views:
        assert MODULE.parse_view(line).to_notation() == line
    s = MODULE.new_game(seed=42)
    assert s.to_notation() == states[0]
    rng = random.Random(1)
    played = []
    for _ in range(9):
        a = rng.choice(s.legal_actions())
        played.append(s.action_to_text(a))
        s.apply(a)
    assert " ".join(played) in text
    assert s.to_notation() == states[1]
    assert s.view(0).to_notation() == views[0]
    assert f'[Setup "{states[0]}"]' in text
