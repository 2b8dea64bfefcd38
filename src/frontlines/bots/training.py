"""The training pipeline of the learned evaluation (:mod:`frontlines.bots.learned`).

    .venv/bin/python benchmarks/train_value.py            # data and weights from scratch
    .venv/bin/python benchmarks/train_value.py --short    # a small run that checks it learns

1. **Data.** Self-play of the heuristic against itself (``HeuristicBot``), seeded: game
   *g* of a ruleset is dealt with seed ``seed * 1_000_003 + g`` and its bots are seeded from
   it. So that the positions look like those the search evaluates (its rollouts play the
   cheap policy with some randomness), a game plays a share of its moves (0, 15 % or 30 %,
   by game) with the cheap rollout policy instead of the heuristic. At the start of each
   turn in the play phase, the position is kept with chance ``keep`` as the mover's features
   (their view only) and the mover's result (1 win, 0 loss, 0.5 a draw).
2. **Model.** A perceptron with two ReLU layers on standardised features whose output is
   added to today's evaluation's logit (it starts at zero: the network starts as today's
   evaluation and learns a correction), trained with Adam on the log loss, weight decay, and minibatches; a tenth of the
   games (never their positions one by one: they are correlated) is held out, and the
   epoch with the best held-out loss is kept.
3. **Report.** Held-out log loss and Brier score of the network, against today's
   evaluation (the calibrated game value, read off the same features) and a coin toss.

numpy is needed (``frontlines[ai]``).
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from multiprocessing import Pool
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, cast

from frontlines.bots.heuristic import HeuristicBot, policy_for
from frontlines.bots.learned import FEATURE_SIZE, ValueModel, base_logits, feature_list
from frontlines.games import new_state
from frontlines.games.battleline.state import PLAY, BattleLineState

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    FloatArray = npt.NDArray[np.float32]

MIX = (0.0, 0.15, 0.3)  # share of cheap-policy moves, by game number

Row = tuple[list[float], float]


def play_game(ruleset: str, seed: int, game: int, keep: float) -> list[Row]:
    """One self-play game's kept positions: (the mover's features, the mover's result)."""
    deal = seed * 1_000_003 + game
    state = cast(BattleLineState, new_state(ruleset, seed=deal))
    rng = random.Random(deal)
    bots = [HeuristicBot(seed=deal * 2), HeuristicBot(seed=deal * 2 + 1)]
    for seat, bot in enumerate(bots):
        bot.new_game(ruleset, seat, deal)
    policy = policy_for(ruleset)
    mix = MIX[game % len(MIX)]
    kept: list[tuple[list[float], int]] = []
    last: int | None = None
    while not state.is_terminal():
        player = state.current_player()
        assert player is not None
        if player != last and state.phase == PLAY and rng.random() < keep:
            kept.append((feature_list(state, player), player))
        last = player
        if mix and rng.random() < mix:
            legal = state.legal_actions()
            action = policy.forced(state, legal)
            if action is None:
                action = policy.rollout_action(state, legal, rng)
        else:
            action = bots[player].choose(state.view(player))
        state.apply(action)
    outcome = state.outcome()
    assert outcome is not None
    return [(x, 0.5 if outcome.winner is None else float(outcome.winner == p)) for x, p in kept]


def _play(job: tuple[str, int, int, float]) -> tuple[int, list[Row]]:
    ruleset, seed, game, keep = job
    return game, play_game(ruleset, seed, game, keep)


class Progress:
    """A one-line progress bar on a terminal stream (plain lines when it is not a terminal)."""

    def __init__(self, label: str, total: int, out: TextIO | None = None) -> None:
        self.label, self.total, self.done = label, max(1, total), 0
        self.out = out if out is not None else sys.stderr
        self.started = time.monotonic()
        self.tty = self.out.isatty()
        self._shown = -1

    def step(self, n: int = 1, note: str = "") -> None:
        self.done += n
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
class Dataset:
    x: FloatArray
    y: FloatArray
    game: npt.NDArray[np.int64]  # a game id per row (ruleset and game number), to split by game
    rulesets: list[str] = field(default_factory=list)


