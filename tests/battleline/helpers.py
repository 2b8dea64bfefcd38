"""Small helpers the Battle Line test files share: play action text, list legal text."""

from __future__ import annotations

from frontlines.games.battleline.state import BattleLineState


def act(s: BattleLineState, *texts: str) -> None:
    for t in texts:
        s.apply(s.parse_action(t))


def legal(s: BattleLineState) -> set[str]:
    return {s.action_to_text(a) for a in s.legal_actions()}


def claims(s: BattleLineState) -> set[str]:
    return {t for t in legal(s) if t.startswith("claim:")}
