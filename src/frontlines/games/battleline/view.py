"""What one player (or a spectator) may know of a Battle Line family position.

A view holds the table, the viewer's own hand, the size and troop/tactics split of each
hidden hand, the deck sizes, and the places of cards the viewer knows (cards it put back
on a deck with Scout, and such cards after the opponent drew them). Which deck positions
each player knows is public (everyone saw the cards go back); which cards are there is
not. :meth:`BattleLineView.sample` deals the rest at random: the determinisation that
search bots use.
"""

from __future__ import annotations

import random
from typing import Any

from frontlines.core.actions import ActionRecord
from frontlines.core.errors import NotationError
from frontlines.core.game import Action, Outcome, View
from frontlines.games.battleline.actions import describe, features, legal_entries, log_records
from frontlines.games.battleline.cards import NUM_CARDS, NUM_TROOPS, TACTICS_MASK, card_code, parse_card
from frontlines.games.battleline.formations import BATTLELINE_CARDS, SCHOTTEN_CARDS, rank_of, sum_of
from frontlines.games.battleline.medieval import load_set
from frontlines.games.battleline.notation import (
    _common_tokens,
    _config_of,
    _Fields,
    _fill_common,
    _marks,
    _parse_marked,
    action_to_text,
    parse_action,
    table_mask,
)
from frontlines.games.battleline.rules import CARD_NAMES, FORMATION_NAMES, GAME, Config
from frontlines.games.battleline.state import (
    NUM_FLAGS,
    OVER,
    PHASE_NAMES,
    REDEPLOY_BASE,
    RETURN_BASE,
    BattleLineState,
)

# deck mark: (position from the top, knowers bitmask, card or -1 when the viewer does not know it)
Mark = tuple[int, int, int]


