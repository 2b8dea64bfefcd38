"""A recipe: learn to beat the ``heuristic`` bot at Battle Line (basic game) from nothing but
the environments, with numpy only.

    python examples/beat_heuristic.py --state DIR            # train (resumable), measure, plot
    python examples/beat_heuristic.py --state DIR --hours 3  # stop training after 3 hours
    python examples/beat_heuristic.py --short                # CI: a few minutes, asserts that it learns

Everything goes through the public interfaces. Games are played through Gymnasium
(``frontlines/BattleLine-v0`` with ``opponent="heuristic"``: the environment's own bot as a
sparring partner, a random seat each game) and PettingZoo (``frontlines.rl.pettingzoo.raw_env``:
self-play, both seats one network); the measurements against ``heuristic`` through Gymnasium
on fixed deals, each from both seats (paired games). The player reads only the observation
tensor (by its documented layout, docs/research.md) and the action ids' codes
(``Encoding.codes``).

The player. Battle Line is won by flags: three adjacent, or five. Each open flag is
described by exact facts worked out from the observation (``flag_facts.py``: the formations
each side has or can still make from my hand, from the troops I have not seen, which flags
are surely won or lost, who completed first, the neighbours, the counts). One small tower
shared by the nine flags turns a flag's facts into the chance that I win it; the chance of
winning the game follows from the nine chances as if they were independent coins (the exact
sum over the 512 ways to share the flags: three adjacent or five, both having three
adjacent counting half). Each decision looks one ply ahead: every card it may play at every
flag is scored by that game chance after the card is down (the *afterstate*, decoded from
the observation without the engine); a provable claim is always made, and the draw is the
only other choice in the basic game.

The learning. Every afterstate a game went through (of the learner's seats) is labelled at
the end of the game with who won each flag (claimed, or both sides complete and compared;
a flag left undecided carries no label) and with the result of the game. The loss is a
logistic loss per labelled flag plus the logistic loss of the game chance against the
result (back through the 512-way sum into the tower), Adam over a replay buffer of recent
afterstates. Exploration: with a small probability a decision plays a random card. Every
``--every`` games the greedy player is measured against ``heuristic`` and ``easy`` (the
heuristic with half its moves careless) on fixed deals (the learning curve, saved in the
state directory and drawn as a PNG); at the end against ``heuristic`` over ``--final``
deals, both seats each: a score (win 1, draw 1/2) with its 95 % interval.

The state directory keeps the weights, the optimiser, the random generator and the curve,
saved at each measurement: stopping and starting again goes on from the last one (the
replay buffer fills again).
"""

from __future__ import annotations

# ruff: noqa: E402  (numpy's thread count is set before numpy is imported; flag_facts.py is found beside this file)
import os

# one thread for numpy's matrix products: the batches are small, and the machine is shared
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import argparse
import json
import math
import struct
import sys
import time
import zlib
from itertools import pairwise
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # flag_facts.py beside this file

from flag_facts import ENC, FEATURES, FLAGS, RULESET, Position

import frontlines.rl.gymnasium  # noqa: F401  (registers frontlines/BattleLine-v0)
from frontlines.rl.pettingzoo import raw_env

EASY = "heuristic:noise=0.5"  # the level "easy": a milestone on the way to heuristic
TROOP_PLAYS = 60 * FLAGS  # codes below: a troop played, card * 9 + flag
CODES = np.array(ENC.codes)
IS_PLAY = CODES < TROOP_PLAYS
IS_CLAIM = (CODES >= TROOP_PLAYS) & (CODES < TROOP_PLAYS + FLAGS)


