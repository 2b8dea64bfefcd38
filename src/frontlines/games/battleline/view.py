"""What one player (or a spectator) may know of a Battle Line family position.

A view is the position's :class:`~.table.Table` with the hidden parts marked unknown
(:func:`hide`): the viewer's own hand, the size and troop/tactics split of each hidden
hand, the deck sizes, and the places of cards the viewer knows (cards it put back on a
deck with Scout, and such cards after the opponent drew them). Which deck positions each
player knows is public (everyone saw the cards go back); which cards are there is not.
:func:`fill` deals the unknowns at random: the determinisation that search bots use.
:func:`view_dict` is the dictionary the user interfaces draw.
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from frontlines.games.battleline.actions import features, legal_entries, log_records
from frontlines.games.battleline.cards import NUM_CARDS, NUM_TROOPS, TACTICS_MASK, card_code
from frontlines.games.battleline.claims import claim_result
from frontlines.games.battleline.codes import (
    BIT,
    NUM_FLAGS,
    PHASE_NAMES,
    REDEPLOY_BASE,
    RETURN_BASE,
    action_to_text,
)
from frontlines.games.battleline.explain import refusals
from frontlines.games.battleline.formations import evaluate, rank_of, sum_of
from frontlines.games.battleline.medieval import load_set
from frontlines.games.battleline.reasons import REASON_WORDS
from frontlines.games.battleline.rules import CARD_NAMES, FORMATION_NAMES, GAME, PLACE_NAMES
from frontlines.games.battleline.table import NOTHING_UNKNOWN, ClaimMemo, Table, Unknown, shared_values, unknown
from frontlines.games.battleline.text import deck_marks, table_mask
from frontlines.games.chance import shuffle

UNMARKED = unknown(0)  # a deck card nobody but the deck knows


def hide(t: Table, viewer: int | None) -> None:
    """Mark unknown, in ``t`` (a fresh copy of a full position), what ``viewer`` (None: a
    spectator) may not know."""
    known = t.known
    mine = known[viewer] if viewer is not None else 0
    unknowns = [NOTHING_UNKNOWN, NOTHING_UNKNOWN]
    for p in (0, 1):
        if p == viewer:
            continue
        hand = t.hands[p]
        seen = hand & mine
        rest = hand & ~seen
        other = known[1 - p] & rest if viewer is None else 0
        unknowns[p] = Unknown((rest & ~TACTICS_MASK).bit_count(), (rest & TACTICS_MASK).bit_count(), other.bit_count())
        t.hands[p] = seen
    t.hand_unknown = (unknowns[0], unknowns[1])
    if known[0] | known[1]:
        t.tdeck = [_deck_entry(c, known, mine) for c in t.tdeck]
        t.xdeck = [_deck_entry(c, known, mine) for c in t.xdeck]
    else:
        t.tdeck = [UNMARKED] * len(t.tdeck)
        t.xdeck = [UNMARKED] * len(t.xdeck)
    # the viewer's own knowledge stays; of the other's, only what concerns cards the viewer sees
    if viewer is None:
        t.known = [0, 0]
    else:
        known[1 - viewer] &= t.hands[viewer] | mine
    # the caches start afresh: a view holds nothing that its own record does not say (the
    # state's caches depend on how it got here, and another player's actions would tell
    # their hand)
    t.legal_cache = t.masks = None
    t.memo = ClaimMemo()


def _deck_entry(c: int, known: list[int], mine: int) -> int:
    if mine >> c & 1:
        return c
    return unknown((known[0] >> c & 1) | (known[1] >> c & 1) << 1)


class Deal(NamedTuple):
    """What every sample of one view starts from (worked out once per view)."""

    shared: tuple[Any, ...]  # the view's fields before its lists (table.shared_values)
    troops: list[int]  # the troops whose place the viewer does not know, ascending
    tactics: list[int]  # the same for tactics cards
    plain_decks: tuple[bool, bool]  # nothing known of the troop / tactics deck


def deal_of(t: Table) -> Deal:
    """The :class:`Deal` of a view's table ``t``."""
    variant = t.cfg.variant
    all_cards = variant.troop_mask | (TACTICS_MASK if variant.tactics else 0)
    fixed = t.public | t.hands[0] | t.hands[1]
    for c in t.tdeck + t.xdeck:
        if c >= 0:
            fixed |= BIT[c]
    pool = all_cards & ~fixed
    return Deal(
        shared_values(t),
        [c for c in range(NUM_TROOPS) if pool >> c & 1],
        [c for c in range(NUM_TROOPS, NUM_CARDS) if pool >> c & 1],
        (t.tdeck.count(UNMARKED) == len(t.tdeck), t.xdeck.count(UNMARKED) == len(t.xdeck)),
    )


