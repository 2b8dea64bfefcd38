"""The bus: how the parts of the server tell each other what happened, in this process and
across the processes that share one PostgreSQL database.

**Events** are frozen dataclasses, subclasses of :class:`Event` (every kind the server has
is in :mod:`frontlines.web.play.events`, with who publishes it and who listens).
``bus.subscribe(SomeEvent, handler)`` and ``bus.publish(event)``:

* a handler is a plain function of the event, called at once by ``publish``, on the event
  loop, before ``publish`` returns. It must not block and cannot await: one that has to
  wait (for the database, for a game's lock) starts a task. It may run while the
  publisher holds a game's lock, which is why it must never wait for that lock itself;
* the handlers of the event's own class run first, then those of its bases (subscribe to
  :class:`Notice` to hear every notice); within a class, in the order they subscribed;
* a handler that raises is logged; the other handlers still run, and the publisher never
  sees the error (a broken listener must not undo a move that is stored).

**Notices** (:class:`Notice`) are the events that cross processes. Their transport is
PostgreSQL's ``NOTIFY`` on :data:`~frontlines.web.store.CHANNEL`: whoever writes the change
runs ``pg_notify`` *inside the transaction of that write* (``Store._announce``,
``cluster.Leases.release``), so a notice is delivered when the write commits, in commit
order, and never for a write that was rolled back. The payload is four words,
``<kind> <key> <number> <origin>``: a one-letter kind, what it is about (a game id), a
number whose meaning is the kind's (a ply, a presence mask) and the process that wrote it.
Each process listens on one connection (:class:`~frontlines.web.cluster.Listener`), which
calls :meth:`Bus.hear`; the bus turns the words into the notice's class, by its kind, and
publishes it here like any event, unless this process wrote it (its own change is already
in its memory). A kind no class claims is ignored: during a rolling deploy a newer release
may send kinds an older one does not know. Notices are small on purpose: a receiver reads
what changed from the tables. SQLite is one process; no notice is ever sent there.

A new concern with state of its own (the lobby's seeks, say) declares its notices as new
:class:`Notice` classes with a kind letter of their own, writes them with ``pg_notify`` in
its own writes' transactions, and subscribes to them; nothing else changes. Notices sent
while a process's listening connection was down are lost: the process publishes
:class:`~frontlines.web.play.events.NoticesLost` once it listens again, and every concern
that keeps copies of shared state reads them again then.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

log = logging.getLogger("frontlines.web")


@dataclass(frozen=True)
class Event:
    """Something that happened; subclasses say what, in their name and fields."""


@dataclass(frozen=True)
class Notice(Event):
    """An event written by a server process (possibly another one) and heard through the
    database: ``kind`` (one letter, one class per letter), ``key`` (what it is about),
    ``number`` (the kind says what it means), ``origin`` (the process that wrote it)."""

    kind: ClassVar[str] = ""
    key: str
    number: int
    origin: str

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.kind:
            if cls.kind in NOTICES or " " in cls.kind:
                raise TypeError(f"notice kind {cls.kind!r} of {cls.__name__} is taken or has a space")
            NOTICES[cls.kind] = cls

    def payload(self) -> str:
        """The text ``pg_notify`` sends for it."""
        return f"{self.kind} {self.key} {self.number} {self.origin}"


# Notice classes by kind letter (filled as they are defined).
NOTICES: dict[str, type[Notice]] = {}

E = TypeVar("E", bound=Event)


class Bus:
    """Publish and subscribe for one server process; ``origin`` names the process among the
    others (its own notices are not heard again)."""

    def __init__(self, origin: str = "") -> None:
        self.origin = origin
        self._handlers: dict[type, list[Callable[[Any], None]]] = {}

    def subscribe(self, kind: type[E], handler: Callable[[E], None]) -> Callable[[], None]:
        """Call ``handler`` for every event of class ``kind`` (or of a subclass); answers what
        unsubscribes it."""
        handlers = self._handlers.setdefault(kind, [])
        handlers.append(handler)
        return lambda: handlers.remove(handler) if handler in handlers else None

    def publish(self, event: Event) -> None:
        for kind in type(event).__mro__:
            for handler in list(self._handlers.get(kind, ())):
                try:
                    handler(event)
                except Exception:
                    log.exception("%s: a handler failed", type(event).__name__)

    def hear(self, kind: str, key: str, number: int, origin: str) -> None:
        """A notice came in from the database (the :class:`~frontlines.web.cluster.Listener`'s
        ``on_notice``): publish it here as its class, unless this process wrote it."""
        if origin == self.origin:
            return
        notice = NOTICES.get(kind)
        if notice is None:
            log.debug("a notice of unknown kind %r about %s ignored", kind, key)
            return
        self.publish(notice(key, number, origin))
