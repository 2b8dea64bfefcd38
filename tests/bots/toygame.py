"""A tiny hidden-information game implementing the game interface, for bot tests that must
not depend on the real game modules (constructed positions, search mechanics).

"Exact ten": a shared total starts at 0. Each player holds a hidden hand of three cards
(values 1-3) drawn from a shuffled deck of twelve. On your turn you play a card whose value
does not take the total past 10 (then draw one if the deck is not empty), or ``pass`` when
none fits. Reaching exactly 10 wins at once; two passes in a row end the game in a draw.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from frontlines.core.actions import ActionKind, ActionRecord
from frontlines.core.errors import IllegalAction, NotationError
from frontlines.core.game import Action, Outcome, State, Termination, View

TARGET = 10
PASS = 0


class ToyState(State):
    def __init__(self, hands: tuple[list[int], list[int]], deck: list[int], total: int = 0, to_move: int = 0) -> None:
        self.hands = hands
        self.deck = deck
        self.total = total
        self.to_move = to_move
        self.passes = 0
        self._outcome: Outcome | None = None
        self._history: list[Action] = []
        self._undo: list[tuple[Any, ...]] = []

    @classmethod
    def deal(cls, seed: int | None) -> ToyState:
        deck = [1, 2, 3] * 4
        random.Random(seed).shuffle(deck)
        return cls((deck[:3], deck[3:6]), deck[6:])

    @property
    def game(self) -> str:
        return "toy"

    @property
    def ruleset(self) -> str:
        return "toy"

    def current_player(self) -> int | None:
        return None if self._outcome is not None else self.to_move

    def legal_actions(self) -> list[Action]:
        if self._outcome is not None:
            return []
        fits = sorted({v for v in self.hands[self.to_move] if self.total + v <= TARGET})
        return list(fits) if fits else [PASS]

    def apply(self, action: Action) -> None:
        self.push(action)
        self._undo.pop()  # apply keeps no undo information

    def push(self, action: Action) -> None:
        if action not in self.legal_actions():
            raise IllegalAction(f"illegal: {action!r}")
        snapshot = (list(self.hands[0]), list(self.hands[1]), list(self.deck), self.total, self.to_move, self.passes, self._outcome)
        self._undo.append(snapshot)
        self._history.append(action)
        player = self.to_move
        assert isinstance(action, int)
        if action == PASS:
            self.passes += 1
            if self.passes >= 2:
                self._outcome = Outcome(None, Termination.STALL)
        else:
            self.passes = 0
            self.hands[player].remove(action)
            self.total += action
            if self.deck:
                self.hands[player].append(self.deck.pop())
            if self.total == TARGET:
                self._outcome = Outcome(player, Termination.SCORE)  # reached the target exactly
        self.to_move = 1 - player

    def pop(self) -> Action:
        h0, h1, deck, total, to_move, passes, outcome = self._undo.pop()
        self.hands = (h0, h1)
        self.deck, self.total, self.to_move, self.passes, self._outcome = deck, total, to_move, passes, outcome
        return self._history.pop()

    def clone(self) -> ToyState:
        other = ToyState((list(self.hands[0]), list(self.hands[1])), list(self.deck), self.total, self.to_move)
        other.passes, other._outcome, other._history = self.passes, self._outcome, list(self._history)
        return other

    def is_terminal(self) -> bool:
        return self._outcome is not None

    def outcome(self) -> Outcome | None:
        return self._outcome

    def resign(self, player: int, reason: str = "resignation", detail: str = "") -> None:
        self._outcome = Outcome(1 - player, reason, detail=detail)

    def view(self, player: int | None) -> ToyView:
        return ToyView(self.clone(), player)

    def to_notation(self) -> str:
        return f"toy {self.hands} {self.deck} {self.total} {self.to_move} {self.passes} {self._outcome}"

    def action_to_text(self, action: Action) -> str:
        return "pass" if action == PASS else str(action)

    def parse_action(self, text: str) -> Action:
        if text == "pass":
            return PASS
        if text in ("1", "2", "3"):
            return int(text)
        raise NotationError(text)

    def describe_action(self, action: Action) -> ActionRecord:
        if action == PASS:
            return ActionRecord(ActionKind.PASS, "pass")
        return ActionRecord(ActionKind.PLAY, str(action), card=str(action))

    @property
    def history(self) -> Sequence[Action]:
        return tuple(self._history)


class ToyView(View):
    def __init__(self, state: ToyState, viewer: int | None) -> None:
        self._state = state
        self.viewer = viewer

    @property
    def ruleset(self) -> str:
        return "toy"

    def current_player(self) -> int | None:
        return self._state.current_player()

    def is_terminal(self) -> bool:
        return self._state.is_terminal()

    def outcome(self) -> Outcome | None:
        return self._state.outcome()

    def legal_actions(self) -> list[Action]:
        if self.viewer is None or self._state.current_player() != self.viewer:
            return []
        return self._state.legal_actions()

    def sample(self, rng: random.Random) -> ToyState:
        state = self._state.clone()
        if self.viewer is None:
            return state
        other = 1 - self.viewer
        pool = state.hands[other] + state.deck
        rng.shuffle(pool)
        n = len(state.hands[other])
        state.hands = (state.hands[0], pool[:n]) if other == 1 else (pool[:n], state.hands[1])
        state.deck = pool[n:]
        return state

    def to_notation(self) -> str:
        s = self._state
        own = s.hands[self.viewer] if self.viewer is not None else None
        return f"toyview {self.viewer} {own} {s.total} {s.to_move} {len(s.deck)}"

    def to_dict(self) -> dict[str, Any]:
        return {"game": "toy", "viewer": self.viewer, "total": self._state.total}

    def action_to_text(self, action: Action) -> str:
        return self._state.action_to_text(action)

    def parse_action(self, text: str) -> Action:
        return self._state.parse_action(text)

    def describe_action(self, action: Action) -> ActionRecord:
        return self._state.describe_action(action)
