"""What a player cannot see never changes what their view holds (docs/rules.md §2.24, §6.8).

The property, for every game: take a position, change only what player ``p`` cannot see —
the other hand, the order and contents of the decks or piles, face-down burns — and
``view(p)`` must stay the same: its notation, its dictionary, its legal actions and the
pickled view object itself (so no private field keeps a hidden card either). Positions
come from random play over random seeds (hypothesis); the twin position is written in the
published position notation (docs/notation.md, docs/warmachine.md) with the hidden cards
permuted, and parsed back.
"""

from __future__ import annotations

import pickle
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from frontlines.core.game import State
from frontlines.games import all_rulesets, new_state, parse_state

BATTLE_LINE = [r.name for r in all_rulesets() if r.game == "battleline"]
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_position(ruleset: str, seed: int, steps: int) -> State:
    state = new_state(ruleset, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def fields(notation: str) -> tuple[str, list[list[str]]]:
    head, *tokens = notation.split()
    return head, [token.split("=", 1) for token in tokens]


def join(head: str, tokens: list[list[str]]) -> str:
    return " ".join([head, *("=".join(t) for t in tokens)])


def shuffled_in_place(slots: list[tuple[list[str], int]], rng: random.Random) -> bool:
    """Permute the cards at ``slots`` (list, index) among themselves; True if any moved."""
    cards = [where[i] for where, i in slots]
    again = cards[:]
    rng.shuffle(again)
    for (where, i), card in zip(slots, again, strict=True):
        where[i] = card
    return again != cards


def battleline_twin(state: State, viewer: int | None, rng: random.Random) -> str | None:
    """The position with every card ``viewer`` cannot see moved at random among the places
    ``viewer`` cannot see (hidden hands, both decks), each card kind keeping to its own
    places; cards whose place anyone knows (Scout returns, marked ``~``) stay put."""
    head, tokens = fields(state.to_notation())
    troops: list[tuple[list[str], int]] = []
    tactics: list[tuple[list[str], int]] = []
    lists: dict[str, list[str]] = {}
    for key, value in tokens:
        hidden_hand = key in ("h0", "h1") and key != f"h{viewer}"
        if (hidden_hand or key in ("td", "xd")) and value:
            cards = lists[key] = value.split(".")
            for i, card in enumerate(cards):
                if "~" not in card:
                    (troops if card[1:].isdigit() else tactics).append((cards, i))
    moved = shuffled_in_place(troops, rng) | shuffled_in_place(tactics, rng)
    if not moved:
        return None
    return join(head, [[k, ".".join(lists[k]) if k in lists else v] for k, v in tokens])


def warmachine_twin(state: State, viewer: int | None, rng: random.Random) -> str | None:
    """The position with the support piles, the hidden hands (until the game is over), the
    face-down burns of the other player(s) and the unchosen leftover cards permuted among
    themselves (all War Machine cards are of one kind; sizes stay)."""
    head, tokens = fields(state.to_notation())
    values = dict(tokens)
    assert "opts" not in values, "the twin assumes the default options (blind choice, face-down burns)"
    over = values["phase"] == "over"

    def pairs(text: str) -> list[str]:
        return [text[i:i + 2] for i in range(0, len(text), 2)]

    piles = [pairs(p) for p in values["piles"].split("/")]
    hands = [pairs(h) for h in values["hands"].split("/")]
    burned = [pairs(b) for b in values["burned"].split("/")]
    leftover = pairs(values["leftover"])
    slots = [(pile, i) for pile in piles for i in range(len(pile))]
    slots += [(leftover, i) for i in range(len(leftover))]
    for p in (0, 1):
        if p != viewer:
            slots += [(burned[1 + p], i) for i in range(len(burned[1 + p]))]
            if not over:
                slots += [(hands[p], i) for i in range(len(hands[p]))]
    if not shuffled_in_place(slots, rng):
        return None
    values["piles"] = "/".join("".join(p) for p in piles)
    values["hands"] = "/".join("".join(sorted(h)) for h in hands)
    values["burned"] = "/".join("".join(b) for b in burned)
    values["leftover"] = "".join(leftover)
    return join(head, [[k, values[k]] for k, _ in tokens])


def changed(state: State, twin_text: str | None) -> bool:
    """Whether the twin is another position (cards swapped within one hand are not)."""
    return twin_text is not None and parse_state(twin_text).to_notation() != state.to_notation()


def assert_same_view(state: State, twin_text: str | None, viewer: int | None) -> None:
    if twin_text is None or not changed(state, twin_text):
        return
    base = parse_state(state.to_notation())  # parsed too, so both views start from the same history
    twin = parse_state(twin_text)
    a, b = base.view(viewer), twin.view(viewer)
    assert b.to_notation() == a.to_notation()
    assert b.to_dict() == a.to_dict()
    assert b.legal_actions() == a.legal_actions()
    assert pickle.dumps(b) == pickle.dumps(a), "the view object holds something the viewer cannot see"


@FAST
@given(
    ruleset=st.sampled_from(BATTLE_LINE),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 120),
    viewer=st.sampled_from([0, 1, None]),
    shuffle=st.randoms(use_true_random=False),
)
def test_battle_line_views_do_not_depend_on_hidden_cards(
    ruleset: str, seed: int, steps: int, viewer: int | None, shuffle: random.Random
) -> None:
    state = random_position(ruleset, seed, steps)
    assert_same_view(state, battleline_twin(state, viewer, shuffle), viewer)


