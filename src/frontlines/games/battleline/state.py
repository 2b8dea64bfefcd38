"""The Battle Line family state and its views (docs/rules.md §2-§5): thin classes over one
:class:`~.table.Table` record.

:class:`BattleLineState` is a table with nothing unknown, plus its history and undo
stack; :class:`BattleLineView` is a table with what its viewer may not know marked
unknown (``view.hide``), plus the history as the viewer saw it. Both read the same rules
(``moves``, ``claims``, ``explain``): a view lists its viewer's legal actions from its
own record, and :meth:`BattleLineView.sample` fills the unknowns (``view.fill``).
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Mapping, Sequence
from typing import Any

from frontlines.core.actions import ActionRecord
from frontlines.core.errors import IllegalAction
from frontlines.core.game import Action, Outcome, State, Termination, View
from frontlines.core.interface import rebuilt
from frontlines.core.reasons import Reason
from frontlines.games.battleline.actions import describe
from frontlines.games.battleline.cards import NUM_CARDS, NUM_TROOPS, card_code
from frontlines.games.battleline.claims import claim_result
from frontlines.games.battleline.codes import (
    ALL_FLAGS,
    BIT,
    CLAIM_BASE,
    DESERTER_BASE,
    DRAW,
    DRAW_TACTICS,
    DRAW_TROOP,
    END,
    EXCESS,
    EXCESS_BASE,
    LEADER_MASK,
    NUM_ACTIONS,
    NUM_FLAGS,
    OVER,
    PASS,
    PHASE_NAMES,
    PLAY,
    PLAY_BASE,
    REDEPLOY_BASE,
    RETURN_BASE,
    SCOUT_DRAW,
    SCOUT_PLAY,
    SCOUT_RETURN,
    SCOUT_TACTICS,
    SCOUT_TROOP,
    TRAITOR_BASE,
    TROOP_PLAYS,
    Phase,
    action_to_text,
    parse_action,
)
from frontlines.games.battleline.explain import explain_illegal, why
from frontlines.games.battleline.moves import SLOT_TACTICS, claim_window, finish, generate, legal, play
from frontlines.games.battleline.proof import ProofResult
from frontlines.games.battleline.rules import GAME, Config, make_config
from frontlines.games.battleline.table import (
    Table,
    battlefield_effects,
    flag_holding,
    list_copies,
    restore,
    setup,
    values,
)
from frontlines.games.battleline.text import deck_marks, state_to_text, view_to_text
from frontlines.games.battleline.view import Deal, deal_of, fill, hide, public_log, view_dict
from frontlines.games.chance import shuffle

__all__ = [
    "ALL_FLAGS", "BIT", "CLAIM_BASE", "DESERTER_BASE", "DRAW", "DRAW_TACTICS", "DRAW_TROOP", "END", "EXCESS",
    "EXCESS_BASE", "LEADER_MASK", "NUM_ACTIONS", "NUM_FLAGS", "OVER", "PASS", "PHASE_NAMES", "PLAY", "PLAY_BASE",
    "REDEPLOY_BASE", "RETURN_BASE", "SCOUT_DRAW", "SCOUT_PLAY", "SCOUT_RETURN", "SCOUT_TACTICS", "SCOUT_TROOP",
    "SLOT_TACTICS", "TRAITOR_BASE", "TROOP_PLAYS", "BattleLineState", "BattleLineView", "Phase",
    "battlefield_effects", "flag_holding",
]

_TROOP_CARDS: dict[int, tuple[int, ...]] = {}
assert DRAW_TACTICS & 1 and SCOUT_TACTICS & 1 and not DRAW_TROOP & 1 and not SCOUT_TROOP & 1  # (apply)


def _troop_cards(troop_mask: int) -> tuple[int, ...]:
    """The troop cards of a deck mask, ascending (cached: one per ruleset)."""
    cards = _TROOP_CARDS.get(troop_mask)
    if cards is None:
        cards = _TROOP_CARDS[troop_mask] = tuple(c for c in range(NUM_TROOPS) if troop_mask >> c & 1)
    return cards


class Position(Table):
    """What a state and a view of the Battle Line family answer alike, from the table
    alone: the ruleset, the end of the game, and action text and records (the common
    interface's, shared by :class:`BattleLineState` and :class:`BattleLineView`)."""

    __slots__ = ()

    @property
    def ruleset(self) -> str:
        return self.cfg.variant.name

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def outcome(self) -> Outcome | None:
        return self.out

    def action_to_text(self, action: Action) -> str:
        return action_to_text(action)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def describe_action(self, action: Action) -> ActionRecord:
        return describe(action, self.sides)


class BattleLineState(Position, State):
    """A full Battle Line family position, hidden cards included.

    Built from a table's fields, in order (``BattleLineState(*values(t))``); its own
    attributes start empty. Not a dataclass itself: the compiled build (docs/performance.md)
    cannot make one of a class with a base from an uncompiled module (``State``)."""

    __slots__ = ("actors", "dealt", "drawn", "hist", "undo")

    def __init__(self, *table: Any) -> None:
        Table.__init__(self, *table)
        self.hist: list[int] = []
        self.actors: list[int] = []  # who made each action of ``hist`` (for public logs)
        self.undo: list[tuple[Any, ...]] = []  # the table before each push
        # what each player remembers of how its cards came (the information-state tensor,
        # tensors.py): per player, the cards dealt to it in the order they came (empty for
        # a position that was not dealt here), and every draw as ``index in hist << 7 | card``
        # (packed: a few hundred bytes for a whole game)
        self.dealt: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
        self.drawn: array[int] = array("i")

    # State's comparison, spelled out: a compiled class takes its operators from its
    # compiled base (Table: identity), not from State
    def __eq__(self, other: object) -> bool:
        return State.__eq__(self, other)

    __hash__ = None

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled as its fields (the search's worker processes get views so): a compiled
        # class is made only through its __init__
        own = {"hist": self.hist, "actors": self.actors, "undo": self.undo, "dealt": self.dealt, "drawn": self.drawn}
        return rebuilt, (BattleLineState, values(self), own)

    # --- construction ----------------------------------------------------------------
    @classmethod
    def deal(cls, ruleset: str, seed: int | None, options: Mapping[str, str] | None) -> BattleLineState:
        cfg = make_config(ruleset, options)
        rng = random.Random(seed)
        first = cfg.get("first_player", "random")
        to_move = rng.randrange(2) if first == "random" else int(first)
        troops = list(_troop_cards(cfg.variant.troop_mask))
        shuffle(rng, troops)
        tactics = list(range(NUM_TROOPS, NUM_CARDS)) if cfg.variant.tactics else []
        shuffle(rng, tactics)
        bf_ids: tuple[int, ...] = ()
        bf_up = 0
        if cfg.variant.battlefields:
            order = list(range(NUM_FLAGS))
            shuffle(rng, order)
            bf_ids = tuple(order)
            mode = cfg.get("battlefields", "face_down")
            bf_up = ALL_FLAGS if mode == "face_up" else rng.getrandbits(NUM_FLAGS) if mode == "mixed" else 0
        return cls.arranged(cfg, to_move, troops, tactics, bf_ids, bf_up)

    @classmethod
    def arranged(
        cls, cfg: Config, first: int, troops: list[int], tactics: list[int],
        bf_ids: tuple[int, ...] = (), bf_up: int = 0,
    ) -> BattleLineState:
        """A new game whose shuffles came out as given, then dealt: ``troops`` and ``tactics``
        are the decks (top = last; ``troops`` is taken over and dealt from), ``first`` moves
        first. :meth:`deal` shuffles at random; interfaces that draw each card as a chance
        event (OpenSpiel) pass their own order."""
        state = cls(*setup(cfg, bf_ids, bf_up))
        state.tdeck = troops
        state.xdeck = tactics
        state.to_move = first
        # the dealer deals alternately, the non-dealer (first player) first
        dealt: tuple[list[int], list[int]] = ([], [])
        for _ in range(cfg.variant.hand_size):
            for p in (first, 1 - first):
                c = troops.pop()
                state.hands[p] |= BIT[c]
                dealt[p].append(c)
        state.dealt = (tuple(dealt[0]), tuple(dealt[1]))
        return state

    @classmethod
    def of_table(cls, t: Table) -> BattleLineState:
        """A state with a copy of ``t``'s position (nothing in it may be unknown) and no history."""
        return cls(*values(t))

    # --- chance, one draw at a time ----------------------------------------------------
    def next_draws(self, tactics: bool) -> list[int]:
        """The cards the next draw from the troop deck (``tactics``: the tactics deck) may
        bring, all equally likely (ascending): the top card alone when a player knows it
        lies there (a Scout put it back), otherwise every card of that deck whose place
        nobody knows, since the shuffle leaves them in any order with the same chance."""
        deck = self.xdeck if tactics else self.tdeck
        if not deck:
            return []
        placed = self.known[0] | self.known[1]
        if placed >> deck[-1] & 1:
            return [deck[-1]]
        return sorted(c for c in deck if not placed >> c & 1)

    def stack(self, card: int) -> None:
        """Make ``card`` (one of :meth:`next_draws` of its deck) the top of its deck, by
        swapping places with the top card; so a caller that samples the next draw itself
        (a chance node) then draws it with the usual action. Cards whose place a player
        knows keep their places; ``ValueError`` for any other card."""
        deck = self.xdeck if card >= NUM_TROOPS else self.tdeck
        placed = self.known[0] | self.known[1]
        if card not in deck or (placed >> card & 1 and card != deck[-1]) or (placed >> deck[-1] & 1 and card != deck[-1]):
            raise ValueError(f"{card_code(card)} cannot be the next card of its deck")
        i = deck.index(card)
        deck[i], deck[-1] = deck[-1], card

    # --- State interface -------------------------------------------------------------
    @property
    def game(self) -> str:
        return GAME

    @property
    def history(self) -> Sequence[Action]:
        return self.hist

    def resign(self, player: int, reason: str = "resignation", detail: str = "") -> None:
        if player not in (0, 1):
            raise ValueError(f"player must be 0 or 1, not {player!r}")
        if self.phase == OVER:
            raise IllegalAction("the game is already over")
        finish(self, Outcome(1 - player, Termination(reason), None, detail))

    def view(self, player: int | None) -> BattleLineView:
        if player not in (0, 1, None):
            raise ValueError(f"viewer must be 0, 1 or None, not {player!r}")
        # the history as the viewer saw it: another player's Scout returns become -1
        seen = [
            -1 if RETURN_BASE <= a < REDEPLOY_BASE and actor != player else a
            for a, actor in zip(self.hist, self.actors, strict=True)
        ]
        v = BattleLineView(*values(self))
        v.viewer, v.seen_hist, v.seen_actors = player, seen, list(self.actors)
        if player is not None:  # a player remembers how its own cards came, nobody else's
            v.dealt = self.dealt[player]
            actors = self.actors
            v.seen_drawn = array("i", [d for d in self.drawn if actors[d >> 7] == player])
        hide(v, player)
        return v

    def to_notation(self) -> str:
        return state_to_text(self)

    # --- rules -------------------------------------------------------------------------
    def claim_result(self, flag: int, player: int, exact: bool = False) -> ProofResult:
        """Would ``player`` win a claim on ``flag`` now? (Ignores turn and timing; see
        ``claims.claim_result``.)"""
        return claim_result(self, flag, player, exact)

    def claim_window(self) -> bool:
        """May the player to move claim now (timing option and phase)?"""
        return claim_window(self)

    def explain_illegal(self, action: object) -> str:
        """A precise reason why ``action`` is not legal now."""
        return explain_illegal(self, action)

    def why_not(self, action: Action) -> Reason | None:
        """The rule that forbids ``action`` now (``explain.why``), ``None`` when it is legal."""
        if type(action) is not int or not 0 <= action < NUM_ACTIONS:
            return Reason("not_legal")
        return why(self, action)

    def legal_actions(self) -> list[Action]:
        out = self.legal_cache
        if out is None:
            out = self.legal_cache = generate(self)
        return list(out)

    def apply(self, action: Action) -> None:
        out = self.legal_cache
        if out is None:
            out = self.legal_cache = generate(self)
        if type(action) is not int or action not in out:
            raise IllegalAction(explain_illegal(self, action))
        if DRAW_TROOP <= action <= SCOUT_TACTICS and action != END and action != SCOUT_PLAY:
            # a draw: remember the card it brings (the top of its deck; tactics draws are odd)
            deck = self.xdeck if action & 1 else self.tdeck
            if deck:
                self.drawn.append(len(self.hist) << 7 | deck[-1])
        self.hist.append(action)
        self.actors.append(self.excess[0] & 1 if self.phase is EXCESS else self.to_move)
        play(self, action, out)

    def apply_legal(self, action: Action) -> None:
        out = self.legal_cache
        if out is None:  # (the caller read legal_actions(), which filled it)
            out = self.legal_cache = generate(self)
        assert type(action) is int
        if DRAW_TROOP <= action <= SCOUT_TACTICS and action != END and action != SCOUT_PLAY:
            # a draw: remember the card it brings (the top of its deck; tactics draws are odd)
            deck = self.xdeck if action & 1 else self.tdeck
            if deck:
                self.drawn.append(len(self.hist) << 7 | deck[-1])
        self.hist.append(action)
        self.actors.append(self.excess[0] & 1 if self.phase is EXCESS else self.to_move)
        play(self, action, out)

    def adopt_record(self, view: View) -> None:
        # the other player's Scout returns stay -1 (unknown) in the history
        if not isinstance(view, BattleLineView):
            raise TypeError(f"a Battle Line state takes the record of a Battle Line view, not {type(view).__name__}")
        self.hist, self.actors, self.drawn = list(view.seen_hist), list(view.seen_actors), view.seen_drawn[:]
        viewer = view.viewer
        self.dealt = ((), ()) if viewer is None else (view.dealt, ()) if viewer == 0 else ((), view.dealt)

    def push(self, action: Action) -> None:
        out = legal(self)
        if type(action) is not int or action not in out:
            raise IllegalAction(explain_illegal(self, action))
        self.undo.append(values(self))
        self.apply(action)

    def pop(self) -> Action:
        if not self.undo:
            raise IndexError("pop without a matching push")
        restore(self, self.undo.pop())
        self.actors.pop()
        action = self.hist.pop()
        drawn = self.drawn
        if drawn and drawn[-1] >> 7 == len(self.hist):
            drawn.pop()
        return action

    def clone(self) -> BattleLineState:
        new = BattleLineState(*values(self))
        new.hist, new.actors = list(self.hist), list(self.actors)
        new.dealt, new.drawn = self.dealt, self.drawn[:]
        return new


class BattleLineView(Position, View):
    """A player's (or the public) knowledge of a position. Build with ``state.view(p)``
    (from a table's fields, like :class:`BattleLineState`)."""

    __slots__ = ("deal_cache", "dealt", "log_cache", "seen_actors", "seen_drawn", "seen_hist", "viewer")

    def __init__(self, *table: Any) -> None:
        Table.__init__(self, *table)
        self.viewer: int | None = None
        self.seen_hist: list[int] = []  # the state's history, others' Scout returns as -1
        self.seen_actors: list[int] = []  # who made each of those actions
        self.dealt: tuple[int, ...] = ()  # the cards dealt to the viewer, in the order they came
        self.seen_drawn: array[int] = array("i")  # the viewer's draws: index in seen_hist << 7 | card
        self.log_cache: list[str] | None = None
        self.deal_cache: Deal | None = None  # what its samples start from

    def __eq__(self, other: object) -> bool:  # as BattleLineState.__eq__
        return View.__eq__(self, other)

    def __hash__(self) -> int:
        return View.__hash__(self)

    def __reduce__(self) -> tuple[Any, ...]:
        own = {"viewer": self.viewer, "seen_hist": self.seen_hist, "seen_actors": self.seen_actors,
               "log_cache": self.log_cache, "deal_cache": self.deal_cache, "dealt": self.dealt,
               "seen_drawn": self.seen_drawn}
        return rebuilt, (BattleLineView, values(self), own)

    # --- View interface ----------------------------------------------------------------
    @property
    def log(self) -> list[str]:
        """Public action texts since the state's initial (or parsed) position."""
        if self.log_cache is None:
            self.log_cache = public_log(self.seen_hist, self.seen_actors, self.viewer)
        return self.log_cache

    @property
    def log_seats(self) -> list[int]:
        """Who made each :attr:`log` entry (0 or 1): public, like the entries themselves."""
        return list(self.seen_actors)

    def current_player(self) -> int | None:
        if self.phase == OVER:
            return None
        if self.excess:
            return self.excess[0] & 1
        return self.to_move

    def legal_actions(self) -> list[Action]:
        return list(self._legal())

    def _legal(self) -> list[int]:
        # legality reads only what the mover knows: the viewer's own record answers it
        if self.viewer is None or self.current_player() != self.viewer:
            return []
        return legal(self)

    def sample(self, rng: random.Random) -> BattleLineState:
        deal = self.deal_cache
        if deal is None:
            deal = self.deal_cache = deal_of(self)
        s = BattleLineState(*deal.shared, *list_copies(self))
        fill(s, deal, rng)
        return s

    def to_notation(self) -> str:
        return view_to_text(self, self.viewer)

    def to_dict(self) -> dict[str, Any]:
        return view_dict(self, self.viewer, self.log, self.log_seats, self._legal())

    # --- the viewer's knowledge, as older callers read it --------------------------------
    @property
    def hand(self) -> int:
        """The viewer's hand (0 for spectators)."""
        return self.hands[self.viewer] if self.viewer is not None else 0

    @property
    def hand_marked(self) -> int:
        """The cards of the viewer's hand that the opponent knows."""
        return self.hand & self.known[1 - self.viewer] if self.viewer is not None else 0

    @property
    def hidden(self) -> list[tuple[int, int, int, int] | None]:
        """Per player: the hidden hand as (unknown troops, unknown tactics, unknown cards the
        other player knows, cards the viewer knows are there); None for the viewer's own."""
        return [None if p == self.viewer else (*self.hand_unknown[p], self.hands[p]) for p in (0, 1)]

    @property
    def tsize(self) -> int:
        return len(self.tdeck)

    @property
    def xsize(self) -> int:
        return len(self.xdeck)

    @property
    def tmarks(self) -> tuple[tuple[int, int, int], ...]:
        """The troop deck's marked places: (position from the top, knowers, card or -1)."""
        return tuple(deck_marks(self, self.tdeck))

    @property
    def xmarks(self) -> tuple[tuple[int, int, int], ...]:
        return tuple(deck_marks(self, self.xdeck))

