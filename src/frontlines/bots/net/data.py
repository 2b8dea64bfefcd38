"""Training data for the flag network: self-play games, each flag's outcome, positions.

A game is kept as its record (the ruleset, the deal's seed, the actions, who won each flag
and the game): a few hundred bytes, from which any position is rebuilt by replaying it,
so the data outlives changes of the network's inputs.

**Each flag's outcome.** A game ends at the first breakthrough or envelopment, often with
flags still open. To give every flag a label, the game is played on past its end with the
victory check set aside: both players take the rollout policy's moves (the cheap pattern
play of ``BattleLinePolicy.rollout_action``; the heuristic's own moves stop meaning
anything once the game is decided) and claim whatever they can prove, until every flag is
claimed or nothing can change. A flag still open then has no label. So a flag's label
says who would have taken it had the game gone on; the correction head and the game
results teach what that misses.

**Positions.** Replaying a record, the positions kept are the start of a turn and the
moment after a card is played (before its draw: what one-ply play and the search judge),
each with chance ``keep``, from one player's view chosen at random.

Standard library only; :mod:`.train` turns positions into numpy arrays.
"""

from __future__ import annotations

import gzip
import json
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from frontlines.bots.base import Bot
from frontlines.bots.heuristic_battleline import POLICY
from frontlines.core.game import Termination
from frontlines.games import new_state
from frontlines.games.battleline.codes import CLAIM_BASE, DRAW, PASS, PLAY, Phase
from frontlines.games.battleline.state import BattleLineState

PLAY_OUT_LIMIT = 400  # actions played past the end at most (a stuck play-out stops there)


@dataclass
class GameRecord:
    """One self-play game: enough to replay it and its labels (seats 0/1; -1 none)."""

    ruleset: str
    seed: int
    actions: list[int]
    flags: list[int]  # who took each flag, the play-out included
    winner: int  # -1: a draw
    style: str = ""
    values: list[float] = field(default_factory=list)  # the mover's value after each of its decisions (TD), else empty

    def to_json(self) -> str:
        out: dict[str, Any] = {"r": self.ruleset, "s": self.seed, "a": self.actions, "f": self.flags, "w": self.winner, "t": self.style}
        if self.values:
            out["v"] = [round(v, 4) for v in self.values]
        return json.dumps(out, separators=(",", ":"))

    @classmethod
    def from_json(cls, line: str) -> GameRecord:
        d = json.loads(line)
        return cls(d["r"], d["s"], d["a"], d["f"], d["w"], d.get("t", ""), d.get("v", []))


def play_out(state: BattleLineState, phase: Phase, rng: random.Random) -> list[int]:
    """Who takes each flag (seat, or -1) when the finished ``state``'s game is played on
    past its end by the rollout policy (see the module text); ``phase``: the phase its
    last action (the winning claim) was made in, which a claim leaves as it was.
    ``state`` is not changed."""
    s = state.clone()
    for _ in range(PLAY_OUT_LIMIT):
        if s.out is not None:
            if s.out.reason not in _VICTORIES or min(s.claimed) >= 0:
                break
            s.out = None  # a claim ended it: set the victory aside and go on
            s.phase = phase
            s.legal_cache = None
        legal = s.legal_actions()
        if not legal:
            break
        action = cast(int, POLICY.rollout_action(s, legal, rng))
        phase = s.phase
        s.apply(action)
    return list(s.claimed)


_VICTORIES = (Termination.BREAKTHROUGH, Termination.ENVELOPMENT)


