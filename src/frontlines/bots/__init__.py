"""Bots: random, heuristic, ISMCTS, levels, and external engines behind a protocol."""