def generate(
    rulesets: Sequence[str],
    games: int,
    seed: int,
    keep: float = 0.5,
    jobs: int = 1,
    progress: bool = True,
    first: int = 0,
) -> Dataset:
    """Self-play positions: games ``first .. first + games - 1`` of each ruleset (see the
    module's notes)."""
    import numpy as np

    jobs_list = [(r, seed, first + g, keep) for r in rulesets for g in range(games)]
    bar = Progress("self-play", len(jobs_list)) if progress else None
    xs: list[list[float]] = []
    ys: list[float] = []
    ids: list[int] = []

    def take(results: Iterable[tuple[int, list[Row]]]) -> None:
        for n, (game, rows) in enumerate(results):
            ruleset = rulesets.index(jobs_list[n][0])
            for x, y in rows:
                xs.append(x)
                ys.append(y)
                ids.append(game * len(rulesets) + ruleset)  # one id per (ruleset, game)
            if bar:
                bar.step(note=f"{len(xs)} positions")

    if jobs > 1:
        with Pool(jobs) as pool:
            take(pool.imap(_play, jobs_list, chunksize=2))
    else:
        take(map(_play, jobs_list))
    x = np.asarray(xs, dtype=np.float32).reshape(-1, FEATURE_SIZE)
    return Dataset(x, np.asarray(ys, dtype=np.float32), np.asarray(ids, dtype=np.int64), list(rulesets))


def generate_shards(
    folder: Path, rulesets: Sequence[str], games: int, seed: int, keep: float, jobs: int = 1, shard: int = 100
) -> Dataset:
    """:func:`generate` in shards of ``shard`` games a ruleset, each saved in ``folder``
    as it is done and reused when there: a run that is stopped resumes where it stopped,
    with the same data as one that was not."""
    import numpy as np

    folder.mkdir(parents=True, exist_ok=True)
    parts: list[Dataset] = []
    starts = range(0, games, shard)
    for i, start in enumerate(starts):
        path = folder / f"{'+'.join(rulesets)}-seed{seed}-keep{keep}-{start:06d}-{min(games, start + shard):06d}.npz"
        if path.exists():
            with np.load(path, allow_pickle=False) as d:
                part = Dataset(d["x"], d["y"], d["game"], list(rulesets))
        else:
            print(f"shard {i + 1}/{len(starts)}: games {start}-{min(games, start + shard) - 1}", file=sys.stderr)
            part = generate(rulesets, min(shard, games - start), seed, keep, jobs, first=start)
            part_tmp = path.with_suffix(".tmp.npz")
            np.savez_compressed(part_tmp, x=part.x, y=part.y, game=part.game)
            part_tmp.replace(path)
        parts.append(part)
    return Dataset(
        np.concatenate([p.x for p in parts]),
        np.concatenate([p.y for p in parts]),
        np.concatenate([p.game for p in parts]),
        list(rulesets),
    )


@dataclass
class Report:
    epochs: int
    train_positions: int
    test_positions: int
    test_loss: float
    test_brier: float
    baseline_loss: float  # today's evaluation on the same positions
    baseline_brier: float
    coin_brier: float
    history: list[tuple[float, float]]  # (train loss, held-out loss) per epoch

    def lines(self) -> list[str]:
        return [
            f"positions: {self.train_positions} training, {self.test_positions} held out (by game)",
            f"held-out log loss: network {self.test_loss:.4f}, today's evaluation {self.baseline_loss:.4f}, coin toss 0.6931",
            f"held-out Brier: network {self.test_brier:.4f}, today's evaluation {self.baseline_brier:.4f}, "
            f"coin toss {self.coin_brier:.4f}",
            f"epochs run {self.epochs}; best held-out loss at epoch {1 + min(range(len(self.history)), key=lambda i: self.history[i][1])}",
        ]


def baseline(x: FloatArray) -> FloatArray:
    """Today's cut-off evaluation read off the features: the game value's logit times the
    share of the table filled (``heuristic_battleline.calibrated``)."""
    import numpy as np

    return cast("FloatArray", 1.0 / (1.0 + np.exp(-base_logits(x))))


def split(data: Dataset, seed: int, share: float = 0.1) -> tuple[Any, Any]:
    """Row masks (train, held out): a ``share`` of the games, drawn with ``seed``."""
    import numpy as np

    games = np.unique(data.game)
    rng = np.random.default_rng(seed)
    held = rng.choice(games, size=max(1, int(share * len(games))), replace=False)
    test = np.isin(data.game, held)
    return ~test, test


