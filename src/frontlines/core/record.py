"""Game records: header tags plus the action list, in the spirit of PGN, and JSON for bulk.

Text form::

    [Game "battleline"]
    [Ruleset "battleline"]
    [Setup "<full-state notation of the initial position>"]
    [Player0 "heuristic"]
    [Player1 "ismcts:time=1"]
    [Result "1-0"]
    [Reason "breakthrough"]

    R7@3 draw:troop C3 ...

Tags are ``[Name "value"]`` with ``\\`` and ``"`` escaped by a backslash. The action list
is whitespace-separated action text (action text never holds white space); text from
``{`` to ``}`` is a comment. ``Setup`` makes a record replay exactly without depending on
any random number generator. ``Termination`` (``resignation``/``time``/``forfeit``) with
``Loser`` records games that ended outside the rules.

``Result`` is ``1-0`` (player 0 won), ``0-1``, ``1/2-1/2`` (no winner) or ``*`` (unfinished).

An unfinished game saved to be resumed must not show its hidden cards (the hands, the
decks' order, a card drawn or put back unseen) to someone who reads the file, so
:meth:`GameRecord.sealed` moves ``Setup`` and the actions into one ``Sealed`` tag: the two
as JSON, compressed and written in base64 after a format number (``1:eJy...``). Reading a
record opens the seal, so everything that reads records resumes or replays it as before;
a damaged seal is a :class:`NotationError`. It is a seal, not a lock: it keeps the cards
out of sight, and anyone with this program can open it, as resuming the game does.

>>> from frontlines.games import new_state, parse_state
>>> start = new_state("battleline-basic", seed=7)
>>> game = start.clone()
>>> for text in ("R5@1", "draw:troop"):
...     game.apply(game.parse_action(text))
>>> record = GameRecord.from_state(start, game, players=("me", "heuristic"))
>>> record.actions, record.tags["Result"]
(['R5@1', 'draw:troop'], '*')
>>> GameRecord.parse(record.to_text()).replay(parse_state) == game  # the games parse positions
True
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from frontlines.core.errors import FrontlinesError, NotationError
from frontlines.core.game import OUT_OF_RULES, Outcome, State

SEALED = "Sealed"  # the tag holding an unfinished game's Setup and actions, out of sight
_SEAL_FORMAT = "1"
_TAG = re.compile(r'\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]')
_OUT_OF_RULES = tuple(OUT_OF_RULES)  # resignation, time, forfeit


def result_text(outcome: Outcome | None) -> str:
    if outcome is None:
        return "*"
    if outcome.winner is None:
        return "1/2-1/2"
    return "1-0" if outcome.winner == 0 else "0-1"


def outcome_tags(outcome: Outcome | None) -> dict[str, str]:
    """``Result``, ``Reason``, ``Scores`` and, for games ended outside the rules,
    ``Termination``/``Loser``/``Detail`` (what :meth:`GameRecord.replay` needs)."""
    tags = {"Result": result_text(outcome)}
    if outcome is not None:
        tags["Reason"] = outcome.reason
        if outcome.scores is not None:
            tags["Scores"] = f"{outcome.scores[0]}-{outcome.scores[1]}"
        if outcome.reason in _OUT_OF_RULES and outcome.winner is not None:
            tags["Termination"] = outcome.reason
            tags["Loser"] = str(1 - outcome.winner)
            if outcome.detail:
                tags["Detail"] = outcome.detail
    return tags


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


@dataclass
class GameRecord:
    """A game: its tags (ordered) and its actions as text."""

    tags: dict[str, str] = field(default_factory=dict)
    actions: list[str] = field(default_factory=list)

    # --- building -------------------------------------------------------------------
    @classmethod
    def from_state(
        cls,
        initial: State,
        final: State,
        *,
        players: tuple[str, str] = ("", ""),
        extra: Mapping[str, str] | None = None,
    ) -> GameRecord:
        """Record ``final``'s history starting from ``initial`` (a copy of the start)."""
        tags: dict[str, str] = {
            "Game": final.game,
            "Ruleset": final.ruleset,
            "Player0": players[0],
            "Player1": players[1],
        }
        tags.update(outcome_tags(final.outcome()))
        tags.update(extra or {})
        tags["Setup"] = initial.to_notation()
        probe = initial.clone()
        actions: list[str] = []
        for action in final.history:
            actions.append(probe.action_to_text(action))
            probe.apply(action)
        return cls(tags, actions)

    # --- sealing --------------------------------------------------------------------
    def sealed(self) -> GameRecord:
        """This record with ``Setup`` and the actions in a ``Sealed`` tag, where no hidden
        card can be read; the other tags (players, options, result) stay as they are."""
        if SEALED in self.tags:
            return GameRecord(dict(self.tags), list(self.actions))
        inner = json.dumps({"setup": self.tags["Setup"], "actions": self.actions}, separators=(",", ":"))
        seal = base64.b64encode(zlib.compress(inner.encode("utf-8"), 9)).decode("ascii")
        tags = {k: v for k, v in self.tags.items() if k != "Setup"}
        tags[SEALED] = f"{_SEAL_FORMAT}:{seal}"
        return GameRecord(tags, [])

    def opened(self) -> GameRecord:
        """This record with a ``Sealed`` tag opened (itself when there is none): what reading
        the record's file gives, for a sealed record still in memory."""
        if SEALED not in self.tags or "Setup" in self.tags:
            return self
        return GameRecord(*self._opened(dict(self.tags), list(self.actions)))

    @staticmethod
    def _opened(tags: dict[str, str], actions: list[str]) -> tuple[dict[str, str], list[str]]:
        """``tags`` and ``actions`` with a ``Sealed`` tag opened into ``Setup`` and the actions."""
        if SEALED not in tags or "Setup" in tags:
            return tags, actions
        if actions:
            raise NotationError("a sealed record has its actions in the seal, not after the tags")
        version, _, seal = tags[SEALED].partition(":")
        if version != _SEAL_FORMAT:
            raise NotationError(f"the record is sealed in format {version!r}, which this frontlines does not read "
                                f"(format {_SEAL_FORMAT}); a newer frontlines wrote it")
        try:
            inner = json.loads(zlib.decompress(base64.b64decode(seal, validate=True)).decode("utf-8"))
        except (binascii.Error, zlib.error, UnicodeDecodeError, ValueError) as exc:
            raise NotationError(f"the record's Sealed block is damaged ({exc})") from exc
        setup, opened = (inner.get("setup"), inner.get("actions")) if isinstance(inner, dict) else (None, None)
        if not isinstance(setup, str) or not isinstance(opened, list) or not all(isinstance(a, str) for a in opened):
            raise NotationError("the record's Sealed block is damaged (no setup and actions in it)")
        rest = {k: v for k, v in tags.items() if k != SEALED}
        rest["Setup"] = setup
        return rest, list(opened)

    # --- text -----------------------------------------------------------------------
    def to_text(self) -> str:
        lines = [f'[{k} "{_escape(v)}"]' for k, v in self.tags.items()]
        body: list[str] = []
        line = ""
        for action in self.actions:
            if line and len(line) + 1 + len(action) > 78:
                body.append(line)
                line = action
            else:
                line = f"{line} {action}" if line else action
        if line:
            body.append(line)
        if SEALED in self.tags and not self.actions:
            body.append("{ The deal and the moves are sealed until the game is over: hidden cards stay out of sight. }")
        body.append(self.tags.get("Result", "*"))
        return "\n".join(lines) + "\n\n" + "\n".join(body) + "\n"

    @classmethod
    def parse(cls, text: str) -> GameRecord:
        tags: dict[str, str] = {}
        rest_lines: list[str] = []
        in_header = True
        for number, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if in_header and line.startswith("["):
                m = _TAG.fullmatch(line)
                if m is None:
                    raise NotationError(f"record line {number}: malformed tag {line[:60]!r}")
                tags[m.group(1)] = _unescape(m.group(2))
                continue
            in_header = False
            rest_lines.append(line)
        body = re.sub(r"\{[^}]*\}", " ", "\n".join(rest_lines))
        if "{" in body or "}" in body:
            raise NotationError("record: unbalanced comment braces")
        tokens = body.split()
        if tokens and tokens[-1] in ("1-0", "0-1", "1/2-1/2", "*"):
            tokens.pop()
        tags, tokens = cls._opened(tags, tokens)
        if "Setup" not in tags:
            raise NotationError("record has no Setup tag")
        return cls(tags, tokens)

    # --- JSON -----------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {"tags": dict(self.tags), "actions": list(self.actions)}

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        if not isinstance(data, dict):
            raise NotationError("a JSON record must be an object")
        tags, actions = data.get("tags"), data.get("actions")
        if not isinstance(tags, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in tags.items()):
            raise NotationError("a JSON record needs 'tags': an object of strings")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise NotationError("a JSON record needs 'actions': a list of strings")
        tags, actions = cls._opened(dict(tags), list(actions))
        if "Setup" not in tags:
            raise NotationError("record has no Setup tag")
        return cls(tags, actions)

    # --- replay ---------------------------------------------------------------------
    # Replaying needs the game that reads the Setup notation. The core knows no games, so
    # the caller hands in the reader: ``frontlines.games.parse_state`` in practice.
    def initial_state(self, parse_state: Callable[[str], State]) -> State:
        return parse_state(self.opened().tags["Setup"])

    def _played(self, parse_state: Callable[[str], State]) -> Iterator[State]:
        """One state: the position before any action, then the same state after each action."""
        state = self.initial_state(parse_state)
        yield state
        for index, text in enumerate(self.opened().actions, 1):
            try:
                state.apply(state.parse_action(text))
            except FrontlinesError as exc:
                raise NotationError(f"record action {index} ({text!r}): {exc}") from exc
            yield state

    def states(self, parse_state: Callable[[str], State]) -> Iterator[State]:
        """The position before any action, then after each action (clones)."""
        return (state.clone() for state in self._played(parse_state))

    def positions(self, parse_state: Callable[[str], State], *, ending_step: bool = False) -> list[State]:
        """Every position of the game (:meth:`states`), for replay viewers. A game that ended
        outside the rules (the tags say so) ends so in the last position, or with
        ``ending_step`` in one more position after it (the resignation as a step of its own)."""
        states = list(self.states(parse_state))
        if ending_step and self.ends_outside_rules(states[-1]):
            states.append(states[-1].clone())
        self.terminate(states[-1])  # the states are clones: ending the last changes no other
        return states

    def replay(self, parse_state: Callable[[str], State]) -> State:
        """The final state, with an out-of-rules termination applied if the tags say so."""
        for final in self._played(parse_state):  # noqa: B007 - the last state is the one we want
            pass
        self.terminate(final)
        return final

    def ends_outside_rules(self, state: State) -> bool:
        """Whether the tags end ``state`` (the final position of the actions) outside the
        rules: a resignation, time or forfeit that :meth:`terminate` applies."""
        return self.tags.get("Termination") in _OUT_OF_RULES and not state.is_terminal()

    def terminate(self, state: State) -> None:
        """End ``state`` as the tags say when the game ended outside the rules (else nothing)."""
        if self.ends_outside_rules(state):
            loser = self.tags.get("Loser")
            if loser not in ("0", "1"):
                raise NotationError("Termination tag needs Loser 0 or 1")
            state.resign(int(loser), self.tags["Termination"], self.tags.get("Detail", ""))


def dump_jsonl(records: Iterable[GameRecord]) -> str:
    """Many records as JSON lines (one object per line), the bulk format."""
    return "".join(json.dumps(r.to_json(), ensure_ascii=False) + "\n" for r in records)


def load_records(text: str) -> list[GameRecord]:
    """The records of a file in any of the forms: one record as text, one JSON object
    (pretty-printed or not), or JSON lines (many)."""
    stripped = text.lstrip()
    if not stripped.startswith("{"):
        return [GameRecord.parse(text)]
    if "\n{" in stripped.rstrip():
        return load_jsonl(text)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise NotationError(f"JSON: {exc}") from exc
    return [GameRecord.from_json(data)]


def load_jsonl(text: str) -> list[GameRecord]:
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                data = json.loads(line)
            except json.JSONDecodeError as exc:
                raise NotationError(f"JSON line {number}: {exc}") from exc
            out.append(GameRecord.from_json(data))
    return out
