"""A recipe: learn to beat the ``heuristic`` bot at Battle Line (basic game) from nothing but
the environments, with numpy only.

    python examples/beat_heuristic.py --state DIR            # train (resumable), measure, plot
    python examples/beat_heuristic.py --state DIR --hours 3  # stop training after 3 hours
    python examples/beat_heuristic.py --short                # CI: a few minutes, asserts that it learns

Everything goes through the public interfaces: self-play through PettingZoo
(``frontlines.rl.pettingzoo.raw_env``: both seats play the same network), the measurements
against ``heuristic`` through Gymnasium (``frontlines/BattleLine-v0``, ``opponent="heuristic"``,
both seats of each deal: paired games). The network reads only the observation tensor, by
its documented layout (docs/research.md), and the action ids' codes (``Encoding.codes``).

The player. Battle Line is won by flags: three adjacent, or five. The network is one small
tower shared by the nine flags: from a flag's cards (mine, theirs, and what each side makes
so far: one colour, one value, a run, its sum), my hand, the troops I have not seen, the
flag's row of the observation and the global entries, the chance that I win that flag. A claimed flag is certain. The chance of winning the game follows from the
nine flag chances as if they were independent coins (the exact sum over the 512 ways to
share the flags: three adjacent or five, both having three adjacent counting half). Each
decision looks one ply ahead: every card it may play at every flag is scored by that game
chance after the card is down (an *afterstate*: the tower's first layer is linear, so a
candidate only adds a few columns of weights to the position's own activations, and what
its flag's side makes); a provable
claim is always made, and the draw is the only other choice in the basic game.

The learning. After each self-play game, every flag whose claim decided it labels every
afterstate the game went through from both seats (won by me 1, by them 0; flags left
unclaimed at the end carry no label): a logistic loss per flag, Adam, a replay buffer of
recent games. Exploration: with a small probability a decision plays a random card. Every
``--every`` games the greedy player is measured against ``heuristic`` and against ``easy``
(the heuristic with half its moves careless, a milestone on the way) on fixed deals, both
seats each (the learning curve, saved in the state directory and drawn as a PNG); at the end
against ``heuristic`` over ``--final`` deals: a score (win 1, draw 1/2) with its 95 %
interval.

The state directory keeps the weights, the optimiser, the random generator and the curve,
saved at each measurement: stopping and starting again goes on from the last one (the
replay buffer, a few dozen games, fills again).
"""

from __future__ import annotations

import argparse
import json
import math
import struct
import time
import zlib
from itertools import pairwise
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

import frontlines.rl.gymnasium  # noqa: F401  (registers frontlines/BattleLine-v0)
from frontlines.core.encoding import layout_offsets
from frontlines.games import encoding
from frontlines.rl.pettingzoo import raw_env

RULESET = "battleline-basic"
EASY = "heuristic:noise=0.5"  # the level "easy": a milestone on the way to heuristic
TROOPS, FLAGS, PLACES, ROW = 60, 9, 21, 21
ENC = encoding(RULESET)
OFFSETS = layout_offsets(ENC.observation_layout)
CARDS, FLAG_ROWS, GLOBAL = OFFSETS["cards"][0], OFFSETS["flags"][0], OFFSETS["global"]
CODES = np.array(ENC.codes)
PLAY_IDS = CODES < TROOPS * FLAGS  # a troop played: code card * 9 + flag
CARD_OF, FLAG_OF = np.divmod(np.where(PLAY_IDS, CODES, 0), FLAGS)
CLAIM_IDS = np.array([ENC.action_id(c) for c in ENC.codes if TROOPS * FLAGS <= c < TROOPS * FLAGS + FLAGS])

# the feature row of one flag: mine, theirs, hand, unseen (60 each), the flag's row, the
# globals, then what each side's cards make so far (SHAPE entries for mine, then theirs)
MINE, THEIRS, HAND, UNSEEN, FLAG_ROW = 0, 60, 120, 180, 240
GLOB = FLAG_ROW + ROW
SHAPES = GLOB + (GLOBAL[1] - GLOBAL[0])
SHAPE = 6
FEATURES = SHAPES + 2 * SHAPE
VALUES = np.arange(1, 11, dtype=np.float32)


