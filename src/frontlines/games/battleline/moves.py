"""The rules of play over a :class:`~.table.Table`: the legal actions and their effect.

:func:`legal` lists the actions of the player to move, fast (bit masks and precomputed
rows of action codes) and cached in the table until the next change; it reads only what
that player knows, so a view of the mover lists the same actions as the full state.
:func:`play` makes one action. The small predicates (:func:`claim_window`,
:func:`can_play_tactic`, :func:`leader_spent`, :func:`forbidden`, :func:`side_full`,
:func:`guile_source`) are the rule checks that the generator and the explanations of
``explain.py`` share.
"""

from __future__ import annotations

from collections.abc import Sequence

from frontlines.core.game import Outcome, Termination
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
from frontlines.games.battleline.claims import claims_of
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
    FLAGS_OF,
    NUM_FLAGS,
    OVER,
    PASS,
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
)
from frontlines.games.battleline.table import Table

SLOT_TACTICS = (ALEXANDER, DARIUS, COMPANION_CAVALRY, SHIELD_BEARERS)
_GUILE_MASK = (1 << REDEPLOY) | (1 << DESERTER) | (1 << TRAITOR)

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
        tuple(PLAY_BASE + c * 9 + f for f in FLAGS_OF[open_mask]) for c in range(NUM_CARDS)
    )
    return rows


# _TRAITOR_AT[open flags mask][troop]: the Traitor actions taking that troop to those flags
_TRAITOR_AT: list[tuple[tuple[int, ...], ...] | None] = [None] * 512


def _traitor_at(open_mask: int) -> tuple[tuple[int, ...], ...]:
    rows = _TRAITOR_AT[open_mask] = tuple(
        tuple(TRAITOR_BASE + c * 9 + f for f in FLAGS_OF[open_mask]) for c in range(NUM_TROOPS)
    )
    return rows


# _REDEPLOY_ROWS[card * 512 + target flags mask]: Redeploy of the card to those flags, then
# to the discards
_REDEPLOY_ROWS: list[tuple[int, ...] | None] = [None] * (NUM_CARDS * 512)


def _redeploy_row(card: int, targets: int) -> tuple[int, ...]:
    base = REDEPLOY_BASE + card * 10
    row = _REDEPLOY_ROWS[card * 512 + targets] = (*(base + g for g in FLAGS_OF[targets]), base + 9)
    return row


# --- rule checks shared with the explanations --------------------------------------------
def claim_window(t: Table) -> bool:
    """May the player to move claim now (timing option and phase)?"""
    phase = t.phase
    if phase == PLAY:
        return t.cfg.claim_play
    if phase == DRAW:
        return t.cfg.claim_draw
    if phase == SCOUT_DRAW:  # after the Scout play, before its first draw
        return t.cfg.claim_draw and t.scout_left == t.scout_n
    return False


def can_play_tactic(t: Table, p: int) -> bool:
    """The tactics limit: never more tactics played than the opponent plus one."""
    return t.cfg.variant.tactics and t.tactics_played[p] <= t.tactics_played[1 - p]


def leader_spent(t: Table, p: int, card: int) -> bool:
    """``card`` is a leader and ``p`` has already played one this game."""
    return card in (ALEXANDER, DARIUS) and bool(t.leaders >> p & 1)


def forbidden(t: Table, flag: int, card: int) -> bool:
    """A face-up battlefield keeps ``card`` away from ``flag``."""
    return bool(t.effects[flag].forbid >> card & 1)


def side_full(t: Table, flag: int, p: int) -> bool:
    """``p``'s side of ``flag`` has no free slot (Fog and Mud take none)."""
    return len(t.sides[flag * 2 + p]) >= t.capacity(flag)


