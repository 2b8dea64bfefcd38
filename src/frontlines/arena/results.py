"""Match results: per-pair tallies, ratings, the screen table and the ``--json`` file.

The JSON file is a contract other programs read::

    {"players": [{"name", "rating", "ci95"}], "pairs": [{"a", "b", "games", "a_wins", "b_wins", "draws", "errors", "repairs"}]}

plus extra keys (``a_score``/``a_score_ci95`` and ``paired`` on pairs, ``games`` on players,
``sprt``, ``failures``, ``games`` (one row per game: deal, seats, winner seat, reason),
``replays`` (games played again from their deal because the worker playing them died),
``config``) that readers may ignore. ``ci95`` is the half-width of the 95%
interval in Elo, ``null`` when a rating is not identifiable (a bot that played nobody
connected to the others). ``errors`` counts games of the pair that ended because a bot
failed (timeout, crash, garbage, illegal action); those games are also counted as a win
for the other bot. ``repairs`` counts the invalid plays of classic-protocol engines that
were repaired as the original classic engine does (docs/protocol.md): those games went on.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from frontlines.arena.ratings import Z95, PairTally, Rating, fit_bradley_terry, wilson
from frontlines.arena.runner import ArenaGame
from frontlines.core.record import GameRecord


def tally(names: Sequence[str], results: Iterable[ArenaGame], pairs: Sequence[tuple[str, str]] | None = None) -> list[PairTally]:
    """Per-pair counts; pairs in ``pairs`` order (from ``a``'s side), else in first-met order."""
    table: dict[frozenset[str], PairTally] = {}
    if pairs is not None:
        for a, b in pairs:
            table[frozenset((a, b))] = PairTally(a, b)
    for r in results:
        key = frozenset(r.players)
        t = table.get(key)
        if t is None:
            a, b = sorted(r.players, key=lambda n: names.index(n) if n in names else len(names))
            t = table[key] = PairTally(a, b)
        t.games += 1
        if r.winner is None:
            t.draws += 1
        elif r.players[r.winner] == t.a:
            t.a_wins += 1
        else:
            t.b_wins += 1
        if r.error_seat is not None:
            t.errors += 1
        t.repairs += sum(r.repairs)
    return list(table.values())


@dataclass
class PairedDeals:
    """The deals of one pairing whose two games (seats swapped) both finished, from ``a``'s side.

    ``pentanomial[k]`` counts the deals where ``a`` scored ``k / 2`` over the two games. Both
    games of a deal share its cards, so the deal's luck cancels in their sum: the interval of
    ``a``'s score over deals is tighter than the Wilson interval over single games by as much
    as the deal decides games.
    """

    pentanomial: list[int] = field(default_factory=lambda: [0] * 5)

    @property
    def deals(self) -> int:
        return sum(self.pentanomial)

    def score_ci95(self) -> tuple[float, float, float]:
        """(``a``'s mean score per game over the deals, the 95 % interval's low and high end)."""
        n = self.deals
        if n == 0:
            return 0.5, 0.0, 1.0
        mean = sum(k / 4 * c for k, c in enumerate(self.pentanomial)) / n
        if n < 2:
            return mean, 0.0, 1.0
        var = sum(c * (k / 4 - mean) ** 2 for k, c in enumerate(self.pentanomial)) / (n - 1)
        half = Z95 * math.sqrt(var / n)
        return mean, max(0.0, mean - half), min(1.0, mean + half)


def paired_deals(tallies: Sequence[PairTally], results: Iterable[ArenaGame]) -> list[PairedDeals]:
    """Per tally (same order), the deals of that pairing played from both seats."""
    order = {frozenset((t.a, t.b)): i for i, t in enumerate(tallies)}
    halves: dict[tuple[int, int], list[float]] = {}
    for r in results:
        i = order.get(frozenset(r.players))
        if i is not None:
            halves.setdefault((i, r.pair), []).append(r.score_of(tallies[i].a))
    out = [PairedDeals() for _ in tallies]
    for (i, _), scores in halves.items():
        if len(scores) == 2:
            out[i].pentanomial[round(2 * sum(scores))] += 1
    return out


def ratings(names: Sequence[str], tallies: Sequence[PairTally], anchor: str | None = None) -> list[Rating]:
    """Bradley–Terry ratings, strongest first."""
    fitted = fit_bradley_terry(names, tallies, anchor=anchor)
    return sorted(fitted, key=lambda r: -r.rating)


def _num(x: float, digits: int = 1) -> float | None:
    return round(x, digits) if math.isfinite(x) else None


def to_json(
    names: Sequence[str],
    tallies: Sequence[PairTally],
    rated: Sequence[Rating],
    results: Sequence[ArenaGame],
    *,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    games_of = {n: 0 for n in names}
    score_of = {n: 0.0 for n in names}
    for r in results:
        for name in r.players:
            games_of[name] += 1
            score_of[name] += r.score_of(name)
    players = [
        {
            "name": r.name,
            "rating": _num(r.rating),
            "ci95": _num(r.ci95),
            "games": games_of[r.name],
            "score": round(score_of[r.name] / games_of[r.name], 4) if games_of[r.name] else None,
        }
        for r in rated
    ]
    pairs = []
    for t, paired in zip(tallies, paired_deals(tallies, results), strict=True):
        lo, hi = wilson(t.a_wins + 0.5 * t.draws, t.games)
        mean, plo, phi = paired.score_ci95()
        pairs.append({
            "a": t.a,
            "b": t.b,
            "games": t.games,
            "a_wins": t.a_wins,
            "b_wins": t.b_wins,
            "draws": t.draws,
            "errors": t.errors,
            "repairs": t.repairs,
            "a_score": round(t.a_score, 4),
            "a_score_ci95": [round(lo, 4), round(hi, 4)],
            "paired": {
                "deals": paired.deals,
                "pentanomial": paired.pentanomial,
                "a_score": round(mean, 4),
                "a_score_ci95": [round(plo, 4), round(phi, 4)],
            },
        })
    failures = [
        {"game": r.index + 1, "bot": r.players[r.error_seat], "reason": r.error, "detail": r.detail}
        for r in sorted(results, key=lambda r: r.index)
        if r.error_seat is not None
    ]
    # one row per game, so that two runs on the same deals (same --seed) can be compared
    # deal by deal
    games = [
        {"game": r.index + 1, "deal": r.pair, "seed": r.seed, "players": list(r.players), "winner": r.winner, "reason": r.reason,
         "repairs": list(r.repairs)}
        for r in sorted(results, key=lambda r: r.index)
    ]
    replays = [{"game": r.index + 1, "times": r.replays} for r in sorted(results, key=lambda r: r.index) if r.replays]
    out: dict[str, Any] = {"players": players, "pairs": pairs, "failures": failures, "games": games, "replays": replays}
    out.update(extra or {})
    return out


def format_table(tallies: Sequence[PairTally], rated: Sequence[Rating], results: Sequence[ArenaGame]) -> str:
    """The text the arena prints: ratings, then pairs with Wilson intervals, then failures."""
    games_of: dict[str, int] = {}
    score_of: dict[str, float] = {}
    for r in results:
        for name in r.players:
            games_of[name] = games_of.get(name, 0) + 1
            score_of[name] = score_of.get(name, 0.0) + r.score_of(name)
    width = max([len(r.name) for r in rated] + [4])
    lines = [f"{'#':>2}  {'bot':<{width}}  {'Elo':>7}  {'±95%':>6}  {'games':>5}  {'score':>6}"]
    for i, rt in enumerate(rated, 1):
        ci = f"{rt.ci95:6.1f}" if math.isfinite(rt.ci95) else f"{'-':>6}"
        g = games_of.get(rt.name, 0)
        score = f"{100 * score_of.get(rt.name, 0.0) / g:5.1f}%" if g else f"{'-':>6}"
        lines.append(f"{i:>2}  {rt.name:<{width}}  {rt.rating:+7.1f}  {ci}  {g:>5}  {score}")
    lines.append("")
    pw = max([len(t.a) for t in tallies] + [len(t.b) for t in tallies] + [1])
    lines.append(f"{'a':<{pw}}  {'b':<{pw}}  {'games':>5}  {'a won':>5}  {'b won':>5}  {'draws':>5}  {'errors':>6}  a score [95% Wilson]")
    for t in tallies:
        lo, hi = wilson(t.a_wins + 0.5 * t.draws, t.games)
        lines.append(
            f"{t.a:<{pw}}  {t.b:<{pw}}  {t.games:>5}  {t.a_wins:>5}  {t.b_wins:>5}  {t.draws:>5}  {t.errors:>6}  "
            f"{100 * t.a_score:5.1f}% [{100 * lo:5.1f}%, {100 * hi:5.1f}%]"
        )
    paired = paired_deals(tallies, results)
    if any(p.deals for p in paired):
        lines.append("")
        lines.append(f"{'a':<{pw}}  {'b':<{pw}}  {'deals':>5}  {'a both':>6}  {'mixed':>5}  {'b both':>6}  a score over deals [95%]")
        for t, p in zip(tallies, paired, strict=True):
            if not p.deals:
                continue
            mean, plo, phi = p.score_ci95()
            c = p.pentanomial
            lines.append(
                f"{t.a:<{pw}}  {t.b:<{pw}}  {p.deals:>5}  {c[4]:>6}  {c[1] + c[2] + c[3]:>5}  {c[0]:>6}  "
                f"{100 * mean:5.1f}% [{100 * plo:5.1f}%, {100 * phi:5.1f}%]"
            )
    repaired: dict[str, int] = {}
    for r in results:
        for seat, n in enumerate(r.repairs):
            if n:
                repaired[r.players[seat]] = repaired.get(r.players[seat], 0) + n
    if repaired:
        lines.append("")
        lines.append("classic plays repaired as the original engine does (not errors): "
                     + ", ".join(f"{name} {n}" for name, n in repaired.items()))
    failures = [r for r in sorted(results, key=lambda r: r.index) if r.error_seat is not None]
    if failures:
        lines.append("")
        lines.append(f"bot failures ({len(failures)}):")
        for r in failures[:20]:
            lines.append(f"  game {r.index + 1}: {r.players[r.error_seat or 0]} lost by {r.reason} ({r.detail[:160]})")
        if len(failures) > 20:
            lines.append(f"  … and {len(failures) - 20} more (see --json)")
    replayed = [r for r in sorted(results, key=lambda r: r.index) if r.replays]
    if replayed:
        lines.append("")
        lines.append(f"games played again from their deal because their worker died ({len(replayed)}): "
                     + ", ".join(f"game {r.index + 1}" + (f" ({r.replays} times)" if r.replays > 1 else "") for r in replayed))
    return "\n".join(lines)


class RecordSink:
    """Saves every game: a directory of text records, or one JSON-lines file (``*.jsonl``)."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.jsonl = bool(path) and str(path).endswith(".jsonl")
        if path and not self.jsonl:
            os.makedirs(path, exist_ok=True)
        if path and self.jsonl:
            parent = os.path.dirname(os.path.abspath(path))
            os.makedirs(parent, exist_ok=True)
            with open(path, "w", encoding="utf-8"):
                pass

    def add(self, result: ArenaGame) -> None:
        if not self.path:
            return
        record = GameRecord.from_json(result.record)
        if self.jsonl:
            with open(self.path, "a", encoding="utf-8") as fh:
                fh.write(json.dumps(record.to_json(), ensure_ascii=False) + "\n")
        else:
            name = os.path.join(self.path, f"game-{result.index + 1:05d}.txt")
            with open(name, "w", encoding="utf-8") as fh:
                fh.write(record.to_text())


__all__ = ["PairedDeals", "RecordSink", "format_table", "paired_deals", "ratings", "tally", "to_json"]
