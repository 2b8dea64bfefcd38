"""The flag network (numpy): one shared tower gives each flag a win chance, the game's
exact rule turns the nine chances into a game chance, and a small correction head over
where every card lies adds what independent flags miss.

Forward, for a batch of positions (``features.Facts`` stacked by :func:`stack`):

* **flag tower** (shared by the nine flags): each open flag's row of facts and the
  position's global numbers, two ReLU layers, a logistic output: ``p_f``, the viewer's
  chance to win flag *f*. A claimed flag's chance is exact (1 or 0).
* **combinator**: with the flags as independent coins, the chance that the viewer's flags
  make a breakthrough (three adjacent) or an envelopment (five) and the opponent's do not
  (both: an even chance, the order of the claims deciding), summed exactly over the 512
  ways of sharing nine flags (the rule of docs/rules.md §2.3, the same in every ruleset
  of the family: Schotten Totten's stones and Medieval's flags alike).
* **correction head**: the sum of one learned row per (card, place) (an accumulator that a
  move changes by a row or two, as in NNUE), a ReLU, then with the global numbers and the
  combinator's logit one hidden layer and a linear output, added to the combinator's
  logit times a learned scale. Its output layer starts at zero.

The game value is the logistic of that sum. Training (:mod:`.train`) uses
:meth:`FlagNet.backward` (hand-written gradients) and Adam.

Weights are one ``.npz`` file: the arrays and a JSON header (format version, the feature
layout's hash, the rulesets covered, how they were made and how strong they measured).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from frontlines.bots.heuristic_battleline import _OUTCOME
from frontlines.bots.net.features import FLAG_SIZE, GLOBAL_SIZE, NUM_PLACES, Facts, layout

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.int64]

WEIGHTS_VERSION = 1
LAYOUT_HASH = hashlib.sha256(layout().encode()).hexdigest()[:16]
_EPS = 1e-6

OUTCOME = np.asarray(_OUTCOME, dtype=np.float64)  # the viewer's game result per mask of flags held
HAS_FLAG = np.asarray([[m >> f & 1 for f in range(9)] for m in range(512)], dtype=np.float64)
LACKS_FLAG = 1.0 - HAS_FLAG


class WeightsError(ValueError):
    """A weights file this code cannot use (its version or feature layout differs, or it is damaged)."""


class Batch:
    """Stacked inputs: ``flags`` (B, 9, FLAG_SIZE), ``claimed`` (B, 9: 1 mine, 0 theirs, -1
    open), ``glob`` (B, GLOBAL_SIZE), ``places`` (B, 70) indices."""

    __slots__ = ("claimed", "flags", "glob", "places")

    def __init__(self, flags: FloatArray, claimed: FloatArray, glob: FloatArray, places: IntArray) -> None:
        self.flags = flags
        self.claimed = claimed
        self.glob = glob
        self.places = places

    def __len__(self) -> int:
        return int(self.glob.shape[0])

    def take(self, rows: Any) -> Batch:
        return Batch(self.flags[rows], self.claimed[rows], self.glob[rows], self.places[rows])


def stack(items: Sequence[Facts]) -> Batch:
    """Facts of several positions as one batch."""
    n = len(items)
    flags = np.frombuffer(b"".join([f.flags for f in items]), dtype=np.float32).reshape(n, 9, FLAG_SIZE)
    glob = np.array([f.glob for f in items], dtype=np.float32).reshape(n, GLOBAL_SIZE)
    claimed = np.array([f.claimed for f in items], dtype=np.float32).reshape(n, 9)
    places = np.array([f.places for f in items], dtype=np.int64).reshape(n, 70)
    return Batch(flags, claimed, glob, places)


def combine(p: npt.NDArray[np.float64], grad: bool = True) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64] | None]:
    """(game chance, its derivative per flag or ``None`` without ``grad``) for flag chances
    ``p`` (B, 9), the flags independent."""
    q = np.clip(p, _EPS, 1.0 - _EPS)
    # the chance of each of the 512 ways of sharing the flags: the product over flags of q
    # where the mask holds the flag, 1 - q where not (as a sum of logarithms: two small
    # matrix products, cheap for one position and for many)
    probs = np.exp(np.log(q) @ HAS_FLAG.T + np.log1p(-q) @ LACKS_FLAG.T)  # (B, 512)
    contrib = probs * OUTCOME
    g = contrib.sum(axis=1)
    if not grad:
        return g, None
    with_f = contrib @ HAS_FLAG
    return g, with_f / q - (g[:, None] - with_f) / (1.0 - q)


def flush_subnormals(params: dict[str, FloatArray]) -> None:
    """Set the parameters' subnormal floats (below 1.2e-38 in float32) to zero, in place.

    Weight decay leaves unused weights (an input that is always 0, a dead unit) decaying
    towards zero, and many end subnormal; the CPU computes with those very slowly. In the
    shipped battleline-basic weights 283 of w2's 2,048 made one product of the tower 60
    times slower (4.3 ms against 0.07 ms for 192 positions). Their effect on any value is
    far below float32's precision."""
    for v in params.values():
        if v.dtype.kind == "f":
            v[np.abs(v) < np.finfo(v.dtype).tiny] = 0.0