def guile_source(t: Table, card: int, owner: int) -> int:
    """The flag where ``owner``'s ``card`` lies (a troop or morale card on the side, or
    ``owner``'s Fog or Mud), -1 when none."""
    if card in (FOG, MUD):
        where = t.fog if card == FOG else t.mud
        return where.index(owner) if owner in where else -1
    return next((f for f in range(NUM_FLAGS) if card in t.sides[f * 2 + owner]), -1)


# --- legal actions ---------------------------------------------------------------------
def legal(t: Table) -> list[int]:
    """The legal actions of the player to move (the cached list itself: copy it before
    handing it out)."""
    out = t.legal_cache
    if out is None:
        out = t.legal_cache = generate(t)
    return out


def generate(t: Table) -> list[int]:
    phase = t.phase
    p = t.to_move
    out: list[int]
    if phase is PLAY:  # (phases are enum members: identity is their quickest test)
        # an unclaimed flag either may be claimed (the mover's side is complete) or has a
        # free slot
        masks = t.masks or flag_masks(t)
        full = masks[1 + p]
        check = full & ~masks[0]
        open_mask = ALL_FLAGS & ~(full | masks[0])
        out = claims_of(t, p, check) if check and t.cfg.claim_play else []
        hand = t.hands[p]
        troops = hand & TROOP_MASK
        troop_play = False
        if troops and open_mask:
            if t.forbid_any:
                effects = t.effects
                while troops:
                    low = troops & -troops
                    c = low.bit_length() - 1
                    troops ^= low
                    for f in FLAGS_OF[open_mask]:
                        if not effects[f].forbid >> c & 1:
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
        if hand & TACTICS_MASK and can_play_tactic(t, p):
            if t.forbid_any:
                _tactics_actions(t, p, hand, FLAGS_OF[open_mask], out)
            else:
                _tactics_plain(t, p, hand, open_mask, masks[0], out)
        return out
    if phase is DRAW:
        out = []
        if t.cfg.claim_draw:
            masks = t.masks or flag_masks(t)
            check = masks[1 + p] & ~masks[0]
            if check:
                out = claims_of(t, p, check)
        if t.hands[p].bit_count() < t.cfg.variant.hand_size and (t.tdeck or t.xdeck):
            if t.tdeck:
                out.append(DRAW_TROOP)
            if t.xdeck:
                out.append(DRAW_TACTICS)
        else:
            out.append(END)
        return out
    if phase is OVER:
        return []
    if phase is EXCESS:
        return [EXCESS_BASE + c for c in sorted(t.sides[t.excess[0]])]
    out = []
    if phase is SCOUT_DRAW:
        if claim_window(t):
            masks = t.masks or flag_masks(t)
            check = masks[1 + p] & ~masks[0]
            if check:
                out = claims_of(t, p, check)
        if t.tdeck:
            out.append(SCOUT_TROOP)
        if t.xdeck:
            out.append(SCOUT_TACTICS)
        return out
    # SCOUT_RETURN
    m = t.hands[p]
    while m:
        low = m & -m
        out.append(RETURN_BASE + low.bit_length() - 1)
        m ^= low
    return out


def flag_masks(t: Table) -> tuple[int, int, int]:
    """(claimed flags, flags where player 0's side is complete, the same for player 1),
    read off ``claimed`` and ``completed`` (a side is complete exactly when it has a
    completion time). Cached in ``t.masks``: the common moves (a troop played, a claim)
    update it, every other change to a flag resets it to None."""
    claimed, completed = t.claimed, t.completed
    taken = full0 = full1 = 0
    for f in range(NUM_FLAGS):
        if claimed[f] >= 0:
            taken |= 1 << f
        if completed[f * 2] >= 0:
            full0 |= 1 << f
        if completed[f * 2 + 1] >= 0:
            full1 |= 1 << f
    masks = t.masks = (taken, full0, full1)
    return masks


