"""Claims over a :class:`~.table.Table`: whether a side wins its flag now and forever
(docs/rules.md §2.11-§2.12, ``proof.py``), memoised so that random play and search ask cheaply.

Two memos per side live in the table's shared :class:`~.table.ClaimMemo` (shared by a
state's copies, its views and their samples; every entry is checked against the position
before use, so sharing never changes an answer):

* ``proofs``: the last full :class:`ProofResult` (with its reason text), for
  :func:`claim_result`;
* ``answers``: the yes/no answer only, for the move generator (:func:`claims_of`).

Since the unseen troops only ever shrink along a game, a proof found with unseen set ``U``
holds for any subset of ``U``, and a counter-example stays one while its cards are unseen.
A view answers exactly as its state: proofs read only the table, the unseen troops and
whether the opponent's hand and the decks are empty.
"""

from __future__ import annotations

from frontlines.core.reasons import Reason
from frontlines.games.battleline.codes import BIT, CLAIM_BASE, FLAGS_OF
from frontlines.games.battleline.formations import (
    SCHOTTEN_CARDS,
    _search,  # package-internal: the legality fast path skips the proof wrapper
    evaluate_mask,
)
from frontlines.games.battleline.proof import ProofResult, prove
from frontlines.games.battleline.table import ProofMemo, Table, best_subset

# Proof results are pure functions of their inputs; a claim asked again with the same cards
# (apply after legal_actions, the rare shapes of claims_of) reads it here. Most questions are
# answered before this (the side's memo, claims_of's answers), and the pages' proofs are
# recomputed (exact), so it is read seldom: 0 reads in 60 random games of Battle Line, Schotten
# Totten and Medieval viewed by both seats, nor in ISMCTS and PIMC games. An entry holds a whole
# ProofResult, about 700 bytes; 50,000 entries let a long-running server keep some 35 MB for
# it, 4,096 keep under 3 MB.
PROOF_CACHE_LIMIT = 1 << 12
_proof_cache: dict[tuple[int, int, int, bool, bool, bool, bool, int], tuple[int, ProofResult]] = {}



def opponent_final(t: Table, player: int) -> bool:
    """Whether ``player``'s opponent can never add a card again: under the "final side
    loses" stall rule, with an empty hand and empty decks."""
    q = 1 - player
    return (
        t.cfg.stall_b and not t.hands[q] and not t.tdeck and not t.xdeck
        and not (t.hand_unknown[q].troops or t.hand_unknown[q].tactics)
    )


def _proof_still_holds(result: ProofResult, seen_with: int, unseen: int) -> bool:
    """Whether a proof made when ``seen_with`` was unseen still stands with ``unseen`` now
    (same sides, same finality): a "yes" while no new card became unseen, a "no" while its
    counter-example is still all unseen."""
    if result.claimable:
        return not unseen & ~seen_with
    if result.counterexample is None:
        return False
    return all(unseen >> c & 1 for c in result.counterexample)


def claim_result(t: Table, flag: int, player: int, exact: bool = False) -> ProofResult:
    """Would ``player`` win a claim on ``flag`` now? (Ignores turn and timing.)

    Results are cached by the flag's cards (see the module text); ``exact`` recomputes
    anyway (for reason texts with up-to-date counts).
    """
    i = flag * 2 + player
    memo = t.memo.proofs[i]
    if memo is not None and not exact:
        # quickest path: the same side objects (tuples: identity means the same cards),
        # environment and completion times as when it was decided
        sides = t.sides
        completed = t.completed
        if (
            memo.mine is sides[i]
            and memo.theirs is sides[i ^ 1]
            and memo.env == t.mud[flag] * 3 + t.fog[flag]
            and memo.lead == completed[i] - completed[i ^ 1]
            and t.claimed[flag] < 0
        ):
            result = memo.result
            if memo.complete:  # both sides complete: nothing else matters
                return result
            final = opponent_final(t, player)
            if final == memo.final:
                if final:
                    return result
                unseen = t.troops_all & ~t.public & ~t.effects[flag].forbid
                if _proof_still_holds(result, memo.unseen, unseen):
                    return result
    return _claim_result(t, flag, player, exact)


def _claim_result(t: Table, flag: int, player: int, exact: bool) -> ProofResult:
    if t.claimed[flag] >= 0:
        return ProofResult(False, None, Reason("flag_claimed", (("flag", flag + 1),)))
    cap = t.effects[flag].capacity + (t.mud[flag] >= 0)
    mine = t.sides[flag * 2 + player]
    if len(mine) < cap:
        return ProofResult(False, None, Reason("side_incomplete", (("n", len(mine)), ("capacity", cap))))
    theirs = t.sides[flag * 2 + 1 - player]
    fog = t.fog[flag] >= 0 or t.effects[flag].sum_only
    eff = t.effects[flag]
    complete = len(theirs) >= cap
    first = True
    unseen = 0
    final = False
    if complete:
        a, b = t.completed[flag * 2 + player], t.completed[flag * 2 + 1 - player]
        first = (a > b) if eff.tie_last else (a < b)
    else:
        if eff.both_complete or eff.tie_last:
            return ProofResult(False, None, Reason("both_complete_only"))
        unseen = t.troops_all & ~t.public & ~eff.forbid
        final = opponent_final(t, player)
    i = flag * 2 + player
    result = _shared_result(t, mine, theirs, cap, fog, first, final, unseen, complete, eff.forbid, exact)
    completed = t.completed
    t.memo.proofs[i] = ProofMemo(
        mine, theirs, completed[i] - completed[i ^ 1], final, unseen, result, complete, t.mud[flag] * 3 + t.fog[flag],
    )
    return result


