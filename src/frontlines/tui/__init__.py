"""The full-screen terminal game (``frontlines play``), built on Textual.

Only this package imports Textual; the games, bots and core never import it. The pure
parts (``steps``, ``render``, ``session``, ``words``, ``cards``) can be used and tested
without a terminal.
"""