def _tactics_plain(t: Table, p: int, hand: int, open_mask: int, taken: int, out: list[int]) -> None:
    """``_tactics_actions`` when no battlefield forbids anything (the same actions in the
    same order), from the precomputed rows; ``taken`` is the claimed flags."""
    rows = _PLAYS_AT[open_mask] or _plays_at(open_mask)
    if hand & MORALE_MASK:
        leader_ok = not t.leaders >> p & 1
        for card in SLOT_TACTICS:
            if hand & BIT[card] and (leader_ok or card not in (ALEXANDER, DARIUS)):
                out += rows[card]
    for card, where in ((FOG, t.fog), (MUD, t.mud)):
        if hand & BIT[card]:
            free = taken
            for f in range(NUM_FLAGS):
                if where[f] >= 0:
                    free |= 1 << f
            free ^= ALL_FLAGS
            out += (_PLAYS_AT[free] or _plays_at(free))[card]
    if hand & BIT[SCOUT] and (t.tdeck or t.xdeck):
        out.append(SCOUT_PLAY)
    if not hand & _GUILE_MASK:
        return
    sides = t.sides
    env = t.cfg.guile_env
    if hand & BIT[REDEPLOY]:
        for f in FLAGS_OF[ALL_FLAGS ^ taken]:
            side = sides[f * 2 + p]
            if side:
                targets = open_mask & ~(1 << f)
                for c in sorted(side):
                    out += _REDEPLOY_ROWS[c * 512 + targets] or _redeploy_row(c, targets)
            if env:
                for card, where in ((FOG, t.fog), (MUD, t.mud)):
                    if where[f] == p:
                        out += _REDEPLOY_ROWS[card * 512 + (ALL_FLAGS ^ taken ^ 1 << f)] or _redeploy_row(
                            card, ALL_FLAGS ^ taken ^ 1 << f
                        )
    q = 1 - p
    if hand & BIT[DESERTER]:
        _deserter_actions(t, q, FLAGS_OF[ALL_FLAGS ^ taken], out)
    if hand & BIT[TRAITOR] and open_mask:
        trows = _TRAITOR_AT[open_mask] or _traitor_at(open_mask)
        for f in FLAGS_OF[ALL_FLAGS ^ taken]:
            for c in sorted(sides[f * 2 + q]):
                if c < NUM_TROOPS:
                    out += trows[c]


def _tactics_actions(t: Table, p: int, hand: int, open_flags: tuple[int, ...], out: list[int]) -> None:
    """The tactics actions of ``p`` (the general path: battlefields may forbid cards)."""
    for card in SLOT_TACTICS:
        if hand & BIT[card] and not leader_spent(t, p, card):
            for f in open_flags:
                if not forbidden(t, f, card):
                    out.append(PLAY_BASE + card * 9 + f)
    for card, where in ((FOG, t.fog), (MUD, t.mud)):
        if hand & BIT[card]:
            for f in range(NUM_FLAGS):
                if t.claimed[f] < 0 and where[f] < 0 and not forbidden(t, f, card):
                    out.append(PLAY_BASE + card * 9 + f)
    if hand & BIT[SCOUT] and (t.tdeck or t.xdeck):
        out.append(SCOUT_PLAY)
    env = t.cfg.guile_env
    if hand & BIT[REDEPLOY]:
        for f in range(NUM_FLAGS):
            if t.claimed[f] >= 0:
                continue
            for c in sorted(t.sides[f * 2 + p]):
                base = REDEPLOY_BASE + c * 10
                for g in open_flags:
                    if g != f and not forbidden(t, g, c):
                        out.append(base + g)
                out.append(base + 9)
            if env:
                for card, where in ((FOG, t.fog), (MUD, t.mud)):
                    if where[f] == p:
                        base = REDEPLOY_BASE + card * 10
                        for g in range(NUM_FLAGS):
                            if g != f and t.claimed[g] < 0 and not forbidden(t, g, card):
                                out.append(base + g)
                        out.append(base + 9)
    q = 1 - p
    if hand & BIT[DESERTER]:
        _deserter_actions(t, q, [f for f in range(NUM_FLAGS) if t.claimed[f] < 0], out)
    if hand & BIT[TRAITOR] and open_flags:
        for f in range(NUM_FLAGS):
            if t.claimed[f] >= 0:
                continue
            for c in sorted(t.sides[f * 2 + q]):
                if c < NUM_TROOPS:
                    base = TRAITOR_BASE + c * 9
                    for g in open_flags:
                        if not forbidden(t, g, c):
                            out.append(base + g)


