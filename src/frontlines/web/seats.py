"""Seat tokens and invite tickets: secrets that only the browser holding a seat knows.

A seat token is 24 random bytes from :mod:`secrets` (32 URL-safe characters). The server
keeps only its SHA-256 digest, so reading the database (a backup, a leaked dump, a log of
SQL parameters) hands out no seat. A plain hash is enough here: the token is random, not
chosen by a person, so there is nothing to guess from its digest.

An invite is a one-time ticket for the seat a friend will take. The first browser to
present it is given a fresh seat token of its own, and the ticket is spent; the creator
of the game, who held the ticket, never learns the friend's seat token.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from enum import Enum

# token_urlsafe(24) gives 32 characters; anything else is not a token we handed out.
TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{32}")


def new_token() -> str:
    return secrets.token_urlsafe(24)


def digest(token: str) -> str:
    """What the database keeps of a token (64 hex digits)."""
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def well_formed(token: str | None) -> bool:
    return token is not None and TOKEN_RE.fullmatch(token) is not None


def matches(token: str | None, stored_digest: str) -> bool:
    """Whether ``token`` is the one whose digest is stored ("" matches nothing)."""
    if not stored_digest or token is None or not well_formed(token):
        return False
    return secrets.compare_digest(digest(token), stored_digest)


class Role(Enum):
    """What a seat token lets its holder do; no role (``None``) is a spectator's.

    The value is what messages carry as ``role``: ``0``, ``1`` or ``"both"`` (``null``
    for a spectator).

    >>> Role.BOTH.seat_now(1), Role.SEAT_0.seat_now(1), Role(1).seat
    (1, 0, 1)
    """

    SEAT_0 = 0
    SEAT_1 = 1
    BOTH = "both"  # the one device of a pass-and-play game: it plays whoever is to move

    @property
    def seat(self) -> int | None:
        """The seat this role always plays (``None`` for both)."""
        return self.value if isinstance(self.value, int) else None

    def seat_now(self, mover: int | None) -> int | None:
        """The seat this role speaks for while ``mover`` is to move."""
        return mover if self is Role.BOTH else self.seat


def seat_of(token: str | None, seat_digests: tuple[str, str], *, hotseat: bool) -> Role | None:
    """The role a token holds, ``None`` for a spectator."""
    if hotseat:
        return Role.BOTH if matches(token, seat_digests[0]) else None
    for seat, d in enumerate(seat_digests):
        if matches(token, d):
            return Role(seat)
    return None
