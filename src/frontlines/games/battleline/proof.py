"""Claim proofs for the Battle Line family (docs/rules.md §2.12).

A claim on a flag succeeds when the claimant's complete side beats the opponent's side
now and forever: against a complete side by comparison (ties to whoever completed first),
against an incomplete side when no way of completing it from the unseen troop cards is
strictly stronger (the opponent would place the last card, so ties favour the claimant).
Only troop cards are considered for the opponent's completion: unplayed tactics never
block a proof, and the claimant's own hand counts as unseen.

>>> from frontlines.games.battleline.cards import TROOP_MASK, card_code, parse_card
>>> def cards(*codes: str) -> list[int]:
...     return [parse_card(c) for c in codes]
>>> def unseen(*sides: list[int]) -> int:  # every troop not on the table
...     return TROOP_MASK & ~sum(1 << c for side in sides for c in side)
>>> mine, theirs = cards("R8", "R9", "R10"), cards("B1")
>>> prove(mine, theirs, capacity=3, fog=False, unseen_troops=unseen(mine, theirs)).reason
'no unseen troop cards can beat your wedge (27)'
>>> mine = cards("R1", "R2", "R4")
>>> result = prove(mine, theirs, capacity=3, fog=False, unseen_troops=unseen(mine, theirs))
>>> result.claimable, [card_code(c) for c in result.counterexample or ()]
(False, ['B2', 'B3'])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from frontlines.core.reasons import Reason, english
from frontlines.games.battleline.cards import card_code
from frontlines.games.battleline.formations import (
    BATTLELINE_CARDS,
    CardRules,
    _search,  # package-internal: the proof hot path skips the public wrapper
    evaluate_mask,
    formation_name,
    rank_of,
    sum_of,
)
from frontlines.games.battleline.reasons import REASON_WORDS

__all__ = ["ProofResult", "describe", "formation_reason", "prove"]

_BIT = tuple(1 << c for c in range(70))
_CODE = tuple(card_code(c) for c in range(70))


@dataclass(frozen=True, slots=True)
class ProofResult:
    """Whether the claim holds; if not and the opponent can still complete, one completion that wins.

    ``why`` is the proof as data: a code of ``reasons.PROOF_WORDS`` and its parameters (the
    formations as nested reasons, the cards as codes), so that each user interface words it
    in its own language and names the formations as its ruleset does; ``reason`` is its
    English sentence."""

    claimable: bool
    counterexample: tuple[int, ...] | None
    why: Reason

    def __reduce__(self) -> tuple[type[ProofResult], tuple[bool, tuple[int, ...] | None, Reason]]:
        # pickled (and deep-copied) as its fields, rebuilt through __init__: compiled, a
        # frozen dataclass refuses pickle's setting of one attribute at a time (a position
        # pickles its claim memo, which keeps its sides' last proofs)
        return ProofResult, (self.claimable, self.counterexample, self.why)

    @property
    def reason(self) -> str:
        """The English sentence, built only when asked (``frontlines prove`` prints one per
        line; the game and the pages never need it)."""
        return _sentence(self.why)


def formation_reason(score: int, code: str = "formation") -> Reason:
    """A score as a proof's parameter: ``formation`` (``wedge (24)``; ``a_formation`` with
    its article, ``formation_at`` without brackets), or ``sum`` (``sum 24``) for the lowest rank
    and under Fog. The formation is named by Battle Line's rank word (``formation_name``)."""
    if rank_of(score) == 0:
        return Reason("sum", (("sum", sum_of(score)),))
    return Reason(code, (("formation", formation_name(score)), ("sum", sum_of(score))))


def describe(score: int) -> str:
    """``wedge (24)``, or ``sum 24`` under Fog."""
    return english(formation_reason(score), REASON_WORDS)


# Every score is below 6 * 64; the parameters are built once rather than per proof.
_DESCRIBE = tuple(formation_reason(s) for s in range(6 * 64))
_A = tuple(formation_reason(s, "a_formation") for s in range(6 * 64))
_AT = tuple(formation_reason(s, "formation_at") for s in range(6 * 64))
_UNBEATABLE = tuple(Reason("unbeatable", (("mine", d),)) for d in _DESCRIBE)
# The English of those same objects, found by identity: they live as long as the module, so
# no other object can share one of their ids. A proof's sentence is then one template filled
# with ready phrases, as quick as the f-strings the proofs were once written with.
_ENGLISH = {id(r): english(r, REASON_WORDS) for r in (*_DESCRIBE, *_A, *_AT, *_UNBEATABLE)}