def _deserter_actions(t: Table, q: int, unclaimed: Sequence[int], out: list[int]) -> None:
    """Deserter on the cards of ``q`` (and, by option, Fog and Mud) at the ``unclaimed`` flags."""
    for f in unclaimed:
        for c in sorted(t.sides[f * 2 + q]):
            out.append(DESERTER_BASE + c)
        if t.cfg.guile_env:
            if t.fog[f] == q:
                out.append(DESERTER_BASE + FOG)
            if t.mud[f] == q:
                out.append(DESERTER_BASE + MUD)


# --- the effect of one action ----------------------------------------------------------
def play(t: Table, a: int, legal: list[int]) -> None:
    """Make the legal action ``a`` (``legal``: the legal actions before it)."""
    t.legal_cache = None
    p = t.to_move
    t.counter += 1
    if a < TROOP_PLAYS:  # the common case, inlined: a troop from hand to a flag
        c, f = divmod(a, 9)
        bit = BIT[c]
        t.hands[p] &= ~bit
        known = t.known
        if known[0] | known[1]:
            known[0] &= ~bit
            known[1] &= ~bit
        t.public |= bit
        i = f * 2 + p
        side = t.sides[i] + (c,)
        t.sides[i] = side
        if len(side) == t.base_caps[f] + (t.mud[f] >= 0):
            t.completed[i] = t.counter
            m = t.masks
            if m is not None:
                t.masks = (m[0], m[1] | 1 << f, m[2]) if p == 0 else (m[0], m[1], m[2] | 1 << f)
        t.phase = DRAW
    elif a < CLAIM_BASE:
        c, f = divmod(a, 9)
        _from_hand(t, p, c)
        if c == FOG:
            t.fog[f] = p
        elif c == MUD:
            _add_mud(t, f, p)
        else:
            _place(t, f, p, c)
            if c >= NUM_TROOPS and c in (ALEXANDER, DARIUS):
                t.leaders |= 1 << p
        t.phase = DRAW
    elif a < PASS:
        _claim(t, a - CLAIM_BASE, p)
    elif a == PASS:
        t.turn_passed = True
        t.turn_noop = legal == [PASS]
        if any(CLAIM_BASE <= x < PASS for x in legal):
            t.turn_claims = True
        t.phase = DRAW
    elif a in (DRAW_TROOP, DRAW_TACTICS):
        c = (t.tdeck if a == DRAW_TROOP else t.xdeck).pop()
        bit = BIT[c]
        t.hands[p] |= bit
        t.known[p] &= ~bit  # one's own hand is not "knowledge of a place"
        if t.turn_passed:
            _end_turn(t, legal, drew=True)
        else:  # _end_turn after a turn that played a card: nothing can stall
            t.turn_noop = t.turn_claims = t.turn_claimed = False
            t.passes = t.noops = t.idle = 0
            t.to_move = 1 - p
            t.phase = PLAY
            t.scout_left = t.scout_n = t.ret_left = 0
    elif a == END:
        _end_turn(t, legal, drew=False)
    elif a == SCOUT_PLAY:
        _from_hand(t, p, SCOUT)
        t.scout_n = t.scout_left = min(3, len(t.tdeck) + len(t.xdeck))
        t.phase = SCOUT_DRAW
    elif a in (SCOUT_TROOP, SCOUT_TACTICS):
        _draw(t, p, t.tdeck if a == SCOUT_TROOP else t.xdeck)
        t.scout_left -= 1
        if t.scout_left == 0:
            ret = t.hand_count(p) - t.cfg.variant.hand_size if t.cfg.scout_to_hand_size else t.scout_n - 1
            t.ret_left = max(0, min(ret, t.hand_count(p)))
            if t.ret_left:
                t.phase = SCOUT_RETURN
            else:
                _end_turn(t, legal, drew=True)  # a Scout turn drew cards
    elif a < REDEPLOY_BASE:
        c = a - RETURN_BASE
        t.hands[p] &= ~BIT[c]
        deck = t.tdeck if c < NUM_TROOPS else t.xdeck
        if t.cfg.variant.scout_to_bottom:
            deck.insert(0, c)
        else:
            deck.append(c)
        # the returner knows where it lies; the opponent loses track of it
        t.known[p] |= BIT[c]
        t.known[1 - p] &= ~BIT[c]
        t.ret_left -= 1
        if t.ret_left == 0:
            _end_turn(t, legal, drew=True)  # a Scout turn drew cards
    elif a < DESERTER_BASE:
        c, g = divmod(a - REDEPLOY_BASE, 10)
        _from_hand(t, p, REDEPLOY)
        _take(t, p, c)
        if g == 9:
            t.discards[p] += (c,)
        elif c == FOG:
            t.fog[g] = p
        elif c == MUD:
            _add_mud(t, g, p)
        else:
            _place(t, g, p, c)
        _after_guile(t)
    elif a < TRAITOR_BASE:
        c = a - DESERTER_BASE
        _from_hand(t, p, DESERTER)
        _take(t, 1 - p, c)
        t.discards[1 - p] += (c,)
        _after_guile(t)
    elif a < EXCESS_BASE:
        c, g = divmod(a - TRAITOR_BASE, 9)
        _from_hand(t, p, TRAITOR)
        _take(t, 1 - p, c)
        _place(t, g, p, c)
        t.phase = DRAW
    else:
        c = a - EXCESS_BASE
        t.masks = None
        owed = t.excess[0]
        t.sides[owed] = tuple(x for x in t.sides[owed] if x != c)
        t.discards[owed & 1] += (c,)
        t.excess = t.excess[1:]
        if not t.excess:
            t.phase = DRAW