def fill(t: Table, deal: Deal, rng: random.Random) -> None:
    """Deal the unknowns of ``t`` (a fresh copy of a view) from the view's ``deal`` at
    random; raises IndexError when they do not fit."""
    troops = deal.troops[:]
    tactics = deal.tactics[:]
    shuffle(rng, troops)
    if tactics:
        shuffle(rng, tactics)
    known = t.known
    for p in (0, 1):
        nt, nx, nk = t.hand_unknown[p]
        if not (nt or nx):
            continue
        dealt = troops[-nt:] if nt else []
        if nt:
            del troops[-nt:]
        if nx:
            dealt += tactics[-nx:]
            del tactics[-nx:]
        hand = t.hands[p]
        for c in dealt:
            hand |= BIT[c]
        t.hands[p] = hand
        for c in dealt[:nk]:  # spectators: which of the unknown cards the other player knows
            known[1 - p] |= BIT[c]
    t.hand_unknown = (NOTHING_UNKNOWN, NOTHING_UNKNOWN)
    t.tdeck = _fill_deck(t.tdeck, deal.plain_decks[0], troops, known)
    t.xdeck = _fill_deck(t.xdeck, deal.plain_decks[1], tactics, known)


def _fill_deck(deck: list[int], plain: bool, pool: list[int], known: list[int]) -> list[int]:
    """``deck`` with its unknown cards dealt from ``pool``, top first."""
    if plain:  # nothing known of it: the shuffled pool is the deck
        if len(pool) != len(deck):
            raise IndexError("the hidden cards do not fill the deck")
        return pool
    for i in range(len(deck) - 1, -1, -1):
        c = deck[i]
        if c < 0:
            knowers = -1 - c
            c = deck[i] = pool.pop()
            if knowers & 1:
                known[0] |= BIT[c]
            if knowers & 2:
                known[1] |= BIT[c]
    if pool:
        raise IndexError("the hidden cards do not fill the deck")
    return deck


def public_log(hist: list[int], actors: list[int], viewer: int | None) -> list[str]:
    """Action texts of a history as the viewer saw them: a card another player put back
    with Scout shows as ``return:?``."""
    out = []
    for a, actor in zip(hist, actors, strict=True):
        if a < 0 or (RETURN_BASE <= a < REDEPLOY_BASE and actor != viewer):
            out.append("return:?")
        else:
            out.append(action_to_text(a))
    return out


