"""A whole match: schedule, play (on workers), rate, report. ``frontlines arena`` calls this."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from frontlines.arena.backends import Backend
from frontlines.arena.ratings import expected_score
from frontlines.arena.results import RecordSink, format_table, ratings, tally, to_json
from frontlines.arena.runner import ArenaGame, Progress, is_classic, make_arena_bot, run_games
from frontlines.arena.schedule import BotEntry, GameTask, deal_pair, pairings, schedule
from frontlines.arena.sprt import SPRT, parse_sprt


@dataclass
class MatchConfig:
    ruleset: str
    bots: list[tuple[str, str]]  # (name, spec)
    games: int = 20
    seed: int = 1
    workers: int = 1
    protocol: str = "frontlines"
    gauntlet: str | None = None
    sprt: str | None = None
    time: float | None = None
    increment: float = 0.0
    move_timeout: float | None = None
    anchor: str | None = None
    records: str | None = None
    options: tuple[tuple[str, str], ...] = field(default_factory=tuple)
    progress: bool = True
    # Classic-protocol engines: repair their invalid plays as the original engine does
    # (counted as repairs) rather than forfeiting them (docs/protocol.md, "Repairs").
    classic_repair: bool = True
    external: dict[str, Any] = field(default_factory=dict)  # extra ExternalBot arguments (tests)
    # Where the games are played; None: this machine, with ``workers`` processes.
    backend: Backend | None = None


@dataclass
class Report:
    text: str
    data: dict[str, Any]
    results: list[ArenaGame]
    stopped: bool = False  # interrupted (Ctrl-C) before the schedule was played


def check_match(config: MatchConfig) -> None:
    """``ValueError`` (or ``KeyError`` for a ruleset) for a match that cannot be played."""
    _validate(config, [BotEntry(name, spec) for name, spec in config.bots])


def _validate(config: MatchConfig, entries: list[BotEntry]) -> None:
    from frontlines.games import ruleset as find_ruleset

    rules = find_ruleset(config.ruleset)
    rules.resolve_options(dict(config.options))
    if len(entries) < 2:
        raise ValueError("an arena needs at least two bots (--bot NAME=SPEC twice)")
    if config.sprt and len(entries) != 2:
        raise ValueError("--sprt compares exactly two bots: the first (A) against the second (B)")
    if config.anchor is not None and config.anchor not in [e.name for e in entries] and config.anchor != "first":
        raise ValueError(f"--anchor {config.anchor!r} is not one of the bots (or 'first')")
    for entry in entries:
        # Building a bot checks its spec; external engines start only when a game begins.
        make_arena_bot(entry, config.protocol).close()
        if is_classic(entry, config.protocol):
            from frontlines.bots.classic import classic_game_options

            classic_game_options(config.ruleset, dict(config.options))


def run_match(config: MatchConfig) -> Report:
    entries = [BotEntry(name, spec) for name, spec in config.bots]
    _validate(config, entries)
    names = [e.name for e in entries]
    external = dict(config.external)
    if config.move_timeout is not None:
        external["move_timeout"] = config.move_timeout
    external.setdefault("repair", config.classic_repair)
    sink = RecordSink(config.records)
    sprt: SPRT | None = parse_sprt(config.sprt) if config.sprt else None
    games = max(2, config.games + (config.games % 2))

    tasks: Iterator[GameTask]
    if sprt is None:
        pair_list = pairings(names, config.gauntlet)
        total: int | None = games * len(pair_list)
        tasks = schedule(
            names, games, ruleset=config.ruleset, match_seed=config.seed, gauntlet=config.gauntlet,
            options=config.options, time=config.time, increment=config.increment,
        )
    else:
        pair_list = [(names[0], names[1])]
        total = games

        def sprt_tasks() -> Iterator[GameTask]:
            for deal in range(games // 2):
                yield from deal_pair(
                    names[0], names[1], deal, first_index=2 * deal, ruleset=config.ruleset,
                    match_seed=config.seed, options=config.options, time=config.time, increment=config.increment,
                )

        tasks = sprt_tasks()

    progress = Progress(total, enabled=config.progress)
    done: list[ArenaGame] = []
    halves: dict[int, ArenaGame] = {}
    decided: list[str | None] = [None]

    def on_result(result: ArenaGame) -> bool:
        done.append(result)
        sink.add(result)
        note = ""
        failures = sum(1 for r in done if r.error_seat is not None)
        if failures:
            note = f"{failures} bot failure{'s' if failures > 1 else ''}"
        replayed = sum(1 for r in done if r.replays)
        if replayed:
            note = (note + "  " if note else "") + f"{replayed} replayed (worker died)"
        if sprt is not None:
            # Only whole pairs enter the test: the deal's luck cancels within a pair.
            other = halves.pop(result.pair, None)
            if other is None:
                halves[result.pair] = result
            else:
                sprt.add_pair(other.score_of(names[0]), result.score_of(names[0]))
                decided[0] = sprt.decision()
            note = (note + "  " if note else "") + f"LLR {sprt.llr:+.2f} [{sprt.lower:.2f}, {sprt.upper:.2f}]"
        progress.update(len(done), note)
        return decided[0] is not None

    stopped = False
    try:
        run_games(entries, tasks, workers=config.workers, protocol=config.protocol, seed=config.seed,
                  external=external, on_result=on_result, backend=config.backend)
    except KeyboardInterrupt:
        # A long run stopped by hand: what was played is rated and reported (and its
        # records are saved already, game by game).
        stopped = True
    progress.finish()
    results = sorted(done, key=lambda r: r.index)
    tallies = tally(names, results, pair_list)
    anchor = names[0] if config.anchor == "first" and "first" not in names else config.anchor
    rated = ratings(names, tallies, anchor=anchor)
    extra: dict[str, Any] = {
        "config": {
            "ruleset": config.ruleset,
            "options": dict(config.options),
            "games_per_pairing": games,
            "seed": config.seed,
            "workers": config.workers,
            "backend": config.backend.name if config.backend is not None else "local",
            "protocol": config.protocol,
            "classic_repair": config.classic_repair,
            "gauntlet": config.gauntlet,
            "time": config.time,
            "increment": config.increment,
            "bots": [{"name": e.name, "spec": e.spec} for e in entries],
        },
        "games_played": len(results),
        "stopped": stopped,
    }
    text = format_table(tallies, rated, results)
    if stopped:
        text += f"\n\nstopped by hand after {len(results)} of {total} games: the table covers those"
    if sprt is not None:
        info = sprt.to_dict()
        info["a"], info["b"] = names[0], names[1]
        info["pairs"] = int(sum(sprt.counts))
        extra["sprt"] = info
        verdict = {
            "H1": f"accepted H1: {names[0]} is stronger than {names[1]} by about {sprt.elo1:g} Elo or more",
            "H0": f"accepted H0: {names[0]} is not stronger than {names[1]} by more than {sprt.elo0:g} Elo",
            None: "no decision within --games (raise it to go on)",
        }[sprt.decision()]
        p0, p1 = expected_score(sprt.elo0), expected_score(sprt.elo1)
        text += (
            f"\n\nSPRT {names[0]} vs {names[1]} ({sprt.mode}; elo0={sprt.elo0:g} [score {p0:.3f}], "
            f"elo1={sprt.elo1:g} [score {p1:.3f}], alpha={sprt.alpha:g}, beta={sprt.beta:g}): "
            f"LLR {sprt.llr:+.3f} in [{sprt.lower:.3f}, {sprt.upper:.3f}] after {int(sum(sprt.counts))} pairs: {verdict}"
        )
    data = to_json(names, tallies, rated, results, extra=extra)
    return Report(text, data, results, stopped)


__all__ = ["MatchConfig", "Report", "check_match", "run_match"]