class BattleLineView(View):
    """A player's (or the public) knowledge of a position. Build with ``state.view(p)``."""

    def __init__(self, cfg: Config, bf_ids: tuple[int, ...], bf_up: int, viewer: int | None) -> None:
        from frontlines.games.battleline.state import battlefield_effects

        self.cfg = cfg
        self.bf_ids = bf_ids
        self.bf_up = bf_up
        self.effects = battlefield_effects(cfg, bf_ids, bf_up)
        self.base_caps = tuple(e.capacity for e in self.effects)
        self.forbid_any = any(e.forbid for e in self.effects)
        self.rules = SCHOTTEN_CARDS if cfg.variant.schotten else BATTLELINE_CARDS
        self._memo: list[Any] = [None] * (2 * NUM_FLAGS)  # claim memo shared by samples
        self._cmemo: list[Any] = [None] * (2 * NUM_FLAGS)  # and their legality memo
        self.viewer = viewer
        self.sides: list[tuple[int, ...]] = [()] * (2 * NUM_FLAGS)
        self.completed: list[int] = [-1] * (2 * NUM_FLAGS)
        self.claimed: list[int] = [-1] * NUM_FLAGS
        self.fog: list[int] = [-1] * NUM_FLAGS
        self.mud: list[int] = [-1] * NUM_FLAGS
        self.discards: list[tuple[int, ...]] = [(), ()]
        self.guile: list[tuple[int, ...]] = [(), ()]
        self.tactics_played: list[int] = [0, 0]
        self.leaders = 0
        self.to_move = 0
        self.phase = 0
        self.counter = 0
        self.scout_left = self.scout_n = self.ret_left = 0
        self.excess: tuple[int, ...] = ()
        self.turn_passed = self.turn_noop = self.turn_claims = False
        self.passes = self.noops = 0
        self.out: Outcome | None = None
        self.hand = 0  # the viewer's hand (0 for spectators)
        self.hand_marked = 0  # cards of the viewer's hand the opponent knows
        # per player: hidden hand as (unknown troops, unknown tactics, unknown cards the other
        # player knows, mask of cards the viewer knows are there); None for the viewer's own
        self.hidden: list[tuple[int, int, int, int] | None] = [None, None]
        self.tsize = self.xsize = 0
        self.tmarks: tuple[Mark, ...] = ()
        self.xmarks: tuple[Mark, ...] = ()
        self._hist: list[int] = []  # the state's history and who made each action
        self._actors: list[int] = []
        self._log: list[str] | None = None
        self.public = 0  # every face-up card (computed once; sampling needs it)
        self._pools: tuple[list[int], list[int]] | None = None
        self._legal: list[int] | None = None
        self._probe: BattleLineState | None = None

    # --- building from a state ---------------------------------------------------------
    @classmethod
    def of_state(cls, s: BattleLineState, viewer: int | None) -> BattleLineView:
        if viewer not in (0, 1, None):
            raise ValueError(f"viewer must be 0, 1 or None, not {viewer!r}")
        v = cls(s.cfg, s.bf_ids, s.bf_up, viewer)
        v.sides = list(s.sides)
        v.completed = list(s.completed)
        v.claimed = list(s.claimed)
        v.fog = list(s.fog)
        v.mud = list(s.mud)
        v.discards = list(s.discards)
        v.guile = list(s.guile)
        v.tactics_played = list(s.tactics_played)
        v.leaders = s.leaders
        v.to_move, v.phase, v.counter = s.to_move, s.phase, s.counter
        v.scout_left, v.scout_n, v.ret_left, v.excess = s.scout_left, s.scout_n, s.ret_left, s.excess
        v.turn_passed, v.turn_noop, v.turn_claims = s.turn_passed, s.turn_noop, s.turn_claims
        v.passes, v.noops, v.out = s.passes, s.noops, s.out
        mine = s.known[viewer] if viewer is not None else 0
        for p in (0, 1):
            hand = s.hands[p]
            if p == viewer:
                v.hand = hand
                v.hand_marked = hand & s.known[1 - p]
            else:
                seen = hand & mine
                rest = hand & ~seen
                other = s.known[1 - p] & rest if viewer is None else 0
                v.hidden[p] = ((rest & ~TACTICS_MASK).bit_count(), (rest & TACTICS_MASK).bit_count(),
                               other.bit_count(), seen)
        v.tsize, v.xsize = len(s.tdeck), len(s.xdeck)
        v.tmarks = _deck_marks(s.tdeck, s.known, viewer)
        v.xmarks = _deck_marks(s.xdeck, s.known, viewer)
        # the history as the viewer saw it: another player's Scout returns become -1
        v._hist = [
            -1 if RETURN_BASE <= a < REDEPLOY_BASE and actor != viewer else a
            for a, actor in zip(s.hist, s.actors, strict=True)
        ]
        v._actors = list(s.actors)
        v.public = s.public
        return v

    # --- View interface ----------------------------------------------------------------
    @property
    def log(self) -> list[str]:
        """Public action texts since the state's initial (or parsed) position."""
        if self._log is None:
            self._log = _public_log(self._hist, self._actors, self.viewer)
        return self._log

    @property
    def log_seats(self) -> list[int]:
        """Who made each :attr:`log` entry (0 or 1): public, like the entries themselves."""
        return list(self._actors)

    @property
    def ruleset(self) -> str:
        return self.cfg.variant.name

    def current_player(self) -> int | None:
        if self.phase == OVER:
            return None
        if self.excess:
            return self.excess[0] & 1
        return self.to_move

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def outcome(self) -> Outcome | None:
        return self.out

    def legal_actions(self) -> list[Action]:
        if self.viewer is None or self.current_player() != self.viewer:
            return []
        if self._legal is None:
            # legality depends only on what the viewer knows, so any consistent deal will do
            self._legal = self.probe().legal_actions()  # type: ignore[assignment]
        assert self._legal is not None
        return list(self._legal)

    def probe(self) -> BattleLineState:
        """A fixed consistent deal, for questions whose answer the hidden cards cannot change."""
        if self._probe is None:
            self._probe = self.sample(random.Random(0))
        return self._probe

    def action_to_text(self, action: Action) -> str:
        return action_to_text(action)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def describe_action(self, action: Action) -> ActionRecord:
        return describe(action, self.sides)

    # --- sampling ----------------------------------------------------------------------
    def _unknown_pools(self) -> tuple[list[int], list[int]]:
        """Troops and tactics whose place the viewer does not know (sorted)."""
        if self._pools is None:
            variant = self.cfg.variant
            all_cards = variant.troop_mask | (TACTICS_MASK if variant.tactics else 0)
            fixed = self.public | self.hand
            for p in (0, 1):
                h = self.hidden[p]
                if h is not None:
                    fixed |= h[3]
            for marks in (self.tmarks, self.xmarks):
                for _pos, _k, c in marks:
                    if c >= 0:
                        fixed |= 1 << c
            pool = all_cards & ~fixed
            self._pools = (
                [c for c in range(NUM_TROOPS) if pool >> c & 1],
                [c for c in range(NUM_TROOPS, NUM_CARDS) if pool >> c & 1],
            )
        return self._pools

    def sample(self, rng: random.Random) -> BattleLineState:
        s = BattleLineState.__new__(BattleLineState)
        s.cfg = self.cfg
        s.rules = self.rules
        s.bf_ids = self.bf_ids
        s.bf_up = self.bf_up
        s.effects = self.effects
        s.base_caps = self.base_caps
        s.forbid_any = self.forbid_any
        s.troops_all = self.cfg.variant.troop_mask
        s._memo = self._memo
        s._cmemo = self._cmemo
        s.sides = list(self.sides)
        s.completed = list(self.completed)
        s.claimed = list(self.claimed)
        s.fog = list(self.fog)
        s.mud = list(self.mud)
        s.discards = list(self.discards)
        s.guile = list(self.guile)
        s.tactics_played = list(self.tactics_played)
        s.leaders = self.leaders
        s.to_move, s.phase, s.counter = self.to_move, self.phase, self.counter
        s.scout_left, s.scout_n, s.ret_left, s.excess = self.scout_left, self.scout_n, self.ret_left, self.excess
        s.turn_passed, s.turn_noop, s.turn_claims = self.turn_passed, self.turn_noop, self.turn_claims
        s.passes, s.noops, s.out = self.passes, self.noops, self.out
        s.public = self.public
        s.hist = []
        s.actors = []
        s._undo = []
        s._legal = None
        s._masks = None
        pool_t, pool_x = self._unknown_pools()
        troops = pool_t[:]
        tactics = pool_x[:]
        rng.shuffle(troops)
        if tactics:
            rng.shuffle(tactics)
        known = [0, 0]
        v = self.viewer
        hands = [0, 0]
        for p in (0, 1):
            h = self.hidden[p]
            if h is None:
                hands[p] = self.hand
                known[1 - p] |= self.hand_marked
                continue
            nt, nx, nk, seen = h
            hand = seen
            dealt = troops[-nt:] if nt else []
            if nt:
                del troops[-nt:]
            if nx:
                dealt += tactics[-nx:]
                del tactics[-nx:]
            for c in dealt:
                hand |= 1 << c
            hands[p] = hand
            if v is not None:
                known[v] |= seen
            for c in dealt[:nk]:  # spectators: which of the unknown cards the other player knows
                known[1 - p] |= 1 << c
        s.hands = hands
        s.tdeck = _fill_deck(self.tsize, self.tmarks, troops, known)
        s.xdeck = _fill_deck(self.xsize, self.xmarks, tactics, known)
        s.known = known
        return s

    # --- text --------------------------------------------------------------------------
    def to_notation(self) -> str:
        who = "spectator" if self.viewer is None else str(self.viewer)
        tokens = [GAME, f"view={who}", *_common_tokens(self)]
        for p in (0, 1):
            h = self.hidden[p]
            if h is None:
                items = []
                m = self.hand
                while m:
                    low = m & -m
                    c = low.bit_length() - 1
                    m ^= low
                    items.append(card_code(c) + _marks(2 >> p if self.hand_marked >> c & 1 else 0))
                tokens.append(f"h{p}=" + ".".join(items))
            else:
                nt, nx, nk, seen = h
                items = [f"?{nt}", str(nx), str(nk)]
                m = seen
                while m:
                    low = m & -m
                    items.append(card_code(low.bit_length() - 1))
                    m ^= low
                tokens.append(f"h{p}=" + ".".join(items))
        decks = [("td", self.tsize, self.tmarks)]
        if self.cfg.variant.tactics:
            decks.append(("xd", self.xsize, self.xmarks))
        for name, size, marks in decks:
            parts = [f"#{size}"]
            for pos, knowers, c in marks:
                parts.append(f"{pos}{_marks(knowers)}" + (f"={card_code(c)}" if c >= 0 else ""))
            tokens.append(f"{name}=" + ",".join(parts))
        return " ".join(tokens)

    def to_dict(self) -> dict[str, Any]:
        return view_dict(self)