def shapes(sides: np.ndarray) -> np.ndarray:
    """What the cards of each side make so far (rows of 60 troop one-hots, card = colour *
    10 + value - 1): its size / 3, the most cards of one colour / 3, all one colour, all one
    value, distinct values within a span of three (a run so far), the sum of values / 27.
    The one-hots alone would leave the network to find formations from scratch."""
    grid = sides.reshape(-1, 6, 10)
    n = grid.sum((1, 2))
    colours, values = grid.sum(2), grid.sum(1)
    some = n > 0
    present = values > 0
    low = np.where(some, present.argmax(1), 0)
    high = np.where(some, 9 - present[:, ::-1].argmax(1), 0)
    out = np.empty((len(grid), SHAPE), np.float32)
    out[:, 0] = n / 3
    out[:, 1] = colours.max(1) / 3
    out[:, 2] = some & (colours.max(1) == n)
    out[:, 3] = some & (values.max(1) == n)
    out[:, 4] = some & (values.max(1) <= 1) & (high - low <= 2)
    out[:, 5] = values @ VALUES / 27
    return out


# --- the game value from flag chances -----------------------------------------------------
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


def game_chance(p: np.ndarray) -> np.ndarray:
    """The chance of winning the game, per row of flag chances ``p`` (K x 9)."""
    p = np.clip(p, 1e-6, 1 - 1e-6)
    log_ways = np.log(p) @ WAYS.T + np.log1p(-p) @ (1 - WAYS).T  # K x 512
    return np.exp(log_ways) @ WORTH