def _shared_result(
    t: Table, mine: tuple[int, ...], theirs: tuple[int, ...], cap: int, fog: bool, first: bool, final: bool,
    unseen: int, complete: bool, forbid: int, exact: bool,
) -> ProofResult:
    mm = 0
    for c in mine:
        mm |= BIT[c]
    tm = 0
    for c in theirs:
        tm |= BIT[c]
    key = (mm, tm, cap, fog, first, final, t.rules is SCHOTTEN_CARDS, forbid)
    hit = _proof_cache.get(key)
    if hit is not None and not exact:
        seen_with, result = hit
        if complete or final:
            return result
        if _proof_still_holds(result, seen_with, unseen):
            return result
    if len(mine) > cap:
        mine = best_subset(mine, cap, fog, t.rules)
    if len(theirs) > cap:
        theirs = best_subset(theirs, cap, fog, t.rules)
    result = prove(
        mine, theirs, capacity=cap, fog=fog, unseen_troops=unseen,
        claimant_completed_first=first, opponent_final=final, rules=t.rules,
    )
    if len(_proof_cache) >= PROOF_CACHE_LIMIT:  # bounded memory (a long-running server shares it)
        _proof_cache.clear()
    _proof_cache[key] = (unseen, result)
    return result


def claims_of(t: Table, p: int, check: int) -> list[int]:
    """The claim actions of ``p`` on the flags of ``check`` (unclaimed, ``p``'s side
    complete), in flag order: exactly those where ``claim_result(t, f, p).claimable``.

    Only the yes/no answer is needed here, so its memo (``table.ClaimAnswer``) keeps no
    ``ProofResult``: per side, the two side tuples, the flag's Fog/Mud, whether the
    opponent is final, the answer, and a mask that keeps it valid: the unseen troops it
    was found with (a claim proven with unseen set U holds for any subset of U), or the
    opponent's winning completion (a refusal holds while all its cards are unseen). When
    both sides are complete, ``final`` holds 2 (the claimant completed first) or 3
    instead, and the answer holds while that order does.
    """
    out: list[int] = []
    memo = t.memo.answers
    sides, mud, fog = t.sides, t.mud, t.fog
    unseen = t.troops_all & ~t.public
    final = t.cfg.stall_b and not t.hands[1 - p] and opponent_final(t, p)  # its quick "no" inlined
    for f in FLAGS_OF[check]:
        i = f * 2 + p
        mine = sides[i]
        theirs = sides[i ^ 1]
        env = mud[f] * 3 + fog[f]
        e = memo[i]
        if e is not None:
            e_mine, e_theirs, e_env, k, claimable, mask = e
            if e_mine is mine and e_theirs is theirs and e_env == env:
                if k == final:
                    if claimable:
                        if not unseen & ~mask:
                            out.append(CLAIM_BASE + f)
                            continue
                    elif not mask & ~unseen:
                        continue
                elif k >= 2 and k == (2 if t.completed[i] < t.completed[i ^ 1] else 3):
                    if claimable:
                        out.append(CLAIM_BASE + f)
                    continue
        if _decide(t, f, p, mine, theirs, env, unseen, final):
            out.append(CLAIM_BASE + f)
    return out


def _decide(
    t: Table, f: int, p: int, mine: tuple[int, ...], theirs: tuple[int, ...], env: int, unseen: int, final: bool,
) -> bool:
    """``claim_result(t, f, p).claimable`` computed afresh (the same steps as ``prove``,
    without building a ``ProofResult``), memoised as a ``table.ClaimAnswer``."""
    eff = t.effects[f]
    cap = t.base_caps[f] + (t.mud[f] >= 0)
    n = len(theirs)
    if len(mine) != cap or n > cap or eff.tie_last or eff.both_complete:
        return claim_result(t, f, p).claimable  # rare shapes: the general path
    fog = t.fog[f] >= 0 or eff.sum_only
    rules = t.rules
    tables = rules._t
    mm = 0
    for c in mine:
        mm |= BIT[c]
    score = (tables.eval_fog if fog else tables.eval_plain).get(mm)
    if score is None:
        score = evaluate_mask(mm, fog, rules)
    tm = 0
    for c in theirs:
        tm |= BIT[c]
    if n == cap:  # both complete: compare, a tie goes to whoever completed first
        other = evaluate_mask(tm, fog, rules)
        first = t.completed[f * 2 + p] < t.completed[f * 2 + 1 - p]
        won = score > other or (score == other and first)
        t.memo.answers[f * 2 + p] = (mine, theirs, env, 2 if first else 3, won, 0)
        return won
    claim = True
    mask = -1  # a final opponent: the answer does not depend on the unseen troops
    if not final:
        mask = unseen
        avail = unseen & ~eff.forbid & tables.troop_mask & ~mm & ~tm
        if avail.bit_count() >= cap - n:
            found = _search(tables, tm, cap, fog, avail, score)
            if found is not None:
                claim = False
                mask = found[1]
    t.memo.answers[f * 2 + p] = (mine, theirs, env, final, claim, mask)
    return claim