TOWER = ("w1f", "w1g", "b1", "w2", "b2", "w3", "b3")  # the flag tower's parameters
HEAD = ("emb", "bemb", "wc1", "bc1", "wc2", "bc2", "scale")  # the game value's: the correction head and the scale
PARAM_NAMES = TOWER + HEAD


class FlagNet:
    """The network's parameters and its forward and backward passes."""

    def __init__(self, params: dict[str, FloatArray], meta: dict[str, Any] | None = None) -> None:
        self.p = params
        self.meta: dict[str, Any] = dict(meta or {})
        self.rulesets: frozenset[str] = frozenset(self.meta.get("rulesets", ()))
        if params["w1f"].shape[0] != FLAG_SIZE or params["w1g"].shape[0] != GLOBAL_SIZE or params["emb"].shape[0] != NUM_PLACES:
            raise WeightsError("flag network: the arrays do not fit the feature layout")
        flush_subnormals(params)

    @classmethod
    def fresh(cls, seed: int, hidden: tuple[int, int] = (64, 32), embed: int = 32, head: int = 32, meta: dict[str, Any] | None = None) -> FlagNet:
        rng = np.random.default_rng(seed)
        h1, h2 = hidden

        def he(a: int, b: int) -> FloatArray:
            out: FloatArray = (rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32)
            return out

        head_in = embed + GLOBAL_SIZE + 1
        params = {
            "w1f": he(FLAG_SIZE, h1), "w1g": he(GLOBAL_SIZE, h1) * 0.5, "b1": np.zeros(h1, np.float32),
            "w2": he(h1, h2), "b2": np.zeros(h2, np.float32),
            "w3": (he(h2, 1) * 0.1), "b3": np.zeros(1, np.float32),
            "emb": (rng.standard_normal((NUM_PLACES, embed)) * 0.1).astype(np.float32), "bemb": np.zeros(embed, np.float32),
            "wc1": he(head_in, head), "bc1": np.zeros(head, np.float32),
            "wc2": np.zeros((head, 1), np.float32), "bc2": np.zeros(1, np.float32),
            "scale": np.ones(1, np.float32),
        }
        return cls(params, meta)

    # --- forward ----------------------------------------------------------------------------
    def forward(self, b: Batch, keep: bool = False) -> tuple[FloatArray, FloatArray, dict[str, Any]]:
        """(flag chances (B, 9), game values (B,), the intermediate arrays when ``keep``)."""
        p = self.p
        n = len(b)
        g1 = b.glob @ p["w1g"] + p["b1"]  # (B, H1): the global part, once per position
        x = b.flags.reshape(n * 9, FLAG_SIZE)
        a1 = x @ p["w1f"] + np.repeat(g1, 9, axis=0)
        h1 = np.maximum(a1, 0.0)
        a2 = h1 @ p["w2"] + p["b2"]
        h2 = np.maximum(a2, 0.0)
        s = (h2 @ p["w3"] + p["b3"]).reshape(n, 9)
        tower = 1.0 / (1.0 + np.exp(-np.clip(s, -30.0, 30.0)))
        open_ = b.claimed < 0
        flag_p = np.where(open_, tower, b.claimed).astype(np.float64)
        g, dg = combine(flag_p, grad=keep)
        gc = np.clip(g, 1e-4, 1.0 - 1e-4)
        lg = np.log(gc / (1.0 - gc))
        if keep or self.head:
            acc = p["emb"][b.places].sum(axis=1) + p["bemb"]
            e = np.maximum(acc, 0.0)
            hin = np.concatenate((e, b.glob, (lg / 5.0)[:, None].astype(e.dtype)), axis=1)
            c1 = hin @ p["wc1"] + p["bc1"]
            hc = np.maximum(c1, 0.0)
            corr = (hc @ p["wc2"] + p["bc2"])[:, 0]
        else:  # the head's output layer is zero: its term is its bias alone
            corr = p["bc2"]
        z = p["scale"][0] * lg + corr
        v = 1.0 / (1.0 + np.exp(-np.clip(z, -30.0, 30.0)))
        cache: dict[str, Any] = {}
        if keep:
            cache = {
                "x": x, "a1": a1, "h1": h1, "a2": a2, "h2": h2, "tower": tower, "open": open_, "g": g, "dg": dg, "gc": gc,
                "lg": lg, "acc": acc, "e": e, "hin": hin, "c1": c1, "hc": hc, "z": z,
            }
        return flag_p.astype(np.float32), v.astype(np.float32), cache

    @property
    def head(self) -> bool:
        """Whether the correction head adds anything beyond its bias (its output layer is not zero)."""
        return bool(np.any(self.p["wc2"]))

    def values(self, b: Batch) -> FloatArray:
        """The viewer's game chance for each position of ``b``."""
        return self.forward(b)[1]

    # --- backward ---------------------------------------------------------------------------
    def backward(
        self, b: Batch, cache: dict[str, Any], d_tower_logit: FloatArray, d_game_logit: FloatArray
    ) -> dict[str, FloatArray]:
        """Gradients of a loss whose derivative is ``d_tower_logit`` (B, 9) with respect to each
        open flag's tower logit (directly, not through the game value) and ``d_game_logit`` (B,)
        with respect to the game value's logit."""
        p = self.p
        n = len(b)
        grads: dict[str, FloatArray] = {}
        dz = d_game_logit.astype(np.float64)
        grads["scale"] = np.asarray([np.sum(dz * cache["lg"])])
        # correction head
        dtype = p["w1f"].dtype
        dcorr = dz[:, None].astype(dtype)
        grads["wc2"] = cache["hc"].T @ dcorr
        grads["bc2"] = dcorr.sum(axis=0)
        dc1 = (dcorr @ p["wc2"].T) * (cache["c1"] > 0)
        grads["wc1"] = cache["hin"].T @ dc1
        grads["bc1"] = dc1.sum(axis=0)
        dhin = dc1 @ p["wc1"].T
        embed = p["emb"].shape[1]
        de = dhin[:, :embed] * (cache["acc"] > 0)
        dglob_head = dhin[:, embed : embed + GLOBAL_SIZE]
        dlg = dz * p["scale"][0] + dhin[:, -1].astype(np.float64) / 5.0
        grads["bemb"] = de.sum(axis=0)
        demb = np.zeros_like(p["emb"])
        np.add.at(demb, b.places.reshape(-1), np.repeat(de, b.places.shape[1], axis=0))
        grads["emb"] = demb
        del dglob_head  # the global numbers are inputs, not learned
        # through the combinator to each open flag's tower logit
        g, gc = cache["g"], cache["gc"]
        inside = (g > 1e-4) & (g < 1.0 - 1e-4)
        dgame = np.where(inside, dlg / (gc * (1.0 - gc)), 0.0)
        tower = cache["tower"].astype(np.float64)
        ds = (dgame[:, None] * cache["dg"] * tower * (1.0 - tower) + d_tower_logit) * cache["open"]
        ds32 = ds.reshape(n * 9, 1).astype(dtype)
        grads["w3"] = cache["h2"].T @ ds32
        grads["b3"] = ds32.sum(axis=0)
        da2 = (ds32 @ p["w3"].T) * (cache["a2"] > 0)
        grads["w2"] = cache["h1"].T @ da2
        grads["b2"] = da2.sum(axis=0)
        da1 = (da2 @ p["w2"].T) * (cache["a1"] > 0)
        grads["w1f"] = cache["x"].T @ da1
        dg1 = da1.reshape(n, 9, -1).sum(axis=1)
        grads["w1g"] = b.glob.T @ dg1
        grads["b1"] = dg1.sum(axis=0)
        return {k: np.asarray(v, dtype=dtype) for k, v in grads.items()}

    # --- files ------------------------------------------------------------------------------
    def save(self, path: Path) -> None:
        header = {**self.meta, "version": WEIGHTS_VERSION, "layout": LAYOUT_HASH}
        arrays: dict[str, Any] = {k: np.asarray(v, dtype=np.float16 if k == "emb" else np.float32) for k, v in self.p.items()}
        arrays["header"] = np.frombuffer(json.dumps(header, sort_keys=True).encode(), dtype=np.uint8)
        tmp = path.with_name(path.name + ".tmp")
        with tmp.open("wb") as f:
            np.savez_compressed(f, **arrays)
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path) -> FlagNet:
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {k: data[k] for k in data.files}
            meta = json.loads(bytes(arrays.pop("header")).decode())
        except (OSError, ValueError, KeyError) as exc:
            raise WeightsError(f"flag network weights {path}: not a weights file ({exc})") from exc
        if meta.get("version") != WEIGHTS_VERSION:
            raise WeightsError(f"flag network weights {path}: format version {meta.get('version')}, this code reads {WEIGHTS_VERSION}")
        if meta.get("layout") != LAYOUT_HASH:
            raise WeightsError(
                f"flag network weights {path}: made for feature layout {meta.get('layout')}, the code's is {LAYOUT_HASH}; "
                "train them again (frontlines train)"
            )
        missing = [k for k in PARAM_NAMES if k not in arrays]
        if missing:
            raise WeightsError(f"flag network weights {path}: missing arrays {', '.join(missing)}")
        return cls({k: np.asarray(arrays[k], dtype=np.float32) for k in PARAM_NAMES}, meta)
