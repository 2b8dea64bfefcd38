"""The Battle Line family game state (docs/rules.md §2-§5).

Representation, chosen for speed of random play and cheap copies:

* actions are plain ``int`` codes (see the ``*_BASE`` constants below);
* each flag side is a ``tuple`` of cards in placement order, 18 of them
  (``index = flag * 2 + player``), so a copy is one shallow list copy;
* hands and "known card" sets are ``int`` bitmasks; decks are lists, top = end;
* ``public`` is every card that has ever been face up (a troop on the table stays public
  even when discarded), so the unseen troops of a proof are ``troops & ~public``.

``push``/``pop`` snapshot the mutable fields; the legal action list is cached until the
next change.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Any

from frontlines.core.errors import IllegalAction, NotationError
from frontlines.core.game import Action, Outcome, State, Termination
from frontlines.games.battleline.cards import (
    ALEXANDER,
    COMPANION_CAVALRY,
    DARIUS,
    DESERTER,
    FOG,
    MORALE_MASK,
    MUD,
    NUM_CARDS,
    NUM_TROOPS,
    REDEPLOY,
    SCOUT,
    SHIELD_BEARERS,
    TACTICS_MASK,
    TRAITOR,
    TROOP_MASK,
    card_code,
)
from frontlines.games.battleline.formations import (
    BATTLELINE_CARDS,
    SCHOTTEN_CARDS,
    CardRules,
    _search,  # package-internal: the legality fast path skips the proof wrapper
    evaluate,
    evaluate_mask,
)
from frontlines.games.battleline.medieval import PLAIN, Effects, load_set
from frontlines.games.battleline.proof import ProofResult, prove
from frontlines.games.battleline.rules import GAME, Config, make_config

if TYPE_CHECKING:
    from frontlines.core.actions import ActionRecord
    from frontlines.games.battleline.view import BattleLineView

# --- action codes ------------------------------------------------------------------------
PLAY_BASE = 0  # + card * 9 + flag: troop, morale, Fog or Mud to a flag (0..629)
CLAIM_BASE = 630  # + flag
PASS = 639
DRAW_TROOP = 640
DRAW_TACTICS = 641
END = 642
SCOUT_PLAY = 643
SCOUT_TROOP = 644
SCOUT_TACTICS = 645
RETURN_BASE = 650  # + card
REDEPLOY_BASE = 720  # + card * 10 + target (flag 0..8, 9 = discard)
DESERTER_BASE = 1420  # + card
TRAITOR_BASE = 1490  # + card * 9 + flag (card is a troop)
EXCESS_BASE = 2030  # + card: owner discards a card left over when Mud is removed
NUM_ACTIONS = 2100
TROOP_PLAYS = NUM_TROOPS * 9  # play codes below this are troop cards

# --- phases ------------------------------------------------------------------------------
PLAY, DRAW, SCOUT_DRAW, SCOUT_RETURN, EXCESS, OVER = range(6)
PHASE_NAMES = ("play", "draw", "scout", "return", "excess", "over")

NUM_FLAGS = 9
LEADER_MASK = (1 << ALEXANDER) | (1 << DARIUS)
SLOT_TACTICS = (ALEXANDER, DARIUS, COMPANION_CAVALRY, SHIELD_BEARERS)
BIT = tuple(1 << c for c in range(NUM_CARDS))
_GUILE_MASK = (1 << REDEPLOY) | (1 << DESERTER) | (1 << TRAITOR)
ALL_FLAGS = (1 << NUM_FLAGS) - 1

_FLAGS_OF: tuple[tuple[int, ...], ...] = tuple(tuple(f for f in range(9) if m >> f & 1) for m in range(512))
# _PLAYS_AT[open flags mask][card]: the play actions of a card at those flags, filled in
# lazily one mask at a time
_PLAYS_AT: list[tuple[tuple[int, ...], ...] | None] = [None] * 512


def _cards_of_colour(k: int) -> tuple[tuple[int, ...], ...]:
    row: list[tuple[int, ...]] = [()]
    for m in range(1, 1024):
        high = m.bit_length() - 1
        row.append(row[m ^ 1 << high] + (k * 10 + high,))
    return tuple(row)


# _CARDS_IN[k][bits]: the troop cards of colour k whose value bits are ``bits`` (ascending),
# so a hand's troops are six look-ups away
_CARDS_IN = tuple(_cards_of_colour(k) for k in range(6))
_C0, _C1, _C2, _C3, _C4, _C5 = _CARDS_IN


def _plays_at(open_mask: int) -> tuple[tuple[int, ...], ...]:
    rows = _PLAYS_AT[open_mask] = tuple(
        tuple(PLAY_BASE + c * 9 + f for f in _FLAGS_OF[open_mask]) for c in range(NUM_CARDS)
    )
    return rows


# _TRAITOR_AT[open flags mask][troop]: the Traitor actions taking that troop to those flags
_TRAITOR_AT: list[tuple[tuple[int, ...], ...] | None] = [None] * 512


def _traitor_at(open_mask: int) -> tuple[tuple[int, ...], ...]:
    rows = _TRAITOR_AT[open_mask] = tuple(
        tuple(TRAITOR_BASE + c * 9 + f for f in _FLAGS_OF[open_mask]) for c in range(NUM_TROOPS)
    )
    return rows


# _REDEPLOY_ROWS[card * 512 + target flags mask]: Redeploy of the card to those flags, then
# to the discards
_REDEPLOY_ROWS: list[tuple[int, ...] | None] = [None] * (NUM_CARDS * 512)


def _redeploy_row(card: int, targets: int) -> tuple[int, ...]:
    base = REDEPLOY_BASE + card * 10
    row = _REDEPLOY_ROWS[card * 512 + targets] = (*(base + g for g in _FLAGS_OF[targets]), base + 9)
    return row


# Proof results are pure functions of their inputs; random play asks the same question
# many times (legal_actions, then apply), so a bounded cache pays.
_proof_cache: dict[tuple[int, int, int, bool, bool, bool, bool, int], tuple[int, ProofResult]] = {}


def flag_holding(sides: Sequence[tuple[int, ...]], card: int, player: int | None = None) -> int:
    """The flag (0-8) where ``card`` lies on ``sides`` (a state's or a view's), on ``player``'s
    side or on either; -1 when it is not on the table."""
    for i, side in enumerate(sides):
        if card in side and (player is None or i % 2 == player):
            return i // 2
    return -1


def _mask(cards: Sequence[int]) -> int:
    m = 0
    for c in cards:
        m |= BIT[c]
    return m


def _best_subset(cards: tuple[int, ...], cap: int, fog: bool, rules: CardRules) -> tuple[int, ...]:
    """The strongest ``cap`` cards of an over-full side (only after Mud is removed)."""
    best: tuple[int, ...] = cards[:cap]
    best_score = -1
    for sub in combinations(cards, cap):
        score = evaluate(sub, fog, rules)
        if score > best_score:
            best, best_score = sub, score
    return best


def _proof_still_holds(result: ProofResult, seen_with: int, unseen: int) -> bool:
    """Whether a proof made when ``seen_with`` was unseen still stands with ``unseen`` now
    (same sides, same finality): a "yes" while no new card became unseen, a "no" while its
    counter-example is still all unseen."""
    if result.claimable:
        return not unseen & ~seen_with
    if result.counterexample is None:
        return False
    return all(unseen >> c & 1 for c in result.counterexample)


class BattleLineState(State):
    """A full Battle Line family position, hidden cards included."""

    __slots__ = (
        "_cmemo", "_legal", "_masks", "_memo", "_undo", "actors", "base_caps", "bf_ids", "bf_up", "cfg", "claimed",
        "completed", "counter", "discards", "effects", "excess", "fog", "forbid_any", "guile", "hands", "hist", "known",
        "leaders", "mud", "noops", "out", "passes", "phase", "public", "ret_left", "rules", "scout_left",
        "scout_n", "sides", "tactics_played", "tdeck", "to_move", "troops_all", "turn_claims", "turn_noop",
        "turn_passed", "xdeck",
    )

    def __init__(self, cfg: Config, bf_ids: tuple[int, ...] = (), bf_up: int = 0) -> None:
        self.cfg = cfg
        self.rules: CardRules = SCHOTTEN_CARDS if cfg.variant.schotten else BATTLELINE_CARDS
        self.bf_ids = bf_ids
        self.bf_up = bf_up
        effects = self.effects = battlefield_effects(cfg, bf_ids, bf_up)
        if effects is _PLAIN_EFFECTS:
            self.base_caps = _PLAIN_CAPS
            self.forbid_any = False
        else:
            self.base_caps = tuple(e.capacity for e in effects)
            self.forbid_any = any(e.forbid for e in effects)
        self.troops_all = cfg.variant.troop_mask
        # last claim result per side (flag * 2 + player); a pure cache, shared by clones
        self._memo: list[tuple[Any, ...] | None] = [None] * (2 * NUM_FLAGS)
        # the legality memo of _claims (yes/no answers only), shared by clones too
        self._cmemo: list[tuple[Any, ...] | None] = [None] * (2 * NUM_FLAGS)
        self.sides: list[tuple[int, ...]] = [()] * (2 * NUM_FLAGS)
        self.completed: list[int] = [-1] * (2 * NUM_FLAGS)
        self.claimed: list[int] = [-1] * NUM_FLAGS
        self.fog: list[int] = [-1] * NUM_FLAGS  # owner of the Fog at the flag, -1 none
        self.mud: list[int] = [-1] * NUM_FLAGS
        self.hands: list[int] = [0, 0]
        self.tdeck: list[int] = []  # top = last
        self.xdeck: list[int] = []
        self.discards: list[tuple[int, ...]] = [(), ()]
        self.guile: list[tuple[int, ...]] = [(), ()]
        self.tactics_played: list[int] = [0, 0]
        self.leaders = 0  # bit p: player p has played a leader (never resets)
        self.known: list[int] = [0, 0]  # cards in decks / the other hand whose place player p knows
        self.public = 0
        self.to_move = 0
        self.phase = PLAY
        self.counter = 0
        self.scout_left = 0  # Scout draws still to make
        self.scout_n = 0  # Scout draws this Scout makes in all (up to 3)
        self.ret_left = 0
        self.excess: tuple[int, ...] = ()  # side indices whose owner must discard (Mud removed)
        self.turn_passed = False
        self.turn_noop = False
        self.turn_claims = False
        self.passes = 0
        self.noops = 0
        self.out: Outcome | None = None
        self.hist: list[int] = []
        self.actors: list[int] = []  # who made each action of ``hist`` (for public logs)
        self._undo: list[tuple[Any, ...]] = []
        self._legal: list[int] | None = None
        self._masks: tuple[int, int, int] | None = None  # see _flag_masks

    # --- construction ----------------------------------------------------------------
    @classmethod
    def deal(cls, ruleset: str, seed: int | None, options: Mapping[str, str] | None) -> BattleLineState:
        cfg = make_config(ruleset, options)
        rng = random.Random(seed)
        first = cfg.get("first_player", "random")
        to_move = rng.randrange(2) if first == "random" else int(first)
        troops = list(_troop_cards(cfg.variant.troop_mask))
        rng.shuffle(troops)
        tactics = list(range(NUM_TROOPS, NUM_CARDS)) if cfg.variant.tactics else []
        rng.shuffle(tactics)
        bf_ids: tuple[int, ...] = ()
        bf_up = 0
        if cfg.variant.battlefields:
            order = list(range(NUM_FLAGS))
            rng.shuffle(order)
            bf_ids = tuple(order)
            mode = cfg.get("battlefields", "face_down")
            bf_up = ALL_FLAGS if mode == "face_up" else rng.getrandbits(NUM_FLAGS) if mode == "mixed" else 0
        state = cls(cfg, bf_ids, bf_up)
        state.tdeck = troops
        state.xdeck = tactics
        state.to_move = to_move
        # the dealer deals alternately, the non-dealer (first player) first
        for _ in range(cfg.variant.hand_size):
            for p in (to_move, 1 - to_move):
                state.hands[p] |= BIT[troops.pop()]
        return state

    # --- State interface -------------------------------------------------------------
    @property
    def game(self) -> str:
        return GAME

    @property
    def ruleset(self) -> str:
        return self.cfg.variant.name

    @property
    def history(self) -> Sequence[Action]:
        return self.hist

    def current_player(self) -> int | None:
        if self.phase == OVER:
            return None
        if self.phase == EXCESS:
            return self.excess[0] & 1
        return self.to_move

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def outcome(self) -> Outcome | None:
        return self.out

    def resign(self, player: int, reason: str = "resignation", detail: str = "") -> None:
        if player not in (0, 1):
            raise ValueError(f"player must be 0 or 1, not {player!r}")
        if self.phase == OVER:
            raise IllegalAction("the game is already over")
        self.out = Outcome(1 - player, Termination(reason), None, detail)
        self.phase = OVER
        self._legal = None

    def view(self, player: int | None) -> BattleLineView:
        from frontlines.games.battleline.view import BattleLineView

        return BattleLineView.of_state(self, player)

    def to_notation(self) -> str:
        from frontlines.games.battleline.notation import state_to_text

        return state_to_text(self)

    def action_to_text(self, action: Action) -> str:
        from frontlines.games.battleline.notation import action_to_text

        return action_to_text(action)

    def parse_action(self, text: str) -> Action:
        from frontlines.games.battleline.notation import parse_action

        return parse_action(text)

    def describe_action(self, action: Action) -> ActionRecord:
        from frontlines.games.battleline.actions import describe

        return describe(action, self.sides)

    # --- small helpers ---------------------------------------------------------------
    def capacity(self, flag: int) -> int:
        return self.base_caps[flag] + (self.mud[flag] >= 0)

    def is_fog(self, flag: int) -> bool:
        return self.fog[flag] >= 0 or self.effects[flag].sum_only

    def unseen_troops(self) -> int:
        """Troops not face up on the table: decks plus both hands (what proofs may use)."""
        return self.cfg.variant.troop_mask & ~self.public

    def decks_empty(self) -> bool:
        return not self.tdeck and not self.xdeck

    def hand_count(self, player: int) -> int:
        return self.hands[player].bit_count()

    def owned(self, player: int) -> int:
        m = 0
        for f in range(NUM_FLAGS):
            if self.claimed[f] == player:
                m |= 1 << f
        return m

    def side_cards(self, flag: int, player: int) -> tuple[int, ...]:
        """The side as judged: all its cards, or its best ``capacity`` when over-full."""
        cards = self.sides[flag * 2 + player]
        cap = self.capacity(flag)
        if len(cards) > cap:
            return _best_subset(cards, cap, self.is_fog(flag), self.rules)
        return cards

    def claim_result(self, flag: int, player: int, exact: bool = False) -> ProofResult:
        """Would ``player`` win a claim on ``flag`` now? (Ignores turn and timing.)

        Results are cached by the flag's cards. Since the unseen troops only ever shrink
        along a game, a proof found with unseen set ``U`` holds for any subset of ``U``,
        and a counter-example stays one while its cards are unseen; ``exact`` recomputes
        anyway (for reason texts with up-to-date counts).
        """
        i = flag * 2 + player
        memo = self._memo[i]
        if memo is not None and not exact:
            # quickest path: the same side objects (tuples: identity means the same cards),
            # environment and completion times as when it was decided
            sides = self.sides
            completed = self.completed
            if (
                memo[0] is sides[i]
                and memo[1] is sides[i ^ 1]
                and memo[9] == self.mud[flag] * 3 + self.fog[flag]
                and memo[4] == completed[i] - completed[i ^ 1]
                and self.claimed[flag] < 0
            ):
                result: ProofResult = memo[7]
                if memo[8]:  # both sides complete: nothing else matters
                    return result
                final = self.cfg.stall_b and not self.hands[1 - player] and not self.tdeck and not self.xdeck
                if final == memo[5]:
                    if final:
                        return result
                    unseen = self.troops_all & ~self.public & ~self.effects[flag].forbid
                    if _proof_still_holds(result, memo[6], unseen):
                        return result
        return self._claim_result(flag, player, exact)

    def _claim_result(self, flag: int, player: int, exact: bool) -> ProofResult:
        if self.claimed[flag] >= 0:
            return ProofResult(False, None, f"flag {flag + 1} is already claimed")
        cap = self.effects[flag].capacity + (self.mud[flag] >= 0)
        mine = self.sides[flag * 2 + player]
        if len(mine) < cap:
            return ProofResult(False, None, f"your side is not complete ({len(mine)} of {cap} cards)")
        theirs = self.sides[flag * 2 + 1 - player]
        fog = self.fog[flag] >= 0 or self.effects[flag].sum_only
        eff = self.effects[flag]
        complete = len(theirs) >= cap
        first = True
        unseen = 0
        final = False
        if complete:
            a, b = self.completed[flag * 2 + player], self.completed[flag * 2 + 1 - player]
            first = (a > b) if eff.tie_last else (a < b)
        else:
            if eff.both_complete or eff.tie_last:
                return ProofResult(False, None, "this battlefield is claimed only when both sides are complete")
            unseen = self.troops_all & ~self.public & ~eff.forbid
            final = self.cfg.stall_b and self.hands[1 - player] == 0 and not self.tdeck and not self.xdeck
        i = flag * 2 + player
        result = self._shared_result(mine, theirs, cap, fog, first, final, unseen, complete, eff.forbid, exact)
        completed = self.completed
        self._memo[i] = (
            mine, theirs, None, None, completed[i] - completed[i ^ 1], final, unseen, result, complete,
            self.mud[flag] * 3 + self.fog[flag],
        )
        return result

    def _shared_result(
        self, mine: tuple[int, ...], theirs: tuple[int, ...], cap: int, fog: bool, first: bool, final: bool,
        unseen: int, complete: bool, forbid: int, exact: bool,
    ) -> ProofResult:
        mm = 0
        for c in mine:
            mm |= BIT[c]
        tm = 0
        for c in theirs:
            tm |= BIT[c]
        key = (mm, tm, cap, fog, first, final, self.rules is SCHOTTEN_CARDS, forbid)
        hit = _proof_cache.get(key)
        if hit is not None and not exact:
            seen_with, result = hit
            if complete or final:
                return result
            if _proof_still_holds(result, seen_with, unseen):
                return result
        if len(mine) > cap:
            mine = _best_subset(mine, cap, fog, self.rules)
        if len(theirs) > cap:
            theirs = _best_subset(theirs, cap, fog, self.rules)
        result = prove(
            mine, theirs, capacity=cap, fog=fog, unseen_troops=unseen,
            claimant_completed_first=first, opponent_final=final, rules=self.rules,
        )
        if len(_proof_cache) > 50_000:  # bounded memory (a long-running server shares it)
            _proof_cache.clear()
        _proof_cache[key] = (unseen, result)
        return result

    def claim_window(self) -> bool:
        """May the player to move claim now (timing option and phase)?"""
        phase = self.phase
        if phase == PLAY:
            return self.cfg.claim_play
        if phase == DRAW:
            return self.cfg.claim_draw
        if phase == SCOUT_DRAW:  # after the Scout play, before its first draw
            return self.cfg.claim_draw and self.scout_left == self.scout_n
        return False

    def _can_play_tactic(self, p: int) -> bool:
        return self.cfg.variant.tactics and self.tactics_played[p] <= self.tactics_played[1 - p]

    # --- legal actions ---------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return list(legal)

    def _generate(self) -> list[int]:
        phase = self.phase
        p = self.to_move
        out: list[int]
        if phase == PLAY:
            # an unclaimed flag either may be claimed (the mover's side is complete) or has a
            # free slot
            masks = self._masks or self._flag_masks()
            full = masks[1 + p]
            check = full & ~masks[0]
            open_mask = ALL_FLAGS & ~(full | masks[0])
            out = self._claims(p, check) if check and self.cfg.claim_play else []
            hand = self.hands[p]
            troops = hand & TROOP_MASK
            troop_play = False
            if troops and open_mask:
                if self.forbid_any:
                    while troops:
                        low = troops & -troops
                        c = low.bit_length() - 1
                        troops ^= low
                        for f in _FLAGS_OF[open_mask]:
                            if not self.effects[f].forbid >> c & 1:
                                out.append(PLAY_BASE + c * 9 + f)
                                troop_play = True
                else:
                    troop_play = True
                    rows = _PLAYS_AT[open_mask] or _plays_at(open_mask)
                    for c in (
                        _C0[troops & 1023] + _C1[troops >> 10 & 1023] + _C2[troops >> 20 & 1023]
                        + _C3[troops >> 30 & 1023] + _C4[troops >> 40 & 1023] + _C5[troops >> 50]
                    ):
                        out += rows[c]
            if not troop_play:
                out.append(PASS)
            if hand & TACTICS_MASK and self._can_play_tactic(p):
                if self.forbid_any:
                    self._tactics_actions(p, hand, _FLAGS_OF[open_mask], out)
                else:
                    self._tactics_plain(p, hand, open_mask, masks[0], out)
            return out
        if phase == DRAW:
            out = []
            if self.cfg.claim_draw:
                masks = self._masks or self._flag_masks()
                check = masks[1 + p] & ~masks[0]
                if check:
                    out = self._claims(p, check)
            if self.hands[p].bit_count() < self.cfg.variant.hand_size and (self.tdeck or self.xdeck):
                if self.tdeck:
                    out.append(DRAW_TROOP)
                if self.xdeck:
                    out.append(DRAW_TACTICS)
            else:
                out.append(END)
            return out
        if phase == OVER:
            return []
        if phase == EXCESS:
            return [EXCESS_BASE + c for c in sorted(self.sides[self.excess[0]])]
        out = []
        if phase == SCOUT_DRAW:
            if self.claim_window():
                masks = self._masks or self._flag_masks()
                check = masks[1 + p] & ~masks[0]
                if check:
                    out = self._claims(p, check)
            if self.tdeck:
                out.append(SCOUT_TROOP)
            if self.xdeck:
                out.append(SCOUT_TACTICS)
            return out
        # SCOUT_RETURN
        m = self.hands[p]
        while m:
            low = m & -m
            out.append(RETURN_BASE + low.bit_length() - 1)
            m ^= low
        return out

    def _flag_masks(self) -> tuple[int, int, int]:
        """(claimed flags, flags where player 0's side is complete, the same for player 1),
        read off ``claimed`` and ``completed`` (a side is complete exactly when it has a
        completion time). Cached in ``_masks``: the common moves (a troop played, a claim)
        update it, every other change to a flag resets it to None."""
        claimed, completed = self.claimed, self.completed
        taken = full0 = full1 = 0
        for f in range(NUM_FLAGS):
            if claimed[f] >= 0:
                taken |= 1 << f
            if completed[f * 2] >= 0:
                full0 |= 1 << f
            if completed[f * 2 + 1] >= 0:
                full1 |= 1 << f
        masks = self._masks = (taken, full0, full1)
        return masks

    def _claims(self, p: int, check: int) -> list[int]:
        """The claim actions of ``p`` on the flags of ``check`` (unclaimed, ``p``'s side
        complete), in flag order: exactly those where ``claim_result(f, p).claimable``.

        Only the yes/no answer is needed here, so this memo (``_cmemo``, shared by clones
        and samples like ``_memo``) keeps no ``ProofResult``: per side, the two side tuples
        (identity: tuples never change), the flag's Fog/Mud, whether the opponent is final,
        the answer, and a mask that keeps it valid — the unseen troops it was found with
        (a claim proven with unseen set U holds for any subset of U), or the opponent's
        winning completion (a refusal holds while all its cards are unseen). When both
        sides are complete, the slot of "final" holds 2 (the claimant completed first) or
        3 instead, and the answer holds while that order does.
        """
        out: list[int] = []
        memo = self._cmemo
        sides, mud, fog = self.sides, self.mud, self.fog
        unseen = self.troops_all & ~self.public
        final = self.cfg.stall_b and not self.hands[1 - p] and not self.tdeck and not self.xdeck
        for f in _FLAGS_OF[check]:
            i = f * 2 + p
            mine = sides[i]
            theirs = sides[i ^ 1]
            env = mud[f] * 3 + fog[f]
            e = memo[i]
            if e is not None and e[0] is mine and e[1] is theirs and e[2] == env:
                k = e[3]
                if k == final:
                    if e[4]:
                        if not unseen & ~e[5]:
                            out.append(CLAIM_BASE + f)
                            continue
                    elif not e[5] & ~unseen:
                        continue
                elif k >= 2 and k == (2 if self.completed[i] < self.completed[i ^ 1] else 3):
                    if e[4]:
                        out.append(CLAIM_BASE + f)
                    continue
            if self._decide(f, p, mine, theirs, env, unseen, final):
                out.append(CLAIM_BASE + f)
        return out

    def _decide(
        self, f: int, p: int, mine: tuple[int, ...], theirs: tuple[int, ...], env: int, unseen: int, final: bool,
    ) -> bool:
        """``claim_result(f, p).claimable`` computed afresh (the same steps as ``prove``,
        without building a ``ProofResult``), memoised in ``_cmemo``."""
        eff = self.effects[f]
        cap = self.base_caps[f] + (self.mud[f] >= 0)
        n = len(theirs)
        if len(mine) != cap or n > cap or eff.tie_last or eff.both_complete:
            return self.claim_result(f, p).claimable  # rare shapes: the general path
        fog = self.fog[f] >= 0 or eff.sum_only
        rules = self.rules
        t = rules._t
        mm = 0
        for c in mine:
            mm |= BIT[c]
        score = (t.eval_fog if fog else t.eval_plain).get(mm)
        if score is None:
            score = evaluate_mask(mm, fog, rules)
        tm = 0
        for c in theirs:
            tm |= BIT[c]
        if n == cap:  # both complete: compare, a tie goes to whoever completed first
            other = evaluate_mask(tm, fog, rules)
            first = self.completed[f * 2 + p] < self.completed[f * 2 + 1 - p]
            won = score > other or (score == other and first)
            self._cmemo[f * 2 + p] = (mine, theirs, env, 2 if first else 3, won, 0)
            return won
        claim = True
        mask = -1  # a final opponent: the answer does not depend on the unseen troops
        if not final:
            mask = unseen
            avail = unseen & ~eff.forbid & t.troop_mask & ~mm & ~tm
            if avail.bit_count() >= cap - n:
                found = _search(t, tm, cap, fog, avail, score)
                if found is not None:
                    claim = False
                    mask = found[1]
        self._cmemo[f * 2 + p] = (mine, theirs, env, final, claim, mask)
        return claim

    def _tactics_plain(self, p: int, hand: int, open_mask: int, taken: int, out: list[int]) -> None:
        """``_tactics_actions`` when no battlefield forbids anything (the same actions in the
        same order), from the precomputed rows; ``taken`` is the claimed flags."""
        rows = _PLAYS_AT[open_mask] or _plays_at(open_mask)
        if hand & MORALE_MASK:
            leader_ok = not self.leaders >> p & 1
            for card in SLOT_TACTICS:
                if hand & BIT[card] and (leader_ok or card not in (ALEXANDER, DARIUS)):
                    out += rows[card]
        for card, where in ((FOG, self.fog), (MUD, self.mud)):
            if hand & BIT[card]:
                free = taken
                for f in range(NUM_FLAGS):
                    if where[f] >= 0:
                        free |= 1 << f
                free ^= ALL_FLAGS
                out += (_PLAYS_AT[free] or _plays_at(free))[card]
        if hand & BIT[SCOUT] and (self.tdeck or self.xdeck):
            out.append(SCOUT_PLAY)
        if not hand & _GUILE_MASK:
            return
        sides = self.sides
        env = self.cfg.guile_env
        if hand & BIT[REDEPLOY]:
            for f in _FLAGS_OF[ALL_FLAGS ^ taken]:
                side = sides[f * 2 + p]
                if side:
                    targets = open_mask & ~(1 << f)
                    for c in sorted(side):
                        out += _REDEPLOY_ROWS[c * 512 + targets] or _redeploy_row(c, targets)
                if env:
                    for card, where in ((FOG, self.fog), (MUD, self.mud)):
                        if where[f] == p:
                            out += _REDEPLOY_ROWS[card * 512 + (ALL_FLAGS ^ taken ^ 1 << f)] or _redeploy_row(
                                card, ALL_FLAGS ^ taken ^ 1 << f
                            )
        q = 1 - p
        if hand & BIT[DESERTER]:
            for f in _FLAGS_OF[ALL_FLAGS ^ taken]:
                for c in sorted(sides[f * 2 + q]):
                    out.append(DESERTER_BASE + c)
                if env:
                    if self.fog[f] == q:
                        out.append(DESERTER_BASE + FOG)
                    if self.mud[f] == q:
                        out.append(DESERTER_BASE + MUD)
        if hand & BIT[TRAITOR] and open_mask:
            trows = _TRAITOR_AT[open_mask] or _traitor_at(open_mask)
            for f in _FLAGS_OF[ALL_FLAGS ^ taken]:
                for c in sorted(sides[f * 2 + q]):
                    if c < NUM_TROOPS:
                        out += trows[c]

    def _tactics_actions(self, p: int, hand: int, open_flags: tuple[int, ...], out: list[int]) -> None:
        effects = self.effects
        for card in SLOT_TACTICS:
            if hand & BIT[card] and not (card in (ALEXANDER, DARIUS) and self.leaders >> p & 1):
                for f in open_flags:
                    if not effects[f].forbid >> card & 1:
                        out.append(PLAY_BASE + card * 9 + f)
        for card, where in ((FOG, self.fog), (MUD, self.mud)):
            if hand & BIT[card]:
                for f in range(NUM_FLAGS):
                    if self.claimed[f] < 0 and where[f] < 0 and not effects[f].forbid >> card & 1:
                        out.append(PLAY_BASE + card * 9 + f)
        if hand & BIT[SCOUT] and (self.tdeck or self.xdeck):
            out.append(SCOUT_PLAY)
        env = self.cfg.guile_env
        if hand & BIT[REDEPLOY]:
            for f in range(NUM_FLAGS):
                if self.claimed[f] >= 0:
                    continue
                for c in sorted(self.sides[f * 2 + p]):
                    base = REDEPLOY_BASE + c * 10
                    for g in open_flags:
                        if g != f and not effects[g].forbid >> c & 1:
                            out.append(base + g)
                    out.append(base + 9)
                if env:
                    for card, where in ((FOG, self.fog), (MUD, self.mud)):
                        if where[f] == p:
                            base = REDEPLOY_BASE + card * 10
                            for g in range(NUM_FLAGS):
                                if g != f and self.claimed[g] < 0 and not effects[g].forbid >> card & 1:
                                    out.append(base + g)
                            out.append(base + 9)
        q = 1 - p
        if hand & BIT[DESERTER]:
            for f in range(NUM_FLAGS):
                if self.claimed[f] >= 0:
                    continue
                for c in sorted(self.sides[f * 2 + q]):
                    out.append(DESERTER_BASE + c)
                if env:
                    if self.fog[f] == q:
                        out.append(DESERTER_BASE + FOG)
                    if self.mud[f] == q:
                        out.append(DESERTER_BASE + MUD)
        if hand & BIT[TRAITOR] and open_flags:
            for f in range(NUM_FLAGS):
                if self.claimed[f] >= 0:
                    continue
                for c in sorted(self.sides[f * 2 + q]):
                    if c < NUM_TROOPS:
                        base = TRAITOR_BASE + c * 9
                        for g in open_flags:
                            if not effects[g].forbid >> c & 1:
                                out.append(base + g)

    # --- applying --------------------------------------------------------------------
    def apply(self, action: Action) -> None:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        if type(action) is not int or action not in legal:
            raise IllegalAction(self.explain_illegal(action))
        self._do(action, legal)

    def push(self, action: Action) -> None:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        if type(action) is not int or action not in legal:
            raise IllegalAction(self.explain_illegal(action))
        self._undo.append(self._snapshot())
        self._do(action, legal)

    def pop(self) -> Action:
        if not self._undo:
            raise IndexError("pop without a matching push")
        self._restore(self._undo.pop())
        self.actors.pop()
        return self.hist.pop()

    def _snapshot(self) -> tuple[Any, ...]:
        return (
            list(self.sides), list(self.completed), list(self.claimed), list(self.fog), list(self.mud),
            list(self.hands), list(self.tdeck), list(self.xdeck), list(self.discards), list(self.guile),
            list(self.tactics_played), self.leaders, list(self.known), self.public, self.to_move, self.phase,
            self.counter, self.scout_left, self.ret_left, self.excess, self.turn_passed, self.turn_noop,
            self.turn_claims, self.passes, self.noops, self.out, self.scout_n, self._legal, self._masks,
        )

    def _restore(self, s: tuple[Any, ...]) -> None:
        (
            self.sides, self.completed, self.claimed, self.fog, self.mud, self.hands, self.tdeck, self.xdeck,
            self.discards, self.guile, self.tactics_played, self.leaders, self.known, self.public, self.to_move,
            self.phase, self.counter, self.scout_left, self.ret_left, self.excess, self.turn_passed,
            self.turn_noop, self.turn_claims, self.passes, self.noops, self.out, self.scout_n, self._legal,
            self._masks,
        ) = s

    def clone(self) -> BattleLineState:
        new = BattleLineState.__new__(BattleLineState)
        new.cfg = self.cfg
        new.rules = self.rules
        new.bf_ids = self.bf_ids
        new.bf_up = self.bf_up
        new.effects = self.effects
        new.base_caps = self.base_caps
        new.troops_all = self.troops_all
        new._memo = self._memo
        new._cmemo = self._cmemo
        new.forbid_any = self.forbid_any
        new._restore(self._snapshot())
        new.hist = list(self.hist)
        new.actors = list(self.actors)
        new._undo = []
        return new

    # --- the effect of one action ----------------------------------------------------
    def _do(self, a: int, legal: list[int]) -> None:
        self._legal = None
        self.hist.append(a)
        p = self.to_move
        self.actors.append(self.excess[0] & 1 if self.phase == EXCESS else p)
        self.counter += 1
        if a < TROOP_PLAYS:  # the common case, inlined: a troop from hand to a flag
            c, f = divmod(a, 9)
            bit = BIT[c]
            self.hands[p] &= ~bit
            known = self.known
            if known[0] | known[1]:
                known[0] &= ~bit
                known[1] &= ~bit
            self.public |= bit
            i = f * 2 + p
            side = self.sides[i] + (c,)
            self.sides[i] = side
            if len(side) == self.base_caps[f] + (self.mud[f] >= 0):
                self.completed[i] = self.counter
                m = self._masks
                if m is not None:
                    self._masks = (m[0], m[1] | 1 << f, m[2]) if p == 0 else (m[0], m[1], m[2] | 1 << f)
            self.phase = DRAW
        elif a < CLAIM_BASE:
            c, f = divmod(a, 9)
            self._from_hand(p, c)
            if c == FOG:
                self.fog[f] = p
            elif c == MUD:
                self._add_mud(f, p)
            else:
                self._place(f, p, c)
                if c >= NUM_TROOPS and c in (ALEXANDER, DARIUS):
                    self.leaders |= 1 << p
            self.phase = DRAW
        elif a < PASS:
            self._claim(a - CLAIM_BASE, p)
        elif a == PASS:
            self.turn_passed = True
            self.turn_noop = legal == [PASS]
            if any(CLAIM_BASE <= x < PASS for x in legal):
                self.turn_claims = True
            self.phase = DRAW
        elif a in (DRAW_TROOP, DRAW_TACTICS):
            c = (self.tdeck if a == DRAW_TROOP else self.xdeck).pop()
            bit = BIT[c]
            self.hands[p] |= bit
            self.known[p] &= ~bit  # one's own hand is not "knowledge of a place"
            if self.turn_passed:
                self._end_turn(legal)
            else:  # _end_turn after a turn that played a card: nothing can stall
                self.turn_noop = self.turn_claims = False
                self.passes = self.noops = 0
                self.to_move = 1 - p
                self.phase = PLAY
                self.scout_left = self.scout_n = self.ret_left = 0
        elif a == END:
            self._end_turn(legal)
        elif a == SCOUT_PLAY:
            self._from_hand(p, SCOUT)
            self.scout_n = self.scout_left = min(3, len(self.tdeck) + len(self.xdeck))
            self.phase = SCOUT_DRAW
        elif a in (SCOUT_TROOP, SCOUT_TACTICS):
            self._draw(p, self.tdeck if a == SCOUT_TROOP else self.xdeck)
            self.scout_left -= 1
            if self.scout_left == 0:
                if self.cfg.scout_to_hand_size:
                    ret = self.hand_count(p) - self.cfg.variant.hand_size
                else:
                    ret = self.scout_n - 1
                self.ret_left = max(0, min(ret, self.hand_count(p)))
                if self.ret_left:
                    self.phase = SCOUT_RETURN
                else:
                    self._end_turn(legal)
        elif a < REDEPLOY_BASE:
            c = a - RETURN_BASE
            self.hands[p] &= ~BIT[c]
            deck = self.tdeck if c < NUM_TROOPS else self.xdeck
            if self.cfg.variant.scout_to_bottom:
                deck.insert(0, c)
            else:
                deck.append(c)
            # the returner knows where it lies; the opponent loses track of it
            self.known[p] |= BIT[c]
            self.known[1 - p] &= ~BIT[c]
            self.ret_left -= 1
            if self.ret_left == 0:
                self._end_turn(legal)
        elif a < DESERTER_BASE:
            c, t = divmod(a - REDEPLOY_BASE, 10)
            self._from_hand(p, REDEPLOY)
            self._take(p, c)
            if t == 9:
                self.discards[p] += (c,)
            elif c == FOG:
                self.fog[t] = p
            elif c == MUD:
                self._add_mud(t, p)
            else:
                self._place(t, p, c)
            self._after_guile()
        elif a < TRAITOR_BASE:
            c = a - DESERTER_BASE
            self._from_hand(p, DESERTER)
            self._take(1 - p, c)
            self.discards[1 - p] += (c,)
            self._after_guile()
        elif a < EXCESS_BASE:
            c, g = divmod(a - TRAITOR_BASE, 9)
            self._from_hand(p, TRAITOR)
            self._take(1 - p, c)
            self._place(g, p, c)
            self.phase = DRAW
        else:
            c = a - EXCESS_BASE
            self._masks = None
            owed = self.excess[0]
            self.sides[owed] = tuple(x for x in self.sides[owed] if x != c)
            self.discards[owed & 1] += (c,)
            self.excess = self.excess[1:]
            if not self.excess:
                self.phase = DRAW

    def _from_hand(self, p: int, c: int) -> None:
        bit = BIT[c]
        self.hands[p] &= ~bit
        self.known[0] &= ~bit
        self.known[1] &= ~bit
        self.public |= bit
        if c >= NUM_TROOPS:
            self.tactics_played[p] += 1
            if c in (SCOUT, REDEPLOY, DESERTER, TRAITOR):
                self.guile[p] += (c,)

    def _draw(self, p: int, deck: list[int]) -> None:
        c = deck.pop()
        self.hands[p] |= BIT[c]
        self.known[p] &= ~BIT[c]  # one's own hand is not "knowledge of a place"

    def _place(self, f: int, p: int, c: int) -> None:
        self._masks = None
        i = f * 2 + p
        side = self.sides[i] + (c,)
        self.sides[i] = side
        if len(side) == self.capacity(f):
            self.completed[i] = self.counter

    def _add_mud(self, f: int, p: int) -> None:
        self._masks = None
        self.mud[f] = p
        cap = self.capacity(f)
        for i in (f * 2, f * 2 + 1):
            if len(self.sides[i]) < cap:
                self.completed[i] = -1

    def _take(self, owner: int, c: int) -> None:
        """Remove ``c`` (a slotted card, or Fog/Mud of ``owner``) from its unclaimed flag."""
        self._masks = None
        if c in (FOG, MUD):
            where = self.fog if c == FOG else self.mud
            f = where.index(owner)
            where[f] = -1
            if c == MUD:
                self._mud_removed(f)
            return
        for f in range(NUM_FLAGS):
            i = f * 2 + owner
            side = self.sides[i]
            if c in side:
                self.sides[i] = tuple(x for x in side if x != c)
                if len(side) - 1 < self.capacity(f):
                    self.completed[i] = -1
                return
        raise AssertionError(f"card {card_code(c)} is not at any flag")

    def _mud_removed(self, f: int) -> None:
        """Capacity drops back: sides now complete get a completion time (the mover's
        last, as the mover "placed" it), over-full sides may owe a discard."""
        self._masks = None
        cap = self.capacity(f)
        p = self.to_move
        for i in (f * 2 + 1 - p, f * 2 + p):
            if len(self.sides[i]) >= cap and self.completed[i] < 0:
                self.completed[i] = self.counter
                self.counter += 1
        if self.cfg.owner_discards:
            self.excess += tuple(i for i in (f * 2 + p, f * 2 + 1 - p) if len(self.sides[i]) > cap)

    def _after_guile(self) -> None:
        self.phase = EXCESS if self.excess else DRAW

    def _claim(self, f: int, p: int) -> None:
        self.claimed[f] = p
        m = self._masks
        if m is not None:
            self._masks = (m[0] | 1 << f, m[1], m[2])
        self.turn_claims = True
        owned = self.owned(p)
        if owned & (owned >> 1) & (owned >> 2):
            self._finish(Outcome(p, Termination.BREAKTHROUGH))
        elif owned.bit_count() >= 5:
            self._finish(Outcome(p, Termination.ENVELOPMENT))

    def _finish(self, outcome: Outcome) -> None:
        self.out = outcome
        self.phase = OVER

    def _end_turn(self, legal: list[int]) -> None:
        if self.turn_passed:
            claims = self.turn_claims or any(CLAIM_BASE <= x < PASS for x in legal)
            self.passes = self.passes + 1 if not claims else 0
            forced = self.turn_noop and not self.turn_claims and legal == [END]  # nothing changed at all
            self.noops = self.noops + 1 if forced else 0
        else:
            self.passes = self.noops = 0
        self.turn_passed = self.turn_noop = self.turn_claims = False
        self.to_move = 1 - self.to_move
        self.phase = PLAY
        self.scout_left = self.scout_n = self.ret_left = 0
        if not self.cfg.stall_b and self.passes >= 2:
            self._finish(Outcome(None, Termination.STALL, None, "two consecutive passes with no claim possible"))
        elif self.noops >= 2:
            # both players can only pass in the same position: nothing can change any more
            mine, theirs = self.owned(0).bit_count(), self.owned(1).bit_count()
            winner = None if mine == theirs or self.cfg.stuck_draw else (0 if mine > theirs else 1)
            self._finish(Outcome(winner, Termination.STALL, None, f"no progress possible; flags {mine}-{theirs}"))

    # --- errors ----------------------------------------------------------------------
    def explain_illegal(self, action: object) -> str:
        """A precise reason why ``action`` is not legal now."""
        from frontlines.games.battleline.notation import action_to_text

        if type(action) is not int or not 0 <= action < NUM_ACTIONS:
            return f"not a Battle Line action: {action!r}"
        try:
            text = action_to_text(action)
        except NotationError:
            return f"not a Battle Line action: {action!r}"
        if self.phase == OVER:
            return f"{text}: the game is over"
        p = self.to_move
        phase = PHASE_NAMES[self.phase]
        if CLAIM_BASE <= action < PASS:
            f = action - CLAIM_BASE
            if not self.claim_window():
                return f"{text}: claims are not allowed now (claim_timing={self.cfg.claim_timing}, phase {phase})"
            return f"{text}: {self.claim_result(f, p, exact=True).reason}"
        if (
            self.phase != PLAY
            and (action < CLAIM_BASE or action in (PASS, SCOUT_PLAY) or action >= REDEPLOY_BASE)
            and (self.phase != EXCESS or action < EXCESS_BASE)
        ):
            return f"{text}: no card may be played now (phase {phase})"
        if action < CLAIM_BASE or action == SCOUT_PLAY or REDEPLOY_BASE <= action < EXCESS_BASE:
            card = action // 9 if action < CLAIM_BASE else SCOUT if action == SCOUT_PLAY else (
                REDEPLOY if action < DESERTER_BASE else DESERTER if action < TRAITOR_BASE else TRAITOR)
            if not self.hands[p] >> card & 1:
                return f"{text}: {card_code(card)} is not in your hand"
            if card >= NUM_TROOPS:
                if not self.cfg.variant.tactics:
                    return f"{text}: this ruleset has no tactics cards"
                if not self._can_play_tactic(p):
                    return (f"{text}: tactics limit — you have played {self.tactics_played[p]} tactics, "
                            f"your opponent {self.tactics_played[1 - p]}")
                if card in (ALEXANDER, DARIUS) and self.leaders >> p & 1:
                    return f"{text}: you have already played a leader this game"
            if action < CLAIM_BASE:
                f = action % 9
                if self.claimed[f] >= 0:
                    return f"{text}: flag {f + 1} is claimed"
                if self.effects[f].forbid >> card & 1:
                    return f"{text}: {card_code(card)} may not be played at flag {f + 1} (battlefield)"
                if card not in (FOG, MUD) and len(self.sides[f * 2 + p]) >= self.capacity(f):
                    return f"{text}: your side of flag {f + 1} is full"
            if action == SCOUT_PLAY:
                return f"{text}: both decks are empty"
            return f"{text}: {self._explain_guile(action, p)}"
        if action == PASS:
            return f"{text}: you may pass only when no troop card can be played"
        if action in (DRAW_TROOP, DRAW_TACTICS, SCOUT_TROOP, SCOUT_TACTICS):
            return f"{text}: that deck is empty, or it is not the time to draw (phase {phase})"
        if action == END:
            return f"{text}: you must draw (phase {phase})" if self.phase == DRAW else f"{text}: not now (phase {phase})"
        if RETURN_BASE <= action < REDEPLOY_BASE:
            return f"{text}: only during a Scout's return step, with a card from your hand (phase {phase})"
        return f"{text}: not legal now (phase {phase})"


    def _explain_guile(self, action: int, p: int) -> str:
        """Why a Redeploy, Deserter or Traitor target is wrong."""
        if action < DESERTER_BASE:
            c, t = divmod(action - REDEPLOY_BASE, 10)
            owner, target = p, (None if t == 9 else t)
        elif action < TRAITOR_BASE:
            c, owner, target = action - DESERTER_BASE, 1 - p, None
        else:
            c, t = divmod(action - TRAITOR_BASE, 9)
            owner, target = 1 - p, t
        whose = "your" if owner == p else "your opponent's"
        if c in (FOG, MUD):
            if not self.cfg.guile_env:
                return "Fog and Mud stay where they are (guile_can_target_environment=false)"
            where = self.fog if c == FOG else self.mud
            source = where.index(owner) if owner in where else -1
        else:
            source = next((f for f in range(NUM_FLAGS) if c in self.sides[f * 2 + owner]), -1)
        if source < 0:
            return f"{card_code(c)} is not one of {whose} cards at a flag"
        if self.claimed[source] >= 0:
            return f"flag {source + 1} is claimed: its cards can no longer be moved"
        if target is not None:
            if action < DESERTER_BASE and target == source:
                return "Redeploy moves a card to another flag"
            if self.claimed[target] >= 0:
                return f"flag {target + 1} is claimed"
            if self.effects[target].forbid >> c & 1:
                return f"{card_code(c)} may not go to flag {target + 1} (battlefield)"
            if c not in (FOG, MUD) and len(self.sides[target * 2 + p]) >= self.capacity(target):
                return f"your side of flag {target + 1} is full"
        return "not a legal target"


_PLAIN_EFFECTS: tuple[Effects, ...] = (PLAIN,) * NUM_FLAGS
_PLAIN_CAPS = tuple(e.capacity for e in _PLAIN_EFFECTS)
_TROOP_CARDS: dict[int, tuple[int, ...]] = {}


def _troop_cards(troop_mask: int) -> tuple[int, ...]:
    """The troop cards of a deck mask, ascending (cached: one per ruleset)."""
    cards = _TROOP_CARDS.get(troop_mask)
    if cards is None:
        cards = _TROOP_CARDS[troop_mask] = tuple(c for c in range(NUM_TROOPS) if troop_mask >> c & 1)
    return cards


def battlefield_effects(cfg: Config, bf_ids: tuple[int, ...], bf_up: int) -> tuple[Effects, ...]:
    """Per-flag effects: plain everywhere unless a face-up battlefield of the set says more."""
    if not bf_ids:
        return _PLAIN_EFFECTS
    cards = load_set(cfg.get("battlefield_set", "plain")).cards
    return tuple(cards[bf_ids[f]].effects if bf_up >> f & 1 else PLAIN for f in range(NUM_FLAGS))
