"""Playing arena and selfplay games on a cluster (the optional ``cluster`` extra: Ray).

Nothing here is imported unless ``--backend ray`` is asked for; the arena itself
(:mod:`frontlines.arena`) stays standard-library only and knows backends only through
:class:`frontlines.arena.backends.Backend`.
"""
