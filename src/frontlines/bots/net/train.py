"""Training the flag network (numpy): positions to arrays, supervised fitting, TD(λ) targets.

* :func:`arrays` replays game records (:mod:`.data`) into numpy arrays: the facts of each
  kept position, each flag's label for the viewer and the game's.
* :func:`fit` trains with Adam on minibatches: the log loss of each labelled open flag's
  tower chance plus (weight ``game_weight``) that of the game value, a little weight
  decay; a share of the *games* is held out (their positions are correlated) and the epoch
  with the best held-out loss is kept.
* :func:`td_targets` turns self-play records into TD(λ) targets: along each player's
  positions, the λ-return of the network's own values (per flag and for the game),
  ending in the flags' labels and the result. Fitting on them is the batch ("fitted")
  form of TD(λ).
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import numpy as np
import numpy.typing as npt

from frontlines.bots.net.data import GameRecord, Position, after_plays, positions
from frontlines.bots.net.features import FLAG_SIZE, GLOBAL_SIZE, facts
from frontlines.bots.net.model import Batch, FlagNet, FloatArray, flush_subnormals, stack


class Progress:
    """A one-line progress bar on a terminal (plain lines every 10 % otherwise)."""

    def __init__(self, label: str, total: int, out: TextIO | None = None, quiet: bool = False) -> None:
        self.label, self.total, self.done = label, max(1, total), 0
        self.out = out if out is not None else sys.stderr
        self.started = time.monotonic()
        self.tty = self.out.isatty()
        self.quiet = quiet
        self._shown = -1

    def step(self, n: int = 1, note: str = "") -> None:
        self.done += n
        if self.quiet:
            return
        percent = 100 * self.done // self.total
        if not self.tty and percent // 10 == self._shown // 10 and self.done < self.total:
            return
        self._shown = percent
        bar = "#" * (percent // 4) + "." * (25 - percent // 4)
        elapsed = time.monotonic() - self.started
        eta = elapsed / self.done * (self.total - self.done)
        line = f"{self.label} [{bar}] {self.done}/{self.total} {elapsed:.0f}s eta {eta:.0f}s {note}"
        self.out.write(("\r" + line) if self.tty else line + "\n")
        if self.tty and self.done >= self.total:
            self.out.write("\n")
        self.out.flush()


@dataclass
class Arrays:
    """Positions as arrays (compact types; :meth:`batch` widens a slice to float32)."""

    flags: npt.NDArray[np.float16]  # (N, 9, FLAG_SIZE)
    claimed: npt.NDArray[np.int8]  # (N, 9)
    glob: npt.NDArray[np.float16]  # (N, GLOBAL_SIZE)
    places: npt.NDArray[np.int16]  # (N, 70)
    yflag: npt.NDArray[np.float32]  # (N, 9): the viewer's target per flag, -1 none
    ygame: npt.NDArray[np.float32]  # (N,)
    game: npt.NDArray[np.int64]  # (N,) the game each row comes from

    def __len__(self) -> int:
        return int(self.ygame.shape[0])

    def batch(self, rows: Any) -> Batch:
        return Batch(
            self.flags[rows].astype(np.float32), self.claimed[rows].astype(np.float32),
            self.glob[rows].astype(np.float32), self.places[rows].astype(np.int64),
        )

    def take(self, rows: Any) -> Arrays:
        return Arrays(*(getattr(self, k)[rows] for k in _FIELDS))

    @classmethod
    def concat(cls, parts: Sequence[Arrays]) -> Arrays:
        return cls(*(np.concatenate([getattr(p, k) for p in parts]) for k in _FIELDS))

    def save(self, path: Path) -> None:
        """Write to ``path`` (atomically: the file is whole or absent)."""
        tmp = path.with_name(path.name + ".tmp")
        with tmp.open("wb") as f:
            np.savez(f, **{k: getattr(self, k) for k in _FIELDS})
        tmp.replace(path)

    @classmethod
    def load(cls, path: Any) -> Arrays:
        with np.load(path, allow_pickle=False) as d:
            return cls(*(d[k] for k in _FIELDS))


_FIELDS = ("flags", "claimed", "glob", "places", "yflag", "ygame", "game")


def empty_arrays() -> Arrays:
    return Arrays(
        np.zeros((0, 9, FLAG_SIZE), np.float16), np.zeros((0, 9), np.int8), np.zeros((0, GLOBAL_SIZE), np.float16),
        np.zeros((0, 70), np.int16), np.zeros((0, 9), np.float32), np.zeros(0, np.float32), np.zeros(0, np.int64),
    )


def rows_of(items: Sequence[Position], targets: Sequence[tuple[Sequence[float], float]] | None = None, game_ids: Sequence[int] | None = None) -> Arrays:
    """Arrays of ``items`` with their labels (or ``targets``: per flag and game)."""
    if not items:
        return empty_arrays()
    got = [facts(p.state, p.viewer, p.hand) for p in items]
    b = stack(got)
    if targets is None:
        yflag = np.asarray([p.flag_labels() for p in items], dtype=np.float32)
        ygame = np.asarray([p.game_label() for p in items], dtype=np.float32)
    else:
        yflag = np.asarray([t[0] for t in targets], dtype=np.float32)
        ygame = np.asarray([t[1] for t in targets], dtype=np.float32)
    ids = np.asarray(game_ids if game_ids is not None else [p.record.seed for p in items], dtype=np.int64)
    return Arrays(
        b.flags.astype(np.float16), b.claimed.astype(np.int8), b.glob.astype(np.float16), b.places.astype(np.int16),
        yflag, ygame, ids,
    )


def arrays(records: Iterable[GameRecord], keep: float, salt: int = 0, hand_share: float = 0.0) -> Arrays:
    """The kept positions of ``records`` (``data.positions``) with their outcome labels."""
    parts: list[Arrays] = []
    pending: list[Position] = []
    for record in records:
        pending.extend(positions(record, keep, salt, hand_share))
        if len(pending) >= 4096:
            parts.append(rows_of(pending))
            pending = []
    parts.append(rows_of(pending))
    return Arrays.concat(parts)


# --- TD(λ) -------------------------------------------------------------------------------------
def td_targets(net: FlagNet, records: Sequence[GameRecord], lam: float) -> Arrays:
    """TD(λ) targets for the positions of ``records`` (see the module text), from ``net``'s values."""
    parts: list[Arrays] = []
    for record in records:
        items = list(after_plays(record))
        if not items:
            continue
        flag_p, values, _ = net.forward(stack([facts(p.state, p.viewer) for p in items]))
        targets: list[tuple[list[float], float]] = [([], 0.0)] * len(items)
        for viewer in (0, 1):
            idx = [i for i, p in enumerate(items) if p.viewer == viewer]
            if not idx:
                continue
            labels = items[idx[0]].flag_labels()
            g_flag = [float(y) for y in labels]
            g_game = items[idx[0]].game_label()
            for i in reversed(idx):
                targets[i] = (list(g_flag), g_game)
                # the λ-return one step earlier: (1-λ)·(this value) + λ·(this return)
                v = float(values[i])
                g_game = (1.0 - lam) * v + lam * g_game
                for f in range(9):
                    if g_flag[f] >= 0:
                        g_flag[f] = (1.0 - lam) * float(flag_p[i, f]) + lam * g_flag[f]
        parts.append(rows_of(items, targets, [record.seed] * len(items)))
    return Arrays.concat(parts) if parts else empty_arrays()


