"""Games in play on one server process, one module per concern, talking through a bus.

* ``game``: one game in memory (:class:`~frontlines.web.play.game.LiveGame`) and the
  messages made from it;
* ``games``: the cache of games in memory, read from the store when asked for;
* ``sync``: keeping those copies in step with what other processes store (notices in);
* ``table``: every change to a game (create, move, resign, forfeit, name), each one
  ply-guarded write with the write hooks of other concerns in its transaction;
* ``connections``: admission (seat tokens, caps), the read loop, joining and leaving;
* ``presence``: who is online and how many watch, across processes;
* ``botturns``: bot moves and, on PostgreSQL, their leases and the sweep;
* ``bus`` and ``events``: publish/subscribe in the process, with PostgreSQL's NOTIFY as
  the transport between processes; every event is listed in ``events``;
* ``process``: what the parts share (store, database threads, bus, caps, stopping flag);
* ``manager``: builds the parts, starts them, drains and stops them; what the routes see.

docs/web.md, "Server structure", has the full map and where clocks, seeks, rematch,
accounts and ratings will go.
"""