def _deck_marks(deck: list[int], known: list[int], viewer: int | None) -> tuple[Mark, ...]:
    if not (known[0] | known[1]):
        return ()
    out = []
    n = len(deck)
    for i, c in enumerate(deck):
        knowers = (known[0] >> c & 1) | (known[1] >> c & 1) << 1
        if knowers:
            shown = c if viewer is not None and knowers >> viewer & 1 else -1
            out.append((n - 1 - i, knowers, shown))
    out.sort()
    return tuple(out)


def _fill_deck(size: int, marks: tuple[Mark, ...], pool: list[int], known: list[int]) -> list[int]:
    """A deck (top = last) of ``size`` cards: marked cards at their places, the rest from ``pool``."""
    if not marks:
        if len(pool) != size:
            raise IndexError("the hidden cards do not fill the deck")
        return pool
    top_first: list[int] = []
    by_pos = {pos: (knowers, c) for pos, knowers, c in marks}
    for pos in range(size):
        mark = by_pos.get(pos)
        c = mark[1] if mark is not None and mark[1] >= 0 else pool.pop()
        if mark is not None:
            for p in (0, 1):
                if mark[0] >> p & 1:
                    known[p] |= 1 << c
        top_first.append(c)
    if pool:
        raise IndexError("the hidden cards do not fill the deck")
    top_first.reverse()
    return top_first


