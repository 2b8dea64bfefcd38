"""Bots: random, heuristic, ISMCTS, levels, and external engines behind a protocol.

Build one from a spec with :func:`make_bot` (``random``, ``heuristic``, ``ismcts:time=0.5``,
``easy`` … ``expert``, ``cmd:<command line>``); :func:`list_bots` lists them. See
docs/bots.md.
"""

from frontlines.bots.base import Bot, BotError, Clock
from frontlines.bots.heuristic import GamePolicy, HeuristicBot, policy_for
from frontlines.bots.ismcts import ISMCTSBot, SearchParams
from frontlines.bots.levels import LEVELS
from frontlines.bots.random_bot import RandomBot
from frontlines.bots.registry import list_bots, make_bot

__all__ = [
    "LEVELS",
    "Bot",
    "BotError",
    "Clock",
    "GamePolicy",
    "HeuristicBot",
    "ISMCTSBot",
    "RandomBot",
    "SearchParams",
    "list_bots",
    "make_bot",
    "policy_for",
]