@FAST
@given(
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 60),
    viewer=st.sampled_from([0, 1, None]),
    shuffle=st.randoms(use_true_random=False),
)
def test_war_machine_views_do_not_depend_on_hidden_cards(
    seed: int, steps: int, viewer: int | None, shuffle: random.Random
) -> None:
    state = random_position("warmachine", seed, steps)
    assert_same_view(state, warmachine_twin(state, viewer, shuffle), viewer)


def test_the_twins_change_what_they_must() -> None:
    # the property above is only as good as the twins: they must move hidden cards often
    moved = 0
    for seed in range(20):
        state = random_position("battleline", seed, seed * 5)
        moved += changed(state, battleline_twin(state, 0, random.Random(seed)))
        state = random_position("warmachine", seed, seed * 3)
        moved += changed(state, warmachine_twin(state, 0, random.Random(seed)))
    assert moved >= 30


@FAST
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 40))
def test_war_machine_seen_choice_is_known_to_the_chooser_alone(seed: int, steps: int) -> None:
    """A seen choice (``leftover_choice_blind = false``): the chooser's view keeps the three
    leftover cards it looked at (``leftover_seen``, which its tracker counts as seen), while the
    shuffler's and a spectator's views never mention a card of the chooser's hand. (The twin
    property above cannot see such a leak: it moves only cards a view does not mention.)"""
    import json
    import re

    from frontlines.games.warmachine.cards import card_code
    from frontlines.games.warmachine.rules import OVER

    state = new_state("warmachine", seed=seed, options={"leftover_choice_blind": "false"})
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    b = state.board  # type: ignore[attr-defined]
    chooser = 1 - b.shuffler
    if b.phase != OVER:
        hand = {card_code(c) for c in b.hands[chooser]}
        for viewer in (b.shuffler, None):
            view = state.view(viewer).to_dict()
            assert view["leftover_seen"] == []
            assert not hand & set(re.findall(r"(?<![A-Za-z])[GIJBUR]{2}(?![A-Za-z])", json.dumps(view)))
    looked = sorted(card_code(c) for c in [*b.leftover, *b.dealt[0], *b.dealt[1]])
    assert len(looked) == 3 and state.view(chooser).to_dict()["leftover_seen"] == looked


def _war_machine_rulesets() -> list[str]:
    return [r.name for r in all_rulesets() if r.game == "warmachine"]


@FAST
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 80), ruleset=st.sampled_from(_war_machine_rulesets()),
       burns=st.sampled_from(["face_down", "face_up"]))
def test_war_machine_view_records_name_no_card_the_viewer_did_not_see(
    seed: int, steps: int, ruleset: str, burns: str
) -> None:
    """A view's record (``view.record()``, which the tensors and a sample's record read) holds
    the other player's face-down burns and seen takes masked, never their cards: the code of
    each of its actions says no more than the viewer saw (docs/rules.md §6.8)."""
    from frontlines.games.warmachine.notation import action_text, public_action_text

    options = {"leftover_choice_blind": "false", "burn_visibility": burns}
    state = new_state(ruleset, seed=seed, options=options)
    rng = random.Random(seed)
    face_up = burns == "face_up"
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
        for viewer in (0, 1, None):
            view = state.view(viewer)
            for a, actor in zip(*view.record(), strict=True):  # type: ignore[attr-defined]
                if actor != viewer:
                    assert action_text(a) == public_action_text(a, face_up), (viewer, action_text(a))
            assert view.log() == [  # the log as before: own actions in full, others' masked
                action_text(a) if actor == viewer else public_action_text(a, face_up)
                for a, actor in zip(*state.record(), strict=True)  # type: ignore[attr-defined]
            ]


def test_war_machine_views_after_two_face_down_burns_are_the_same() -> None:
    """Two lines that differ only in which card a player burned face down leave the other
    player's view, pickled whole, the same (the twin property above starts from notation,
    which has no record of the actions)."""
    from frontlines.games.warmachine.rules import BURN, DRAW_A

    pairs = 0
    for seed in range(60):
        state = new_state("warmachine", seed=seed, options={"burn_visibility": "face_down"})
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            burns = [a for a in legal if BURN <= a < DRAW_A]  # type: ignore[operator]
            if len(burns) >= 2:
                mover = state.current_player()
                assert mover is not None
                one, two = state.clone(), state.clone()
                one.apply(burns[0])
                two.apply(burns[1])
                other = 1 - mover
                assert pickle.dumps(one.view(other)) == pickle.dumps(two.view(other))
                assert pickle.dumps(one.view(None)) == pickle.dumps(two.view(None))
                pairs += 1
                break
            state.apply(rng.choice(legal))
    assert pairs >= 20
