"""The base of the interfaces that compiled classes implement (``State``, ``View``,
``Encoding``, ``Bot``): abstract methods as :class:`abc.ABC` has them, without its metaclass.

Why not ``abc.ABC``: mypyc makes a compiled class without calling its metaclass, so a
compiled subclass of an ABC gets no ``_abc_impl`` of its own and ``isinstance`` against it
reads its base's caches. In the compiled build a War Machine state once checked against
``State`` was then an instance of ``BattleLineState``, and a negative answer cached for
``BattleLineState`` made ``isinstance(war_machine_state, State)`` false. Here ``isinstance``
is Python's plain check of the class's bases, exact in both builds (and cheaper than
ABCMeta's, which runs Python code at every check).

What is kept of ABC: a class that leaves an abstract method or property unimplemented
cannot be instantiated, and says which:

>>> from abc import abstractmethod
>>> class Shape(Interface):
...     @abstractmethod
...     def area(self) -> float: ...
>>> class Square(Shape):
...     pass
>>> Square()  # doctest: +ELLIPSIS
Traceback (most recent call last):
TypeError: Can't instantiate abstract class Square ...area...
>>> type(Square) is type  # no metaclass
True

(Compiled classes implement every abstract method; mypy checks that a class with
abstract methods is never instantiated in either build.)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

_Rebuilt = TypeVar("_Rebuilt")


class Interface:
    """Subclass to declare an interface; mark its methods ``@abc.abstractmethod``."""

    __slots__ = ()  # so that a slotted subclass has no __dict__

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        mark_abstract(cls)


def mark_abstract(cls: type) -> None:
    """Make ``cls`` refuse instantiation while it has abstract methods or properties left,
    as ``ABCMeta`` does: Python's ``object.__new__`` refuses a class whose
    ``__abstractmethods__`` is not empty."""
    missing = frozenset(name for name in dir(cls) if getattr(getattr(cls, name, None), "__isabstractmethod__", False))
    if missing:  # a compiled class has none; its type is not written to
        cls.__abstractmethods__ = missing  # type: ignore[attr-defined]


__all__ = ["Interface", "mark_abstract"]


def rebuilt(cls: type[_Rebuilt], args: tuple[Any, ...], fields: Mapping[str, Any]) -> _Rebuilt:
    """An object pickled (``__reduce__``) as its class, its ``__init__``'s arguments and its
    other fields: a compiled class is made only through its ``__init__``, so pickle's default
    (an empty object, then its attributes) does not work for it."""
    obj = cls(*args)
    for name, value in fields.items():
        setattr(obj, name, value)
    return obj