def train(
    data: Dataset,
    seed: int,
    hidden: Sequence[int] = (32,),
    epochs: int = 30,
    lr: float = 1e-3,
    decay: float = 1e-2,
    batch: int = 256,
    patience: int = 6,
    progress: bool = True,
    meta: dict[str, Any] | None = None,
    holdout: float = 0.1,
) -> tuple[ValueModel, Report]:
    """Train a network on ``data`` (a ``holdout`` share of the games, drawn with ``seed``,
    held out); the epoch with the best held-out log loss is kept."""
    import numpy as np

    train_rows, test_rows = split(data, seed, holdout)
    x, y = data.x[train_rows], data.y[train_rows]
    xt, yt = data.x[test_rows], data.y[test_rows]
    mean = x.mean(axis=0)
    std = x.std(axis=0)
    scale = np.where(std > 1e-6, 1.0 / np.maximum(std, 1e-6), 0.0).astype(np.float32)
    rng = np.random.default_rng(seed)
    sizes = [FEATURE_SIZE, *hidden, 1]
    params: list[Any] = []
    for a, b in pairwise(sizes):
        # the output layer starts at zero: the network starts as today's evaluation
        weight = rng.standard_normal((a, b)) * np.sqrt(2.0 / a) if b > 1 else np.zeros((a, b))
        params.append(weight.astype(np.float32))
        params.append(np.zeros(b, dtype=np.float32))
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    step = 0

    def model_of(ps: list[Any]) -> ValueModel:
        arrays: dict[str, Any] = {"mean": mean, "scale": scale}
        for i in range(len(ps) // 2):
            arrays[f"w{i}"], arrays[f"b{i}"] = ps[2 * i].copy(), ps[2 * i + 1].copy()
        return ValueModel(arrays, dict(meta or {}, rulesets=data.rulesets, hidden=list(hidden)))

    def loss_of(model: ValueModel, xs: FloatArray, ys: FloatArray) -> float:
        z = model.logits(xs).astype(np.float64)
        return float(np.mean(np.logaddexp(0.0, z) - ys * z))

    xs_std = ((x - mean) * scale).astype(np.float32)
    base = base_logits(x)
    best: tuple[float, int, ValueModel] | None = None
    history: list[tuple[float, float]] = []
    bar = Progress("training", epochs) if progress else None
    layers = len(params) // 2
    for epoch in range(epochs):
        order = rng.permutation(len(x))
        total = 0.0
        for start in range(0, len(order), batch):
            rows = order[start : start + batch]
            hb, yb, zb = xs_std[rows], y[rows], base[rows]
            acts = [hb]
            for i in range(layers):
                h = acts[-1] @ params[2 * i] + params[2 * i + 1]
                acts.append(np.maximum(h, 0.0) if i < layers - 1 else h)
            z = acts[-1][:, 0] + zb
            total += float(np.sum(np.logaddexp(0.0, z) - yb * z))
            grad = ((1.0 / (1.0 + np.exp(-z)) - yb) / len(rows))[:, None].astype(np.float32)
            grads: list[Any] = [None] * len(params)
            for i in reversed(range(layers)):
                grads[2 * i] = acts[i].T @ grad + decay * params[2 * i]
                grads[2 * i + 1] = grad.sum(axis=0)
                if i:
                    grad = (grad @ params[2 * i].T) * (acts[i] > 0)
            step += 1
            for k, g in enumerate(grads):
                m[k] = beta1 * m[k] + (1 - beta1) * g
                v[k] = beta2 * v[k] + (1 - beta2) * g * g
                mhat = m[k] / (1 - beta1**step)
                vhat = v[k] / (1 - beta2**step)
                params[k] = (params[k] - lr * mhat / (np.sqrt(vhat) + eps)).astype(np.float32)
        model = model_of(params)
        held = loss_of(model, xt, yt)
        history.append((total / len(x), held))
        if best is None or held < best[0]:
            best = (held, epoch, model)
        if bar:
            bar.step(note=f"train {total / len(x):.4f} held-out {held:.4f}")
        if epoch - best[1] >= patience:
            break
    assert best is not None
    model = best[2]
    p = model.predict(xt)
    zt = base_logits(xt).astype(np.float64)
    report = Report(
        epochs=len(history),
        train_positions=len(x),
        test_positions=len(xt),
        test_loss=best[0],
        test_brier=float(np.mean((p - yt) ** 2)),
        baseline_loss=float(np.mean(np.logaddexp(0.0, zt) - yt * zt)),
        baseline_brier=float(np.mean((baseline(xt) - yt) ** 2)),
        coin_brier=float(np.mean((0.5 - yt) ** 2)),
        history=history,
    )
    return model, report
