"""Bots: random, heuristic, ISMCTS, levels, and external engines behind a protocol.

Build one from a spec with :func:`make_bot` (``random``, ``heuristic``, ``ismcts:time=0.5``,
``easy`` … ``expert``, ``cmd:<command line>``); :func:`list_bots` lists them.
"""

from frontlines.bots.base import Bot, BotError, Clock
from frontlines.bots.levels import LEVELS
from frontlines.bots.registry import list_bots, make_bot

__all__ = ["LEVELS", "Bot", "BotError", "Clock", "list_bots", "make_bot"]
