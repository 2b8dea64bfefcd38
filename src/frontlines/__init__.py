"""Frontlines: the Battle Line family and War Machine — rules engines, bots, arena and play."""

__version__ = "0.1.0"