# --- features ---------------------------------------------------------------------------------
def flag_features(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The nine feature rows of observation ``x`` (9 x FEATURES), and who holds each flag
    (+1 me, -1 them, 0 nobody)."""
    cards = x[CARDS:CARDS + 70 * PLACES].reshape(70, PLACES)[:TROOPS]
    rows = x[FLAG_ROWS:FLAG_ROWS + FLAGS * ROW].reshape(FLAGS, ROW)
    out = np.empty((FLAGS, FEATURES), np.float32)
    out[:, MINE:MINE + TROOPS] = cards[:, 1:1 + FLAGS].T
    out[:, THEIRS:THEIRS + TROOPS] = cards[:, 10:10 + FLAGS].T
    out[:, HAND:HAND + TROOPS] = cards[:, 0]
    out[:, UNSEEN:UNSEEN + TROOPS] = 1.0 - cards.sum(1)
    out[:, FLAG_ROW:GLOB] = rows
    out[:, GLOB:SHAPES] = x[GLOBAL[0]:GLOBAL[1]]
    out[:, SHAPES:SHAPES + SHAPE] = shapes(out[:, MINE:MINE + TROOPS])
    out[:, SHAPES + SHAPE:] = shapes(out[:, THEIRS:THEIRS + TROOPS])
    return out, rows[:, 0] - rows[:, 1]


def afterstate(features: np.ndarray, card: int, flag: int) -> np.ndarray:
    """The feature rows once I have played ``card`` at ``flag`` (what the observation would
    show before the draw: the card on my side, out of my hand, the flag's count)."""
    out = features.copy()
    out[:, HAND + card] = 0.0
    out[flag, MINE + card] = 1.0
    out[flag, FLAG_ROW + 8] += 0.2
    out[:, GLOB + 9] -= 1 / 9
    out[flag, SHAPES:SHAPES + SHAPE] = shapes(out[flag, MINE:MINE + TROOPS])[0]
    return out


# --- the network --------------------------------------------------------------------------------
class Tower:
    """features -> hidden (ReLU) -> the logit of winning the flag, with Adam."""

    def __init__(self, rng: np.random.Generator, hidden: int = 64) -> None:
        self.params = {
            "w1": (rng.standard_normal((FEATURES, hidden)) * math.sqrt(2 / FEATURES)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "w2": (rng.standard_normal(hidden) * 0.01).astype(np.float32),
            "b2": np.zeros(1, np.float32),
        }
        self.m = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.steps = 0

    def logits(self, rows: np.ndarray) -> np.ndarray:
        p = self.params
        return np.maximum(rows @ p["w1"] + p["b1"], 0.0) @ p["w2"] + p["b2"][0]

    def choose(self, x: np.ndarray, legal: np.ndarray, rng: np.random.Generator, explore: float) -> int:
        """The id to play in observation ``x`` among the ``legal`` ids."""
        claims = legal[np.isin(legal, CLAIM_IDS)]
        if len(claims):
            return int(claims[0])  # a claim is legal only when proven: always worth making
        plays = legal[PLAY_IDS[legal]]
        if not len(plays):
            return int(legal[0])  # the draw (or a pass when nothing can be played)
        if explore and rng.random() < explore:
            return int(rng.choice(plays))
        features, held = flag_features(x)
        p = self.params
        base = features @ p["w1"] + p["b1"]  # 9 x H: the position's own first layer
        cards, flags = CARD_OF[plays], FLAG_OF[plays]
        w1 = p["w1"]
        # each candidate changes a few columns of every flag's row (afterstate()): added linearly
        every = -w1[HAND + cards] - w1[GLOB + 9] / 9  # K x H, for all nine flags
        at = w1[MINE + cards] + 0.2 * w1[FLAG_ROW + 8]  # K x H, for the flag played at
        mine_after = features[flags, MINE:MINE + TROOPS]  # K x 60: my side of the flag played at
        mine_after[np.arange(len(plays)), cards] = 1.0
        at += (shapes(mine_after) - features[flags, SHAPES:SHAPES + SHAPE]) @ w1[SHAPES:SHAPES + SHAPE]
        pre = base[None, :, :] + every[:, None, :]
        pre[np.arange(len(plays)), flags] += at
        chances = 1 / (1 + np.exp(-(np.maximum(pre, 0.0) @ p["w2"] + p["b2"][0])))  # K x 9
        chances[:, held > 0] = 1.0
        chances[:, held < 0] = 0.0
        return int(plays[int(np.argmax(game_chance(chances)))])

    def learn(self, rows: np.ndarray, labels: np.ndarray, rate: float) -> float:
        """One Adam step on the logistic loss of ``rows`` (N x FEATURES) against ``labels``
        (0/1); the loss before the step."""
        p = self.params
        hidden_pre = rows @ p["w1"] + p["b1"]
        hidden = np.maximum(hidden_pre, 0.0)
        z = hidden @ p["w2"] + p["b2"][0]
        q = 1 / (1 + np.exp(-z))
        loss = float(np.mean(np.logaddexp(0, z) - labels * z))
        g = (q - labels) / len(labels)  # d loss / d z
        grads = {"w2": hidden.T @ g, "b2": np.array([g.sum()], np.float32)}
        gh = np.outer(g, p["w2"]) * (hidden_pre > 0)
        grads["w1"] = rows.T @ gh
        grads["b1"] = gh.sum(0)
        self.steps += 1
        for k, grad in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * grad
            self.v[k] = 0.999 * self.v[k] + 0.001 * grad * grad
            m = self.m[k] / (1 - 0.9 ** self.steps)
            v = self.v[k] / (1 - 0.999 ** self.steps)
            p[k] -= (rate * m / (np.sqrt(v) + 1e-8)).astype(np.float32)
        return loss

    def state(self) -> dict[str, np.ndarray]:
        out = {f"p_{k}": v for k, v in self.params.items()}
        out |= {f"m_{k}": v for k, v in self.m.items()} | {f"v_{k}": v for k, v in self.v.items()}
        out["steps"] = np.array(self.steps)
        return out

    def load(self, data: Any) -> None:
        for k in self.params:
            self.params[k], self.m[k], self.v[k] = data[f"p_{k}"], data[f"m_{k}"], data[f"v_{k}"]
        self.steps = int(data["steps"])


# --- self-play and measuring --------------------------------------------------------------------
def self_play(env: Any, tower: Tower, rng: np.random.Generator, explore: float) -> tuple[np.ndarray, np.ndarray]:
    """One self-play game through PettingZoo: the afterstate rows of every card played
    (both seats, each from its own side) and their labels (who won that flag, -1 unknown)."""
    env.reset(seed=int(rng.integers(1 << 62)))
    played: dict[str, list[tuple[np.ndarray, int, int]]] = {a: [] for a in env.possible_agents}
    while True:
        agent = env.agent_selection
        obs, _reward, termination, truncation, _info = env.last()
        if termination or truncation:
            break
        x = obs["observation"]
        action = tower.choose(x, np.flatnonzero(obs["action_mask"]), rng, explore)
        if PLAY_IDS[action]:
            played[agent].append((x, int(CARD_OF[action]), int(FLAG_OF[action])))
        env.step(action)
    rows, labels = [], []
    for agent, moves in played.items():
        _features, held = flag_features(env.observe(agent)["observation"])  # the end, from this seat
        label = np.where(held > 0, 1.0, np.where(held < 0, 0.0, -1.0))
        for x, card, flag in moves:
            features, before = flag_features(x)
            after = afterstate(features, card, flag)
            open_ = before == 0  # a flag already claimed teaches nothing
            rows.append(after[open_])
            labels.append(label[open_])
    return np.concatenate(rows), np.concatenate(labels).astype(np.float32)


def measure(tower: Tower, deals: int, first: int = 10**6, opponent: str = "heuristic") -> tuple[float, float]:
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
                action = tower.choose(obs["observation"], np.flatnonzero(obs["action_mask"]), rng, 0.0)
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
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--state", type=Path, help="state directory (resumable); default: a fresh one per run")
    parser.add_argument("--games", type=int, default=60000, help="self-play games in all")
    parser.add_argument("--hours", type=float, default=0.0, help="stop training after this long (0: no limit)")
    parser.add_argument("--every", type=int, default=2000, help="measure against heuristic every N games")
    parser.add_argument("--deals", type=int, default=100, help="deals per measurement (both seats each)")
    parser.add_argument("--final", type=int, default=1000, help="deals of the final measurement (both seats each)")
    parser.add_argument("--rate", type=float, default=1e-3)
    parser.add_argument("--explore", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plot", type=Path, help="where to draw the curve (default: STATE/curve.png)")
    parser.add_argument("--short", action="store_true", help="CI: 300 games, measured against random, asserts")
    args = parser.parse_args()
    if args.short:
        args.games, args.every, args.deals, args.final = 300, 300, 30, 0
    state_dir: Path = args.state or Path(f"/tmp/beat_heuristic_{int(time.time())}")
    state_dir.mkdir(parents=True, exist_ok=True)
    saved = state_dir / "state.npz"
    tower = Tower(np.random.default_rng(args.seed))
    rng = np.random.default_rng(args.seed + 1)
    progress: dict[str, Any] = {"games": 0, "seconds": 0.0, "curve": []}
    buffer: list[tuple[np.ndarray, np.ndarray]] = []
    if saved.exists():
        data = np.load(saved, allow_pickle=False)
        tower.load(data)
        rng.bit_generator.state = json.loads(str(data["rng"]))
        progress = json.loads(str(data["progress"]))
        print(f"resuming after {progress['games']} games")
    opponent = "random" if args.short else "heuristic"
    env = raw_env(ruleset=RULESET)
    def point() -> dict[str, float]:
        """A point of the curve: the score against ``heuristic`` (``random`` in --short) and,
        as the way there, against ``easy`` (the heuristic with half its moves careless)."""
        score, half = measure(tower, args.deals, opponent=opponent)
        out = {"games": progress["games"], "score": score, "half": half}
        if not args.short:
            out["easy"], out["easy_half"] = measure(tower, args.deals, opponent=EASY)
        print(f"{progress['games']} games: {score:.1%} ± {half:.1%} against {opponent}"
              + (f", {out['easy']:.1%} ± {out['easy_half']:.1%} against easy" if "easy" in out else ""), flush=True)
        return out

    if not progress["curve"]:
        progress["curve"].append(point())
    start = time.monotonic()
    last_loss = math.nan
    while progress["games"] < args.games:
        if args.hours and progress["seconds"] + time.monotonic() - start > args.hours * 3600:
            break
        rows, labels = self_play(env, tower, rng, args.explore)
        keep = labels >= 0
        buffer.append((rows[keep], labels[keep]))
        del buffer[:-50]  # recent games only: the player changes
        batch_rows = np.concatenate([r for r, _ in buffer[-8:]])
        batch_labels = np.concatenate([lab for _, lab in buffer[-8:]])
        for _ in range(2):
            pick = rng.integers(len(batch_labels), size=min(256, len(batch_labels)))
            last_loss = tower.learn(batch_rows[pick], batch_labels[pick], args.rate)
        progress["games"] += 1
        if progress["games"] % 100 == 0:
            print(f"  {progress['games']} games, loss {last_loss:.3f}, "
                  f"{progress['seconds'] + time.monotonic() - start:.0f} s", flush=True)
        if progress["games"] % args.every == 0:
            progress["curve"].append(point())
            progress["seconds"] += time.monotonic() - start
            start = time.monotonic()
            np.savez(saved, **tower.state(), rng=json.dumps(rng.bit_generator.state), progress=json.dumps(progress))
            plot(args.plot or state_dir / "curve.png", progress["curve"])
    if args.short:
        first, last = progress["curve"][0]["score"], progress["curve"][-1]["score"]
        print(f"against random: {first:.1%} untrained, {last:.1%} after {progress['games']} games")
        assert last >= 0.75 and last > first + 0.1, "the player did not learn"
        return
    if args.final:
        score, half = measure(tower, args.final, first=2 * 10**6)
        print(f"final: {score:.1%} ± {half:.1%} against heuristic over {2 * args.final} games ({args.final} deals,"
              " both seats)")
        progress["final"] = {"score": score, "half": half, "games": 2 * args.final}
        np.savez(saved, **tower.state(), rng=json.dumps(rng.bit_generator.state), progress=json.dumps(progress))


if __name__ == "__main__":
    main()