def play_game(ruleset: str, seed: int, bots: Sequence[Bot], style: str = "", record_values: bool = False) -> GameRecord:
    """Play one game between ``bots`` (seat order), dealt with ``seed``; its record and labels."""
    state = cast(BattleLineState, new_state(ruleset, seed=seed))
    for seat, bot in enumerate(bots):
        bot.new_game(ruleset, seat, seed)
    values: list[float] = []
    phase = state.phase
    while not state.is_terminal():
        player = state.current_player()
        assert player is not None
        bot = bots[player]
        action = bot.choose(state.view(player))
        if record_values:
            info = bot.info()
            if "value" in info:
                values.append(float(info["value"]))
        phase = state.phase
        state.apply(action)
    outcome = state.outcome()
    assert outcome is not None
    flags = play_out(state, phase, random.Random(seed ^ 0x5EED))
    winner = -1 if outcome.winner is None else outcome.winner
    return GameRecord(ruleset, seed, list(state.hist), flags, winner, style, values)


@dataclass
class Position:
    """A kept position: the state (replayed), the viewer, and the game's labels."""

    state: BattleLineState
    viewer: int
    record: GameRecord
    ply: int  # actions played before it
    hand: bool = False  # the viewer reads the opponent's hand (the search's deals, ``features.facts``)

    def flag_labels(self) -> list[int]:
        """Per flag 1 (the viewer took it), 0 (the opponent), -1 (no label)."""
        return [-1 if w < 0 else int(w == self.viewer) for w in self.record.flags]

    def game_label(self) -> float:
        w = self.record.winner
        return 0.5 if w < 0 else float(w == self.viewer)


def positions(record: GameRecord, keep: float, salt: int = 0, hand_share: float = 0.0) -> Iterator[Position]:
    """The kept positions of ``record`` (see the module text), the same for the same salt.
    A share ``hand_share`` of them is also given a second time as the search sees its
    deals, the opponent's hand read."""
    rng = random.Random(record.seed * 7919 + salt)
    state = cast(BattleLineState, new_state(record.ruleset, seed=record.seed))
    last_mover = -1
    for ply, action in enumerate(record.actions):
        mover = state.current_player()
        turn_start = state.phase == PLAY and mover != last_mover
        after_play = state.phase == DRAW and ply and record.actions[ply - 1] < CLAIM_BASE
        if (turn_start or after_play) and rng.random() < keep:
            kept = Position(state.clone(), rng.randrange(2), record, ply)
            yield kept
            if hand_share and rng.random() < hand_share:
                yield Position(kept.state, kept.viewer, record, ply, hand=True)
        last_mover = -1 if mover is None else mover
        state.apply(action)


def after_plays(record: GameRecord) -> Iterator[Position]:
    """The positions right after each card play (or pass) of ``record``, before the draw,
    from the mover's view: what one-ply play chose among, in order."""
    state = cast(BattleLineState, new_state(record.ruleset, seed=record.seed))
    for ply, action in enumerate(record.actions):
        mover = state.current_player()
        was_play = state.phase == PLAY and (action < CLAIM_BASE or action == PASS)
        state.apply(action)
        if was_play and mover is not None and not state.is_terminal():
            yield Position(state.clone(), mover, record, ply + 1)


def write_records(path: Path, records: Sequence[GameRecord]) -> None:
    """Write ``records`` as gzipped JSON lines, atomically (a shard is whole or absent)."""
    tmp = path.with_name(path.name + ".tmp")
    with gzip.open(tmp, "wt", encoding="utf-8") as f:
        for r in records:
            f.write(r.to_json() + "\n")
    tmp.replace(path)


def read_records(path: Path) -> list[GameRecord]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [GameRecord.from_json(line) for line in f if line.strip()]


# Heuristic self-play styles, by game number: (noise of seat 0's bot, noise of seat 1's).
# Noise makes the positions varied (careless moves, dumped cards) so that one-ply play,
# which judges every legal move's position, meets positions like them in training.
HEURISTIC_STYLES: tuple[tuple[float, float], ...] = ((0.0, 0.0), (0.15, 0.15), (0.3, 0.3), (0.0, 0.5), (0.5, 0.0))