def _sentence(why: Reason) -> str:
    """``english(why, REASON_WORDS)``, with the phrases built in advance looked up."""
    ready = _ENGLISH.get(id(why))
    if ready is not None:
        return ready
    values = {}
    for key, value in why.params:
        if isinstance(value, Reason):
            value = _ENGLISH.get(id(value)) or english(value, REASON_WORDS)
        values[key] = value
    try:
        return REASON_WORDS[why.code].format(**values)
    except (KeyError, IndexError):  # a code or field the words lack: as english() words it
        return english(why, REASON_WORDS)


def _compare_complete(mine: int, theirs: int, claimant_completed_first: bool) -> ProofResult:
    if mine > theirs:
        return ProofResult(True, None, Reason("beats", (("mine", _DESCRIBE[mine]), ("theirs", _A[theirs]))))
    if mine < theirs:
        return ProofResult(False, None, Reason("beaten", (("theirs", _DESCRIBE[theirs]), ("mine", _DESCRIBE[mine]))))
    if claimant_completed_first:
        return ProofResult(True, None, Reason("tie_first", (("what", _AT[mine]),)))
    return ProofResult(False, None, Reason("tie_second", (("what", _AT[mine]),)))


def prove(
    claimant: Sequence[int],
    opponent: Sequence[int],
    *,
    capacity: int,
    fog: bool,
    unseen_troops: int,
    claimant_completed_first: bool = True,
    opponent_final: bool = False,
    rules: CardRules = BATTLELINE_CARDS,
) -> ProofResult:
    """Decide a claim by the claimant on one flag.

    ``unseen_troops`` is the bitmask of troop cards not visible on the table (the
    claimant's hand included). ``opponent_final`` says the opponent can never add a card
    again (stall rule (b)): then any complete side beats their incomplete one.
    """
    n_mine = len(claimant)
    if n_mine != capacity:
        if n_mine > capacity:
            raise ValueError(f"claimant side holds {n_mine} cards, capacity {capacity}")
        return ProofResult(False, None, Reason("side_incomplete", (("n", n_mine), ("capacity", capacity))))
    t = rules._t
    t_mask = 0
    for c in claimant:
        t_mask |= _BIT[c]
    if t_mask.bit_count() != n_mine:
        raise ValueError("a card appears twice on the claimant's side")
    cache = t.eval_fog if fog else t.eval_plain
    mine = cache.get(t_mask)
    if mine is None:
        mine = evaluate_mask(t_mask, fog, rules)
    n_theirs = len(opponent)
    o_mask = 0
    for c in opponent:
        o_mask |= _BIT[c]
    if o_mask.bit_count() != n_theirs or t_mask & o_mask:
        raise ValueError("a card appears twice on the flag")
    if n_theirs == capacity:
        return _compare_complete(mine, evaluate_mask(o_mask, fog, rules), claimant_completed_first)
    if n_theirs > capacity:
        raise ValueError(f"opponent side holds {n_theirs} cards, capacity {capacity}")
    if opponent_final:
        return ProofResult(True, None, Reason("never_completed", (("mine", _DESCRIBE[mine]),)))
    need = capacity - n_theirs
    avail = unseen_troops & t.troop_mask & ~t_mask & ~o_mask
    if avail.bit_count() < need:
        left = avail.bit_count()
        return ProofResult(True, None, Reason("too_few_unseen" if left != 1 else "one_unseen_left",
                                              (("left", left), ("need", need))))
    found = _search(t, o_mask, capacity, fog, avail, mine)
    if found is None:
        return ProofResult(True, None, _UNBEATABLE[mine])
    score, added = found
    cards = []
    while added:
        low = added & -added
        added ^= low
        cards.append(low.bit_length() - 1)
    return ProofResult(False, tuple(cards), _beaten(" ".join([_CODE[c] for c in cards]), score, mine))


def _beaten(codes: str, score: int, mine: int) -> Reason:
    """Why the claim fails: the opponent's completion ``codes`` scores ``score`` > ``mine``."""
    if rank_of(score) == 0:
        return Reason("higher_sum", (("cards", codes), ("a", sum_of(score)), ("b", sum_of(mine))))
    if rank_of(score) == rank_of(mine):
        return Reason("stronger", (("cards", codes), ("formation", formation_name(score)), ("a", sum_of(score)),
                                   ("b", sum_of(mine))))
    return Reason("beating", (("cards", codes), ("theirs", _A[score]), ("mine", _DESCRIBE[mine])))