# --- the dictionary for user interfaces -------------------------------------------------------
def view_dict(v: Table, viewer: int | None, log: list[str], log_seats: list[int], legal: list[int]) -> dict[str, Any]:
    """The dictionary the user interfaces draw (docs/contracts.md): ``v`` is the table
    masked for ``viewer``, ``log`` its public log, ``legal`` the viewer's legal actions."""
    names = FORMATION_NAMES[v.cfg.variant.names]
    bf_set = load_set(v.cfg.get("battlefield_set", "plain")) if v.bf_ids else None
    flags = []
    for f in range(NUM_FLAGS):
        cap = v.capacity(f)
        fog = v.is_fog(f)
        formation: list[dict[str, Any] | None] = []
        for p in (0, 1):
            side = v.sides[f * 2 + p]
            if len(side) >= cap:
                score = evaluate(v.side_cards(f, p), fog, v.rules)
                rank = rank_of(score)
                formation.append({"name": names[rank - 1] if rank else "Sum", "rank": rank, "sum": sum_of(score)})
            else:
                formation.append(None)
        a, b = v.completed[f * 2], v.completed[f * 2 + 1]
        first = None if a < 0 or b < 0 else (0 if a < b else 1)
        claim = None
        if viewer is not None and v.claimed[f] < 0 and len(v.sides[f * 2 + viewer]) >= cap:
            r = claim_result(v, f, viewer, exact=True)
            claim = {
                "claimable": r.claimable,
                "reason": r.reason,
                "why": r.why.to_dict(REASON_WORDS),  # the proof as code and parameters, with its words
                "counterexample": [card_code(c) for c in r.counterexample] if r.counterexample else None,
            }
        battlefield = None
        if bf_set is not None:
            card = bf_set.cards[v.bf_ids[f]]
            up = bool(v.bf_up >> f & 1)
            # Face down, every battlefield card looks the same (docs/rules.md §5.2): which one
            # lies there is nobody's to know until the game ends, when all are turned over.
            shown = up or v.out is not None
            battlefield = {"id": card.id if shown else None, "name": card.name if shown else None, "face_up": up,
                           "text": card.text if shown else "", "turned_over": shown and not up}
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
        if p == viewer:
            hands.append([card_code(c) for c in range(NUM_CARDS) if v.hands[p] >> c & 1])
        else:
            hands.append(None)
        sizes.append(v.hand_count(p))
        tactics_counts.append(v.hand_tactics(p))
    seen = table_mask(v) | (v.hands[viewer] if viewer is not None else 0)
    unseen = [card_code(c) for c in range(NUM_TROOPS) if (v.cfg.variant.troop_mask & ~seen) >> c & 1]
    known_cards: list[dict[str, Any]] = []
    for p in (0, 1):
        if p != viewer and v.hands[p]:
            known_cards += [{"card": card_code(c), "where": f"hand {p}"} for c in range(NUM_CARDS) if v.hands[p] >> c & 1]
    for deck, cards in (("troop", v.tdeck), ("tactics", v.xdeck)):
        known_cards += [
            {"card": card_code(c), "where": f"{deck} deck", "position": pos} for pos, _k, c in deck_marks(v, cards) if c >= 0
        ]
    return {
        "game": GAME,
        "ruleset": v.cfg.variant.name,
        "viewer": viewer,
        "to_move": v.current_player(),
        "phase": PHASE_NAMES[v.phase],
        "outcome": v.out.to_dict() if v.out is not None else None,
        "log": list(log),
        "log_seats": log_seats,
        "log_records": log_records(log, log_seats),
        "legal": legal_entries(legal, v.sides),
        # why the viewer's cards or flags are refused, on the viewer's play step
        "refusals": refusals(v, legal) if viewer is not None and viewer == v.current_player() else None,
        "features": features(v.cfg),
        "flags": flags,
        "hands": hands,
        "hand_sizes": sizes,
        "hand_tactics": tactics_counts,
        "troop_deck": len(v.tdeck),
        "tactics_deck": len(v.xdeck),
        "has_tactics": bool(v.cfg.variant.tactics),
        "discards": [[card_code(c) for c in v.discards[p]] for p in (0, 1)],
        "guile": [[card_code(c) for c in v.guile[p]] for p in (0, 1)],
        "tactics_played": list(v.tactics_played),
        "unseen": unseen,
        "known": known_cards,
        "card_names": list(CARD_NAMES[v.cfg.variant.names]),
        "formation_names": list(names),  # the ruleset's own, by rank (Host .. Wedge); proofs say Battle Line's
        "place_name": PLACE_NAMES[v.cfg.variant.names],  # "flag", or Schotten Totten's "stone"
        "battlefield_set": None if bf_set is None else {"name": bf_set.name, "label": bf_set.label},
        "options": dict(v.cfg.options),
    }
