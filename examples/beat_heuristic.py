"""A recipe: learn to beat the ``heuristic`` bot at Battle Line (basic game) from nothing but
the environment, with the package's flag network (``frontlines.bots.net``) and numpy.

    python examples/beat_heuristic.py --state DIR              # train (resumable), measure, plot
    python examples/beat_heuristic.py --state DIR --hours 1.5  # stop training after 1.5 hours
    python examples/beat_heuristic.py --state DIR --draw-only --plot FILE  # redraw the curve, nothing else
    python examples/beat_heuristic.py --short                  # CI: a few minutes, asserts that it learns

Everything goes through Gymnasium (``frontlines/BattleLine-v0``): the training games against
the environment's own ``heuristic`` as a sparring partner (a random seat each game), the
measurements against it on fixed deals, each from both seats (paired games). The agent
reads its position with ``env.unwrapped.view()`` (its view as the Python API's object: its
own cards only, what the observation encodes) and answers with an action id of the mask.
It starts from nothing: fresh random weights, no shipped weights, no recorded games.

The player. Battle Line is won by flags. The flag network's features
(``frontlines.bots.net.features``) describe each flag exactly from the player's view (the
formations each side has or can still make, sure wins and losses, who completed first,
the neighbours). One tower shared by the nine flags gives each flag's chance, and the
game's rule turns the nine into the chance of winning the game (``frontlines.bots.net.model``;
its correction head over where every card lies stays off: with this little data it ranked
the afterstates worse, docs/research.md). Each decision looks one ply ahead:
each card it may play at each flag is applied to a copy of the position and judged there
(the *afterstate*); a provable claim is always made; the draw is the only other choice in
the basic game.

The learning is fitted iteration on outcomes, not online updates. Each iteration plays a
batch of games against ``heuristic`` with the current network (exploring: a share of its
cards played at random), keeps the afterstate of every card it chose, and labels each with
what became of every flag (1 mine, 0 theirs; a flag still open at the end of the game no
label) and with the game's result. Then the flag tower is fitted again, warm, on *all* the
afterstates gathered so far (``frontlines.bots.net.train.fit``: Adam on minibatches, the
log loss of each labelled flag plus that of the game chance; every tenth game held out, the
same ones at every fit, and the best epoch kept) and measured against ``heuristic`` on fixed deals (the learning
curve, drawn as a PNG). At the end it is measured over ``--final`` deals from both seats:
a score (win 1, draw 1/2) with its 95 % interval from the deals' paired scores.

The state directory keeps each iteration's afterstates (a shard), the weights, the random
generator and the curve, written after each iteration: stopping and running again goes on
from the last finished one.
"""

from __future__ import annotations

# ruff: noqa: E402  (numpy's thread count is set before numpy is imported)
import os

# one thread for numpy's matrix products: the batches are small, and the machine may be shared
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import argparse
import json
import math
import random
import struct
import time
import zlib
from itertools import pairwise
from pathlib import Path
from typing import Any, cast

import gymnasium
import numpy as np

import frontlines.rl.gymnasium  # noqa: F401  (registers frontlines/BattleLine-v0)
from frontlines.bots.net.features import Facts, facts
from frontlines.bots.net.model import TOWER, FlagNet, stack
from frontlines.bots.net.train import Arrays, fit
from frontlines.core.game import View
from frontlines.games import encoding
from frontlines.games.battleline.table import Table

RULESET = "battleline-basic"
EASY = "heuristic:noise=0.5"  # the level "easy": a milestone on the way to heuristic
ENV = "frontlines/BattleLine-v0"
_IDS = {code: i for i, code in enumerate(encoding(RULESET).codes)}  # action code -> action id
_CLAIMS = range(630, 639)  # the claim codes (frontlines.games.battleline.codes.CLAIM_BASE + flag)


# --- the player ---------------------------------------------------------------------------------
def choose(net: FlagNet, view: View, rng: random.Random, explore: float) -> tuple[int, Facts | None]:
    """The action id to play in ``view`` and the afterstate's facts when a card was played
    (what the learning keeps). With chance ``explore`` the card is drawn at random."""
    legal = cast(list[int], view.legal_actions())  # Battle Line actions are int codes
    for a in legal:
        if a in _CLAIMS:
            return _IDS[a], None  # a claim is legal only when proven: always worth making
    if len(legal) == 1:
        return _IDS[legal[0]], None  # the draw (or the only card)
    me = view.viewer
    assert me is not None
    base = view.sample(rng)  # any deal consistent with the view: the features read only what `me` knows
    after: list[Facts] = []
    for a in legal:
        s = base.clone()
        s.apply(a)
        after.append(facts(cast(Table, s), me))
    explored = explore and rng.random() < explore
    pick = rng.randrange(len(legal)) if explored else int(np.argmax(net.values(stack(after))))
    return _IDS[legal[pick]], after[pick]