def _from_hand(t: Table, p: int, c: int) -> None:
    bit = BIT[c]
    t.hands[p] &= ~bit
    t.known[0] &= ~bit
    t.known[1] &= ~bit
    t.public |= bit
    if c >= NUM_TROOPS:
        t.tactics_played[p] += 1
        if c in (SCOUT, REDEPLOY, DESERTER, TRAITOR):
            t.guile[p] += (c,)


def _draw(t: Table, p: int, deck: list[int]) -> None:
    c = deck.pop()
    t.hands[p] |= BIT[c]
    t.known[p] &= ~BIT[c]  # one's own hand is not "knowledge of a place"


def _place(t: Table, f: int, p: int, c: int) -> None:
    t.masks = None
    i = f * 2 + p
    side = t.sides[i] + (c,)
    t.sides[i] = side
    if len(side) == t.capacity(f):
        t.completed[i] = t.counter


def _add_mud(t: Table, f: int, p: int) -> None:
    t.masks = None
    t.mud[f] = p
    cap = t.capacity(f)
    for i in (f * 2, f * 2 + 1):
        if len(t.sides[i]) < cap:
            t.completed[i] = -1


def _take(t: Table, owner: int, c: int) -> None:
    """Remove ``c`` (a slotted card, or Fog/Mud of ``owner``) from its unclaimed flag."""
    t.masks = None
    if c in (FOG, MUD):
        where = t.fog if c == FOG else t.mud
        f = where.index(owner)
        where[f] = -1
        if c == MUD:
            _mud_removed(t, f)
        return
    for f in range(NUM_FLAGS):
        i = f * 2 + owner
        side = t.sides[i]
        if c in side:
            t.sides[i] = tuple(x for x in side if x != c)
            if len(side) - 1 < t.capacity(f):
                t.completed[i] = -1
            return
    raise AssertionError(f"card {card_code(c)} is not at any flag")


