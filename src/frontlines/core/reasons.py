"""Why an action is refused, as data: a reason code and its parameters.

A game says why an action is not legal with a :class:`Reason` (``tactics_limit`` with the
two counts, ``battlefield_forbids`` with the card, the flag and the battlefield), never with
words: the user interfaces give the words, each in its own language, from a table of
templates keyed by code. Each game module lists its codes with their English templates
(``GameModule.reason_words``); the terminal shows those, the web pages hand them to the
translation catalogs as message ids. Parameters are plain values (numbers, card codes,
country codes, names) or another :class:`Reason` (a claim refused for its proof's reason).

>>> why = Reason.of("tactics_limit", mine=2, theirs=1)
>>> why.to_dict()
{'code': 'tactics_limit', 'params': {'mine': 2, 'theirs': 1}}
>>> english(why, {"tactics_limit": "tactics limit: you have played {mine}, your opponent {theirs}"})
'tactics limit: you have played 2, your opponent 1'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Union

Param = Union[int, str, "Reason"]


@dataclass(frozen=True, slots=True)
class Reason:
    """A refusal: ``code`` names the rule, ``params`` (name, value) pairs fill its words."""

    code: str
    params: tuple[tuple[str, Param], ...] = ()

    @classmethod
    def of(cls, code: str, **params: Param) -> Reason:
        return cls(code, tuple(params.items()))

    def get(self, name: str) -> Param | None:
        """The parameter ``name``, ``None`` when the reason has none of that name."""
        return next((value for key, value in self.params if key == name), None)

    def to_dict(self, words: Mapping[str, str] | None = None) -> dict[str, Any]:
        """JSON-ready: ``{"code": ..., "params": {...}}`` (nested reasons as dicts too), with
        ``"words"``, the English template, when ``words`` is given (pages translate it)."""
        out: dict[str, Any] = {
            "code": self.code,
            "params": {k: v.to_dict(words) if isinstance(v, Reason) else v for k, v in self.params},
        }
        if words is not None:
            out["words"] = words.get(self.code, self.code)
        return out


def english(reason: Reason, words: Mapping[str, str], show: Callable[[str, int | str], str] | None = None) -> str:
    """``reason`` in the English of ``words`` (code -> template with ``{name}`` fields); a
    nested reason is put in words the same way, a code without words shows as itself.
    ``show(name, value)``, when given, writes each plain parameter (a card's name for its code)."""
    template = words.get(reason.code, reason.code)
    values = {
        k: english(v, words, show) if isinstance(v, Reason) else show(k, v) if show is not None else v
        for k, v in reason.params
    }
    try:
        return template.format(**values)
    except (KeyError, IndexError):  # a template asking for a field the reason lacks
        return template


__all__ = ["Reason", "english"]