# --- the game chance from flag chances -----------------------------------------------------
def _game_table() -> tuple[np.ndarray, np.ndarray]:
    """Every way to share the nine flags (bit f: I hold flag f), as a 512 x 9 0/1 matrix, and
    what each way is worth to me: 1 if only I have three adjacent or five, 0 if only they
    do, 1/2 if both have three adjacent."""
    ways = np.array([[s >> f & 1 for f in range(FLAGS)] for s in range(512)], np.float64)

    def wins(mine: np.ndarray) -> np.ndarray:
        adjacent = np.zeros(len(mine), bool)
        for f in range(FLAGS - 2):
            adjacent |= mine[:, f:f + 3].all(1)
        return adjacent | (mine.sum(1) >= 5)

    me, them = wins(ways == 1), wins(ways == 0)
    worth = np.where(me & ~them, 1.0, np.where(them & ~me, 0.0, 0.5))
    return ways, worth


WAYS, WORTH = _game_table()
_EPS = 1e-6


def game_chance(p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The chance of winning the game per row of flag chances ``p`` (K x 9), and its gradient
    with respect to each flag's chance (K x 9)."""
    p = np.clip(p, _EPS, 1 - _EPS)
    ways = np.exp(np.log(p) @ WAYS.T + np.log1p(-p) @ (1 - WAYS).T)  # K x 512: each way's chance
    worth = ways * WORTH
    value = worth.sum(1)
    grad = (worth @ WAYS) / p - (worth @ (1 - WAYS)) / (1 - p)
    return value, grad


# --- the network --------------------------------------------------------------------------------
class FlagNet:
    """The tower shared by the flags: facts -> 64 -> 32 (ReLU) -> the logit of winning the flag;
    Adam."""

    def __init__(self, rng: np.random.Generator, hidden: tuple[int, int] = (64, 32)) -> None:
        a, b = hidden
        self.params = {
            "w1": (rng.standard_normal((FEATURES, a)) * math.sqrt(2 / FEATURES)).astype(np.float32),
            "b1": np.zeros(a, np.float32),
            "w2": (rng.standard_normal((a, b)) * math.sqrt(2 / a)).astype(np.float32),
            "b2": np.zeros(b, np.float32),
            "w3": (rng.standard_normal(b) * 0.01).astype(np.float32),
            "b3": np.zeros(1, np.float32),
        }
        self.m = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.steps = 0

    def forward(self, rows: np.ndarray) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
        p = self.params
        h1 = np.maximum(rows @ p["w1"] + p["b1"], 0.0)
        h2 = np.maximum(h1 @ p["w2"] + p["b2"], 0.0)
        return h2 @ p["w3"] + p["b3"][0], (rows, h1, h2)

    def chances(self, facts: np.ndarray, fixed: np.ndarray) -> np.ndarray:
        """Flag chances (K x 9) of K afterstates' facts (K x 9 x FEATURES); ``fixed`` (K x 9)
        holds the certain ones (NaN: open)."""
        k = len(facts)
        logits, _ = self.forward(facts.reshape(k * FLAGS, FEATURES))
        p = 1 / (1 + np.exp(-logits.reshape(k, FLAGS)))
        return np.where(np.isnan(fixed), p, fixed)

    def values(self, facts: np.ndarray, fixed: np.ndarray) -> np.ndarray:
        return game_chance(self.chances(facts, fixed))[0]

    def learn(self, facts: np.ndarray, fixed: np.ndarray, labels: np.ndarray, results: np.ndarray, rate: float,
              game_weight: float = 1.0) -> tuple[float, float]:
        """One Adam step on a batch of B afterstates: facts (B x 9 x F), fixed chances (B x 9,
        NaN open), flag labels (B x 9; 1 won, 0 lost, -1 undecided), game results (B; 1, 1/2,
        0). Returns the flag loss and the game loss before the step."""
        b = len(facts)
        logits, (rows, h1, h2) = self.forward(facts.reshape(b * FLAGS, FEATURES).astype(np.float32))
        z = logits.reshape(b, FLAGS).astype(np.float64)
        q = 1 / (1 + np.exp(-z))
        open_ = np.isnan(fixed)
        labelled = open_ & (labels >= 0)
        n = max(1, int(labelled.sum()))
        flag_loss = float((np.logaddexp(0, z) - labels * z)[labelled].sum() / n)
        dz = np.where(labelled, q - labels, 0.0) / n
        p = np.where(open_, q, fixed)
        value, grad = game_chance(p)
        value = np.clip(value, 1e-4, 1 - 1e-4)
        game_loss = float(-(results * np.log(value) + (1 - results) * np.log(1 - value)).mean())
        dvalue = (value - results) / (value * (1 - value)) / b
        dz += game_weight * np.where(open_, dvalue[:, None] * grad * q * (1 - q), 0.0)
        g = dz.reshape(-1).astype(np.float32)
        par = self.params
        grads = {"w3": h2.T @ g, "b3": np.array([g.sum()], np.float32)}
        g2 = np.outer(g, par["w3"]) * (h2 > 0)
        grads["w2"], grads["b2"] = h1.T @ g2, g2.sum(0)
        g1 = (g2 @ par["w2"].T) * (h1 > 0)
        grads["w1"], grads["b1"] = rows.T @ g1, g1.sum(0)
        self.steps += 1
        for key, grad_k in grads.items():
            self.m[key] = 0.9 * self.m[key] + 0.1 * grad_k
            self.v[key] = 0.999 * self.v[key] + 0.001 * grad_k * grad_k
            m = self.m[key] / (1 - 0.9 ** self.steps)
            v = self.v[key] / (1 - 0.999 ** self.steps)
            par[key] -= (rate * m / (np.sqrt(v) + 1e-8)).astype(np.float32)
        return flag_loss, game_loss

    def state(self) -> dict[str, np.ndarray]:
        out = {f"p_{k}": v for k, v in self.params.items()}
        out |= {f"m_{k}": v for k, v in self.m.items()} | {f"v_{k}": v for k, v in self.v.items()}
        out["steps"] = np.array(self.steps)
        return out

    def load(self, data: Any) -> None:
        for k in self.params:
            self.params[k], self.m[k], self.v[k] = data[f"p_{k}"], data[f"m_{k}"], data[f"v_{k}"]
        self.steps = int(data["steps"])


# --- the player ---------------------------------------------------------------------------------
Afterstate = tuple[np.ndarray, np.ndarray]  # facts (9 x F), fixed chances (9)


def choose(net: FlagNet, x: np.ndarray, mask: np.ndarray, rng: np.random.Generator,
           explore: float) -> tuple[int, Afterstate | None]:
    """The id to play in observation ``x`` with legal ids ``mask``, and the afterstate it
    leads to when it is a card played (for learning)."""
    legal = np.flatnonzero(mask)
    claims = legal[IS_CLAIM[legal]]
    if len(claims):
        return int(claims[0]), None  # a claim is legal only when proven: always worth making
    plays = legal[IS_PLAY[legal]]
    if not len(plays):
        return int(legal[0]), None  # the draw (or a pass when no card can be played)
    cards, flags = np.divmod(CODES[plays], FLAGS)
    facts, fixed = Position(x).afterstates(list(zip(cards.tolist(), flags.tolist(), strict=True)))
    if explore and rng.random() < explore:
        pick = int(rng.integers(len(plays)))
    else:
        pick = int(np.argmax(net.values(facts, fixed)))
    return int(plays[pick]), (facts[pick], fixed[pick])


# --- games ----------------------------------------------------------------------------------------
Sample = tuple[np.ndarray, np.ndarray, np.ndarray, float]  # facts, fixed, flag labels, game result


def _labelled(afterstates: list[Afterstate], final: np.ndarray, result: float) -> list[Sample]:
    labels = Position(final).outcome_labels()
    return [(facts, fixed, labels, result) for facts, fixed in afterstates]


def sparring_game(env: Any, net: FlagNet, rng: np.random.Generator, explore: float) -> list[Sample]:
    """One game against the environment's bot through Gymnasium (a random seat): the
    learner's afterstates, labelled."""
    obs, _info = env.reset(seed=int(rng.integers(1 << 62)))
    seen: list[Afterstate] = []
    while True:
        action, after = choose(net, obs["observation"], obs["action_mask"], rng, explore)
        if after is not None:
            seen.append(after)
        obs, reward, terminated, truncated, _info = env.step(action)
        if terminated or truncated:
            return _labelled(seen, obs["observation"], (float(reward) + 1) / 2)


def self_play_game(env: Any, net: FlagNet, rng: np.random.Generator, explore: float) -> list[Sample]:
    """One self-play game through PettingZoo: both seats' afterstates, each labelled from its
    own side."""
    env.reset(seed=int(rng.integers(1 << 62)))
    seen: dict[str, list[Afterstate]] = {a: [] for a in env.possible_agents}
    while True:
        agent = env.agent_selection
        obs, _reward, termination, truncation, _info = env.last()
        if termination or truncation:
            break
        action, after = choose(net, obs["observation"], obs["action_mask"], rng, explore)
        if after is not None:
            seen[agent].append(after)
        env.step(action)
    out: list[Sample] = []
    for agent, afterstates in seen.items():
        result = (env.rewards[agent] + 1) / 2
        out += _labelled(afterstates, env.observe(agent)["observation"], result)
    return out


def measure(net: FlagNet, deals: int, first: int = 10**6, opponent: str = "heuristic") -> tuple[float, float]:
    """Score of the greedy player against ``opponent`` over ``deals`` deals, each played from
    both seats (win 1, draw 1/2, loss 0), and the half-width of its 95 % interval (from the
    deals' paired scores)."""
    rng = np.random.default_rng(0)
    pair_scores = []
    envs = [gymnasium.make("frontlines/BattleLine-v0", ruleset=RULESET, opponent=opponent, seat=s) for s in (0, 1)]
    for d in range(deals):
        total = 0.0
        for env in envs:
            obs, _ = env.reset(seed=first + d)
            while True:
                action, _after = choose(net, obs["observation"], obs["action_mask"], rng, 0.0)
                obs, reward, terminated, truncated, _ = env.step(action)
                if terminated or truncated:
                    total += (float(reward) + 1) / 2
                    break
        pair_scores.append(total / 2)
    scores = np.array(pair_scores)
    half = 1.96 * scores.std(ddof=1) / math.sqrt(len(scores)) if len(scores) > 1 else 0.5
    return float(scores.mean()), float(half)


# --- the curve as a PNG (standard library only: zlib and struct) -----------------------------------
_DIGITS = {  # 3 x 5 pixel digits, row by row
    "0": "111101101101111", "1": "010110010010111", "2": "111001111100111", "3": "111001111001111",
    "4": "101101111001001", "5": "111100111001111", "6": "111100111101111", "7": "111001001001001",
    "8": "111101111101111", "9": "111101111001111", "%": "101001010100101", "k": "100101110101101",
    ".": "000000000000010",
}


def plot(path: Path, curve: list[dict[str, float]], width: int = 720, height: int = 420) -> None:
    """The learning curve by training games: the score against ``heuristic`` (blue) and
    ``easy`` (green), each with its 95 % interval; dashed lines at 50 % (black) and 55 % (red)."""
    white, grey, black, blue, light, red = (255, 255, 255), (210, 210, 210), (0, 0, 0), (30, 80, 200), (180, 200, 240), (200, 40, 40)
    img = [[white] * width for _ in range(height)]
    left, right, top, bottom = 60, width - 20, 20, height - 40
    xmax = max(max(p["games"] for p in curve), 1)

    def xy(games: float, score: float) -> tuple[int, int]:
        return int(left + (right - left) * games / xmax), int(bottom - (bottom - top) * score)

    def dot(x: int, y: int, colour: tuple[int, int, int], r: int = 1) -> None:
        for dy in range(-r, r + 1):
            for dx in range(-r, r + 1):
                if 0 <= y + dy < height and 0 <= x + dx < width:
                    img[y + dy][x + dx] = colour

    def line(a: tuple[int, int], b: tuple[int, int], colour: tuple[int, int, int], r: int = 1, dash: int = 0) -> None:
        n = max(abs(b[0] - a[0]), abs(b[1] - a[1]), 1)
        for i in range(n + 1):
            if dash and (i // dash) % 2:
                continue
            dot(round(a[0] + (b[0] - a[0]) * i / n), round(a[1] + (b[1] - a[1]) * i / n), colour, r)

    def text(x: int, y: int, s: str) -> None:
        for k, ch in enumerate(s):
            bits = _DIGITS.get(ch)
            for i, bit in enumerate(bits or ""):
                if bit == "1":
                    for sy in range(2):
                        for sx in range(2):
                            img[y + (i // 3) * 2 + sy][x + k * 8 + (i % 3) * 2 + sx] = black

    for tenth in range(11):
        y = xy(0, tenth / 10)[1]
        line((left, y), (right, y), grey, 0)
        text(left - 40, y - 5, f"{tenth * 10}%")
    line((left, bottom), (right, bottom), black, 0)
    line((left, top), (left, bottom), black, 0)
    ticks = sorted({p["games"] for p in curve})
    for games in ticks[::max(1, math.ceil(len(ticks) / 8))]:  # the measured points, at most 8 labels
        x = xy(games, 0)[0]
        line((x, bottom), (x, bottom + 4), black, 0)
        label = f"{games / 1000:g}k" if games >= 1000 else f"{games:.0f}"
        text(x - 4 * len(label), bottom + 10, label)
    line(xy(0, 0.5), xy(xmax, 0.5), black, 0, dash=6)
    line(xy(0, 0.55), xy(xmax, 0.55), red, 0, dash=6)
    for key, colour, pale in (("easy", (40, 150, 60), (190, 230, 190)), ("score", blue, light)):
        shown = [p for p in curve if key in p]
        points = [xy(p["games"], p[key]) for p in shown]
        half = "half" if key == "score" else f"{key}_half"
        for p, (x, _y) in zip(shown, points, strict=True):
            line((x, xy(0, p[key] - p[half])[1]), (x, xy(0, p[key] + p[half])[1]), pale, 1)
        for a, b in pairwise(points):
            line(a, b, colour, 1)
        for x, y in points:
            dot(x, y, colour, 2)
    raw = b"".join(b"\0" + bytes(c for px in row for c in px) for row in img)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


# --- the run ----------------------------------------------------------------------------------
class Replay:
    """The most recent ``size`` afterstates (facts kept as float16)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.facts = np.zeros((size, FLAGS, FEATURES), np.float16)
        self.fixed = np.zeros((size, FLAGS), np.float32)
        self.labels = np.zeros((size, FLAGS), np.float32)
        self.results = np.zeros(size, np.float32)
        self.count = 0

    def add(self, samples: list[Sample]) -> None:
        for facts, fixed, labels, result in samples:
            i = self.count % self.size
            self.facts[i], self.fixed[i], self.labels[i], self.results[i] = facts, fixed, labels, result
            self.count += 1

    def batch(self, rng: np.random.Generator, n: int) -> tuple[np.ndarray, ...]:
        pick = rng.integers(min(self.count, self.size), size=n)
        return self.facts[pick].astype(np.float32), self.fixed[pick], self.labels[pick], self.results[pick]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--state", type=Path, help="state directory (resumable); default: a fresh one per run")
    parser.add_argument("--games", type=int, default=20000, help="training games in all")
    parser.add_argument("--hours", type=float, default=0.0, help="stop training after this long (0: no limit)")
    parser.add_argument("--sparring", type=float, default=0.5,
                        help="share of the training games played against heuristic (the rest: self-play)")
    parser.add_argument("--every", type=int, default=1000, help="measure against heuristic every N games")
    parser.add_argument("--deals", type=int, default=100, help="deals per measurement (both seats each)")
    parser.add_argument("--final", type=int, default=1000, help="deals of the final measurement (both seats each)")
    parser.add_argument("--rate", type=float, default=1e-3)
    parser.add_argument("--steps", type=int, default=4, help="Adam steps of 128 afterstates after each game")
    parser.add_argument("--replay", type=int, default=30000, help="afterstates kept for learning")
    parser.add_argument("--explore", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plot", type=Path, help="where to draw the curve (default: STATE/curve.png)")
    parser.add_argument("--short", action="store_true", help="CI: 200 games, measured against easy, asserts")
    args = parser.parse_args()
    if args.short:
        args.games, args.every, args.deals, args.final = 200, 200, 40, 0
    state_dir: Path = args.state or Path(f"/tmp/beat_heuristic_{int(time.time())}")
    state_dir.mkdir(parents=True, exist_ok=True)
    saved = state_dir / "state.npz"
    net = FlagNet(np.random.default_rng(args.seed))
    rng = np.random.default_rng(args.seed + 1)
    progress: dict[str, Any] = {"games": 0, "seconds": 0.0, "curve": []}
    if saved.exists():
        data = np.load(saved, allow_pickle=False)
        net.load(data)
        rng.bit_generator.state = json.loads(str(data["rng"]))
        progress = json.loads(str(data["progress"]))
        print(f"resuming after {progress['games']} games")
    opponent = EASY if args.short else "heuristic"
    sparring = gymnasium.make("frontlines/BattleLine-v0", ruleset=RULESET, opponent="heuristic", seat=None)
    selfplay = raw_env(ruleset=RULESET)
    replay = Replay(args.replay)

    def point() -> dict[str, float]:
        """A point of the curve: the score against ``heuristic`` (``easy`` in --short) and, as
        the way there, against ``easy``."""
        score, half = measure(net, args.deals, opponent=opponent)
        out = {"games": progress["games"], "score": score, "half": half}
        if not args.short:
            out["easy"], out["easy_half"] = measure(net, args.deals, opponent=EASY)
        print(f"{progress['games']} games: {score:.1%} ± {half:.1%} against {opponent}"
              + (f", {out['easy']:.1%} ± {out['easy_half']:.1%} against easy" if "easy" in out else ""), flush=True)
        return out

    def save() -> None:
        np.savez(saved, **net.state(), rng=json.dumps(rng.bit_generator.state), progress=json.dumps(progress))

    if not progress["curve"]:
        progress["curve"].append(point())
        save()
    start = time.monotonic()
    losses = [math.nan, math.nan]
    while progress["games"] < args.games:
        if args.hours and progress["seconds"] + time.monotonic() - start > args.hours * 3600:
            break
        if rng.random() < args.sparring:
            replay.add(sparring_game(sparring, net, rng, args.explore))
        else:
            replay.add(self_play_game(selfplay, net, rng, args.explore))
        for _ in range(args.steps):
            losses = list(net.learn(*replay.batch(rng, 128), args.rate))
        progress["games"] += 1
        if progress["games"] % 100 == 0:
            print(f"  {progress['games']} games, flag loss {losses[0]:.3f}, game loss {losses[1]:.3f}, "
                  f"{progress['seconds'] + time.monotonic() - start:.0f} s", flush=True)
        if progress["games"] % args.every == 0:
            progress["seconds"] += time.monotonic() - start
            progress["curve"].append(point())
            save()
            plot(args.plot or state_dir / "curve.png", progress["curve"])
            start = time.monotonic()
    if args.short:
        first, last = progress["curve"][0]["score"], progress["curve"][-1]["score"]
        print(f"against easy: {first:.1%} untrained, {last:.1%} after {progress['games']} games")
        assert last >= first + 0.1, "the player did not learn"
        return
    if args.final and "final" not in progress:
        score, half = measure(net, args.final, first=2 * 10**6)
        print(f"final: {score:.1%} ± {half:.1%} against heuristic over {2 * args.final} games ({args.final} deals,"
              " both seats)")
        progress["final"] = {"score": score, "half": half, "games": 2 * args.final}
        save()


if __name__ == "__main__":
    main()
