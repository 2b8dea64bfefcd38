"""Self-play check of the Battle Line heuristic's constants: a variant against the shipped one.

    .venv/bin/python benchmarks/tune_battleline_heuristic.py --ruleset battleline --games 800 \\
        _DRAW_SHARE=0.3 _OPP_DRAW_SHARE=0.3

Each NAME=VALUE sets one module constant of ``bots/heuristic_battleline.py`` for the variant
only (the other player keeps the shipped values). Games come in pairs: each deal is played
twice with the seats swapped, so the luck of the deal cancels. ``--opponent-noise`` gives the
shipped heuristic that ``noise`` (a third-party check: does the variant also do better
against a different opponent?). ``--base`` plays the shipped values as the "variant" too,
which measures the reference score against that opponent. Prints the variant's score with a
95 % interval (normal approximation).

Heuristic games are fast (about 20 a second on two cores), so 800 games take under a minute
and separate a 5-point difference from noise.
"""

from __future__ import annotations

import argparse
import math
from multiprocessing import Pool
from typing import Any

import frontlines.bots.heuristic_battleline as hb
from frontlines.bots.base import Clock
from frontlines.bots.heuristic import HeuristicBot
from frontlines.core.game import Action, View
from frontlines.games import new_state

SHIPPED: dict[str, float] = {}


class PatchedHeuristic(HeuristicBot):
    """The heuristic bot with some module constants replaced while it chooses."""

    def __init__(self, seed: int, patch: dict[str, float], noise: float = 0.0) -> None:
        super().__init__(seed=seed, noise=noise)
        self.patch = patch

    def choose(self, view: View, clock: Clock | None = None) -> Action:
        for name, value in self.patch.items():
            setattr(hb, name, value)
        try:
            return super().choose(view, clock)
        finally:
            for name, value in SHIPPED.items():
                setattr(hb, name, value)


def _game(job: tuple[int, str, dict[str, float], float]) -> float:
    """The variant's score in game ``i`` (deal ``i // 2``, seats swapped on odd ``i``)."""
    i, ruleset, patch, noise = job
    deal, swap = divmod(i, 2)
    state = new_state(ruleset, seed=1000 + deal)
    bots = [PatchedHeuristic(i, patch), PatchedHeuristic(i + 7, {}, noise)]
    if swap:
        bots.reverse()
    for seat, bot in enumerate(bots):
        bot.new_game(ruleset, seat, 1000 + deal)
    while not state.is_terminal():
        player = state.current_player()
        assert player is not None
        state.apply(bots[player].choose(state.view(player)))
    outcome = state.outcome()
    assert outcome is not None
    if outcome.winner is None:
        return 0.5
    return float(outcome.winner == (1 if swap else 0))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ruleset", default="battleline")
    parser.add_argument("--games", type=int, default=800, help="an even number: deals times two seats")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--opponent-noise", type=float, default=0.0)
    parser.add_argument("--base", action="store_true", help="the variant plays the shipped values (reference)")
    parser.add_argument("constants", nargs="*", metavar="NAME=VALUE")
    args = parser.parse_args()
    patch: dict[str, float] = {}
    for item in args.constants:
        name, _, value = item.partition("=")
        if not hasattr(hb, name) or not isinstance(getattr(hb, name), float):
            parser.error(f"{name!r} is not a float constant of heuristic_battleline")
        patch[name] = float(value)
    SHIPPED.update({name: getattr(hb, name) for name in patch})
    jobs: list[Any] = [(i, args.ruleset, {} if args.base else patch, args.opponent_noise) for i in range(args.games)]
    with Pool(args.workers, initializer=SHIPPED.update, initargs=(dict(SHIPPED),)) as pool:
        scores = pool.map(_game, jobs, chunksize=8)
    mean = sum(scores) / len(scores)
    half = 1.96 * math.sqrt(mean * (1 - mean) / len(scores))
    what = "shipped values" if args.base else " ".join(args.constants) or "shipped values"
    print(f"{args.ruleset}: {what} vs heuristic (noise {args.opponent_noise:g}): "
          f"{sum(scores):g}/{len(scores)} = {100 * mean:.1f} % ± {100 * half:.1f}")


if __name__ == "__main__":
    main()
