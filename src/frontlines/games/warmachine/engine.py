"""War Machine behind the common game interface: state, view, module."""

from __future__ import annotations

import random
from array import array
from collections.abc import Sequence
from typing import Any

from frontlines.core.actions import ActionRecord, LogEntryDict
from frontlines.core.errors import IllegalAction, NotationError
from frontlines.core.game import Action, Outcome, State, Termination, View
from frontlines.core.reasons import Reason, english
from frontlines.games.chance import shuffle
from frontlines.games.warmachine.actions import describe, features, legal_entries, log_records
from frontlines.games.warmachine.cards import (
    ALL_CARDS,
    COUNTRIES,
    COUNTRY_NAMES,
    LETTERS,
    STRENGTH,
    TYPE_NAMES,
    UNKNOWN,
    WM,
    card_code,
)
from frontlines.games.warmachine.notation import (
    GAME,
    action_text,
    board_to_text,
    parse_action,
    public_action_text,
)
from frontlines.games.warmachine.reasons import REASON_WORDS, refusals, why
from frontlines.games.warmachine.rules import (
    BURN,
    CHOOSE,
    DRAW,
    DRAW_A,
    OVER,
    PHASE_NAMES,
    SKIP,
    STATUS_NAMES,
    TAKE1,
    WON0,
    WON1,
    Board,
    public_action,
)


def _as_int(action: Action) -> int:
    if type(action) is not int:
        raise IllegalAction(f"not a War Machine action: {action!r}")
    return action


def _text(action: Action) -> str:
    try:
        return action_text(_as_int(action))
    except IllegalAction as exc:
        raise NotationError(str(exc)) from exc


def mask(b: Board, viewer: int | None) -> Board:
    """What ``viewer`` (None: a spectator) may know of ``b``: hidden cards become UNKNOWN."""
    v = b.copy()
    v.piles = [[UNKNOWN] * len(p) for p in b.piles]
    chooser = 1 - b.shuffler
    for pl in (0, 1):
        if pl == viewer:
            continue
        if b.phase != OVER:  # hands are revealed for scoring
            v.hands[pl] = [UNKNOWN] * len(b.hands[pl])
        if not b.opts.burn_face_up:
            v.burned_by[pl] = [UNKNOWN] * len(b.burned_by[pl])
        if viewer != chooser:  # only the chooser saw both starting hands (seen choice)
            v.dealt[pl] = [UNKNOWN] * len(b.dealt[pl])
    if b.opts.blind or viewer != chooser:
        v.leftover = [UNKNOWN] * len(b.leftover)
    v.match_seed = -1
    return v


def sample_board(v: Board, viewer: int | None, rng: random.Random) -> Board:
    """A full board agreeing with the view board ``v`` (uniform over the unseen cards)."""
    b = v.copy()
    known = set(b.front_cards())
    known.update(b.burned_battle)
    slots: list[tuple[list[int], int]] = []
    constrained: list[tuple[list[int], int]] = []  # slots where the opponent's seen start cards may be
    lists: list[list[int]] = [*b.hands, *b.burned_by, b.leftover, *b.piles]
    for p in range(6):
        for side in b.sides[p]:
            known.update(x >> 1 for x in side)
    for lst in lists:
        for i, c in enumerate(lst):
            if c == UNKNOWN:
                slots.append((lst, i))
            else:
                known.add(c)
    pool = [c for c in ALL_CARDS if c not in known]
    if len(pool) != len(slots):
        raise NotationError(f"view does not account for the 30 cards ({len(pool)} unseen, {len(slots)} slots)")
    forced: list[int] = []
    if viewer is not None:
        opp = 1 - viewer
        forced = [c for c in b.dealt[opp] if c != UNKNOWN and c not in known]
        if forced:
            constrained = [(lst, i) for lst in (b.hands[opp], b.burned_by[opp]) for i, c in enumerate(lst) if c == UNKNOWN]
    shuffle(rng, pool)
    if forced:
        chosen = rng.sample(constrained, len(forced))
        for (lst, i), c in zip(chosen, forced, strict=True):
            lst[i] = c
        taken = set(forced)
        pool = [c for c in pool if c not in taken]
        chosen_ids = {(id(lst), i) for lst, i in chosen}
        slots = [(lst, i) for lst, i in slots if (id(lst), i) not in chosen_ids]
    for (lst, i), c in zip(slots, pool, strict=True):
        lst[i] = c
    for pl in (0, 1):  # unseen starting hands: any of the player's own cards will do
        d = b.dealt[pl]
        if UNKNOWN in d:
            have = [c for c in d if c != UNKNOWN]
            cand = [c for c in [*b.hands[pl], *b.burned_by[pl], *(x >> 1 for s in b.sides for x in s[pl]),
                                *b.burned_battle] if c not in have]
            shuffle(rng, cand)
            b.dealt[pl] = have + cand[: len(d) - len(have)]
    if b.opts.best_of_3:
        b.match_seed = rng.randrange(1 << 62)
    return b


