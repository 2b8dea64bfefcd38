"""A learned evaluation for the Battle Line family: a small network's win chance at the
search's cut-off, trained on self-play positions (``frontlines.bots.training``).

What it reads. Only the mover's *view* of a position: the observation tensor's per-flag
and global blocks and the mover's hand (``games/battleline/tensors.py``), plus what
today's evaluation (``BattleLinePolicy.evaluate``) derives from the same view: each flag's
odds from sampled futures, the game value's logit and the share of the table filled.
The hidden cards of a sampled deal are never read (the observation and the flag odds are
the viewer's, as in today's evaluation). The network learns how to weigh and correct
those hand-made figures from game results rather than replacing them: with the data two
cores make in an hour, raw card places alone would leave it far weaker than the heuristic
it is built on.

The weights ship as ``value_battleline.npz`` next to this module: the arrays of a
multilayer perceptron (inputs standardised, two ReLU layers, a linear output added to
today's evaluation's logit, then the logistic function) and a
JSON header with the file's format version, the hash of the feature layout it was trained
on and the rulesets it covers. A file whose version or layout hash differs from the code's
is refused with :class:`WeightsError`; a ruleset it does not cover keeps today's evaluation.

numpy is an optional extra (``frontlines[ai]``). Without it, or without a usable weights
file, :func:`learned_policy` returns the policy it was given: the search plays on with
today's evaluation (``available()`` says which).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import random
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from frontlines.bots.heuristic import GamePolicy, outcome_value
from frontlines.bots.heuristic_battleline import (
    _NO_RNG,
    POLICY,
    BattleLinePolicy,
    Position,
    eval_shares,
    filled_share,
)
from frontlines.core.game import Action, State, View
from frontlines.games.battleline.cards import NUM_CARDS
from frontlines.games.battleline.state import BattleLineState
from frontlines.games.battleline.tensors import (
    _CARDS_END,
    OBSERVATION_LAYOUT,
    OBSERVATION_SIZE,
    PLACES,
    BattleLineEncoding,
)

if TYPE_CHECKING:  # numpy is optional: only imported when a model is used
    import numpy as np
    import numpy.typing as npt

    FloatArray = npt.NDArray[np.float32]

FORMAT_VERSION = 1
WEIGHTS_FILE = Path(__file__).with_name("value_battleline.npz")

# The feature vector, in order. Changing it (or the observation layout it slices) changes
# LAYOUT_HASH, and weights trained on another layout are refused.
FEATURE_LAYOUT = (
    "obs.flags[9x21]",  # the observation tensor's per-flag block
    "obs.global[23]",  # its global block
    "obs.hand[70]",  # column 0 (my hand) of its cards block
    "odds[9]",  # each flag's odds for the mover, today's evaluation's futures and shares
    "value.logit",  # the game value of those odds, as a logit
    "filled",  # share of the table's slots filled
    "tactics",  # 1 in a ruleset with tactics cards
)
FEATURE_SIZE = 9 * 21 + 23 + NUM_CARDS + 9 + 3
_HAND = tuple(c * PLACES for c in range(NUM_CARDS))


def _layout_hash() -> str:
    blocks = ";".join(f"{b.name}{b.shape}" for b in OBSERVATION_LAYOUT)
    text = f"{FORMAT_VERSION}|{OBSERVATION_SIZE}|{blocks}|{'|'.join(FEATURE_LAYOUT)}|{FEATURE_SIZE}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


LAYOUT_HASH = _layout_hash()


class WeightsError(ValueError):
    """A weights file this code cannot use (wrong version or feature layout, or damaged)."""


def numpy_available() -> bool:
    try:
        import numpy  # noqa: F401
    except ImportError:
        return False
    return True


def _logit(p: float) -> float:
    p = min(0.999, max(0.001, p))
    return math.log(p / (1.0 - p))


def feature_list(state: BattleLineState, player: int, samples: int = 0) -> list[float]:
    """The features of ``state`` as ``player`` sees it (no numpy needed): see ``FEATURE_LAYOUT``.

    ``samples``: futures behind the flag odds (0: today's evaluation's, 10)."""
    obs = _encoding(state.ruleset).observation_tensor_of(state, player)
    # the futures are seeded by what the view shows (a sampled deal has no history, so the
    # game's length, which today's evaluation uses, would differ from the real game's)
    seed = 64 * sum(len(side) for side in state.sides) + len(state.tdeck)
    # the instance's default: read through the compiled class, ``eval_samples`` is a descriptor, not 10
    position = Position(state, player, _NO_RNG, samples or POLICY.eval_samples, eval_shares(), seed=seed)
    value, _ = position.value(with_weights=False)
    out = list(obs[_CARDS_END:])
    out += [obs[i] for i in _HAND]
    out += position.base
    out += (_logit(value), filled_share(state), 1.0 if state.cfg.variant.tactics else 0.0)
    return out


def base_logits(x: FloatArray) -> FloatArray:
    """Today's evaluation's logits of feature rows (see :func:`todays_value`): the network
    starts from them and learns what to add, so that little data cannot make it worse than
    what it is built on."""
    return cast("FloatArray", x[..., -3] * x[..., -2])


def todays_value(features: list[float]) -> float:
    """Today's cut-off evaluation (``heuristic_battleline.calibrated``: the game value's
    logit times the share of the table filled), read off a feature vector."""
    z = features[-3] * features[-2]
    return 1.0 / (1.0 + math.exp(-z))


@cache
def _encoding(ruleset: str) -> BattleLineEncoding:
    return BattleLineEncoding(ruleset)


class ValueModel:
    """A trained value network: ``predict`` gives the mover's win chance per feature row."""

    def __init__(self, arrays: dict[str, Any], meta: dict[str, Any]) -> None:
        import numpy as np

        self.meta = meta
        self.rulesets: frozenset[str] = frozenset(meta.get("rulesets", ()))
        self.mean: FloatArray = np.asarray(arrays["mean"], dtype=np.float32)
        self.scale: FloatArray = np.asarray(arrays["scale"], dtype=np.float32)
        self.layers: list[tuple[FloatArray, FloatArray]] = []
        i = 0
        while f"w{i}" in arrays:
            self.layers.append((np.asarray(arrays[f"w{i}"], dtype=np.float32), np.asarray(arrays[f"b{i}"], dtype=np.float32)))
            i += 1
        if not self.layers or self.mean.shape != (FEATURE_SIZE,) or self.layers[0][0].shape[0] != FEATURE_SIZE:
            raise WeightsError("value weights: the arrays do not fit the feature layout")

    def logits(self, x: FloatArray) -> FloatArray:
        """The network's logits: today's evaluation's logit plus the learned correction."""
        import numpy as np

        h = (x - self.mean) * self.scale
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < last:
                h = np.maximum(h, 0.0)
        return cast("FloatArray", h[..., 0] + base_logits(x))

    def predict(self, x: FloatArray) -> FloatArray:
        import numpy as np

        return cast("FloatArray", 1.0 / (1.0 + np.exp(-self.logits(x))))

    def value(self, state: BattleLineState, player: int, mix: float = 1.0) -> float:
        """``player``'s win chance in ``state`` (not over), read from ``player``'s view;
        ``mix`` < 1 blends in today's evaluation (:func:`todays_value`) by that share."""
        import numpy as np

        features = feature_list(state, player)
        z = float(self.logits(np.asarray(features, dtype=np.float32)))
        learned = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
        return learned if mix >= 1.0 else mix * learned + (1.0 - mix) * todays_value(features)

    def save(self, path: Path) -> None:
        import numpy as np

        arrays: dict[str, Any] = {"mean": self.mean, "scale": self.scale}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"], arrays[f"b{i}"] = w, b
        header = {**self.meta, "version": FORMAT_VERSION, "layout": LAYOUT_HASH}
        arrays["header"] = np.frombuffer(json.dumps(header, sort_keys=True).encode(), dtype=np.uint8)
        with path.open("wb") as f:
            np.savez_compressed(f, **arrays)

    @classmethod
    def load(cls, path: Path) -> ValueModel:
        import numpy as np

        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {k: data[k] for k in data.files}
            meta = json.loads(bytes(arrays.pop("header")).decode())
        except (OSError, ValueError, KeyError) as exc:
            raise WeightsError(f"value weights {path}: not a weights file ({exc})") from exc
        if meta.get("version") != FORMAT_VERSION:
            raise WeightsError(f"value weights {path}: format version {meta.get('version')}, this code reads {FORMAT_VERSION}")
        if meta.get("layout") != LAYOUT_HASH:
            raise WeightsError(
                f"value weights {path}: trained on feature layout {meta.get('layout')}, the code's is {LAYOUT_HASH}; "
                "retrain them (benchmarks/train_value.py)"
            )
        return cls(arrays, meta)


