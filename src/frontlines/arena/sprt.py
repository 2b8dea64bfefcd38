"""Sequential probability ratio test: "is A stronger than B?" with a known error budget.

H0: A is ``elo0`` stronger than B; H1: A is ``elo1`` stronger (logistic Elo). Results
come as pairs of games on the same deal with seats swapped, so the natural unit is the
pair (pentanomial: A's pair score 0, ½, 1, 1½ or 2) which cancels most of the deal's
luck; single games (trinomial: 0, ½, 1) are the alternative.

The log-likelihood ratio is the generalised one (GSPRT, as in fishtest): for each
hypothesis the outcome distribution is the maximum-likelihood distribution whose mean
score equals that hypothesis' expected score, and the LLR compares the two. Stop at
``LLR >= log((1-beta)/alpha)`` (accept H1) or ``LLR <= log(beta/(1-alpha))`` (accept H0).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from frontlines.arena.ratings import expected_score

# Outcome scores of one unit, scaled to 0..1.
PENTANOMIAL = (0.0, 0.25, 0.5, 0.75, 1.0)
TRINOMIAL = (0.0, 0.5, 1.0)
_EPS = 1e-3  # pseudo-count for unseen outcomes, so a one-sided start still gives a finite LLR


def _mle_weights(freqs: Sequence[float], xs: Sequence[float], s: float) -> list[float]:
    """The distribution closest (max likelihood) to ``freqs`` with mean ``s``: ``p_k = f_k / (1 + lam (x_k - s))``."""
    d = [x - s for x in xs]
    lo = max((-1.0 / di for di in d if di > 0), default=-1e9)
    hi = min((-1.0 / di for di in d if di < 0), default=1e9)
    lo, hi = lo + 1e-12 * abs(lo) + 1e-15, hi - 1e-12 * abs(hi) - 1e-15

    def g(lam: float) -> float:
        return sum(f * di / (1 + lam * di) for f, di in zip(freqs, d, strict=True))

    for _ in range(200):  # g is decreasing in lam
        if hi - lo < 1e-13:
            break
        mid = 0.5 * (lo + hi)
        if g(mid) > 0:
            lo = mid
        else:
            hi = mid
    lam = 0.5 * (lo + hi)
    return [f / (1 + lam * di) for f, di in zip(freqs, d, strict=True)]


def llr(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """GSPRT log-likelihood ratio for outcome ``counts`` (3 = trinomial, 5 = pentanomial)."""
    xs = PENTANOMIAL if len(counts) == 5 else TRINOMIAL
    if len(counts) not in (3, 5):
        raise ValueError("counts must have 3 (trinomial) or 5 (pentanomial) entries")
    total = sum(counts)
    if total <= 0:
        return 0.0
    reg = [c + _EPS for c in counts]
    n = sum(reg)
    freqs = [c / n for c in reg]
    s0, s1 = expected_score(elo0), expected_score(elo1)
    p0 = _mle_weights(freqs, xs, s0)
    p1 = _mle_weights(freqs, xs, s1)
    return sum(c * math.log(a / b) for c, a, b in zip(reg, p1, p0, strict=True) if c > 0)


@dataclass
class SPRT:
    elo0: float = 0.0
    elo1: float = 50.0
    alpha: float = 0.05
    beta: float = 0.05
    mode: str = "pentanomial"
    counts: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.mode not in ("pentanomial", "trinomial"):
            raise ValueError("SPRT mode must be pentanomial or trinomial")
        if not (0 < self.alpha < 1 and 0 < self.beta < 1):
            raise ValueError("alpha and beta must be between 0 and 1")
        if self.elo1 <= self.elo0:
            raise ValueError("elo1 must be greater than elo0")
        if not self.counts:
            self.counts = [0.0] * (5 if self.mode == "pentanomial" else 3)

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / self.alpha)

    def add_game(self, score: float) -> None:
        """A's score in one game (1, 0.5 or 0); in pentanomial mode use :meth:`add_pair`."""
        if self.mode != "trinomial":
            raise ValueError("add_game is for trinomial mode; add pairs in pentanomial mode")
        self.counts[round(score * 2)] += 1

    def add_pair(self, score1: float, score2: float) -> None:
        """A's scores in the two games of a pair."""
        if self.mode == "pentanomial":
            self.counts[round((score1 + score2) * 2)] += 1
        else:
            self.counts[round(score1 * 2)] += 1
            self.counts[round(score2 * 2)] += 1

    @property
    def llr(self) -> float:
        return llr(self.counts, self.elo0, self.elo1)

    def decision(self) -> str | None:
        """``"H1"`` (A is stronger by elo1), ``"H0"`` (not by more than elo0) or ``None`` (go on)."""
        value = self.llr
        if value >= self.upper:
            return "H1"
        if value <= self.lower:
            return "H0"
        return None

    def to_dict(self) -> dict[str, object]:
        return {
            "elo0": self.elo0,
            "elo1": self.elo1,
            "alpha": self.alpha,
            "beta": self.beta,
            "mode": self.mode,
            "counts": [int(c) if float(c).is_integer() else c for c in self.counts],
            "llr": round(self.llr, 4),
            "lower": round(self.lower, 4),
            "upper": round(self.upper, 4),
            "decision": self.decision(),
        }


def parse_sprt(text: str) -> SPRT:
    """``elo0=0,elo1=50,alpha=0.05,beta=0.05[,mode=trinomial]``."""
    values: dict[str, str] = {}
    for part in text.split(","):
        if part.strip():
            key, sep, value = part.partition("=")
            if not sep:
                raise ValueError(f"bad --sprt item {part!r}: use key=value")
            values[key.strip()] = value.strip()
    unknown = set(values) - {"elo0", "elo1", "alpha", "beta", "mode"}
    if unknown:
        raise ValueError(f"unknown --sprt key {sorted(unknown)[0]!r}; known: elo0, elo1, alpha, beta, mode")
    try:
        return SPRT(
            elo0=float(values.get("elo0", 0)),
            elo1=float(values.get("elo1", 50)),
            alpha=float(values.get("alpha", 0.05)),
            beta=float(values.get("beta", 0.05)),
            mode=values.get("mode", "pentanomial"),
        )
    except ValueError as exc:
        raise ValueError(f"bad --sprt {text!r}: {exc}") from None


__all__ = ["PENTANOMIAL", "SPRT", "TRINOMIAL", "llr", "parse_sprt"]