def labels(view: View) -> list[int]:
    """Per flag at the end of a game, from the viewer's side: 1 mine, 0 theirs, -1 open."""
    me = view.viewer
    return [-1 if owner < 0 else int(owner == me) for owner in view.claimed]  # type: ignore[attr-defined]


def play(env: Any, net: FlagNet, seed: int, rng: random.Random, explore: float) -> tuple[float, list[Facts], list[int]]:
    """One game through Gymnasium: (the agent's score: 1, 1/2, 0; the afterstates of its
    cards; each flag's label at the end)."""
    env.reset(seed=seed)
    seen: list[Facts] = []
    agent = env.unwrapped
    while True:
        action, after = choose(net, agent.view(), rng, explore)
        if after is not None:
            seen.append(after)
        _obs, reward, terminated, truncated, _info = env.step(action)
        if terminated or truncated:
            return (float(reward) + 1) / 2, seen, labels(agent.view())


def gather(net: FlagNet, games: int, first: int, rng: random.Random, explore: float) -> Arrays:
    """``games`` training games against ``heuristic`` (game ids ``first``...), as labelled rows."""
    env = gymnasium.make(ENV, ruleset=RULESET, opponent="heuristic", seat=None)
    items: list[Facts] = []
    yflag: list[list[int]] = []
    ygame: list[float] = []
    ids: list[int] = []
    for g in range(first, first + games):
        score, seen, flags = play(env, net, rng.getrandbits(62), rng, explore)
        items += seen
        yflag += [flags] * len(seen)
        ygame += [score] * len(seen)
        ids += [g] * len(seen)
    b = stack(items)
    return Arrays(b.flags.astype(np.float16), b.claimed.astype(np.int8), b.glob.astype(np.float16),
                  b.places.astype(np.int16), np.asarray(yflag, np.float32), np.asarray(ygame, np.float32),
                  np.asarray(ids, np.int64))


def measure(net: FlagNet, deals: int, first: int = 10**6, opponent: str = "heuristic") -> tuple[float, float]:
    """Score of the greedy player against ``opponent`` over ``deals`` deals, each played from
    both seats (win 1, draw 1/2, loss 0), and the half-width of its 95 % interval (from the
    deals' paired scores)."""
    rng = random.Random(0)
    envs = [gymnasium.make(ENV, ruleset=RULESET, opponent=opponent, seat=s) for s in (0, 1)]
    pairs = [sum(play(env, net, first + d, rng, 0.0)[0] for env in envs) / 2 for d in range(deals)]
    scores = np.array(pairs)
    half = 1.96 * scores.std(ddof=1) / math.sqrt(len(scores)) if len(scores) > 1 else 0.5
    return float(scores.mean()), float(half)


# --- the curve as a PNG (standard library only: zlib and struct) -----------------------------------
_DIGITS = {  # 3 x 5 pixel digits, row by row
    "0": "111101101101111", "1": "010110010010111", "2": "111001111100111", "3": "111001111001111",
    "4": "101101111001001", "5": "111100111001111", "6": "111100111101111", "7": "111001001001001",
    "8": "111101111101111", "9": "111101111001111", "%": "101001010100101", "k": "100101110101101",
    ".": "000000000000010",
}


