"""What ``pimc``'s ``exact_deck`` (each deal solved exactly once the decks are small) costs.

    .venv/bin/python benchmarks/probe_exact_deck.py [--ruleset R] [--deck N] [--nodes M] [--positions P]

Positions: in seeded heuristic self-play games, player 0's first choice at each deck size
from 1 to ``--deck`` cards left to draw, ``--positions`` in all. Each is decided by ``pimc``
as it is and with ``exact_deck=N,exact_nodes=M``; printed: the CPU seconds of each decision,
how many of its lines were solved within the node budget and how many ran over it, the
moves and the best candidate's value.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from frontlines.bots import endgame
from frontlines.bots.heuristic import HeuristicBot
from frontlines.bots.pimc import PimcBot
from frontlines.core.game import View
from frontlines.games import new_state


def positions(ruleset: str, deck: int, count: int) -> list[tuple[int, View]]:
    """(cards left to draw, player 0's view) at its first choice with each deck size up to ``deck``."""
    out: list[tuple[int, View]] = []
    seed = 0
    while len(out) < count:
        state: Any = new_state(ruleset, seed=seed)
        bot = HeuristicBot(seed=seed)
        seen: set[int] = set()
        while not state.is_terminal():
            player = state.current_player()
            view = state.clone().view(player)
            left = len(state.tdeck) + len(state.xdeck)
            if player == 0 and 0 < left <= deck and left not in seen and len(view.legal_actions()) > 1:
                seen.add(left)
                out.append((left, view))
            state.apply(bot.choose(view))
        seed += 1
    return out[:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ruleset", default="battleline-basic")
    parser.add_argument("--deck", type=int, default=6)
    parser.add_argument("--nodes", type=int, default=5000)
    parser.add_argument("--positions", type=int, default=10)
    args = parser.parse_args()
    solved = {"yes": 0, "over": 0}
    real = endgame.exact_value

    def counted(*a: Any, **k: Any) -> float | None:
        value = real(*a, **k)
        solved["yes" if value is not None else "over"] += 1
        return value

    endgame.exact_value = counted  # type: ignore[assignment]  # pimc imports it at each use
    for left, view in positions(args.ruleset, args.deck, args.positions):
        for options in ({}, {"exact_deck": args.deck, "exact_nodes": args.nodes}):
            solved.update(yes=0, over=0)
            bot = PimcBot(seed=1, **options)
            bot.new_game(args.ruleset, 0, 1)
            began = time.process_time()
            action = bot.choose(view)
            spent = time.process_time() - began
            label = "exact" if options else "plain"
            print(f"deck {left:2d} {label:5s} {spent:6.2f} s  solved {solved['yes']:4d} over {solved['over']:4d}  "
                  f"move {view.action_to_text(action):8s} value {bot.info().get('win_probability')}", flush=True)


if __name__ == "__main__":
    main()
