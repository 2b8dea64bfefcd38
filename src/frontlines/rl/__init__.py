"""Every ruleset as an environment of the learning libraries researchers use (the ``rl`` extra).

* :mod:`frontlines.rl.pettingzoo`: ``env(ruleset=..., **options)``, a PettingZoo AEC env;
* :mod:`frontlines.rl.gymnasium`: importing it registers ``frontlines/BattleLine-v0`` and
  ``frontlines/WarMachine-v0``, a single agent against one of our bots;
* :mod:`frontlines.rl.openspiel`: importing it registers ``frontlines_<ruleset>`` games.

They all build on :mod:`frontlines.core.encoding` (action ids, masks, returns, tensors;
docs/research.md). Importing this package imports none of the optional libraries.
"""