def plot(path: Path, curve: list[dict[str, Any]], width: int = 720, height: int = 420) -> None:
    """The learning curve by training games: the score against ``heuristic`` (blue; against
    ``easy`` in --short, green) with its 95 % interval; dashed lines at 50 % (black) and 55 % (red)."""
    white, grey, black, red = (255, 255, 255), (210, 210, 210), (0, 0, 0), (200, 40, 40)
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
    easy = any(p.get("opponent") == EASY for p in curve)
    colour, pale = ((40, 150, 60), (190, 230, 190)) if easy else ((30, 80, 200), (180, 200, 240))
    points = [xy(p["games"], p["score"]) for p in curve]
    for p, (x, _y) in zip(curve, points, strict=True):
        line((x, xy(0, p["score"] - p["half"])[1]), (x, xy(0, p["score"] + p["half"])[1]), pale, 1)
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
    parser.add_argument("--iterations", type=int, default=10, help="rounds of play-then-fit")
    parser.add_argument("--games", type=int, default=1000, help="training games per iteration")
    parser.add_argument("--hours", type=float, default=0.0, help="start no iteration after this long (0: no limit)")
    parser.add_argument("--explore", type=float, default=0.1, help="share of cards played at random in training")
    parser.add_argument("--epochs", type=int, default=6, help="epochs of each fit at most (the best held-out one is kept)")
    parser.add_argument("--deals", type=int, default=100, help="deals per point of the curve (both seats each)")
    parser.add_argument("--final", type=int, default=1000, help="deals of the final measurement (both seats each)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plot", type=Path, help="where to draw the curve (default: STATE/curve.png)")
    parser.add_argument("--draw-only", action="store_true",
                        help="only draw the state's curve (to --plot) and its final score: no training, no measuring")
    parser.add_argument("--short", action="store_true", help="CI: 2 x 100 games, measured against easy, asserts")
    args = parser.parse_args()
    if args.short:
        args.iterations, args.games, args.deals, args.final = 2, 100, 40, 0
    opponent = EASY if args.short else "heuristic"
    state_dir: Path = args.state or Path(f"/tmp/beat_heuristic_{int(time.time())}")
    (state_dir / "shards").mkdir(parents=True, exist_ok=True)
    weights, progress_file = state_dir / "net.npz", state_dir / "progress.json"
    net = FlagNet.fresh(args.seed, meta={"rulesets": [RULESET], "made": "examples/beat_heuristic.py"})
    rng = random.Random(args.seed)
    progress: dict[str, Any] = {"iteration": 0, "games": 0, "seconds": 0.0, "curve": []}
    if args.draw_only:  # a redraw must not train on to --iterations (its default would)
        if not progress_file.exists():
            parser.error(f"--draw-only: no run in {state_dir}")
        progress = json.loads(progress_file.read_text())
        plot(args.plot or state_dir / "curve.png", progress["curve"])
        print(f"drew {len(progress['curve'])} points of {state_dir} ({progress['games']} training games)")
        return
    if progress_file.exists():
        progress = json.loads(progress_file.read_text())
        net = FlagNet.load(weights)
        rng.setstate((progress["rng"][0], tuple(progress["rng"][1]), progress["rng"][2]))
        print(f"resuming after iteration {progress['iteration']} ({progress['games']} games)")

    def point() -> None:
        score, half = measure(net, args.deals, opponent=opponent)
        progress["curve"].append({"games": progress["games"], "score": score, "half": half, "opponent": opponent})
        print(f"{progress['games']} games: {score:.1%} ± {half:.1%} against {opponent} ({args.deals} deals, both seats)",
              flush=True)

    def save() -> None:
        net.save(weights)
        progress["rng"] = rng.getstate()
        tmp = progress_file.with_name("progress.tmp")
        tmp.write_text(json.dumps(progress))
        tmp.replace(progress_file)
        plot(args.plot or state_dir / "curve.png", progress["curve"])

    if not progress["curve"]:
        point()
        save()
    while progress["iteration"] < args.iterations:
        if args.hours and progress["seconds"] > args.hours * 3600:
            break
        start = time.monotonic()
        k = progress["iteration"]
        rows = gather(net, args.games, progress["games"], rng, args.explore)
        rows.save(state_dir / "shards" / f"{k:03d}.npz")
        data = Arrays.concat([Arrays.load(p) for p in sorted((state_dir / "shards").glob("*.npz"))[:k + 1]])
        # the same games held out at every fit (every tenth): the warm start was trained on the others
        report = fit(net, data, seed=args.seed * 1000 + k, epochs=args.epochs, progress=False, only=TOWER,
                     held_out=data.game % 10 == 9)
        progress["iteration"] += 1
        progress["games"] += args.games
        print(f"iteration {k + 1}: {args.games} games, fitted on {len(data)} afterstates; " + "; ".join(report.lines()[1:]),
              flush=True)
        point()
        progress["seconds"] += time.monotonic() - start
        save()
    if args.short:
        first, last = progress["curve"][0]["score"], progress["curve"][-1]["score"]
        print(f"against easy: {first:.1%} untrained, {last:.1%} after {progress['games']} games")
        assert last >= first + 0.1, "the player did not learn"
        return
    if args.final and progress.get("final", {}).get("training_games") != progress["games"]:  # measured once per player
        score, half = measure(net, args.final, first=2 * 10**6)
        progress["final"] = {"score": score, "half": half, "games": 2 * args.final, "training_games": progress["games"]}
        save()
    if "final" in progress:
        final = progress["final"]
        print(f"final: {final['score']:.1%} ± {final['half']:.1%} against heuristic over {final['games']} games"
              f" ({final['games'] // 2} deals, both seats), after {progress['games']} training games"
              f" ({progress['seconds'] / 60:.0f} minutes of training and curve)")
    plot(args.plot or state_dir / "curve.png", progress["curve"])  # also when all was done: --plot redraws it


if __name__ == "__main__":
    main()