def heuristic_game(ruleset: str, seed: int) -> GameRecord:
    """Game ``seed`` of heuristic self-play (the style by ``seed``: ``HEURISTIC_STYLES``)."""
    from frontlines.bots.heuristic import HeuristicBot

    a, b = HEURISTIC_STYLES[seed % len(HEURISTIC_STYLES)]
    bots = [HeuristicBot(seed=2 * seed, noise=a), HeuristicBot(seed=2 * seed + 1, noise=b)]
    return play_game(ruleset, seed, bots, f"heuristic:{a}/{b}")


# --- every move's outcome: rollouts from each afterstate -----------------------------------
@dataclass
class Afterstate:
    """A position just after one of the legal moves of a decision, in a deal sampled from
    the mover's view, with the outcome of the heuristic playing on from it (both sides)."""

    ruleset: str
    notation: str  # the full state (the sampled deal), ``State.to_notation``
    viewer: int  # the mover, whose view is judged
    flags: list[int]
    winner: int

    def to_json(self) -> str:
        return json.dumps({"r": self.ruleset, "n": self.notation, "p": self.viewer, "f": self.flags, "w": self.winner},
                          separators=(",", ":"))

    @classmethod
    def from_json(cls, line: str) -> Afterstate:
        d = json.loads(line)
        return cls(d["r"], d["n"], d["p"], d["f"], d["w"])

    def position(self) -> Position:
        from frontlines.games import parse_state

        state = cast(BattleLineState, parse_state(self.notation))
        record = GameRecord(self.ruleset, 0, [], self.flags, self.winner)
        return Position(state, self.viewer, record, 0)


def play_to_end(state: BattleLineState, bots: Sequence[Bot], seed: int) -> Phase:
    """Play ``state`` (changed) to its end with ``bots`` (seat 0 first; each told of the
    game with ``seed``); the phase of its last action, which :func:`play_out` needs."""
    for seat, bot in enumerate(bots):
        bot.new_game(state.ruleset, seat, seed)
    phase = state.phase
    while not state.is_terminal():
        player = state.current_player()
        assert player is not None
        action = bots[player].choose(state.view(player))
        phase = state.phase
        state.apply(action)
    return phase


def finish_game(state: BattleLineState, bots: Sequence[Bot], seed: int) -> tuple[list[int], int]:
    """Play ``state`` (changed) to its end with ``bots``; (each flag's taker after the
    play-out, the winner or -1)."""
    phase = play_to_end(state, bots, seed)
    outcome = state.outcome()
    assert outcome is not None
    return play_out(state, phase, random.Random(seed ^ 0x5EED)), -1 if outcome.winner is None else outcome.winner


def afterstates(record: GameRecord, rate: float, most: int = 24) -> list[Afterstate]:
    """For a share ``rate`` of the card-play decisions of ``record``: up to ``most`` of the
    legal moves (the heuristic's choice among them), each applied in its own deal sampled
    from the mover's view and played to the end by the heuristic on both sides."""
    from frontlines.bots.heuristic import HeuristicBot

    rng = random.Random(record.seed * 104729 + 17)
    state = cast(BattleLineState, new_state(record.ruleset, seed=record.seed))
    out: list[Afterstate] = []
    for action in record.actions:
        mover = state.current_player()
        if state.phase == PLAY and mover is not None and rng.random() < rate:
            view = state.view(mover)
            legal = view.legal_actions()
            if len(legal) > 1 and POLICY.forced(view, legal) is None:
                moves = legal if len(legal) <= most else [action, *rng.sample([a for a in legal if a != action], most - 1)]
                for a in moves:
                    deal = view.sample(rng)
                    deal.apply(a)
                    notation = deal.to_notation()
                    seed = rng.getrandbits(31)
                    bots = [HeuristicBot(seed=seed), HeuristicBot(seed=seed + 1)]
                    flags, winner = finish_game(deal, bots, seed)
                    out.append(Afterstate(record.ruleset, notation, mover, flags, winner))
        state.apply(action)
    return out