def _outcome(b: Board) -> Outcome | None:
    if b.phase != OVER:
        return None
    if b.resigned is not None:
        loser, reason, detail = b.resigned
        return Outcome(1 - loser, Termination(reason), None, detail)
    if b.opts.best_of_3:
        w0, w1 = b.match_wins()
        winner = 0 if w0 > w1 else 1 if w1 > w0 else None
        detail = ", ".join(f"game {k}: {s0}-{s1}" for k, (s0, s1, _) in enumerate(b.results, 1))
        return Outcome(winner, Termination.MATCH, (w0, w1), detail)
    winner, reason = b.game_winner()
    return Outcome(winner, reason, b.scores())


class WarMachineState(State):
    """A full War Machine game (hidden cards included)."""

    def __init__(self, board: Board, ruleset: str = "warmachine") -> None:
        self._b = board
        self._ruleset = ruleset
        self._history: list[int] = []
        self._actors: list[int] = []  # who played each action, for the masked log
        self._undo: list[Board] = []
        # every draw as ``index in the history << 7 | card``: what the drawer remembers of how
        # its cards came (the information-state tensor, tensors.py)
        self._drawn: array[int] = array("i")

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled as its fields: a compiled class (docs/performance.md) is made only through its __init__
        return _unpickled_state, (self._b, self._ruleset, self._history, self._actors, self._undo, self._drawn)

    @property
    def board(self) -> Board:
        """The underlying board (read it, do not change it)."""
        return self._b

    def record(self) -> tuple[list[int], list[int]]:
        """The actions so far and who made each (read them; do not change them)."""
        return self._history, self._actors

    @property
    def drawn(self) -> array[int]:
        """Every draw so far as ``index in the history << 7 | card drawn`` (read it; do not
        change it)."""
        return self._drawn

    @property
    def game(self) -> str:
        return GAME

    @property
    def ruleset(self) -> str:
        return self._ruleset

    def current_player(self) -> int | None:
        return None if self._b.phase == OVER else self._b.to_move

    def legal_actions(self) -> list[Action]:
        return list(self._b.legal())

    def is_legal(self, action: Action) -> bool:
        return self._b.is_legal(action)

    def why_not(self, action: Action) -> Reason | None:
        """The rule that forbids ``action`` now (``reasons.why``), ``None`` when it is legal."""
        return why(self._b, action)

    def apply(self, action: Action) -> None:
        b = self._b
        reason = why(b, action)
        if reason is not None:
            raise IllegalAction(f"illegal War Machine action: {self._describe(action)}: {english(reason, REASON_WORDS)}")
        assert type(action) is int
        if DRAW_A <= action < TAKE1:
            self._drawn.append(len(self._history) << 7 | b.piles[action - DRAW_A][-1])
        self._actors.append(b.to_move)
        b.apply(action)
        self._history.append(action)

    def apply_legal(self, action: Action) -> None:
        b = self._b
        assert type(action) is int
        if DRAW_A <= action < TAKE1:
            self._drawn.append(len(self._history) << 7 | b.piles[action - DRAW_A][-1])
        self._actors.append(b.to_move)
        b.apply(action)
        self._history.append(action)

    def adopt_record(self, view: View) -> None:
        if not isinstance(view, WarMachineView):
            raise TypeError(f"a War Machine state takes the record of a War Machine view, not {type(view).__name__}")
        history = view.record()
        self._history, self._actors, self._drawn = history[0][:], history[1][:], view.drawn[:]

    def next_draws(self) -> list[int]:
        """The cards the next draw may bring, all equally likely (:meth:`Board.next_draws`)."""
        return self._b.next_draws()

    def stack(self, pile: int, card: int) -> None:
        """Put ``card`` on top of pile ``pile`` before drawing it (:meth:`Board.stack`): how a
        chance node chooses a draw."""
        self._b.stack(pile, card)

    def redeal(self, front: list[int], flips: list[bool], rest: list[int]) -> None:
        """Deal the game just begun again from the given shuffles (:meth:`Board.set_up`; the
        shuffler stays): a best-of-3 match deals each next game from its seed, which
        interfaces that make every card a chance event (OpenSpiel) replace. Only before the
        game's first action; ``IllegalAction`` otherwise."""
        b = self._b
        if b.phase != CHOOSE or not b.leftover:
            raise IllegalAction("a game can be dealt again only before its first action")
        b.set_up(front, flips, rest, b.shuffler)

    def _describe(self, action: Action) -> str:
        try:
            return _text(action)
        except NotationError:
            return repr(action)

    def push(self, action: Action) -> None:
        snapshot = self._b.copy()
        self.apply(action)
        self._undo.append(snapshot)

    def pop(self) -> Action:
        if not self._undo:
            raise IllegalAction("nothing to undo")
        self._b = self._undo.pop()
        self._actors.pop()
        action = self._history.pop()
        if self._drawn and self._drawn[-1] >> 7 == len(self._history):
            self._drawn.pop()
        return action

    def clone(self) -> WarMachineState:
        s = WarMachineState(self._b.copy(), self._ruleset)
        s._history = self._history[:]
        s._actors = self._actors[:]
        s._drawn = self._drawn[:]
        s._undo = [u.copy() for u in self._undo]
        return s

    def is_terminal(self) -> bool:
        return self._b.phase == OVER

    def outcome(self) -> Outcome | None:
        return _outcome(self._b)

    def resign(self, player: int, reason: str = "resignation", detail: str = "") -> None:
        if player not in (0, 1):
            raise ValueError("player must be 0 or 1")
        if self._b.phase == OVER:
            raise IllegalAction("the game is already over")
        self._b.resigned = (player, Termination(reason), detail)
        self._b.phase = OVER
        self._b.to_move = -1

    def view(self, player: int | None) -> WarMachineView:
        # the log's text is built only if a user interface asks for it (search bots do not)
        actors = self._actors
        drawn = array("i", [d for d in self._drawn if actors[d >> 7] == player] if player is not None else [])
        history = self._history[:]
        face_up = self._b.opts.burn_face_up
        for k, a in enumerate(history):
            # another player's face-down burn or seen take: its cards stay out of the view
            if BURN <= a < SKIP and actors[k] != player:
                history[k] = public_action(a, face_up)
        return WarMachineView(mask(self._b, player), player, self._ruleset, (history, actors[:]), drawn)

    def to_notation(self) -> str:
        return board_to_text(self._b, False, None)

    def action_to_text(self, action: Action) -> str:
        return _text(action)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def describe_action(self, action: Action) -> ActionRecord:
        return describe(action)

    @property
    def history(self) -> Sequence[Action]:
        return self._history

    def __repr__(self) -> str:
        return f"WarMachineState({self.to_notation()!r})"