def _public_log(hist: list[int], actors: list[int], viewer: int | None) -> list[str]:
    """Action texts of a history as the viewer saw them: a card another player put back
    with Scout shows as ``return:?``."""
    out = []
    for a, actor in zip(hist, actors, strict=True):
        if a < 0 or (RETURN_BASE <= a < REDEPLOY_BASE and actor != viewer):
            out.append("return:?")
        else:
            out.append(action_to_text(a))
    return out


def parse_view(text: str) -> BattleLineView:
    """Inverse of :meth:`BattleLineView.to_notation`."""
    fields = _Fields(text, "view")
    who = fields.get("view")
    if who not in ("0", "1", "spectator"):
        raise NotationError("view= is 0, 1 or spectator")
    viewer = None if who == "spectator" else int(who)
    cfg, bf_ids, bf_up = _config_of(fields)
    v = BattleLineView(cfg, bf_ids, bf_up, viewer)
    try:
        _fill_common(fields, v)
        v.public = table_mask(v)
        for p in (0, 1):
            items = fields.get(f"h{p}").split(".")
            if items and items[0].startswith("?"):
                if p == viewer or len(items) < 3:
                    raise NotationError(f"h{p}=: a hidden hand is ?TROOPS.TACTICS.KNOWN[.CARDS]")
                nums = [items[0][1:], items[1], items[2]]
                if not all(x.isdigit() for x in nums):
                    raise NotationError(f"h{p}=: counts must be numbers")
                seen = 0
                for code in items[3:]:
                    seen |= 1 << parse_card(code)
                v.hidden[p] = (int(nums[0]), int(nums[1]), int(nums[2]), seen)
            else:
                if p != viewer:
                    raise NotationError(f"h{p}=: only the viewer's own hand is shown")
                for item in filter(None, items):
                    c, knowers = _parse_marked(item)
                    v.hand |= 1 << c
                    if knowers:
                        v.hand_marked |= 1 << c
        decks = [("td", "tsize", "tmarks")] + ([("xd", "xsize", "xmarks")] if cfg.variant.tactics else [])
        for name, size_attr, marks_attr in decks:
            parts = fields.get(name).split(",")
            if not parts[0].startswith("#") or not parts[0][1:].isdigit():
                raise NotationError(f"{name}= starts with #SIZE")
            marks = []
            for item in parts[1:]:
                place, eq, code = item.partition("=")
                pos_text, tilde, who_text = place.partition("~")
                if not pos_text.isdigit() or not tilde or who_text not in ("0", "1", "01"):
                    raise NotationError(f"{name}=: marks are POS~WHO[=CARD], not {item!r}")
                knowers = 3 if who_text == "01" else 1 << int(who_text)
                marks.append((int(pos_text), knowers, parse_card(code) if eq else -1))
            setattr(v, size_attr, int(parts[0][1:]))
            setattr(v, marks_attr, tuple(sorted(marks)))
        fields.finish()
    except (ValueError, IndexError) as exc:
        if isinstance(exc, NotationError):
            raise
        raise NotationError(f"view notation: {exc}") from exc
    _check_consistent(v)
    return v


def _check_consistent(v: BattleLineView) -> None:
    """A view must describe some real position: deal one and check its cards."""
    from frontlines.games.battleline.notation import check_cards

    try:
        probe = v.sample(random.Random(0))
    except IndexError:
        raise NotationError("view notation: more hidden cards than the ruleset has left") from None
    check_cards(probe)
    if probe.view(v.viewer).to_notation() != v.to_notation():
        raise NotationError("view notation: inconsistent knowledge marks or counts")
    v._probe = probe


