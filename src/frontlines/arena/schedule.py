"""Which games a match plays: pairings, paired deals and their seeds.

Every deal is played twice with the seats swapped (same seed for both games) so that the
luck of the deal cancels within the pair. Deal ``k`` has the same seed in every pairing
of a match, so different opponents face the same deals too.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class BotEntry:
    """A participant: its display name and how to build it."""

    name: str
    spec: str


@dataclass(frozen=True)
class GameTask:
    """One game to play; picklable so that worker processes can receive it."""

    index: int  # game number in the match, from 0
    pair: int  # deal number within its pairing; both games of a deal share it
    ruleset: str
    seed: int  # deal seed
    players: tuple[str, str]  # bot names in seat 0 and seat 1
    options: tuple[tuple[str, str], ...] = field(default_factory=tuple)
    time: float | None = None  # per-game clock (seconds) of each player
    increment: float = 0.0


def deal_seed(match_seed: int, deal: int) -> int:
    """A well-mixed 31-bit seed for deal number ``deal`` of a match."""
    digest = hashlib.sha256(f"frontlines-arena:{match_seed}:{deal}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def pairings(names: Sequence[str], gauntlet: str | None = None) -> list[tuple[str, str]]:
    """Round robin (every pair once), or ``gauntlet`` against every other bot."""
    if gauntlet is not None:
        if gauntlet not in names:
            raise ValueError(f"--gauntlet {gauntlet!r} is not one of the bots: {', '.join(names)}")
        return [(gauntlet, other) for other in names if other != gauntlet]
    return [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]


def deal_pair(
    a: str,
    b: str,
    deal: int,
    *,
    first_index: int,
    ruleset: str,
    match_seed: int,
    options: Sequence[tuple[str, str]] = (),
    time: float | None = None,
    increment: float = 0.0,
) -> tuple[GameTask, GameTask]:
    """The two games of one deal: ``a`` in seat 0 then in seat 1."""
    seed = deal_seed(match_seed, deal)
    opts = tuple(options)
    return (
        GameTask(first_index, deal, ruleset, seed, (a, b), opts, time, increment),
        GameTask(first_index + 1, deal, ruleset, seed, (b, a), opts, time, increment),
    )


def schedule(
    names: Sequence[str],
    games: int,
    *,
    ruleset: str,
    match_seed: int,
    gauntlet: str | None = None,
    options: Sequence[tuple[str, str]] = (),
    time: float | None = None,
    increment: float = 0.0,
) -> Iterator[GameTask]:
    """``games`` games per pairing (rounded up to whole pairs), interleaved across pairings.

    Interleaving (deal 0 of every pairing, then deal 1 …) makes a stopped or partial run a
    fair sample of every pairing.
    """
    deals = (max(games, 1) + 1) // 2
    index = 0
    pairs = pairings(names, gauntlet)
    for deal in range(deals):
        for a, b in pairs:
            first, second = deal_pair(
                a, b, deal, first_index=index, ruleset=ruleset, match_seed=match_seed,
                options=options, time=time, increment=increment,
            )
            index += 2
            yield first
            yield second


__all__ = ["BotEntry", "GameTask", "deal_pair", "deal_seed", "pairings", "schedule"]