# --- fitting ---------------------------------------------------------------------------------
@dataclass
class Report:
    epochs: int
    train_rows: int
    test_rows: int
    flag_loss: float  # held-out log loss per labelled open flag
    game_loss: float  # held-out log loss of the game value
    game_brier: float
    coin_game_loss: float = math.log(2.0)
    history: list[tuple[float, float, float]] = field(default_factory=list)  # (train, held-out flag, held-out game)
    seconds: float = 0.0

    best_epoch: int = 0  # 0: no epoch did better than the start

    def lines(self) -> list[str]:
        best = self.best_epoch
        return [
            f"rows: {self.train_rows} training, {self.test_rows} held out (by game)",
            f"held-out log loss per open flag: {self.flag_loss:.4f} (a coin toss: 0.6931)",
            f"held-out game value: log loss {self.game_loss:.4f}, Brier {self.game_brier:.4f} (a coin toss: 0.6931, 0.25)",
            f"epochs run {self.epochs} in {self.seconds:.0f}s; " + (f"best at epoch {best}" if best else "none did better than the start"),
        ]


def split(data: Arrays, seed: int, share: float) -> tuple[Any, Any]:
    """Row masks (train, held out): a ``share`` of the games, drawn with ``seed``."""
    games = np.unique(data.game)
    rng = np.random.default_rng(seed)
    held = rng.choice(games, size=max(1, int(share * len(games))), replace=False) if share > 0 else np.zeros(0, np.int64)
    test = np.isin(data.game, held)
    return ~test, test


def losses(net: FlagNet, data: Arrays, batch: int = 4096) -> tuple[float, float, float]:
    """(log loss per labelled open flag, game log loss, game Brier) of ``net`` on ``data``."""
    fl = fn = gl = gb = 0.0
    for start in range(0, len(data), batch):
        rows = slice(start, start + batch)
        b = data.batch(rows)
        flag_p, v, _ = net.forward(b)
        y = data.yflag[rows]
        mask = (y >= 0) & (b.claimed < 0)
        p = np.clip(flag_p.astype(np.float64), 1e-6, 1 - 1e-6)
        yy = np.where(mask, y, 0.0)
        fl += float(np.sum(np.where(mask, -(yy * np.log(p) + (1 - yy) * np.log(1 - p)), 0.0)))
        fn += float(mask.sum())
        vg = np.clip(v.astype(np.float64), 1e-6, 1 - 1e-6)
        yg = data.ygame[rows].astype(np.float64)
        gl += float(np.sum(-(yg * np.log(vg) + (1 - yg) * np.log(1 - vg))))
        gb += float(np.sum((vg - yg) ** 2))
    n = max(1, len(data))
    return fl / max(1.0, fn), gl / n, gb / n