@cache
def shipped_model() -> ValueModel | None:
    """The packaged model (or the file named by ``FRONTLINES_VALUE_WEIGHTS``, to try other
    weights), ``None`` without numpy or without the file. A file that is there but does not
    fit the code raises :class:`WeightsError`: weights that no longer match are a bug to
    see, not to hide."""
    path = Path(os.environ.get("FRONTLINES_VALUE_WEIGHTS") or WEIGHTS_FILE)
    if not numpy_available() or not path.exists():
        return None
    return ValueModel.load(path)


def available(ruleset: str) -> bool:
    """Whether the learned evaluation plays in ``ruleset`` here (numpy, weights, coverage)."""
    model = shipped_model()
    return model is not None and ruleset in model.rulesets


class LearnedBattleLinePolicy(GamePolicy):
    """The Battle Line policy with the learned evaluation at the search's cut-off, mixed
    with today's (``mix``: the learned one's share of the win chance; today's comes free
    with the features); move ranking, candidates and rollouts are the heuristic's.

    It wraps the heuristic's policy rather than subclassing it: the compiled build
    (``core/build.py``) compiles ``BattleLinePolicy``, and an interpreted class cannot
    inherit from a compiled one."""

    game = "battleline"

    def __init__(self, model: ValueModel, mix: float = 1.0, base: GamePolicy | None = None) -> None:
        self.model = model
        self.mix = mix
        self.base = base if base is not None else BattleLinePolicy()
        self.prior_scale = self.base.prior_scale

    def forced(self, state: State | View, legal: list[Action]) -> Action | None:
        return self.base.forced(state, legal)

    def determinise(self, view: View, rng: random.Random) -> State:
        return self.base.determinise(view, rng)

    def choose(self, view: View, rng: random.Random, samples: int = 0) -> Action:
        return self.base.choose(view, rng, samples)

    def ranked(self, view: View, rng: random.Random, samples: int = 0) -> list[tuple[float, Action]]:
        return self.base.ranked(view, rng, samples)

    def candidates(self, state: State, legal: list[Action], width: int, rng: random.Random) -> list[Action]:
        return self.base.candidates(state, legal, width, rng)

    def rollout_action(self, state: State, legal: list[Action], rng: random.Random) -> Action:
        return self.base.rollout_action(state, legal, rng)

    def progress(self, view: View) -> float:
        return self.base.progress(view)

    def with_evaluation(self, samples: int, scale: float, hand: bool = False) -> GamePolicy:
        return self  # the network is its own calibration

    def evaluate(self, state: State, player: int) -> float:
        if state.is_terminal():
            return outcome_value(state.outcome(), player)
        return self.model.value(cast(BattleLineState, state), player, self.mix)


def learned_policy(policy: GamePolicy, ruleset: str, mix: float = 1.0, model: ValueModel | None = None) -> GamePolicy:
    """``policy`` with the learned evaluation (share ``mix``) where it plays (see
    :func:`available`), else ``policy`` itself: today's evaluation."""
    model = model or shipped_model()
    if model is None or ruleset not in model.rulesets or not isinstance(policy, BattleLinePolicy):
        return policy
    return _learned(model, mix, policy)


@cache
def _learned(model: ValueModel, mix: float, base: GamePolicy) -> LearnedBattleLinePolicy:
    return LearnedBattleLinePolicy(model, mix, base)
