"""``frontlines train``'s pipeline: from nothing to shipped weights, seeded and resumable.

Stages, each product kept in the state folder (``--state``, outside the repository) as
soon as it is made, so a stopped run goes on where it stopped and makes the same weights
as one that was not stopped:

1. **games**: heuristic self-play (``data.heuristic_game``), in shards of ``shard``
   games; each shard holds the records and the arrays of its kept positions (the facts
   are taken while the game is played, so nothing is replayed).
2. **supervised**: the flag tower on every flag's outcome, then the game value's scale
   and correction head on the results (``train.fit``).
3. **td**: rounds of TD(λ) self-play: the current network plays itself one ply deep
   (``netply`` with a temperature), the λ-returns of its own values along each player's
   positions are the targets, the network is fitted on them (with the first stage's
   positions beside them, so that it does not drift from them). A fit is judged on rows
   that no fit before it was trained on: a tenth of the round's new games and the first
   stage's positions from the games the first stage held out (``td_held_out``).
4. **distill** (with ``distill_games``): the search's values taught to the network. In the
   first ``distill_games`` heuristic games, a share ``distill_keep`` of the card-play
   decisions is judged by ``master``'s search (:func:`frontlines.bots.pimc.judge`, its
   candidates on the same ``distill_deals`` deals) with the TD rounds' network at its leaves;
   each candidate's position after its card (the mover's view) gets the search's mean over
   the deals as its game value. Those are the targets of one more fit (with as many
   first-stage positions beside them), judged on the games the first stage held out. Labels
   are kept in shards of ``distill_shard`` games. A share ``distill_hand`` of the decisions
   is judged again with the opponent's hand known (the deals differ only in the decks'
   order): its positions, with that hand read as the search's leaves read it, get those
   means. With ``distill_from``, given weights (the shipped ones, say) are the teacher and
   the start instead, and stages 2 and 3 are not run.

Every random choice comes from ``seed``; games and shards are numbered, and game *g* of
a stage is dealt with a seed made from (``seed``, the stage, *g*).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Any, TextIO, cast

import numpy as np
import numpy.typing as npt

from frontlines.bots.heuristic import policy_for
from frontlines.bots.net.data import GameRecord, Position, heuristic_game, play_game, read_records, write_records
from frontlines.bots.net.model import HEAD, LAYOUT_HASH, TOWER, FlagNet
from frontlines.bots.net.train import Arrays, Progress, arrays, empty_arrays, fit, rows_of, split, td_targets
from frontlines.bots.net.value import Evaluator
from frontlines.bots.pimc import Judged, PimcBot, PimcParams, judge
from frontlines.games import new_state
from frontlines.games.battleline.codes import PLAY
from frontlines.games.battleline.state import BattleLineState

DEFAULT_STATE = Path(os.environ.get("FRONTLINES_TRAIN_STATE", "")) if os.environ.get("FRONTLINES_TRAIN_STATE") else None


@dataclass
class Plan:
    """What one ``frontlines train`` run makes (the command's options)."""

    ruleset: str
    state: Path
    seed: int = 1
    games: int = 10_000  # heuristic self-play games
    keep: float = 0.25  # share of candidate positions kept per game
    hand_share: float = 0.5  # share of those also kept with the opponent's hand read (the search's deals)
    shard: int = 500
    hidden: tuple[int, int] = (64, 32)
    embed: int = 32
    epochs: int = 12
    head: bool = False  # train the correction head on the game results (measured: it did not help)
    td_rounds: int = 6
    td_games: int = 1000  # self-play games per round
    td_lambda: float = 0.7
    td_temperature: float = 0.3
    td_epochs: int = 2
    td_shard: int = 100  # self-play games kept together (a stopped round plays the unfinished shard again)
    td_lr: float = 1e-4  # Adam's step: at 1e-3 a third round's every epoch did worse than its start
    # the first rounds as version 1 of the pipeline made them (kept to remake weights made so):
    # learning rate 1e-3 and judged on a tenth of all their data's games drawn anew, most of
    # the first-stage rows among them from games the starting weights were fitted on
    td_v1_rounds: int = 0
    distill_games: int = 0  # first-stage games whose decisions the search labels (0: no distillation)
    distill_keep: float = 0.25  # share of their card-play decisions labelled
    distill_deals: int = 32  # the search's deals per decision (master's)
    distill_hand: float = 0.0  # share of those decisions judged again with the opponent's hand known
    distill_epochs: int = 4
    distill_shard: int = 50  # games labelled together (a stopped run labels the unfinished shard again)
    distill_from: Path | None = None  # distil into these weights (teacher and start), no supervised or TD stage
    jobs: int = 1
    progress: bool = True

    def key(self, stage: str = "positions", round_: int = 0) -> str:
        """What a stage's products depend on (a changed option makes new ones, beside the old);
        for ``td``, those of round ``round_`` (it depends on the rounds before it)."""
        parts: list[Any] = [self.ruleset, self.seed, self.keep, self.hand_share, LAYOUT_HASH]
        if stage == "distill" and self.distill_from is not None:
            digest = hashlib.sha256(self.distill_from.read_bytes()).hexdigest()[:16]
            parts += [self.games, "from", digest, self.distill_games, self.distill_keep, self.distill_deals]
            parts += [self.distill_hand] if self.distill_hand else []
            return hashlib.sha256(json.dumps(parts).encode()).hexdigest()[:10]
        if stage != "positions":
            parts += [self.games, self.epochs, list(self.hidden), self.embed] + (["head"] if self.head else [])
        if stage in ("td", "distill"):
            parts += [self.td_games, self.td_lambda, self.td_temperature, self.td_epochs, "all" if self.head else "tower"]
            if round_ > self.td_v1_rounds:
                parts += ["v2", self.td_v1_rounds, self.td_lr]
        if stage == "distill":
            # the teacher is the last TD round's network; the labels do not depend on the fit
            # (its epochs: :meth:`distill_fit`)
            parts += ["distill", round_, self.distill_games, self.distill_keep, self.distill_deals]
            parts += [self.distill_hand] if self.distill_hand else []
        return hashlib.sha256(json.dumps(parts).encode()).hexdigest()[:10]

    def distill_fit(self) -> str:
        """What the distillation's fit depends on beyond its labels (a name's part)."""
        return f"e{self.distill_epochs}" + ("-head" if self.head else "")


def _deal_seed(seed: int, stage: str, game: int) -> int:
    return int.from_bytes(hashlib.sha256(f"{seed}:{stage}:{game}".encode()).digest()[:4], "big") & 0x7FFFFFFF


def heuristic_seed(seed: int, game: int) -> int:
    """The deal of heuristic self-play game ``game`` (its style follows from it too)."""
    return seed * 100_000_000 + game


def _play_heuristic(job: tuple[str, int, int, float, float]) -> tuple[GameRecord, Arrays]:
    ruleset, seed, game, keep, hand_share = job
    record = heuristic_game(ruleset, heuristic_seed(seed, game))
    return record, arrays([record], keep, hand_share=hand_share)


def _replay(job: tuple[list[GameRecord], float, float]) -> Arrays:
    records, keep, hand_share = job
    return arrays(records, keep, hand_share=hand_share)


def _parallel(fn: Callable[[Any], Any], jobs_list: Sequence[Any], jobs: int) -> Iterable[Any]:
    if jobs <= 1:
        return map(fn, jobs_list)
    pool = get_context("spawn" if sys.platform == "darwin" else "fork").Pool(jobs)
    return _closing(pool, pool.imap(fn, jobs_list, chunksize=4))


def _closing(pool: Any, it: Iterable[Any]) -> Iterable[Any]:
    try:
        yield from it
    finally:
        pool.close()
        pool.join()


def heuristic_shards(plan: Plan, out: TextIO) -> Arrays:
    """Stage 1 (see the module text): every shard made or read back."""
    folder = plan.state / plan.ruleset / "games"
    folder.mkdir(parents=True, exist_ok=True)
    parts: list[Arrays] = []
    starts = range(0, plan.games, plan.shard)
    bar = Progress("heuristic games", plan.games, quiet=not plan.progress)
    for start in starts:
        end = min(plan.games, start + plan.shard)
        stem = f"h{plan.seed}-{start:07d}-{end:07d}"
        records_path = folder / f"{stem}.jsonl.gz"
        arrays_path = folder / f"{stem}-{plan.key()}.npz"
        if records_path.exists() and arrays_path.exists():
            parts.append(Arrays.load(arrays_path))
            bar.step(end - start)
            continue
        if records_path.exists():  # records of another layout: replay them
            records = read_records(records_path)
            chunks = [(records[i : i + 25], plan.keep, plan.hand_share) for i in range(0, len(records), 25)]
            pieces = []
            for piece in _parallel(_replay, chunks, plan.jobs):
                pieces.append(piece)
                bar.step(min(25, len(records)))
            part = Arrays.concat(pieces)
        else:
            jobs_list = [(plan.ruleset, plan.seed, g, plan.keep, plan.hand_share) for g in range(start, end)]
            records, pieces = [], []
            for record, piece in _parallel(_play_heuristic, jobs_list, plan.jobs):
                records.append(record)
                pieces.append(piece)
                bar.step()
            write_records(records_path, records)
            part = Arrays.concat(pieces)
        part.save(arrays_path)
        parts.append(part)
    data = Arrays.concat(parts)
    print(f"heuristic self-play: {plan.games} games, {len(data)} positions", file=out)
    return data


def _meta(plan: Plan, **more: Any) -> dict[str, Any]:
    return {
        "rulesets": [plan.ruleset],
        "command": plan_command(plan),
        "seed": plan.seed,
        "hidden": list(plan.hidden),
        "embed": plan.embed,
        **more,
    }


def plan_command(plan: Plan) -> str:
    """The ``frontlines train`` command line that makes ``plan``'s weights."""
    default = Plan(plan.ruleset, plan.state)
    # the seed always: Plan's default (1) is not the command's (0)
    parts = ["frontlines train", f"--rules {plan.ruleset}", f"--seed {plan.seed}"]
    for name, flag in (
        ("games", "--games"), ("keep", "--keep"), ("epochs", "--epochs"),
        ("td_rounds", "--td-rounds"), ("td_games", "--td-games"), ("td_lambda", "--td-lambda"),
        ("td_temperature", "--td-temperature"), ("td_epochs", "--td-epochs"), ("td_lr", "--td-lr"),
        ("td_v1_rounds", "--td-v1-rounds"), ("distill_games", "--distill-games"), ("distill_keep", "--distill-keep"),
        ("distill_deals", "--distill-deals"), ("distill_hand", "--distill-hand"), ("distill_epochs", "--distill-epochs"),
    ):
        value = getattr(plan, name)
        if value != getattr(default, name):
            parts.append(f"{flag} {value}")
    if plan.hidden != default.hidden:
        parts.append("--hidden " + ",".join(str(h) for h in plan.hidden))
    if plan.head:
        parts.append("--head")
    if plan.distill_from is not None:
        parts.append(f"--distill-from {plan.distill_from}")
    return " ".join(parts)


def supervised(plan: Plan, data: Arrays, out: TextIO) -> FlagNet:
    """Stage 2: the tower on the flags' outcomes, then (``plan.head``) the game value's scale
    and correction head on the results."""
    path = plan.state / plan.ruleset / f"supervised-{plan.key('supervised')}.npz"
    if path.exists():
        return FlagNet.load(path)
    net = FlagNet.fresh(plan.seed, plan.hidden, plan.embed, head=plan.embed, meta=_meta(plan))
    held = first_stage_held_out(plan, data)
    tower = fit(net, data, plan.seed, epochs=plan.epochs, game_weight=0.0, only=TOWER, progress=plan.progress, held_out=held)
    print("flag tower: " + "; ".join(tower.lines()), file=out)
    net.meta.update(positions=len(data), games=plan.games, flag_loss=round(tower.flag_loss, 4),
                    game_loss=round(tower.game_loss, 4), stage="supervised")
    if plan.head:
        head = fit(net, data, plan.seed, epochs=plan.epochs, flag_weight=0.0, only=HEAD, decay=1e-3, progress=plan.progress,
                   held_out=held)
        print("game value: " + "; ".join(head.lines()), file=out)
        net.meta.update(game_loss=round(head.game_loss, 4))
    net.save(path)
    return net


def first_stage_held_out(plan: Plan, base: Arrays) -> npt.NDArray[np.bool_]:
    """The rows of the heuristic games that the first stage's fits hold out (a tenth of them)."""
    held: npt.NDArray[np.bool_] = split(base, plan.seed, 0.1)[1]
    return held


def td_held_out(plan: Plan, round_: int, base: Arrays, targets: Arrays, mix: Arrays) -> npt.NDArray[np.bool_] | None:
    """The rows of round ``round_``'s data (``targets`` then ``mix``, rows of ``base``) that
    judge its fit: rows no fit before it was trained on, a tenth of the round's new games and
    the mixed-in rows of the games the first stage held out. ``None`` for version 1's rounds
    (``td_v1_rounds``): a tenth of all the data's games drawn anew, most of the first-stage
    rows among them from games the starting weights were trained on."""
    if round_ <= plan.td_v1_rounds:
        return None
    first = np.unique(base.game[first_stage_held_out(plan, base)])
    return np.concatenate([split(targets, plan.seed + round_, 0.1)[1], np.isin(mix.game, first)])


def td_round(plan: Plan, net: FlagNet, round_: int, base: Arrays, out: TextIO) -> FlagNet:
    """Stage 3, one round: self-play with ``net``, its λ-returns, a fit on them."""
    folder = plan.state / plan.ruleset / "td"
    folder.mkdir(parents=True, exist_ok=True)
    key = plan.key("td", round_)
    path = folder / f"td{round_:02d}-{key}.npz"
    if path.exists():
        return FlagNet.load(path)
    weights = folder / f"td{round_:02d}-{key}-player.npz"
    net.save(weights)
    records_path = folder / f"td{round_:02d}-{key}-games.jsonl.gz"
    if records_path.exists():
        records = read_records(records_path)
    else:
        # in shards of td_shard games, each kept as it is made: a stopped round loses one at most
        bar = Progress(f"self-play round {round_}", plan.td_games, quiet=not plan.progress)
        records, shards = [], []
        for start in range(0, plan.td_games, plan.td_shard):
            end = min(plan.td_games, start + plan.td_shard)
            shard = folder / f"td{round_:02d}-{key}-games-{start:05d}-{end:05d}.jsonl.gz"
            if shard.exists():
                part = read_records(shard)
                bar.step(len(part))
            else:
                jobs_list = [(plan.ruleset, _deal_seed(plan.seed, f"td{round_}", g), str(weights), plan.td_temperature)
                             for g in range(start, end)]
                part = []
                for record in _parallel(_play_self, jobs_list, plan.jobs):
                    part.append(record)
                    bar.step()
                write_records(shard, part)
            records += part
            shards.append(shard)
        write_records(records_path, records)
        for shard in shards:
            shard.unlink()
    targets = td_targets(net, records, plan.td_lambda)
    rng = np.random.default_rng(plan.seed + round_)
    mix = base.take(rng.choice(len(base), size=min(len(base), len(targets)), replace=False)) if len(base) else base
    data = Arrays.concat([targets, mix])
    # the tower alone unless --head: the head's fit on game results made one-ply play weaker
    # (docs/bots.md); the game value's λ-return still reaches the tower through the combinator
    report = fit(net, data, plan.seed + round_, epochs=plan.td_epochs, patience=plan.td_epochs,
                 lr=1e-3 if round_ <= plan.td_v1_rounds else plan.td_lr, only=None if plan.head else TOWER, progress=plan.progress,
                 held_out=td_held_out(plan, round_, base, targets, mix))
    wins = sum(1 for r in records if r.winner == 0) / max(1, len(records))
    print(f"TD round {round_}: {len(records)} games (seat 0 won {wins:.1%}), {len(targets)} positions; "
          + "; ".join(report.lines()), file=out)
    net.meta.update(stage=f"td{round_}", td_games=net.meta.get("td_games", 0) + len(records),
                    td_positions=net.meta.get("td_positions", 0) + len(targets))
    net.save(path)
    return net


def _play_self(job: tuple[str, int, str, float]) -> GameRecord:
    from frontlines.bots.net.player import NetPlyBot

    ruleset, seed, weights, temperature = job
    bots = [NetPlyBot(seed=seed, temperature=temperature, weights=weights),
            NetPlyBot(seed=seed + 1, temperature=temperature, weights=weights)]
    return play_game(ruleset, seed, bots, f"netply:temperature={temperature}")


def run_plan(plan: Plan, out: TextIO | None = None) -> Path:
    """Every stage of ``plan`` (each skipped when its product is there); the final weights' path.
    ``out``: where the stages' summaries go (standard output when the run starts, not when the
    module was imported: a caller may have replaced it since, as pytest's capture does)."""
    out = out if out is not None else sys.stdout
    started = time.monotonic()
    data = heuristic_shards(plan, out)
    if plan.distill_from is not None:
        net = FlagNet.load(plan.distill_from)
        if plan.ruleset not in net.rulesets:
            raise ValueError(f"{plan.distill_from} does not cover {plan.ruleset}")
        net.meta.update(distilled_from={"file": plan.distill_from.name, "command": net.meta.get("command", "")})
        net = distill(plan, net, data, out)
        final = plan.state / plan.ruleset / f"final-{plan.key('distill')}-{plan.distill_fit()}-from.npz"
    else:
        net = supervised(plan, data, out)
        for k in range(1, plan.td_rounds + 1):
            net = td_round(plan, net, k, data, out)
        final = plan.state / plan.ruleset / f"final-{plan.key('td', plan.td_rounds)}-{plan.td_rounds}.npz"
        if plan.distill_games:
            net = distill(plan, net, data, out)
            final = plan.state / plan.ruleset / (
                f"final-{plan.key('distill', plan.td_rounds)}-{plan.distill_fit()}-{plan.td_rounds}-distilled.npz")
    if not final.exists():
        # this run's command: the stages it found made may come from a run with other options
        # (a supervised stage made with --td-rounds 0 carries that command)
        net.meta.update(command=plan_command(plan), seconds_last_run=round(time.monotonic() - started))
        net.save(final)
    return final


# --- stage 4: distillation -------------------------------------------------------------------
def first_stage_records(plan: Plan, games: int) -> list[GameRecord]:
    """The first ``games`` heuristic self-play records of the first stage (made already)."""
    folder = plan.state / plan.ruleset / "games"
    records: list[GameRecord] = []
    for start in range(0, min(games, plan.games), plan.shard):
        end = min(plan.games, start + plan.shard)
        records += read_records(folder / f"h{plan.seed}-{start:07d}-{end:07d}.jsonl.gz")
    return records[:games]


def distill(plan: Plan, net: FlagNet, base: Arrays, out: TextIO) -> FlagNet:
    """Stage 4 (see the module text): the search's values as targets, in shards, then a fit."""
    folder = plan.state / plan.ruleset / "distill"
    folder.mkdir(parents=True, exist_ok=True)
    key = plan.key("distill", plan.td_rounds)
    path = folder / f"distill-{key}-{plan.distill_fit()}.npz"
    if path.exists():
        return FlagNet.load(path)
    teacher = folder / f"distill-{key}-teacher.npz"
    net.save(teacher)
    records = first_stage_records(plan, plan.distill_games)
    bar = Progress("search labels", len(records), quiet=not plan.progress)
    parts: list[Arrays] = []
    started = time.monotonic()
    for start in range(0, len(records), plan.distill_shard):
        end = min(len(records), start + plan.distill_shard)
        shard = folder / f"distill-{key}-{start:06d}-{end:06d}.npz"
        if shard.exists():
            parts.append(Arrays.load(shard))
            bar.step(end - start)
            continue
        jobs_list = [(r.to_json(), str(teacher), plan.distill_keep, plan.distill_deals, plan.seed, plan.distill_hand)
                     for r in records[start:end]]
        pieces: list[Arrays] = []
        for piece in _parallel(_search_labels, jobs_list, plan.jobs):
            pieces.append(piece)
            bar.step()
        part = Arrays.concat(pieces) if pieces else empty_arrays()
        part.save(shard)
        parts.append(part)
    targets = Arrays.concat(parts) if parts else empty_arrays()
    labelling = time.monotonic() - started
    rng = np.random.default_rng(plan.seed + 1000)
    mix = base.take(rng.choice(len(base), size=min(len(base), len(targets)), replace=False)) if len(base) else base
    data = Arrays.concat([targets, mix])
    first = np.unique(base.game[first_stage_held_out(plan, base)])
    held = np.concatenate([np.isin(targets.game, first), np.isin(mix.game, first)])
    report = fit(net, data, plan.seed + 1000, epochs=plan.distill_epochs, patience=plan.distill_epochs, lr=plan.td_lr,
                 only=None if plan.head else TOWER, progress=plan.progress, held_out=held)
    print(f"distillation: {len(records)} games, {len(targets)} positions judged by the search "
          f"({labelling:.0f}s this run); " + "; ".join(report.lines()), file=out)
    net.meta.update(stage="distill", distill_games=len(records), distill_positions=len(targets))
    net.meta.pop("strength", None)  # the teacher's, measured before: these weights are not measured yet
    net.save(path)
    return net


_TEACHERS: dict[str, Evaluator] = {}  # per process: the teacher's weights, loaded once


def _search_labels(job: tuple[str, str, float, int, int, float]) -> Arrays:
    """One game's search labels (see the module text): for a share ``keep`` of its card-play
    decisions, each of the search's candidates' positions after the card, from the mover's
    view, with the candidate's mean value over the search's deals; for a share ``hand`` of
    those decisions, the same positions again as the search's leaves see them (the
    opponent's hand read), with the candidates' means when the search knows that hand (its
    deals differ only in the order of the decks)."""
    line, weights, keep, deals, seed, hand = job
    record = GameRecord.from_json(line)
    teacher = _TEACHERS.get(weights)
    if teacher is None:
        teacher = _TEACHERS[weights] = Evaluator(FlagNet.load(Path(weights)))
    evaluate = teacher.batch_evaluation(opponent_hand=True)  # as master's leaves read (pimc's eval_hand=1)

    policy = policy_for(record.ruleset)
    search = PimcBot(seed=seed, params=PimcParams(deals=deals, net=1))
    rng = random.Random(_deal_seed(seed, "distill", record.seed))
    state = cast(BattleLineState, new_state(record.ruleset, seed=record.seed))
    items: list[Position] = []
    targets: list[tuple[list[float], float]] = []
    for ply, played in enumerate(record.actions):
        mover = state.current_player()
        if state.phase == PLAY and mover is not None and rng.random() < keep:
            view = state.view(mover)
            legal = view.legal_actions()
            if len(legal) > 1 and policy.forced(view, legal) is None:
                decision = _deal_seed(seed, f"distill:{record.seed}", ply)
                actions = search.candidates(view, policy, decision)
                judged = judge(view, actions, search.params, decision, policy, evaluate)
                known: Judged | None = None
                if hand and rng.random() < hand:
                    told = state.clone()
                    told.known[mover] |= told.hands[1 - mover]
                    known = judge(told.view(mover), actions, search.params, decision, policy, evaluate)
                for i, action in enumerate(actions):
                    after = state.clone()
                    after.apply(action)
                    if not after.is_terminal():
                        items.append(Position(after, mover, record, ply + 1))
                        targets.append(([-1.0] * 9, judged.mean(i)))
                        if known is not None:
                            items.append(Position(after, mover, record, ply + 1, hand=True))
                            targets.append(([-1.0] * 9, known.mean(i)))
        state.apply(played)
    return rows_of(items, targets, [record.seed] * len(items))