class Adam:
    def __init__(self, params: dict[str, FloatArray], lr: float, decay: float) -> None:
        self.lr, self.decay = lr, decay
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}
        self.t = 0

    def step(self, params: dict[str, FloatArray], grads: dict[str, FloatArray]) -> None:
        self.t += 1
        b1, b2 = 0.9, 0.999
        c1, c2 = 1 - b1**self.t, 1 - b2**self.t
        for k, g in grads.items():
            if self.decay and (k.startswith("w") or k == "emb"):
                g = g + self.decay * params[k]
            self.m[k] = b1 * self.m[k] + (1 - b1) * g
            self.v[k] = b2 * self.v[k] + (1 - b2) * g * g
            params[k] -= (self.lr * (self.m[k] / c1) / (np.sqrt(self.v[k] / c2) + 1e-8)).astype(np.float32)
        flush_subnormals(params)  # decayed weights would slow every product (see its text)


def fit(
    net: FlagNet,
    data: Arrays,
    seed: int,
    epochs: int = 20,
    lr: float = 1e-3,
    decay: float = 1e-4,
    batch: int = 256,
    game_weight: float = 1.0,
    holdout: float = 0.1,
    patience: int = 4,
    progress: bool = True,
    flag_weight: float = 1.0,
    only: Sequence[str] | None = None,
    held_out: npt.NDArray[np.bool_] | None = None,
) -> Report:
    """Train ``net`` in place on ``data``; the epoch with the best held-out loss is kept.
    ``only``: the parameters to train (the rest stay as they are); ``flag_weight`` and
    ``game_weight`` weigh the two losses (per labelled open flag, per game value).
    ``held_out``: the rows to hold out (True), instead of a share ``holdout`` of the games
    drawn with ``seed``. A warm start fitted again on grown data needs the same games held
    out each time: games it was trained on would judge it, and the start would win."""
    started = time.monotonic()
    train_rows, test_rows = split(data, seed, holdout) if held_out is None else (~held_out, held_out)
    train_idx = np.flatnonzero(train_rows)
    test = data.take(test_rows)
    rng = np.random.default_rng(seed)
    trained = {k: v for k, v in net.p.items() if only is None or k in only}
    opt = Adam(trained, lr, decay)
    # the starting point competes too: an epoch is kept only if it does better on held-out games
    initial = losses(net, test) if len(test) else (0.0, 0.0, 0.0)
    best: tuple[float, int, dict[str, FloatArray], tuple[float, float, float]] = (
        flag_weight * initial[0] + game_weight * initial[1], -1, {k: v.copy() for k, v in net.p.items()}, initial)
    history: list[tuple[float, float, float]] = []
    steps = (len(train_idx) + batch - 1) // batch
    bar = Progress("training", epochs * steps, quiet=not progress)
    for epoch in range(epochs):
        order = rng.permutation(train_idx)
        total = 0.0
        for start in range(0, len(order), batch):
            rows = np.sort(order[start : start + batch])
            total += train_step(net, opt, data, rows, game_weight, flag_weight)
            bar.step(note=f"epoch {epoch + 1}")
        held = losses(net, test) if len(test) else (0.0, 0.0, 0.0)
        history.append((total / max(1, len(train_idx)), held[0], held[1]))
        score = flag_weight * held[0] + game_weight * held[1]
        if score < best[0]:
            best = (score, epoch, {k: v.copy() for k, v in net.p.items()}, held)
        if epoch - best[1] >= patience:
            break
    net.p.update(best[2])
    return Report(len(history), len(train_idx), len(test), best[3][0], best[3][1], best[3][2], history=history,
                  seconds=time.monotonic() - started, best_epoch=best[1] + 1)


def train_step(net: FlagNet, opt: Adam, data: Arrays, rows: Any, game_weight: float, flag_weight: float = 1.0) -> float:
    """One Adam step on ``rows``; returns their summed loss."""
    b = data.batch(rows)
    n = len(b)
    _, v, cache = net.forward(b, keep=True)
    y = data.yflag[rows]
    mask = (y >= 0) & (b.claimed < 0)
    tower = cache["tower"]
    d_tower = flag_weight * np.where(mask, tower - np.where(mask, y, 0.0), 0.0) / n
    yg = data.ygame[rows]
    d_game = game_weight * (v.astype(np.float64) - yg) / n
    grads = net.backward(b, cache, d_tower.astype(np.float32), d_game.astype(np.float32))
    opt.step(net.p, {k: g for k, g in grads.items() if k in opt.m})
    p = np.clip(tower.astype(np.float64), 1e-6, 1 - 1e-6)
    yy = np.where(mask, y, 0.0)
    fl = float(np.sum(np.where(mask, -(yy * np.log(p) + (1 - yy) * np.log(1 - p)), 0.0)))
    vg = np.clip(v.astype(np.float64), 1e-6, 1 - 1e-6)
    gl = float(np.sum(-(yg * np.log(vg) + (1 - yg) * np.log(1 - vg))))
    return flag_weight * fl + game_weight * gl
