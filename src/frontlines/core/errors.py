"""Errors shared by every game module, bot host and user interface."""

from __future__ import annotations


class FrontlinesError(Exception):
    """Base class of every error this package raises on purpose."""


class IllegalAction(FrontlinesError):
    """An action that is not legal in the current state; the state is unchanged."""


class NotationError(FrontlinesError, ValueError):
    """Text (action, position, record, card code) that cannot be parsed."""


class UnknownRuleset(FrontlinesError, KeyError):
    """A ruleset name no game module registers."""

    def __str__(self) -> str:  # KeyError quotes its argument; keep the message readable
        return str(self.args[0]) if self.args else "unknown ruleset"
