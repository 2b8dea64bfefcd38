"""Learn to play Battle Line (basic game) against the ``random`` bot, through Gymnasium.

The agent is a small softmax policy over the ruleset's action ids, trained by REINFORCE
(the policy-gradient rule: after each game, make the moves of a won game more likely and
those of a lost game less likely). Only numpy; a few minutes on one CPU.

    python examples/learn_battleline.py           # train 2,000 games, measure over 400
    python examples/learn_battleline.py --short   # CI: 600 games, measure over 200, assert that it learned

It prints the score against ``random`` (a win 1, a draw 1/2) before and after training.

The policy reads the observation tensor through its documented layout (docs/research.md):
the ``cards`` block says, per card and place, where each card lies. Playing card ``c`` at
flag ``f`` scores ``card[c] + flag[f] + mine[c] . (my cards at f) + theirs[c] . (their
cards at f)``: the matrices ``mine`` and ``theirs`` (60 x 60) learn which cards go well
together on a flag (a formation) and which answer the opponent's, the same at every flag.
Every other action (claims, the draw, ``end``, ``pass``) has a score of its own.
"""

from __future__ import annotations

import argparse
import time

import gymnasium
import numpy as np

import frontlines.rl.gymnasium  # noqa: F401  (registers frontlines/BattleLine-v0)
from frontlines.core.encoding import layout_offsets

TROOPS, FLAGS, PLACES = 60, 9, 21  # troop cards, flags, card places of the "cards" block


class Policy:
    def __init__(self, codes: tuple[int, ...], start: int, rng: np.random.Generator) -> None:
        self.start = start  # where the "cards" block begins in the observation
        codes_ = np.array(codes)
        self.play = codes_ < TROOPS * FLAGS  # engine code card * 9 + flag for a troop played
        self.card, self.flag = np.divmod(np.where(self.play, codes_, 0), FLAGS)
        self.card_score = np.zeros(TROOPS)
        self.flag_score = np.zeros(FLAGS)
        self.mine = np.zeros((TROOPS, TROOPS))
        self.theirs = np.zeros((TROOPS, TROOPS))
        self.other = np.zeros(len(codes))  # claims, draw, end, pass
        self.rng = rng

    def features(self, x: np.ndarray, legal: np.ndarray) -> tuple:
        cards = x[self.start : self.start + 70 * PLACES].reshape(70, PLACES)[:TROOPS]
        plays = legal[self.play[legal]]
        c, f = self.card[plays], self.flag[plays]
        return plays, c, f, cards[:, 1 + f].T, cards[:, 10 + f].T  # my / their cards at each flag

    def scores(self, x: np.ndarray, legal: np.ndarray) -> np.ndarray:
        _, c, f, mine_f, theirs_f = self.features(x, legal)
        s = self.other[legal].copy()
        s[self.play[legal]] = (self.card_score[c] + self.flag_score[f]
                               + (self.mine[c] * mine_f).sum(1) + (self.theirs[c] * theirs_f).sum(1))
        return s

    def act(self, obs: dict[str, np.ndarray], greedy: bool) -> tuple[int, np.ndarray, np.ndarray]:
        legal = np.flatnonzero(obs["action_mask"])
        s = self.scores(obs["observation"], legal)
        p = np.exp(s - s.max())
        p /= p.sum()
        k = int(p.argmax()) if greedy else int(self.rng.choice(len(legal), p=p))
        return k, legal, p

    def learn(self, x: np.ndarray, legal: np.ndarray, p: np.ndarray, k: int, step: float) -> None:
        """One REINFORCE step: scores move by ``step * (onehot(k) - p)``, the gradient of
        log p[k]; each parameter by that times how much it added to the score."""
        g = -p
        g[k] += 1.0
        g *= step
        played = self.play[legal]
        _, c, f, mine_f, theirs_f = self.features(x, legal)
        gp = g[played]
        np.add.at(self.card_score, c, gp)
        np.add.at(self.flag_score, f, gp)
        np.add.at(self.mine, c, gp[:, None] * mine_f)
        np.add.at(self.theirs, c, gp[:, None] * theirs_f)
        self.other[legal[~played]] += g[~played]


def play(env: gymnasium.Env, policy: Policy, greedy: bool, seed: int | None = None) -> tuple[float, list, np.ndarray]:
    """One game: its reward, every decision the agent made (observation, legal, p, choice)
    and the last observation."""
    obs, _ = env.reset(seed=seed)
    steps = []
    while True:
        k, legal, p = policy.act(obs, greedy)
        steps.append((obs["observation"], legal, p, k))
        obs, reward, terminated, truncated, _ = env.step(int(legal[k]))
        if terminated or truncated:
            return float(reward), steps, obs["observation"]


def score(env: gymnasium.Env, policy: Policy, games: int) -> float:
    """Mean score of the greedy policy over ``games`` fixed deals (win 1, draw 1/2, loss 0)."""
    return sum((play(env, policy, True, seed=10**6 + g)[0] + 1) / 2 for g in range(games)) / games


def flag_results(last: np.ndarray, start: int) -> np.ndarray:
    """Per flag, +1 if I claimed it by the end, -1 if they did, 0 if nobody: read off the
    ``flags`` block (entries 0 and 1 of each flag's row)."""
    rows = last[start : start + FLAGS * 21].reshape(FLAGS, 21)
    return rows[:, 0] - rows[:, 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000, help="training games")
    parser.add_argument("--eval", type=int, default=400, help="games to measure the result")
    parser.add_argument("--rate", type=float, default=0.05, help="learning rate")
    parser.add_argument("--short", action="store_true", help="CI mode: 600 games, 200 to measure, assert")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.short:
        args.games, args.eval = 600, 200
    # seat=None: a random seat each game, so the policy learns to play first and second
    env = gymnasium.make("frontlines/BattleLine-v0", opponent="random", seat=None)
    table = env.unwrapped.table
    policy = Policy(table.encoding.codes, layout_offsets(table.encoding.observation_layout)["cards"][0],
                    np.random.default_rng(args.seed))
    if not args.short:  # the untrained policy plays the lowest id: the first card at the first flag
        print(f"before training: {score(env, policy, args.eval):.1%} against random over {args.eval} games")
    env.reset(seed=args.seed)
    start = time.monotonic()

    # Credit: a card played at a flag is judged by who won that flag, not by the whole game:
    # far less noise than one result shared by forty decisions. Other actions (claims, the
    # draw) are judged by the game. Baselines (the usual results lately) centre both.
    flags_at = layout_offsets(table.encoding.observation_layout)["flags"][0]
    baseline, flag_baseline = 0.0, 0.0
    for g in range(1, args.games + 1):
        reward, steps, last = play(env, policy, greedy=False)
        flags = flag_results(last, flags_at)
        for x, legal, p, k in steps:
            a = legal[k]
            advantage = (flags[policy.flag[a]] - flag_baseline) if policy.play[a] else reward - baseline
            policy.learn(x, legal, p, k, args.rate * advantage)
        baseline += 0.01 * (reward - baseline)
        flag_baseline += 0.01 * (flags.mean() - flag_baseline)
        if g % 200 == 0:
            print(f"  {g} games, {time.monotonic() - start:.0f} s, mean reward lately {baseline:+.2f}")
    after = score(env, policy, args.eval)
    print(f"after {args.games} games: {after:.1%} against random over {args.eval} games")
    if args.short:
        assert after >= 0.65, f"the policy did not learn: {after:.1%} against random"


if __name__ == "__main__":
    main()
