"""Pairing in the lobby, without I/O: what a seek asks for (:class:`Terms`), a seek as every
process keeps it (:class:`Seek`), who may take which (:func:`refusal`, :func:`compatible`),
which seek "play anyone" takes first (:func:`pick`) and who sits where (:func:`seats_for`).
The lobby itself (storage, notices, pages) is :mod:`frontlines.web.lobby`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from frontlines.core.errors import FrontlinesError
from frontlines.web.play.game import GameError
from frontlines.web.timecontrol import Control


@dataclass(frozen=True)
class Terms:
    """The game a seek asks for. Two seeks can be paired only if their terms are equal:
    ``options`` are resolved (every option named, sorted), so that a default left out and
    the same default written out are the same game."""

    ruleset: str
    options: tuple[tuple[str, str], ...]
    clock: str = ""  # a time control: "300+3" live, "3d" correspondence, "" none
    rated: bool = False


def terms_of(ruleset: str, options: Mapping[str, str], clock: str = "", rated: bool = False) -> Terms:
    """The terms of a seek, its options resolved; :class:`GameError` (``bad_request``) for
    a ruleset, option or clock the server does not know."""
    from frontlines.games import ruleset as find_ruleset

    try:
        resolved = find_ruleset(ruleset).resolve_options(options)
    except (ValueError, FrontlinesError) as exc:  # an unknown ruleset, option or choice
        raise GameError("bad_request", str(exc)) from exc
    return Terms(ruleset, tuple(sorted(resolved.items())), clock_text(clock), rated)


def clock_text(clock: str) -> str:
    """A seek's clock as the games store it ("300+3", "3d", "" for none: the written form of
    :class:`~frontlines.web.timecontrol.Control`); GameError if it is not one."""
    try:
        control = Control.parse(clock)
    except ValueError as exc:
        raise GameError("bad_request", str(exc)) from exc
    return "" if control is None else str(control)


@dataclass(frozen=True)
class Seek:
    """An open seek as each process keeps it. ``seat``: the seat its creator sits in (None:
    either, drawn when it is taken); ``account``: its creator's account (None: a player
    without one); ``rating``: that account's rating in the ruleset, if rated games made one;
    ``token_hash``: the digest of the seat token the creator's page holds."""

    id: str
    terms: Terms
    seat: int | None
    name: str
    account: int | None
    token_hash: str
    created: float
    rating: float | None = None

    def public(self) -> dict[str, Any]:
        """What everyone is told of it: what its creator chose to show, and nothing else.
        ``options`` lists only those that differ from the ruleset's defaults."""
        from frontlines.games import ruleset as find_ruleset

        defaults = {o.name: o.default for o in find_ruleset(self.terms.ruleset).options}
        return {"id": self.id, "ruleset": self.terms.ruleset,
                "options": {k: v for k, v in self.terms.options if defaults.get(k) != v},
                "clock": self.terms.clock, "rated": self.terms.rated, "seat": self.seat, "name": self.name,
                "rating": None if self.rating is None else round(self.rating)}


@dataclass(frozen=True)
class Seeker:
    """Who looks for a game: the terms they want, the seat they want (None: either), their
    account (None: none), their rating in the ruleset, and the seeks they hold themselves
    (never paired with their own)."""

    terms: Terms
    seat: int | None = None
    account: int | None = None
    rating: float | None = None
    own: frozenset[str] = frozenset()


def refusal(seek: Seek, account: int | None, own: Iterable[str] = ()) -> str | None:
    """Why a player (``account``, holding the seeks ``own``) cannot take ``seek``, as an
    error code, or None if they can."""
    if seek.id in set(own) or (account is not None and seek.account == account):
        return "own_seek"
    if seek.terms.rated and (account is None or seek.account is None):
        return "rated_needs_account"
    return None


def compatible(seek: Seek, seeker: Seeker) -> bool:
    """Whether ``seeker`` and ``seek`` make a game: the same terms, seats that do not clash,
    and whatever taking it needs (an account on both sides of a rated game, not one's own)."""
    if seek.terms != seeker.terms:
        return False
    if seek.seat is not None and seeker.seat is not None and seek.seat == seeker.seat:
        return False
    return refusal(seek, seeker.account, seeker.own) is None


def pick(seeks: Iterable[Seek], seeker: Seeker) -> list[Seek]:
    """The seeks ``seeker`` may take, best first: in a rated game the nearest rating first
    (a player without a rating counts as 1500), otherwise, and between equals, the one that
    has waited longest."""
    fits = [seek for seek in seeks if compatible(seek, seeker)]
    if seeker.terms.rated:
        mine = 1500.0 if seeker.rating is None else seeker.rating
        return sorted(fits, key=lambda s: (abs((1500.0 if s.rating is None else s.rating) - mine), s.created))
    return sorted(fits, key=lambda s: s.created)


def seats_for(seek_seat: int | None, taker_seat: int | None, coin: int) -> tuple[int, int]:
    """The creator's seat and the taker's: the creator's choice, else the taker's, else
    drawn (``coin``, 0 or 1, is the creator's seat then)."""
    if seek_seat is not None:
        return seek_seat, 1 - seek_seat
    if taker_seat is not None:
        return 1 - taker_seat, taker_seat
    return coin, 1 - coin