def _mud_removed(t: Table, f: int) -> None:
    """Capacity drops back: sides now complete get a completion time (the mover's
    last, as the mover "placed" it), over-full sides may owe a discard."""
    t.masks = None
    cap = t.capacity(f)
    p = t.to_move
    for i in (f * 2 + 1 - p, f * 2 + p):
        if len(t.sides[i]) >= cap and t.completed[i] < 0:
            t.completed[i] = t.counter
            t.counter += 1
    if t.cfg.owner_discards:
        t.excess += tuple(i for i in (f * 2 + p, f * 2 + 1 - p) if len(t.sides[i]) > cap)


def _after_guile(t: Table) -> None:
    t.phase = EXCESS if t.excess else DRAW


def _claim(t: Table, f: int, p: int) -> None:
    t.claimed[f] = p
    m = t.masks
    if m is not None:
        t.masks = (m[0] | 1 << f, m[1], m[2])
    t.turn_claims = t.turn_claimed = True
    owned = t.owned(p)
    if owned & (owned >> 1) & (owned >> 2):
        finish(t, Outcome(p, Termination.BREAKTHROUGH))
    elif owned.bit_count() >= 5:
        finish(t, Outcome(p, Termination.ENVELOPMENT))


def finish(t: Table, outcome: Outcome) -> None:
    t.out = outcome
    t.phase = OVER
    t.legal_cache = None


# Turns in a row that only passed (no card drawn, no claim made) after which the game ends
# as a stall (docs/rules.md §2.14): each such turn changes nothing but the player to move,
# so after four the same position stands for the third time with the same player to move.
# Without it two players who may pass while holding a playable tactics card, or who
# decline a possible claim, could pass forever.
IDLE_TURNS = 4


def stall_winner(t: Table) -> int | None:
    """Who wins if the game ends as a stall now: the side with more claimed flags, or
    nobody where they hold as many or the rules draw every stall (``stuck_draw``)."""
    mine, theirs = t.owned(0).bit_count(), t.owned(1).bit_count()
    return None if mine == theirs or t.cfg.stuck_draw else (0 if mine > theirs else 1)


def _end_turn(t: Table, legal: list[int], *, drew: bool) -> None:
    if t.turn_passed:
        claims = t.turn_claims or any(CLAIM_BASE <= x < PASS for x in legal)
        t.passes = t.passes + 1 if not claims else 0
        forced = t.turn_noop and not t.turn_claims and legal == [END]  # nothing changed at all
        t.noops = t.noops + 1 if forced else 0
        t.idle = t.idle + 1 if not drew and not t.turn_claimed else 0
    else:
        t.passes = t.noops = t.idle = 0
    t.turn_passed = t.turn_noop = t.turn_claims = t.turn_claimed = False
    t.to_move = 1 - t.to_move
    t.phase = PLAY
    t.scout_left = t.scout_n = t.ret_left = 0
    if not t.cfg.stall_b and t.passes >= 2:
        finish(t, Outcome(None, Termination.STALL, None, "two consecutive passes with no claim possible"))
    elif t.noops >= 2 or t.idle >= IDLE_TURNS:
        # both players can only pass in the same position, so nothing can change any more;
        # or both keep passing by choice, so the same position comes round again and again
        mine, theirs = t.owned(0).bit_count(), t.owned(1).bit_count()
        why = "no progress possible" if t.noops >= 2 else "the same position a third time"
        finish(t, Outcome(stall_winner(t), Termination.STALL, None, f"{why}; flags {mine}-{theirs}"))
