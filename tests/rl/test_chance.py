"""The engine's chance hooks (what OpenSpiel's chance nodes use): the next draw's possible
cards and putting one of them on top; the deal from a given shuffle."""

from __future__ import annotations

import random

import pytest

from frontlines.games.battleline.cards import parse_card
from frontlines.games.battleline.notation import build_state
from frontlines.games.battleline.rules import make_config
from frontlines.games.battleline.state import BattleLineState
from frontlines.games.warmachine import MODULE as WARMACHINE


def _act(s: BattleLineState, *texts: str) -> None:
    for t in texts:
        s.apply(s.parse_action(t))


def test_the_next_draw_may_be_any_deck_card_and_a_stacked_one_is_drawn() -> None:
    s = build_state("h0=R1.R2 h1=B1 td=G1.G2.G3 xd=AL.DA rest=d1")
    assert s.next_draws(False) == sorted(parse_card(c) for c in ("G1", "G2", "G3"))
    assert s.next_draws(True) == sorted(parse_card(c) for c in ("AL", "DA"))
    s.stack(parse_card("G1"))
    assert sorted(s.tdeck) == sorted(parse_card(c) for c in ("G1", "G2", "G3"))
    _act(s, "R1@1", "draw:troop")
    assert s.hands[0] >> parse_card("G1") & 1


def test_a_card_a_scout_put_back_is_the_only_possible_next_draw() -> None:
    s = build_state("h0=SC.R1.R2.R3.R4.R5.R6 h1=B1 td=G1.G2.G3.G4 xd=AL.DA rest=d1")
    _act(s, "SC", "scout:troop", "scout:troop", "scout:troop", "return:R1", "return:R2")
    assert s.next_draws(False) == [parse_card("R2")]
    with pytest.raises(ValueError, match="G4"):
        s.stack(parse_card("G4"))
    before = s.to_notation()
    with pytest.raises(ValueError):
        s.stack(parse_card("R1"))  # known to lie under R2: it cannot come next
    assert s.to_notation() == before


def test_cards_put_under_the_deck_stay_there() -> None:
    s = build_state("ruleset=schotten-totten-tactics h0=SC.R1.R2.R3.R4.R5.R6 h1=B1 td=G1.G2.G3.G4 xd=AL rest=d1")
    _act(s, "SC", "scout:troop", "scout:troop", "scout:troop", "return:R1", "return:R2")
    (unseen,) = s.next_draws(False)  # G1..G4 less the three drawn
    assert unseen not in (parse_card("R1"), parse_card("R2"))
    s.stack(unseen)
    assert s.tdeck[:2] == [parse_card("R2"), parse_card("R1")]


def test_arranged_deals_like_the_seeded_deal() -> None:
    dealt = BattleLineState.deal("battleline", 7, None)
    cfg = make_config("battleline", None)
    # rebuild the same game from the decks that deal left plus the hands dealt back on top
    rng = random.Random(7)
    first = rng.randrange(2)
    troops = [c for c in range(60) if cfg.variant.troop_mask >> c & 1]
    rng.shuffle(troops)
    tactics = list(range(60, 70))
    rng.shuffle(tactics)
    again = BattleLineState.arranged(cfg, first, troops, tactics)
    assert again.to_notation() == dealt.to_notation()


def test_war_machine_draws_may_be_any_pile_card_and_a_stacked_one_is_drawn() -> None:
    s = WARMACHINE.new_game(seed=3)
    piles = [p[:] for p in s.board.piles]
    assert s.next_draws() == sorted(c for p in piles for c in p)
    card = piles[5][0]  # the bottom card of the last pile
    s.stack(0, card)
    assert s.board.piles[0][-1] == card and sorted(s.next_draws()) == sorted(c for p in piles for c in p)
    with pytest.raises(ValueError):
        s.stack(0, 99)


def test_a_war_machine_game_is_dealt_again_only_before_its_first_action() -> None:
    from frontlines.core.errors import IllegalAction
    from frontlines.games.warmachine.cards import ALL_CARDS

    s = WARMACHINE.new_game(seed=3)
    front = [ALL_CARDS[0]]  # the first card, then two that share no country with it or each other
    for c in ALL_CARDS:
        if len(front) < 3 and all(len({c // 6, c % 6, f // 6, f % 6}) == 4 for f in front):
            front.append(c)
    rest = [c for c in ALL_CARDS if c not in front]
    s.redeal(front, [False, True, False], rest)
    assert s.board.front_cards() == front and s.board.leftover == rest[24:]
    assert sorted(s.next_draws()) == sorted(rest[:24])
    s.apply(s.legal_actions()[0])
    with pytest.raises(IllegalAction):
        s.redeal(front, [False, False, False], rest)