def _unpickled_state(board: Board, ruleset: str, history: list[int], actors: list[int], undo: list[Board],
                     drawn: array[int] | None = None) -> WarMachineState:
    state = WarMachineState(board, ruleset)
    state._history, state._actors, state._undo = history, actors, undo
    state._drawn = drawn if drawn is not None else array("i")
    return state


class WarMachineView(View):
    """What one player (or a spectator) may know; hidden cards are UNKNOWN on its board."""

    def __init__(self, board: Board, viewer: int | None, ruleset: str = "warmachine",
                 history: tuple[list[int], list[int]] | None = None, drawn: array[int] | None = None) -> None:
        self._b = board
        self.viewer = viewer
        self._ruleset = ruleset
        self._history = history  # (actions, who played each) of the state it came from
        #: the viewer's draws: index in the history << 7 | card drawn
        self.drawn: array[int] = drawn if drawn is not None else array("i")

    def __reduce__(self) -> tuple[Any, ...]:
        return WarMachineView, (self._b, self.viewer, self._ruleset, self._history, self.drawn)

    def record(self) -> tuple[list[int], list[int]]:
        """The actions of the game so far and who made each (read them; do not change them).
        Another player's actions that name cards the viewer did not see (a face-down burn,
        the cards taken in a seen choice) are in their masked form
        (:func:`~.rules.public_action`)."""
        return self._history if self._history is not None else ([], [])

    def log(self) -> list[str]:
        """The actions so far as this viewer saw them (hidden cards as ``?``)."""
        if self._history is None:
            return []
        face_up = self._b.opts.burn_face_up
        return [
            action_text(a) if actor == self.viewer else public_action_text(a, face_up)
            for a, actor in zip(*self._history, strict=True)
        ]

    def log_seats(self) -> list[int]:
        """Who made each :meth:`log` entry (0 or 1)."""
        return [] if self._history is None else list(self._history[1])

    def log_records(self) -> list[LogEntryDict]:
        """The :meth:`log` as records, each with the seat that made it."""
        if self._history is None:
            return []
        return log_records(*self._history, self.viewer, self._b.opts.burn_face_up)

    @property
    def board(self) -> Board:
        return self._b

    @property
    def ruleset(self) -> str:
        return self._ruleset

    def current_player(self) -> int | None:
        return None if self._b.phase == OVER else self._b.to_move

    def is_terminal(self) -> bool:
        return self._b.phase == OVER

    def outcome(self) -> Outcome | None:
        return _outcome(self._b)

    def legal_actions(self) -> list[Action]:
        b = self._b
        if b.phase == OVER or b.to_move != self.viewer:
            return []
        return list(b.legal())

    def sample(self, rng: random.Random) -> WarMachineState:
        return WarMachineState(sample_board(self._b, self.viewer, rng), self._ruleset)

    def to_notation(self) -> str:
        return board_to_text(self._b, True, self.viewer)

    def action_to_text(self, action: Action) -> str:
        return _text(action)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def describe_action(self, action: Action) -> ActionRecord:
        return describe(action)

    def __repr__(self) -> str:
        return f"WarMachineView({self.to_notation()!r})"

    # --- the dictionary user interfaces draw from (docs/warmachine.md) -----------------
    def to_dict(self) -> dict[str, Any]:
        b = self._b
        me = self.viewer
        outcome = self.outcome()
        front = []
        for p in range(6):
            st = b.status[p]
            sides = [[_card_dict(x >> 1, x & 1) for x in b.sides[p][pl]] for pl in (0, 1)]
            front.append({
                "index": p + 1,
                "country": COUNTRIES[b.front_country[p]],
                "letter": LETTERS[b.front_country[p]],
                "name": COUNTRY_NAMES[b.front_country[p]],
                "depicted": TYPE_NAMES[b.front_type[p]],
                "value": 2 if b.front_type[p] == WM else 1,
                "pile": len(b.piles[p]),
                "sides": sides,
                "mine": sides[me] if me is not None else None,
                "theirs": sides[1 - me] if me is not None else None,
                "strengths": list(b.strength[p]),
                "colours": [COUNTRIES[c] if c >= 0 else None for c in b.colour[p]],
                "status": STATUS_NAMES[st],
                "winner": st - WON0 if st in (WON0, WON1) else None,
                "tie_reference": b.ref(p) + 1 if b.ref(p) >= 0 else None,
            })
        hands: list[list[str] | None] = [
            None if (pl != me and b.phase != OVER) or UNKNOWN in b.hands[pl]
            else sorted(card_code(c) for c in b.hands[pl]) for pl in (0, 1)
        ]
        burned = [*b.burned_battle, *b.burned_by[0], *b.burned_by[1]]
        d: dict[str, Any] = {
            "game": GAME,
            "ruleset": self._ruleset,
            "viewer": me,
            "to_move": self.current_player(),
            "phase": PHASE_NAMES[b.phase],
            "outcome": outcome.to_dict() if outcome is not None else None,
            "log": self.log(),
            "log_seats": self.log_seats(),
            "log_records": self.log_records(),
            "legal": legal_entries(b.legal()) if self.legal_actions() else [],
            "refusals": refusals(b) if me is not None and me == b.to_move and b.phase != OVER else None,
            "features": features(),
            "front": front,
            "hands": hands,
            "hand_sizes": [len(h) for h in b.hands],
            "support": b.support,
            "draws_left": b.draws_left if b.phase == DRAW else 0,
            "burned": len(burned),
            "burned_cards": sorted(card_code(c) if c != UNKNOWN else "?" for c in burned),
            "burned_by_me": sorted(card_code(c) for c in b.burned_by[me]) if me is not None else None,
            "leftover": [card_code(c) if c != UNKNOWN else "?" for c in b.leftover],
            # what the chooser of a seen choice looked at stays known after the choice: the
            # cards the opponent got (docs/rules.md §6.8); nobody else saw them
            "leftover_seen": sorted(card_code(c) for c in [*b.leftover, *b.dealt[0], *b.dealt[1]] if c != UNKNOWN)
            if me is not None and me == 1 - b.shuffler and not b.opts.blind else [],
            "shuffler": b.shuffler,
            "chooser": 1 - b.shuffler,
            "first": b.first if b.first >= 0 else None,
            "options": dict(b.opts.names),
            "scores": None,
        }
        if b.phase == OVER and b.resigned is None:
            d["scores"] = [dict(zip(("countries", "hand"), b.score_detail(pl), strict=True),
                                total=sum(b.score_detail(pl)),
                                won=sorted(COUNTRIES[c] for c in b.won_countries(pl))) for pl in (0, 1)]
        if b.opts.best_of_3:
            d["match"] = {
                "game": b.game_no,
                "wins": list(b.match_wins()),
                "results": [{"scores": [s0, s1], "winner": None if w < 0 else w} for s0, s1, w in b.results],
            }
        return d


def _card_dict(c: int, orient: int) -> dict[str, Any]:
    country = c // 6 if orient == WM else c % 6
    return {"code": card_code(c), "up": TYPE_NAMES[orient], "country": COUNTRIES[country],
            "strength": STRENGTH[orient]}


__all__ = ["WarMachineState", "WarMachineView", "mask", "sample_board"]
