"""How well the Battle Line evaluation predicts who wins: Brier scores over self-play positions.

    .venv/bin/python benchmarks/calibrate_battleline_eval.py --ruleset battleline --games 200

Plays ``--games`` games of the heuristic against itself, keeps every third position where a
player is about to play a card, and scores the evaluation of each from the mover's side
against the game's result: the Brier score (mean squared error of the predicted win
chance; 0.25 is a coin toss, lower is better). It prints

* the move ranking's sampled futures (the heuristic's shares), raw;
* the search's cut-off evaluation as shipped (``BattleLinePolicy.evaluate``: its own shares
  and the logit shrunk by the share of table slots filled, ``_EVAL_SCALE``);
* a sweep of the scale, to check that the shipped one is near the best;
* with ``--late``, for positions where 60 % or more of the troop deck is drawn (where
  ISMCTS's ``late_*`` settings apply), the Brier score by the number of sampled futures per
  evaluation and the scale: more futures make the evaluation less noisy, and it then bears
  a sharper scale;
* with ``--hand``, the cut-off as the search meets it: averaged over 8 deals sampled from
  the mover's view, with the opponent's hand unseen (as shipped) and read from each deal
  (ISMCTS's ``eval_hand``), early and late.

The positions come from the heuristic's own games, so this measures calibration where the
bots play, not on arbitrary positions.
"""

from __future__ import annotations

import argparse
import random
from multiprocessing import Pool
from typing import cast

import frontlines.bots.heuristic_battleline as hb
from frontlines.bots.heuristic import HeuristicBot
from frontlines.bots.ismcts import SearchParams
from frontlines.games import new_state
from frontlines.games.battleline.state import PLAY, BattleLineState

Sample = tuple[BattleLineState, int, float]  # position, the mover, the mover's result


def _positions(job: tuple[str, int]) -> list[Sample]:
    ruleset, game = job
    state = cast(BattleLineState, new_state(ruleset, seed=5000 + game))
    bots = [HeuristicBot(seed=game), HeuristicBot(seed=game + 99)]
    kept: list[tuple[BattleLineState, int]] = []
    while not state.is_terminal():
        player = state.current_player()
        assert player is not None
        if state.phase == PLAY and len(state.hist) % 3 == 0:
            kept.append((state.clone(), player))
        state.apply(bots[player].choose(state.view(player)))
    outcome = state.outcome()
    assert outcome is not None
    return [(s, p, 0.5 if outcome.winner is None else float(outcome.winner == p)) for s, p in kept]


def _raw_and_shrink(job: tuple[list[Sample], bool, int]) -> list[tuple[float, float, float]]:
    """(raw value, table share filled, result) per position; ``search``: the search's
    shares; ``futures``: sampled futures per evaluation (0: the search's own)."""
    samples, search, futures = job
    shares = hb.eval_shares() if search else None
    out = []
    for state, player, result in samples:
        rng = random.Random(len(state.hist))
        value, _ = hb.Position(state, player, rng, futures or hb.POLICY.eval_samples, shares).value(with_weights=False)
        out.append((value, hb.filled_share(state), result))
    return out


_DEALS = 8  # sampled deals per position behind --hand


def _over_deals(job: tuple[list[Sample], bool]) -> list[tuple[float, float, float]]:
    """(value averaged over ``_DEALS`` deals sampled from the mover's view, table share
    filled, result) per position; ``hand``: the evaluation reads each deal's opponent hand."""
    samples, hand = job
    shares = hb.eval_shares()
    out = []
    for state, player, result in samples:
        rng = random.Random(len(state.hist))
        view = state.view(player)
        total = 0.0
        for k in range(_DEALS):
            deal = view.sample(rng)
            position = hb.Position(deal, player, rng, hb.POLICY.eval_samples, shares, seed=len(state.hist) + k, opponent_hand=hand)
            total += position.value(with_weights=False)[0]
        out.append((total / _DEALS, hb.filled_share(state), result))
    return out


def _late(sample: Sample) -> bool:
    """Whether ISMCTS's late settings would hold here (its ``progress`` at ``late_from``)."""
    state, player, _ = sample
    return hb.POLICY.progress(state.view(player)) >= SearchParams().late_from


def _brier(rows: list[tuple[float, float, float]], scale: float | None) -> float:
    total = 0.0
    for value, filled, result in rows:
        if scale is not None:
            value = hb.shrink(value, filled, scale)
        total += (value - result) ** 2
    return total / len(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ruleset", default="battleline")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--late", action="store_true", help="also sweep futures and scale late in the game")
    parser.add_argument("--hand", action="store_true", help="also the evaluation over sampled deals, reading the opponent's hand or not")
    args = parser.parse_args()
    late: dict[int, list[tuple[float, float, float]]] = {}
    dealt: dict[bool, tuple[list[bool], list[tuple[float, float, float]]]] = {}
    with Pool(args.workers) as pool:
        samples = [s for game in pool.map(_positions, [(args.ruleset, g) for g in range(args.games)]) for s in game]
        chunks = [samples[i :: args.workers] for i in range(args.workers)]
        ranking = [r for part in pool.map(_raw_and_shrink, [(c, False, 0) for c in chunks]) for r in part]
        search = [r for part in pool.map(_raw_and_shrink, [(c, True, 0) for c in chunks]) for r in part]
        if args.late:
            # the search's rows already hold the shipped number of futures; only more are computed
            ordered = [s for c in chunks for s in c]  # the order of the rows in ``search``
            late[hb.POLICY.eval_samples] = [r for s, r in zip(ordered, search, strict=True) if _late(s)]
            late_chunks = [[s for s in c if _late(s)] for c in chunks]
            for futures in (20, 40):
                late[futures] = [r for part in pool.map(_raw_and_shrink, [(c, True, futures) for c in late_chunks]) for r in part]
        if args.hand:
            is_late = [_late(s) for c in chunks for s in c]
            for hand in (False, True):
                dealt[hand] = (is_late, [r for part in pool.map(_over_deals, [(c, hand) for c in chunks]) for r in part])
    print(f"{args.ruleset}: {len(samples)} positions from {args.games} heuristic self-play games")
    print(f"  move ranking's shares, raw value        Brier {_brier(ranking, None):.4f}")
    print(f"  search's shares, raw value              Brier {_brier(search, None):.4f}")
    print(f"  search's cut-off evaluation as shipped  Brier {_brier(search, hb._EVAL_SCALE):.4f}"
          f"  (scale {hb._EVAL_SCALE:g})")
    sweep = "  ".join(f"{s:g}: {_brier(search, s):.4f}" for s in (0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0))
    print(f"  scale sweep  {sweep}")
    for futures, rows in late.items():
        sweep = "  ".join(f"{s:g}: {_brier(rows, s):.4f}" for s in (1.0, 1.25, 1.5, 2.0))
        print(f"  late ({len(rows)} positions, 60 %+ of the troop deck drawn), {futures} futures  {sweep}")
    for hand, (is_late, rows) in dealt.items():
        for part in (False, True):
            chosen = [r for r, flag in zip(rows, is_late, strict=True) if flag == part]
            sweep = "  ".join(f"{s:g}: {_brier(chosen, s):.4f}" for s in (1.0, 1.25, 1.5))
            print(f"  over {_DEALS} sampled deals, opponent hand {'read' if hand else 'unseen'}, "
                  f"{'late' if part else 'early'} ({len(chosen)} positions)  {sweep}")


if __name__ == "__main__":
    main()