# --- the dictionary for user interfaces -------------------------------------------------------
def view_dict(v: BattleLineView) -> dict[str, Any]:
    from frontlines.games.battleline.formations import evaluate

    probe = v.probe()
    names = FORMATION_NAMES[v.cfg.variant.names]
    bf_set = load_set(v.cfg.get("battlefield_set", "plain")) if v.bf_ids else None
    flags = []
    for f in range(NUM_FLAGS):
        cap = probe.capacity(f)
        fog = probe.is_fog(f)
        formation: list[dict[str, Any] | None] = []
        for p in (0, 1):
            side = v.sides[f * 2 + p]
            if len(side) >= cap:
                score = evaluate(probe.side_cards(f, p), fog, probe.rules)
                rank = rank_of(score)
                formation.append({"name": names[rank - 1] if rank else "Sum", "rank": rank, "sum": sum_of(score)})
            else:
                formation.append(None)
        a, b = v.completed[f * 2], v.completed[f * 2 + 1]
        first = None if a < 0 or b < 0 else (0 if a < b else 1)
        claim = None
        if v.viewer is not None and v.claimed[f] < 0 and len(v.sides[f * 2 + v.viewer]) >= cap:
            r = probe.claim_result(f, v.viewer, exact=True)
            claim = {
                "claimable": r.claimable,
                "reason": r.reason,
                "counterexample": [card_code(c) for c in r.counterexample] if r.counterexample else None,
            }
        battlefield = None
        if bf_set is not None:
            card = bf_set.cards[v.bf_ids[f]]
            up = bool(v.bf_up >> f & 1)
            battlefield = {"id": card.id, "name": card.name, "face_up": up, "text": card.text if up else ""}
        env: list[list[str]] = [[], []]
        if v.fog[f] >= 0:
            env[v.fog[f]].append("FO")
        if v.mud[f] >= 0:
            env[v.mud[f]].append("MU")
        flags.append({
            "index": f + 1,
            "claimed_by": None if v.claimed[f] < 0 else v.claimed[f],
            "capacity": cap,
            "fog": v.fog[f] >= 0,
            "mud": v.mud[f] >= 0,
            "environment": env,
            "battlefield": battlefield,
            "sides": [[card_code(c) for c in v.sides[f * 2 + p]] for p in (0, 1)],
            "formation": formation,
            "completed_first": first,
            "claim": claim,
        })
    hands: list[list[str] | None] = []
    sizes = []
    tactics_counts = []
    for p in (0, 1):
        h = v.hidden[p]
        if h is None:
            hands.append([card_code(c) for c in range(NUM_CARDS) if v.hand >> c & 1])
            sizes.append(v.hand.bit_count())
            tactics_counts.append((v.hand & TACTICS_MASK).bit_count())
        else:
            hands.append(None)
            sizes.append(h[0] + h[1] + h[3].bit_count())
            tactics_counts.append(h[1] + (h[3] & TACTICS_MASK).bit_count())
    seen = table_mask(v) | v.hand
    unseen = [card_code(c) for c in range(NUM_TROOPS) if (v.cfg.variant.troop_mask & ~seen) >> c & 1]
    known_cards: list[dict[str, Any]] = []
    for p in (0, 1):
        h = v.hidden[p]
        if h is not None and h[3]:
            known_cards += [{"card": card_code(c), "where": f"hand {p}"} for c in range(NUM_CARDS) if h[3] >> c & 1]
    for deck, marks in (("troop", v.tmarks), ("tactics", v.xmarks)):
        known_cards += [{"card": card_code(c), "where": f"{deck} deck", "position": pos} for pos, _k, c in marks if c >= 0]
    legal = legal_entries(v.legal_actions(), v.sides)  # type: ignore[arg-type]
    return {
        "game": GAME,
        "ruleset": v.ruleset,
        "viewer": v.viewer,
        "to_move": v.current_player(),
        "phase": PHASE_NAMES[v.phase],
        "outcome": v.out.to_dict() if v.out is not None else None,
        "log": list(v.log),
        "log_seats": v.log_seats,
        "log_records": log_records(v.log, v.log_seats),
        "legal": legal,
        "features": features(v.cfg),
        "flags": flags,
        "hands": hands,
        "hand_sizes": sizes,
        "hand_tactics": tactics_counts,
        "troop_deck": v.tsize,
        "tactics_deck": v.xsize,
        "has_tactics": bool(v.cfg.variant.tactics),
        "discards": [[card_code(c) for c in v.discards[p]] for p in (0, 1)],
        "guile": [[card_code(c) for c in v.guile[p]] for p in (0, 1)],
        "tactics_played": list(v.tactics_played),
        "unseen": unseen,
        "known": known_cards,
        "card_names": list(CARD_NAMES[v.cfg.variant.names]),
        "battlefield_set": None if bf_set is None else {"name": bf_set.name, "label": bf_set.label},
        "options": dict(v.cfg.options),
    }
